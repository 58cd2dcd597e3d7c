package dev.etcdoperator.restore;

import jakarta.enterprise.context.ApplicationScoped;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;

/** {@code etcd_operator_restores_total{namespace,restore,cluster,result}}: restores finished, by outcome. */
@ApplicationScoped
public class RestoreMetrics {
    static final String RESTORES = "etcd_operator_restores";

    private final MeterRegistry registry;

    public RestoreMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    void finished(String namespace, String restore, String cluster, boolean succeeded) {
        registry.counter(RESTORES, Tags.of("namespace", namespace, "restore", restore, "cluster", cluster,
                "result", succeeded ? "success" : "failure")).increment();
    }
}
