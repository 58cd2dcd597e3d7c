package dev.etcdoperator.cluster;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.etcdoperator.metrics.ClusterMetrics;
import dev.etcdoperator.support.DeletedResourceListener;

/**
 * A deleted cluster's etcd connection is closed, its metrics, what was done to free its space, when its children
 * were last checked and which member pods were made again are removed.
 */
@ApplicationScoped
public class ClusterDeletion implements DeletedResourceListener {
    private final EtcdAdmins admins;
    private final ClusterMetrics metrics;
    private final SpaceRecoveries space;
    private final ChildrenChecks children;
    private final MemberRestarts restarts;
    private final InPlaceRecreations recreations;

    @Inject
    public ClusterDeletion(EtcdAdmins admins, ClusterMetrics metrics, SpaceRecoveries space, ChildrenChecks children,
            MemberRestarts restarts, InPlaceRecreations recreations) {
        this.admins = admins;
        this.metrics = metrics;
        this.space = space;
        this.children = children;
        this.restarts = restarts;
        this.recreations = recreations;
    }

    public ClusterDeletion(EtcdAdmins admins, ClusterMetrics metrics) {
        this(admins, metrics, new SpaceRecoveries(), new ChildrenChecks(java.time.Clock.systemUTC()),
                new MemberRestarts(), new InPlaceRecreations());
    }

    @Override
    public String controllerName() {
        return EtcdClusterReconciler.NAME;
    }

    @Override
    public void deleted(String namespace, String name) {
        admins.forget(ClusterObserver.key(namespace, name));
        metrics.forget(namespace, name);
        space.forget(ClusterObserver.key(namespace, name));
        children.forget(ClusterObserver.key(namespace, name));
        restarts.forget(ClusterObserver.key(namespace, name));
        recreations.forget(ClusterObserver.key(namespace, name));
    }
}
