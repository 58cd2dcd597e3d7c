package dev.etcdoperator.restore;

import static org.assertj.core.api.Assertions.assertThat;

import dev.etcdoperator.api.v1beta2.EtcdCluster;
import dev.etcdoperator.api.v1beta2.EtcdRestore;
import dev.etcdoperator.core.restore.SeedStaging;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.Test;

@EnableKubernetesMockClient(crud = true)
class SeedStagerTest {
    private static final String NS = "prod";
    private static final String SECRET = "r1-snapshot";
    KubernetesClient client;

    private static EtcdRestore restore(String uid) {
        return Serialization.unmarshal("""
                apiVersion: etcd.database.coreos.com/v1beta2
                kind: EtcdRestore
                metadata: {name: r1, namespace: prod, uid: %s, generation: 1}
                spec:
                  etcdCluster: {name: demo}
                  backupStorageType: S3
                  s3: {path: bucket/b1.db, awsSecret: aws}
                """.formatted(uid), EtcdRestore.class);
    }

    private static EtcdCluster cluster(String uid) {
        return Serialization.unmarshal("""
                apiVersion: etcd.database.coreos.com/v1beta2
                kind: EtcdCluster
                metadata: {name: demo, namespace: prod, uid: %s}
                spec: {size: 1, version: 3.6.16}
                """.formatted(uid), EtcdCluster.class);
    }

    private String staged(SeedStager stager, EtcdRestore restore) {
        String member = SeedStager.memberName(restore, "demo");
        assertThat(stager.create(restore, cluster("uid-template"), member, SECRET, "for-1")).isTrue();
        return member;
    }

    private Pod pod(String name) {
        return client.pods().inNamespace(NS).withName(name).get();
    }

    @Test
    void theStagedPodIsNamedOncePerRestoreAndReusedOnlyWhenStartedForTheSame() {
        SeedStager stager = new SeedStager(client);
        EtcdRestore restore = restore("uid-r1");
        String member = staged(stager, restore);
        assertThat(SeedStager.memberName(restore, "demo")).isEqualTo(member).matches("demo-[a-z0-9]{10}");
        assertThat(SeedStager.memberName(restore("uid-r2"), "demo")).isNotEqualTo(member);
        assertThat(pod(member).getMetadata().getLabels()).isNullOrEmpty();
        assertThat(stager.stagedFor(restore, member)).isEqualTo("for-1");

        // an operator restart staging again: the same pod, if it was started for the same
        assertThat(stager.create(restore, cluster("uid-template"), member, SECRET, "for-1")).isTrue();
        assertThat(stager.create(restore, cluster("uid-template"), member, SECRET, "for-2")).isFalse();
        // another restore's pod of that name is never taken
        assertThat(stager.create(restore("uid-r2"), cluster("uid-template"), member, SECRET, "for-1")).isFalse();
        assertThat(stager.stagedFor(restore("uid-r2"), member)).isNull();
    }

    @Test
    void adoptionMakesThePodTheClustersSeedAndDropsTheStagingMark() {
        SeedStager stager = new SeedStager(client);
        EtcdRestore restore = restore("uid-r1");
        String member = staged(stager, restore);
        EtcdCluster created = cluster("uid-created");
        // what another component wrote on the pod meanwhile stays
        client.pods().inNamespace(NS).withName(member).edit(p -> new PodBuilder(p).editMetadata()
                .addToAnnotations("k8s.v1.cni.cncf.io/network-status", "[]").endMetadata().build());

        assertThat(stager.adoptable(restore, created, member, SECRET)).isInstanceOf(SeedStaging.Adopt.class);
        assertThat(stager.adopt(restore, created, member, SECRET)).isTrue();

        Pod adopted = pod(member);
        assertThat(adopted.getMetadata().getLabels()).containsEntry("etcd_cluster", "demo")
                .containsEntry("etcd_node", member);
        assertThat(adopted.getMetadata().getOwnerReferences()).singleElement()
                .satisfies(o -> assertThat(o.getUid()).isEqualTo("uid-created"));
        assertThat(adopted.getMetadata().getAnnotations()).doesNotContainKey(SeedStager.STAGED_FOR)
                .containsEntry("k8s.v1.cni.cncf.io/network-status", "[]")
                .containsKey("etcd.database.coreos.com/placement");
        assertThat(stager.see(restore, member).adopted()).isTrue();
        assertThat(stager.adopt(restore, created, member, SECRET)).as("no longer the restore's").isFalse();
        assertThat(stager.delete(restore, member)).isTrue();
        assertThat(pod(member)).as("the cluster's seed is never deleted by the restore").isNotNull();
    }

