package dev.etcdoperator.backup;

import jakarta.enterprise.context.ApplicationScoped;

import dev.etcdoperator.support.DeletedResourceListener;
import dev.etcdoperator.support.WorkerPool;

/** A deleted EtcdBackup's metrics are removed, and a backup of it still waiting for a worker never runs. */
@ApplicationScoped
public class BackupDeletion implements DeletedResourceListener {
    private final BackupMetrics metrics;
    private final WorkerPool workers;

    public BackupDeletion(BackupMetrics metrics, WorkerPool workers) {
        this.metrics = metrics;
        this.workers = workers;
    }

    @Override
    public String controllerName() {
        return EtcdBackupReconciler.NAME;
    }

    @Override
    public void deleted(String namespace, String name) {
        metrics.forget(namespace, name);
        workers.forget(EtcdBackupReconciler.jobKey(namespace, name));
        workers.forget(EtcdBackupReconciler.drillKey(namespace, name));
        workers.forget(EtcdBackupReconciler.deferredKey(namespace, name));
    }
}
