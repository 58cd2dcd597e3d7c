package dev.etcdoperator.backup;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import dev.etcdoperator.api.v1beta2.EtcdBackup;
import dev.etcdoperator.cluster.ClusterResources;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.Test;

/** The drill's pod and Secret as the API gets them, and how a failed pod is read. */
class DrillPodTest {
    static final EtcdBackup BACKUP = Serialization.unmarshal("""
            apiVersion: etcd.database.coreos.com/v1beta2
            kind: EtcdBackup
            metadata: {name: nightly, namespace: prod, uid: uid-1}
            spec: {etcdCluster: {name: example}, storageType: S3, s3: {path: b/k}, restoreDrill: {}}
            """, EtcdBackup.class);

    @Test
    void thePodIsOwnedByTheBackupAndCarriesNoneOfAMembersLabels() {
        Pod pod = DrillPod.pod(BACKUP, "nightly-drill-snapshot", "3.5.35", "quay.io/coreos/etcd:v3.5.35", "busybox:1.36");
        assertThat(pod.getMetadata().getGenerateName()).isEqualTo("nightly-drill-");
        assertThat(pod.getMetadata().getLabels()).containsEntry(DrillPod.LABEL, "uid-1")
                .doesNotContainKeys(ClusterResources.LABEL_APP, ClusterResources.LABEL_CLUSTER, ClusterResources.LABEL_NODE);
        assertThat(pod.getMetadata().getOwnerReferences()).singleElement().satisfies(o -> {
            assertThat(o.getKind()).isEqualTo("EtcdBackup");
            assertThat(o.getUid()).isEqualTo("uid-1");
            assertThat(o.getController()).isTrue();
        });
        assertThat(pod.getSpec().getRestartPolicy()).isEqualTo("Never");
        assertThat(pod.getSpec().getInitContainers()).extracting(Container::getName)
                .containsExactly(DrillPod.FETCH, DrillPod.RESTORE);
    }

    @Test
    void thePodPassesTheRestrictedPodSecurityStandardUnderItsClustersPolicy() {
        Pod pod = DrillPod.pod(BACKUP, "s", "3.5.35", "e", "b");
        assertThat(pod.getSpec().getSecurityContext().getRunAsNonRoot()).isTrue();
        assertThat(pod.getSpec().getSecurityContext().getSeccompProfile().getType()).isEqualTo("RuntimeDefault");
        java.util.List<Container> all = new java.util.ArrayList<>(pod.getSpec().getInitContainers());
        all.addAll(pod.getSpec().getContainers());
        assertThat(all).allSatisfy(c -> {
            assertThat(c.getSecurityContext().getAllowPrivilegeEscalation()).isFalse();
            assertThat(c.getSecurityContext().getCapabilities().getDrop()).containsExactly("ALL");
        });
        dev.etcdoperator.api.v1beta2.PodPolicy policy = new dev.etcdoperator.api.v1beta2.PodPolicy();
        policy.setSecurityContext(new io.fabric8.kubernetes.api.model.PodSecurityContextBuilder().withRunAsUser(1000700000L)
                .withRunAsNonRoot(true).build());
        assertThat(DrillPod.pod(BACKUP, "s", "3.5.35", "e", "b", policy).getSpec().getSecurityContext().getRunAsUser())
                .isEqualTo(1000700000L);
    }

