package dev.etcdoperator.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Proxy;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import dev.etcdoperator.core.cluster.ClusterHealth;
import dev.etcdoperator.etcd.EtcdAdmin;
import dev.etcdoperator.metrics.ClusterMetrics;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

class ClusterDeletionTest {
    private final AtomicInteger closed = new AtomicInteger();
    private final EtcdAdmins admins = new EtcdAdmins((endpoints, tls) -> (EtcdAdmin) Proxy.newProxyInstance(
            getClass().getClassLoader(), new Class<?>[] { EtcdAdmin.class }, (proxy, method, args) -> {
                if (method.getName().equals("close")) {
                    closed.incrementAndGet();
                }
                return null;
            }));
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final ClusterMetrics metrics = new ClusterMetrics(registry);

    @Test
    void aDeletedClusterLosesItsConnectionAndItsMeters() {
        admins.forCluster(ClusterObserver.key("prod", "alpha"), List.of("http://127.0.0.2:2379"));
        metrics.observed("prod", "alpha", new ClusterHealth(3, 0, 0, 3, 3, true, true));
        assertThat(registry.find(ClusterMetrics.QUORUM).tag("etcd_cluster", "alpha").gauge()).isNotNull();

        ClusterDeletion deletion = new ClusterDeletion(admins, metrics);
        assertThat(deletion.controllerName()).isEqualTo(EtcdClusterReconciler.NAME);
        deletion.deleted("prod", "alpha");

        assertThat(closed).hasValue(1);
        assertThat(registry.getMeters()).isEmpty();
    }
}
