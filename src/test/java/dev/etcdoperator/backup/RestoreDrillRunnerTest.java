package dev.etcdoperator.backup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.InputStream;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import dev.etcdoperator.api.v1beta2.EtcdBackup;
import dev.etcdoperator.core.backup.BackupFailure;
import dev.etcdoperator.cluster.SnapshotFetch;
import dev.etcdoperator.core.backup.DrillVerdict;
import dev.etcdoperator.core.backup.S3Location;
import dev.etcdoperator.core.backup.StoredBackup;
import dev.etcdoperator.etcd.EtcdAdminException;
import dev.etcdoperator.storage.BackupStorage;
import dev.etcdoperator.storage.ObjectVersion;
import dev.etcdoperator.storage.Uploaded;
import dev.etcdoperator.storage.VerifiedBackup;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodStatusBuilder;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A drill against an API server without a kubelet and a store in memory: what is refused before any pod, how a
 * failed step and a pod that never serves end, and that no pod or Secret of the drill stays.
 */
@EnableKubernetesMockClient(crud = true)
class RestoreDrillRunnerTest {
    static final String NS = "prod";
    static final String SHA = "ab".repeat(32);

    KubernetesClient client;
    final FakeStore store = new FakeStore();
    RestoreDrillRunner runner;

    @BeforeEach
    void setUp() {
        client.resource(new SecretBuilder().withNewMetadata().withName("aws").withNamespace(NS).endMetadata()
                .addToStringData("credentials", "[default]\naws_access_key_id = k\naws_secret_access_key = s\n")
                .addToStringData("config", "[default]\nregion = us-east-1\n").build()).create();
        runner = new RestoreDrillRunner(client, settings -> store, (urls, tls) -> {
            throw new EtcdAdminException(EtcdAdminException.Kind.UNAVAILABLE, "no etcd here", null);
        }, Clock.systemUTC());
    }

    static EtcdBackup backup(long timeoutInSecond) {
        return Serialization.unmarshal("""
                apiVersion: etcd.database.coreos.com/v1beta2
                kind: EtcdBackup
                metadata: {name: nightly, namespace: prod, uid: uid-1}
                spec:
                  etcdEndpoints: [http://example-client:2379]
                  storageType: S3
                  restoreDrill: {timeoutInSecond: %d}
                  s3: {path: b/k, awsSecret: aws, endpoint: "http://s3.example:9000", forcePathStyle: true}
                status:
                  lastSuccessDate: "2026-11-30T00:00:00Z"
                  backupPath: b/k
                  backupSha256: %s
                  etcdRevision: 10
                  etcdVersion: 3.5.35
                """.formatted(timeoutInSecond, SHA), EtcdBackup.class);
    }

    List<Pod> drillPods() {
        return client.pods().inNamespace(NS).withLabel(DrillPod.LABEL, "uid-1").list().getItems();
    }

    void assertNothingLeft() {
        assertThat(drillPods()).isEmpty();
        assertThat(client.secrets().inNamespace(NS).withName(DrillPod.secretName(backup(60))).get()).isNull();
    }

    @Test
    void anObjectThatIsNotAUsableSnapshotFailsBeforeAnyPod() {
        store.verifyFails = new BackupFailure(BackupFailure.VERIFICATION_FAILED, "b/k is not a usable etcd snapshot",
                false);
        DrillVerdict.Outcome o = runner.drill(backup(60), "b/k");
        assertThat(o.reason()).isEqualTo(DrillVerdict.DIGEST_MISMATCH);
        assertThat(o.message()).contains("not a usable etcd snapshot");
        assertThat(store.presigned).isZero();
        assertNothingLeft();
    }

    @Test
    void anObjectWithAnotherChecksumThanTheBackupRecordedFails() {
        store.sha = "cd".repeat(32);
        DrillVerdict.Outcome o = runner.drill(backup(60), "b/k");
        assertThat(o.reason()).isEqualTo(DrillVerdict.DIGEST_MISMATCH);
        assertThat(o.message()).contains(store.sha, SHA);
        assertNothingLeft();
    }

