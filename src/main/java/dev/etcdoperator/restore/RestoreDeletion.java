package dev.etcdoperator.restore;

import jakarta.enterprise.context.ApplicationScoped;

import dev.etcdoperator.support.DeletedResourceListener;

/** A deleted EtcdRestore's metrics are removed. */
@ApplicationScoped
public class RestoreDeletion implements DeletedResourceListener {
    private final RestoreMetrics metrics;

    public RestoreDeletion(RestoreMetrics metrics) {
        this.metrics = metrics;
    }

    @Override
    public String controllerName() {
        return EtcdRestoreReconciler.NAME;
    }

    @Override
    public void deleted(String namespace, String name) {
        metrics.forget(namespace, name);
    }
}
