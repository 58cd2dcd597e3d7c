package dev.etcdoperator.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Optional;

import dev.etcdoperator.api.v1beta2.EtcdCluster;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.Test;

class StagedSeedPodsTest {
    private static final OwnerReference RESTORE = new OwnerReferenceBuilder()
            .withApiVersion("etcd.database.coreos.com/v1beta2").withKind("EtcdRestore").withName("r1")
            .withUid("uid-restore").withController(true).build();

    private static EtcdCluster cluster(String uid) {
        return Serialization.unmarshal("""
                apiVersion: etcd.database.coreos.com/v1beta2
                kind: EtcdCluster
                metadata: {name: demo, namespace: prod, uid: %s}
                spec:
                  size: 3
                  version: 3.6.16
                  pod:
                    labels: {team: storage}
                    annotations: {note: kept}
                """.formatted(uid), EtcdCluster.class);
    }

    /** Built without a client: a cluster without TLS reads no Secret. */
    private static Pod staged() {
        return StagedSeedPods.build(cluster("uid-restore"), "demo-staged0001", "r1-snapshot", RESTORE, null)
                .orElseThrow();
    }

    @Test
    void aStagedSeedIsTheClustersSeedPodWithoutLabelsOwnedByTheRestore() {
        Pod pod = staged();
        Pod seed = ClusterResources.memberPod(cluster("uid-restore"), new ClusterResources.MemberPodSpec(
                "demo-staged0001", "http://demo-staged0001.demo.prod.svc:2380",
                "http://demo-staged0001.demo.prod.svc:2379",
                "demo-staged0001=http://demo-staged0001.demo.prod.svc:2380", "new",
                "demo-staged0001.demo.prod.svc"), "3.6.16", Optional.of("r1-snapshot"));
        assertThat(pod.getMetadata().getLabels()).as("no Service selects it, no cluster sees it").isNullOrEmpty();
        assertThat(pod.getMetadata().getOwnerReferences()).containsExactly(RESTORE);
        assertThat(pod.getMetadata().getAnnotations()).isEqualTo(seed.getMetadata().getAnnotations());
        assertThat(pod.getSpec().getInitContainers()).extracting(Container::getName)
                .as("etcd needs no DNS name of its own to open restored data as a cluster of one")
                .containsExactly("fetch-snapshot", "restore-snapshot", "place-restored-data");
        assertThat(pod.getSpec().getContainers()).isEqualTo(seed.getSpec().getContainers());
        assertThat(pod.getSpec().getRestartPolicy()).isEqualTo("Never");
        assertThat(pod.getSpec().getHostname()).isEqualTo("demo-staged0001");
        assertThat(pod.getSpec().getSubdomain()).isEqualTo("demo");
    }

    @Test
    void adoptionGivesThePodTheLabelsAnnotationsAndOwnerOfTheClustersOwnSeed() {
        ObjectMeta adopted = StagedSeedPods.adoptedMetadata(cluster("uid-cluster"), "demo-staged0001", "r1-snapshot",
                null).orElseThrow();
        assertThat(adopted.getLabels()).containsEntry("app", "etcd").containsEntry("etcd_cluster", "demo")
                .containsEntry("etcd_node", "demo-staged0001").containsEntry("team", "storage");
        assertThat(adopted.getOwnerReferences()).singleElement().satisfies(o -> {
            assertThat(o.getKind()).isEqualTo("EtcdCluster");
            assertThat(o.getUid()).isEqualTo("uid-cluster");
            assertThat(o.getController()).isTrue();
        });
        assertThat(adopted.getAnnotations()).as("what the staged pod was made with")
                .isEqualTo(staged().getMetadata().getAnnotations());
    }
}