    /** The version becomes the drill pod's image tag: one that is no supported semantic version makes no pod. */
    @Test
    void aRecordedVersionThatIsNoSupportedVersionMakesNoPod() {
        for (String version : List.of("3.5.0 ", "x@sha256:" + "0".repeat(64), "3.2.13", "3.5.0\nimage: evil", "")) {
            EtcdBackup backup = backup(60);
            backup.getStatus().setEtcdVersion(version);
            DrillVerdict.Outcome o = runner.drill(backup, "b/k");
            assertThat(o.reason()).as(version).isEqualTo(DrillVerdict.DRILL_FAILED);
            assertThat(o.message()).contains("no version a drill can run").doesNotContain("\n");
            assertNothingLeft();
        }
        assertThat(RestoreDrillRunner.drillable("3.5.35")).isTrue();
        assertThat(RestoreDrillRunner.drillable("v3.6.16")).isTrue();
    }

    /** No version recorded anywhere: the drill runs the named cluster's, and that version's restore tool. */
    @Test
    void aBackupWithoutARecordedVersionIsDrilledWithTheClustersVersionAndItsRestoreTool() {
        client.resource(Serialization.unmarshal("""
                apiVersion: etcd.database.coreos.com/v1beta2
                kind: EtcdCluster
                metadata: {name: example, namespace: prod}
                spec: {size: 3, version: 3.6.16}
                """, dev.etcdoperator.api.v1beta2.EtcdCluster.class)).create();
        store.version = null;
        EtcdBackup backup = backup(60);
        backup.getStatus().setEtcdVersion(null);
        backup.getSpec().setEtcdCluster(new dev.etcdoperator.api.v1beta2.EtcdClusterRef());
        backup.getSpec().getEtcdCluster().setName("example");
        CompletableFuture<DrillVerdict.Outcome> drill = CompletableFuture.supplyAsync(() -> runner.drill(backup, "b/k"));
        await().atMost(Duration.ofSeconds(10)).until(() -> drillPods().size() == 1);
        Pod pod = drillPods().get(0);
        assertThat(pod.getSpec().getContainers().get(0).getImage()).endsWith(":v3.6.16");
        assertThat(pod.getSpec().getInitContainers()).anySatisfy(c -> assertThat(c.getCommand())
                .contains("/usr/local/bin/etcdutl"));
        client.pods().inNamespace(NS).withName(pod.getMetadata().getName()).delete();
        drill.orTimeout(30, TimeUnit.SECONDS).exceptionally(t -> null).join();
    }

    @Test
    void aMissingObjectFailsTheRestore() {
        store.verifyFails = new BackupFailure(BackupFailure.S3_OBJECT_NOT_FOUND, "no such key", false);
        assertThat(runner.drill(backup(60), "b/k").reason()).isEqualTo(DrillVerdict.RESTORE_FAILED);
    }

    @Test
    void aPodWhoseFetchFailsEndsTheDrillWithTheStepAndLeavesNothing() {
        CompletableFuture<DrillVerdict.Outcome> drill = CompletableFuture.supplyAsync(() -> runner.drill(backup(60), "b/k"));
        await().atMost(Duration.ofSeconds(10)).until(() -> drillPods().size() == 1);
        Pod pod = drillPods().get(0);
        assertThat(client.secrets().inNamespace(NS).withName(DrillPod.secretName(backup(60))).get()).isNotNull();
        assertThat(Serialization.asJson(pod)).as("the URL is in the Secret, not in the pod").doesNotContain("signature");
        pod.setStatus(new PodStatusBuilder().withPhase("Failed").withInitContainerStatuses(new ContainerStatusBuilder()
                .withName(DrillPod.FETCH).withNewState().withNewTerminated().withExitCode(1).endTerminated()
                .endState().build()).build());
        client.pods().inNamespace(NS).resource(pod).updateStatus();

        DrillVerdict.Outcome o = drill.orTimeout(20, TimeUnit.SECONDS).join();
        assertThat(o.reason()).isEqualTo(DrillVerdict.RESTORE_FAILED);
        assertThat(o.message()).contains("fetch-snapshot");
        assertNothingLeft();
    }