    @Test
    void theSnapshotIsFetchedAsASeedMemberFetchesItAndRestoredWithTheToolOfItsVersion() {
        Pod pod = DrillPod.pod(BACKUP, "s", "3.6.5", "quay.io/coreos/etcd:v3.6.5", "busybox:1.36");
        Container fetch = pod.getSpec().getInitContainers().get(0);
        assertThat(fetch.getImage()).isEqualTo("busybox:1.36");
        assertThat(fetch.getCommand().get(2)).contains("sha256sum", "If-Match");
        assertThat(fetch.getEnv()).allSatisfy(e -> assertThat(e.getValueFrom().getSecretKeyRef().getName()).isEqualTo("s"));
        Container restore = pod.getSpec().getInitContainers().get(1);
        assertThat(restore.getCommand()).startsWith("/usr/local/bin/etcdutl", "snapshot", "restore")
                .contains("--initial-cluster=drill=http://$(POD_IP):2380");
        assertThat(DrillPod.pod(BACKUP, "s", "3.5.35", "e", "b").getSpec().getInitContainers().get(1).getCommand())
                .startsWith("/usr/local/bin/etcdctl");
        Container etcd = pod.getSpec().getContainers().get(0);
        assertThat(etcd.getImage()).isEqualTo("quay.io/coreos/etcd:v3.6.5");
        assertThat(etcd.getCommand()).contains("--advertise-client-urls=http://$(POD_IP):2379",
                "--initial-advertise-peer-urls=http://$(POD_IP):2380");
        assertThat(etcd.getEnv()).anySatisfy(e -> assertThat(e.getValueFrom().getFieldRef().getFieldPath())
                .isEqualTo("status.podIP"));
    }

    @Test
    void theSecretHasOneNamePerBackupSoALeftoverIsFoundWithoutListingSecrets() {
        Secret secret = DrillPod.secret(BACKUP, "http://s3/b/k?sig", "ab", null);
        assertThat(secret.getMetadata().getName()).matches("nightly-drill-snapshot-[0-9a-f]{8}")
                .isEqualTo(DrillPod.secretName(BACKUP));
        EtcdBackup sameStart = Serialization.clone(BACKUP);
        sameStart.getMetadata().setUid("uid-2");
        assertThat(DrillPod.secretName(sameStart)).as("another backup of a name cut alike").isNotEqualTo(
                DrillPod.secretName(BACKUP));
        assertThat(secret.getMetadata().getGenerateName()).isNull();
        assertThat(secret.getStringData()).containsOnlyKeys("url", "sha256");
        assertThat(DrillPod.secret(BACKUP, "u", "ab", "\"e\"").getStringData()).containsEntry("etag", "\"e\"");
    }

    @Test
    void longOrDottedBackupNamesGiveAValidPrefix() {
        assertThat(DrillPod.prefix("a".repeat(39) + "-b" + "c".repeat(100))).isEqualTo("a".repeat(39) + "-drill-");
        assertThat(DrillPod.prefix("backup.v1")).isEqualTo("backup-v1-drill-");
    }

    @Test
    void aFailedStepIsNamedAndARunningPodIsNoFailure() {
        Pod fetchFailed = new PodBuilder().withNewStatus().withPhase("Failed").withInitContainerStatuses(
                new ContainerStatusBuilder().withName(DrillPod.FETCH).withNewState().withNewTerminated()
                        .withExitCode(1).withMessage("the snapshot's SHA-256 is x").endTerminated().endState().build())
                .endStatus().build();
        assertThat(RestoreDrillRunner.failure(fetchFailed)).hasValueSatisfying(m -> assertThat(m)
                .contains("could not download it whole", "fetch-snapshot", "exited with 1", "SHA-256 is x"));
        Pod restoreFailed = new PodBuilder().withNewStatus().withInitContainerStatuses(
                new ContainerStatusBuilder().withName(DrillPod.FETCH).withNewState().withNewTerminated().withExitCode(0)
                        .endTerminated().endState().build(),
                new ContainerStatusBuilder().withName(DrillPod.RESTORE).withNewState().withNewTerminated()
                        .withExitCode(2).endTerminated().endState().build())
                .endStatus().build();
        assertThat(RestoreDrillRunner.failure(restoreFailed)).hasValueSatisfying(m -> assertThat(m)
                .contains("snapshot restore refused it"));
        Pod running = new PodBuilder().withNewStatus().withPhase("Running").withPodIP("10.0.0.5")
                .withContainerStatuses(List.of(new ContainerStatusBuilder().withName(DrillPod.ETCD).withNewState()
                        .withNewRunning().endRunning().endState().build()))
                .endStatus().build();
        assertThat(RestoreDrillRunner.failure(running)).isEmpty();
    }
}
