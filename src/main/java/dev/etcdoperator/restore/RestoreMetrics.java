package dev.etcdoperator.restore;

import jakarta.enterprise.context.ApplicationScoped;

import dev.etcdoperator.metrics.MetricNames;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

/** {@code etcd_operator_restores_total{namespace,restore,cluster,result}}: restores finished, by outcome. */
@ApplicationScoped
public class RestoreMetrics {
    static final String RESTORES = MetricNames.name("restores");

    private final MeterRegistry registry;

    public RestoreMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    void finished(String namespace, String restore, String cluster, boolean succeeded) {
        Counter.builder(RESTORES).description("Restores ended, by result.").tags(MetricNames.tags(namespace, "restore",
                restore).and(MetricNames.CLUSTER, cluster).and("result", succeeded ? "success" : "failure"))
                .register(registry).increment();
    }

    void forget(String namespace, String restore) {
        MetricNames.removeAll(registry, RESTORES, namespace, "restore", restore);
    }
}