    /** The object was read and checked whole before the pod: its failed download is no verdict on the backup. */
    @Test
    void aPodWhoseDownloadFailedEndsTheDrillAsInterruptedAndLeavesNothing() {
        CompletableFuture<DrillVerdict.Outcome> drill = CompletableFuture.supplyAsync(() -> runner.drill(backup(60), "b/k"));
        await().atMost(Duration.ofSeconds(10)).until(() -> drillPods().size() == 1);
        Pod pod = drillPods().get(0);
        pod.setStatus(new PodStatusBuilder().withPhase("Failed").withInitContainerStatuses(new ContainerStatusBuilder()
                .withName(DrillPod.FETCH).withNewState().withNewTerminated()
                .withExitCode(SnapshotFetch.DOWNLOAD_FAILED).endTerminated().endState().build()).build());
        client.pods().inNamespace(NS).resource(pod).updateStatus();

        DrillVerdict.Outcome o = drill.orTimeout(20, TimeUnit.SECONDS).join();
        assertThat(o.verified()).isFalse();
        assertThat(o.reason()).isEqualTo(DrillVerdict.INTERRUPTED);
        assertThat(o.message()).contains("could not download", "nothing was found wrong with the backup");
        assertNothingLeft();
    }

    @Test
    void aPodThatNeverServesEndsTheDrillAtItsTimeoutAndIsDeleted() {
        DrillVerdict.Outcome o = runner.drill(backup(1), "b/k");
        assertThat(o.reason()).isEqualTo(DrillVerdict.TIMEOUT);
        assertThat(o.message()).contains("1 s", "restoreDrill.timeoutInSecond");
        assertThat(store.presigned).isEqualTo(1);
        assertNothingLeft();
    }

    @Test
    void whatAStoppedOperatorLeftIsDeletedAndNothingElse() {
        EtcdBackup backup = backup(60);
        client.pods().inNamespace(NS).resource(DrillPod.pod(backup, "s", "3.5.35", "e", "b")).create();
        client.secrets().inNamespace(NS).resource(DrillPod.secret(backup, "u", SHA, null)).create();
        client.pods().inNamespace(NS).resource(new io.fabric8.kubernetes.api.model.PodBuilder().withNewMetadata()
                .withName("member").addToLabels("app", "etcd").endMetadata().build()).create();
        assertThat(drillPods()).hasSize(1);
        runner.removeLeftovers(backup);
        assertNothingLeft();
        assertThat(client.pods().inNamespace(NS).withName("member").get()).isNotNull();
    }

    @Test
    void aPodOrSecretThatOnlyLooksLikeTheDrillsIsLeftAlone() {
        EtcdBackup backup = backup(60);
        // a member pod given the drill's label by hand, and a Secret of the drill's name someone else made
        client.pods().inNamespace(NS).resource(new io.fabric8.kubernetes.api.model.PodBuilder().withNewMetadata()
                .withName("member").addToLabels("app", "etcd").addToLabels(DrillPod.LABEL, "uid-1").endMetadata()
                .build()).create();
        client.secrets().inNamespace(NS).resource(new SecretBuilder().withNewMetadata()
                .withName(DrillPod.secretName(backup)).withNamespace(NS).endMetadata().addToData("mine", "eWVz")
                .build()).create();
        runner.removeLeftovers(backup);
        assertThat(client.pods().inNamespace(NS).withName("member").get()).isNotNull();
        assertThat(client.secrets().inNamespace(NS).withName(DrillPod.secretName(backup)).get()).isNotNull();

        DrillVerdict.Outcome o = runner.drill(backup, "b/k");
        assertThat(o.reason()).isEqualTo(DrillVerdict.DRILL_FAILED);
        assertThat(o.message()).contains("does not own");
        assertThat(client.secrets().inNamespace(NS).withName(DrillPod.secretName(backup)).get().getData())
                .containsOnlyKeys("mine");
        assertThat(client.pods().inNamespace(NS).withName("member").get()).isNotNull();
        assertThat(client.pods().inNamespace(NS).list().getItems()).hasSize(1);
    }

