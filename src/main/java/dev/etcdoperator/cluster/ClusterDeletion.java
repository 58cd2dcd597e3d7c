package dev.etcdoperator.cluster;

import jakarta.enterprise.context.ApplicationScoped;

import dev.etcdoperator.metrics.ClusterMetrics;
import dev.etcdoperator.support.DeletedResourceListener;

/** A deleted cluster's etcd connection is closed and its metrics are removed. */
@ApplicationScoped
public class ClusterDeletion implements DeletedResourceListener {
    private final EtcdAdmins admins;
    private final ClusterMetrics metrics;

    public ClusterDeletion(EtcdAdmins admins, ClusterMetrics metrics) {
        this.admins = admins;
        this.metrics = metrics;
    }

    @Override
    public String controllerName() {
        return EtcdClusterReconciler.NAME;
    }

    @Override
    public void deleted(String namespace, String name) {
        admins.forget(ClusterObserver.key(namespace, name));
        metrics.forget(namespace, name);
    }
}
