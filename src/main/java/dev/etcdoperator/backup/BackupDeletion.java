package dev.etcdoperator.backup;

import jakarta.enterprise.context.ApplicationScoped;

import dev.etcdoperator.support.DeletedResourceListener;

/** A deleted EtcdBackup's metrics are removed. */
@ApplicationScoped
public class BackupDeletion implements DeletedResourceListener {
    private final BackupMetrics metrics;

    public BackupDeletion(BackupMetrics metrics) {
        this.metrics = metrics;
    }

    @Override
    public String controllerName() {
        return EtcdBackupReconciler.NAME;
    }

    @Override
    public void deleted(String namespace, String name) {
        metrics.forget(namespace, name);
    }
}