    @Test
    void aStagedPodThatFailedIsNeitherAdoptedNorLeftBehind() {
        SeedStager stager = new SeedStager(client);
        EtcdRestore restore = restore("uid-r1");
        String member = staged(stager, restore);
        Pod failed = new PodBuilder(pod(member)).editOrNewStatus().withPhase("Failed")
                .withInitContainerStatuses(new ContainerStatusBuilder().withName("restore-snapshot").withNewState()
                        .withNewTerminated().withExitCode(1).endTerminated().endState().build())
                .endStatus().build();
        client.pods().inNamespace(NS).resource(failed).updateStatus();

        assertThat(stager.adoptable(restore, cluster("uid-created"), member, SECRET))
                .isInstanceOfSatisfying(SeedStaging.Discard.class, d -> {
                    assertThat(d.delete()).isTrue();
                    assertThat(d.why()).contains("restore-snapshot");
                });
        assertThat(stager.adopt(restore, cluster("uid-created"), member, SECRET)).isFalse();
        assertThat(pod(member).getMetadata().getLabels()).isNullOrEmpty();
        assertThat(stager.delete(restore, member)).isTrue();
        assertThat(pod(member)).isNull();
    }

    @Test
    void aPodStartedWithOtherAnnotationsThanTheClustersSeedIsNotAdopted() {
        SeedStager stager = new SeedStager(client);
        EtcdRestore restore = restore("uid-r1");
        String member = staged(stager, restore);
        EtcdCluster moved = Serialization.unmarshal("""
                apiVersion: etcd.database.coreos.com/v1beta2
                kind: EtcdCluster
                metadata: {name: demo, namespace: prod, uid: uid-created}
                spec: {size: 1, version: 3.6.16, pod: {nodeSelector: {disk: ssd}}}
                """, EtcdCluster.class);
        assertThat(stager.adoptable(restore, moved, member, SECRET))
                .isInstanceOfSatisfying(SeedStaging.Discard.class,
                        d -> assertThat(d.why()).contains("etcd.database.coreos.com/placement"));
        assertThat(stager.adopt(restore, moved, member, SECRET)).isFalse();
        assertThat(pod(member).getMetadata().getOwnerReferences()).extracting(o -> o.getKind())
                .containsExactly("EtcdRestore");
    }

    @Test
    void aStagedPodHoldsTheVerifiedBackupOnceItsDownloadEndedWithZero() {
        SeedStager stager = new SeedStager(client);
        EtcdRestore restore = restore("uid-r1");
        String member = staged(stager, restore);
        assertThat(stager.holdsVerifiedBackup(restore, member)).isFalse();
        fetchState(member, new ContainerStatusBuilder().withName("fetch-snapshot").withNewState().withNewRunning()
                .endRunning().endState().build());
        assertThat(stager.holdsVerifiedBackup(restore, member)).isFalse();
        fetchState(member, new ContainerStatusBuilder().withName("fetch-snapshot").withNewState().withNewTerminated()
                .withExitCode(3).endTerminated().endState().build());
        assertThat(stager.holdsVerifiedBackup(restore, member)).isFalse();
        fetchState(member, new ContainerStatusBuilder().withName("fetch-snapshot").withNewState().withNewTerminated()
                .withExitCode(0).endTerminated().endState().build());
        assertThat(stager.holdsVerifiedBackup(restore, member)).isTrue();
        assertThat(stager.holdsVerifiedBackup(restore("uid-r2"), member)).as("another restore's").isFalse();
    }

    private void fetchState(String member, io.fabric8.kubernetes.api.model.ContainerStatus status) {
        client.pods().inNamespace(NS).withName(member).edit(p -> new PodBuilder(p).editOrNewStatus()
                .withPhase("Pending").withInitContainerStatuses(status).endStatus().build());
    }
}
