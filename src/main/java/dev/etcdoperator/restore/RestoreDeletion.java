package dev.etcdoperator.restore;

import jakarta.enterprise.context.ApplicationScoped;

import dev.etcdoperator.support.DeletedResourceListener;
import dev.etcdoperator.support.WorkerPool;

/** A deleted EtcdRestore's metrics are removed, and a preflight of it still waiting for a worker never runs. */
@ApplicationScoped
public class RestoreDeletion implements DeletedResourceListener {
    private final RestoreMetrics metrics;
    private final WorkerPool workers;

    public RestoreDeletion(RestoreMetrics metrics, WorkerPool workers) {
        this.metrics = metrics;
        this.workers = workers;
    }

    @Override
    public String controllerName() {
        return EtcdRestoreReconciler.NAME;
    }

    @Override
    public void deleted(String namespace, String name) {
        metrics.forget(namespace, name);
        workers.forget(EtcdRestoreReconciler.jobKey(namespace, name));
    }
}
