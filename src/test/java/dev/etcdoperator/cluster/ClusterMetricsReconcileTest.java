package dev.etcdoperator.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;

import jakarta.inject.Inject;

import dev.etcdoperator.api.v1beta2.EtcdCluster;
import dev.etcdoperator.metrics.ClusterMetrics;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import org.junit.jupiter.api.Test;

/** The cluster controller against the fabric8 mock API server: a cluster's gauges come and go with it. */
@QuarkusTest
@WithKubernetesTestServer
class ClusterMetricsReconcileTest {
    @Inject
    KubernetesClient client;

    @Inject
    MeterRegistry registry;

    @Test
    void aClusterHasGaugesWhileItExistsAndNoneOnceDeleted() {
        EtcdCluster cluster = client.resource(Serialization.unmarshal("""
                apiVersion: etcd.database.coreos.com/v1beta2
                kind: EtcdCluster
                metadata: {name: counted, namespace: default}
                spec: {size: 3, version: 3.5.17}
                """, EtcdCluster.class)).create();
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(registry.find(
                ClusterMetrics.DESIRED_MEMBERS).tags("namespace", "default", "etcd_cluster", "counted").gauge())
                .isNotNull().satisfies(g -> assertThat(g.value()).isEqualTo(3)));

        client.resource(cluster).delete();
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(registry.getMeters())
                .noneMatch(m -> "counted".equals(m.getId().getTag("etcd_cluster"))));
    }
}