    @Test
    void anEncryptedBackupIsReadWithItsKeyAndThePodChecksTheDecryptedSnapshot() {
        byte[] key = new byte[32];
        new java.util.Random(3).nextBytes(key);
        client.resource(new SecretBuilder().withNewMetadata().withName("backup-key").withNamespace(NS).endMetadata()
                .addToData("key", java.util.Base64.getEncoder().encodeToString(key)).build()).create();
        java.util.concurrent.atomic.AtomicReference<dev.etcdoperator.storage.S3Settings> opened =
                new java.util.concurrent.atomic.AtomicReference<>();
        runner = new RestoreDrillRunner(client, settings -> {
            opened.set(settings);
            return store;
        }, (urls, tls) -> {
            throw new EtcdAdminException(EtcdAdminException.Kind.UNAVAILABLE, "no etcd here", null);
        }, Clock.systemUTC());
        store.snapshotSha = "ef".repeat(32);
        EtcdBackup backup = backup(60);
        backup.getSpec().getS3().setClientSideEncryption(new dev.etcdoperator.api.v1beta2.S3ClientSideEncryption());
        backup.getSpec().getS3().getClientSideEncryption().setSecretName("backup-key");

        CompletableFuture<DrillVerdict.Outcome> drill = CompletableFuture.supplyAsync(() -> runner.drill(backup, "b/k"));
        await().atMost(Duration.ofSeconds(10)).until(() -> drillPods().size() == 1);
        var secret = client.secrets().inNamespace(NS).withName(DrillPod.secretName(backup(60))).get();
        String sha = secret.getStringData() != null && secret.getStringData().containsKey("sha256")
                ? secret.getStringData().get("sha256")
                : new String(java.util.Base64.getDecoder().decode(secret.getData().get("sha256")));
        assertThat(sha).as("the pod checks the decrypted snapshot, not the ciphertext").isEqualTo(store.snapshotSha);
        assertThat(opened.get().clientKey().fingerprint())
                .isEqualTo(dev.etcdoperator.storage.BackupKey.of(key, "k").fingerprint());
        Pod pod = drillPods().get(0);
        pod.setStatus(new PodStatusBuilder().withPhase("Failed").withInitContainerStatuses(new ContainerStatusBuilder()
                .withName(DrillPod.FETCH).withNewState().withNewTerminated().withExitCode(1).endTerminated()
                .endState().build()).build());
        client.pods().inNamespace(NS).resource(pod).updateStatus();
        assertThat(drill.orTimeout(20, TimeUnit.SECONDS).join().reason()).isEqualTo(DrillVerdict.RESTORE_FAILED);
        assertNothingLeft();
    }

    @Test
    void anEncryptedBackupWhoseKeySecretIsGoneFailsTheDrillBeforeAnyPod() {
        EtcdBackup backup = backup(60);
        backup.getSpec().getS3().setClientSideEncryption(new dev.etcdoperator.api.v1beta2.S3ClientSideEncryption());
        backup.getSpec().getS3().getClientSideEncryption().setSecretName("gone");
        DrillVerdict.Outcome o = runner.drill(backup, "b/k");
        assertThat(o.reason()).isEqualTo(DrillVerdict.DRILL_FAILED);
        assertThat(o.message()).contains("Secret prod/gone (s3.clientSideEncryption.secretName) does not exist");
        assertThat(store.presigned).isZero();
        assertNothingLeft();
    }

    /** One object b/k; what verify finds can be changed. */
    static final class FakeStore implements BackupStorage.Store {
        volatile String sha = SHA;
        /** The decrypted snapshot's digest, when the object is encrypted; null for a plain object. */
        volatile String snapshotSha;
        volatile BackupFailure verifyFails;
        volatile int presigned;
        /** What the object's metadata says of the etcd version; null: nothing (a backup made by another tool). */
        volatile String version = "3.5.35";

        @Override
        public VerifiedBackup verify(S3Location location) {
            if (verifyFails != null) {
                throw verifyFails;
            }
            return snapshotSha == null ? new VerifiedBackup(100, sha, 10L, version, new ObjectVersion("\"e\"", null))
                    : new VerifiedBackup(100, sha, 10L, version, new ObjectVersion("\"e\"", null), snapshotSha,
                            "0123456789abcdef");
        }

        @Override
        public String presignedGet(S3Location location, ObjectVersion object, Duration validFor) {
            presigned++;
            return "http://s3.example:9000/b/k?signature";
        }

        @Override
        public void checkBucket(String bucket, Instant deadline) {
            throw new UnsupportedOperationException();
        }

        @Override
        public int cleanUpInterrupted(S3Location target, boolean periodic, String owner, Instant startedBefore,
                Instant deadline) {
            throw new UnsupportedOperationException();
        }

        @Override
        public Optional<StoredBackup> find(S3Location location, Instant deadline) {
            throw new UnsupportedOperationException();
        }

        @Override
        public List<StoredBackup> periodicBackups(S3Location prefix, Instant deadline) {
            throw new UnsupportedOperationException();
        }

        @Override
        public Uploaded upload(InputStream snapshot, S3Location target, Map<String, String> metadata, Instant deadline) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void delete(S3Location location, Instant deadline) {
            throw new UnsupportedOperationException();
        }

        @Override
        public Optional<ObjectVersion> head(S3Location location, Instant deadline) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void close() {
        }
    }
}
