package dev.etcdoperator.restore;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import dev.etcdoperator.api.v1beta2.EtcdCluster;
import dev.etcdoperator.api.v1beta2.EtcdClusterStatus;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import dev.etcdoperator.api.v1beta2.MemberDetail;
import dev.etcdoperator.api.v1beta2.EtcdRestore;
import dev.etcdoperator.api.v1beta2.EtcdRestoreStatus;
import dev.etcdoperator.api.v1beta2.RestoreAnnotations;
import dev.etcdoperator.api.v1beta2.SavedClusterSpec;
import dev.etcdoperator.core.backup.BackupFailure;
import dev.etcdoperator.core.backup.S3Location;
import dev.etcdoperator.core.backup.StoredBackup;
import dev.etcdoperator.cluster.ClusterResources;
import dev.etcdoperator.cluster.SnapshotFetch;
import dev.etcdoperator.core.restore.RestoreHold;
import dev.etcdoperator.core.restore.RestorePhase;
import dev.etcdoperator.core.restore.RestorePlanner;
import dev.etcdoperator.core.status.Conditions;
import dev.etcdoperator.core.status.SpecValidity;
import dev.etcdoperator.storage.BackupStorage;
import dev.etcdoperator.storage.ObjectVersion;
import dev.etcdoperator.storage.S3Settings;
import dev.etcdoperator.storage.Uploaded;
import dev.etcdoperator.storage.VerifiedBackup;
import dev.etcdoperator.support.EventRecorder;
import dev.etcdoperator.support.MovingClock;
import dev.etcdoperator.support.WorkerPool;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.javaoperatorsdk.operator.api.reconciler.DeleteControl;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.fabric8.mockwebserver.http.RecordedRequest;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The restore controller against an API server (the fabric8 CRUD mock) and a store in memory: what it tells a
 * person when it fails, which spec it acts on, which object it lets the seed download, and what it leaves behind.
 */
@EnableKubernetesMockClient(crud = true)
class EtcdRestoreReconcilerTest {
    static final String NS = "default";
    static final String CLUSTER = "alpha";
    static final String PATH = "backups/alpha/b1.db";
    static final String SHA = "ab".repeat(32);

    KubernetesClient client;
    KubernetesMockServer server;

    final MovingClock clock = new MovingClock(Instant.parse("2026-11-30T10:00:00Z"));
    final FakeStorage storage = new FakeStorage();
    EtcdRestoreReconciler reconciler;

    @BeforeEach
    void setUp() {
        reconciler = newReconciler();
        client.resource(new SecretBuilder().withNewMetadata().withName("aws").withNamespace(NS).endMetadata()
                .addToStringData("credentials", "[default]\naws_access_key_id = k\naws_secret_access_key = s\n")
                .addToStringData("config", "[default]\nregion = us-east-1\n").build()).create();
        storage.objects.put(PATH, new ObjectVersion("\"etag-1\"", null));
    }

    // ---- item: a failure after the template was deleted says so, and what to do

    /** Every way a restore can stop after its preflight passed, with the template already deleted. */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"backup deleted", "backup replaced", "secret of the name taken", "restored cluster deleted"})
    void aFailureAfterTheTemplateWasDeletedSaysTheClusterIsGoneAndWhatToDo(String fault) {
        EtcdRestore restore = afterPreflight("r1", RestorePhase.Deleting);
        String reason = switch (fault) {
            case "backup deleted" -> {
                storage.objects.remove(PATH);
                yield EtcdRestoreReconciler.REASON_BACKUP_CHANGED;
            }
            case "backup replaced" -> {
                storage.objects.put(PATH, new ObjectVersion("\"etag-2\"", null));
                yield EtcdRestoreReconciler.REASON_BACKUP_CHANGED;
            }
            case "secret of the name taken" -> {
                foreignSecret("r1-snapshot");
                yield SnapshotSecrets.REASON_TAKEN;
            }
            default -> {
                restore.getStatus().setPhase(RestorePhase.Restoring.name());
                restore.getStatus().setRestoredClusterUid("uid-restored");
                yield "ClusterReplacedMeanwhile";
            }
        };
        reconcile(restore);

        EtcdRestoreStatus status = restore.getStatus();
        assertThat(status.getPhase()).isEqualTo("Failed");
        assertThat(status.getReason()).startsWith(reason + ": ").doesNotContain("nothing was changed")
                .contains("was deleted by this restore").contains("status.clusterSpec")
                .contains("create a new EtcdRestore");
        assertThat(warnings("r1")).anySatisfy(e -> {
            assertThat(e.getReason()).isEqualTo(reason);
            assertThat(e.getMessage()).contains("status.clusterSpec").doesNotContain("nothing was changed");
        });
    }

    /**
     * In a bucket with versioning, a newer version or a delete marker at the key after the template was deleted
     * leaves the verified version, which is restored (its link is signed for that version).
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"a newer version", "a delete marker"})
    void theVerifiedVersionIsRestoredWhateverWasPutAtTheKeySince(String change) {
        EtcdRestore restore = afterPreflight("r1", RestorePhase.Deleting);
        restore.getStatus().setBackupVersionId("v1");
        storage.versions.put(PATH + "@v1", new ObjectVersion("\"etag-1\"", "v1"));
        if (change.equals("a delete marker")) {
            storage.objects.remove(PATH);
        } else {
            storage.objects.put(PATH, new ObjectVersion("\"etag-2\"", "v2"));
        }
        reconcile(restore);
        assertThat(restore.getStatus().getPhase()).isNotEqualTo("Failed");
        assertThat(restore.getStatus().getReason() == null ? "" : restore.getStatus().getReason())
                .doesNotContain(EtcdRestoreReconciler.REASON_BACKUP_CHANGED);
        assertThat(storage.signed).isNotEmpty().allSatisfy(link -> assertThat(link).contains("v1"));
    }

    @Test
    void credentialsLostAfterTheTemplateWasDeletedAreWaitedForNotTheEndOfTheRestore() {
        EtcdRestore restore = afterPreflight("r1", RestorePhase.Deleting);
        client.secrets().inNamespace(NS).withName("aws").delete();
        reconcile(restore);
        assertThat(restore.getStatus().getPhase()).isEqualTo("Deleting");
        assertThat(restore.getStatus().getReason()).startsWith(BackupFailure.AWS_SECRET_NOT_FOUND + ": ");
        assertThat(Conditions.find(restore.getStatus().getConditions(), "Deleting")).hasValueSatisfying(c -> {
            assertThat(c.getStatus()).isEqualTo("False");
            assertThat(c.getReason()).isEqualTo(BackupFailure.AWS_SECRET_NOT_FOUND);
            assertThat(c.getMessage()).contains("tries again").contains("was deleted by this restore")
                    .doesNotContain("nothing was changed");
        });
        assertThat(warnings("r1")).extracting(Event::getReason).contains(BackupFailure.AWS_SECRET_NOT_FOUND);
    }

    /** The same faults before the template was deleted change nothing, and say so. */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"backup deleted", "backup replaced", "secret of the name taken"})
    void theSameFailuresBeforeTheTemplateIsDeletedChangeNothing(String fault) {
        EtcdCluster template = template(CLUSTER, Map.of(RestoreAnnotations.RESTORING, "r1"));
        EtcdRestore restore = afterPreflight("r1", RestorePhase.Deleting, template.getMetadata().getUid());
        switch (fault) {
            case "backup deleted" -> storage.objects.remove(PATH);
            case "backup replaced" -> storage.objects.put(PATH, new ObjectVersion("\"etag-1\"", "v2"));
            default -> foreignSecret("r1-snapshot");
        }
        reconcile(restore);

        assertThat(restore.getStatus().getPhase()).isEqualTo("Failed");
        assertThat(restore.getStatus().getReason()).endsWith("nothing was changed");
        EtcdCluster after = cluster(CLUSTER);
        assertThat(after.getMetadata().getUid()).isEqualTo(template.getMetadata().getUid());
        assertThat(after.getMetadata().getDeletionTimestamp()).isNull();
        assertThat(after.getMetadata().getAnnotations()).as("the lock is released")
                .doesNotContainKey(RestoreAnnotations.RESTORING);
    }

    /** The key Secret of an encrypted backup rewritten after the preflight: the template stays until it is back. */
    @Test
    void anEncryptionKeyChangedAfterThePreflightKeepsTheTemplateAndIsRetried() {
        EtcdCluster template = template(CLUSTER, Map.of(RestoreAnnotations.RESTORING, "r1"));
        EtcdRestore restore = afterPreflight("r1", RestorePhase.Deleting, template.getMetadata().getUid());
        restore.getStatus().setSnapshotSha256("cd".repeat(32));
        // the preflight decrypted it with key f1; the restore's s3 names no key now
        restore.getStatus().setBackupKeyFingerprint("f1");
        reconcile(restore);

        assertThat(restore.getStatus().getPhase()).as("retried, not failed").isEqualTo("Deleting");
        assertThat(cluster(CLUSTER).getMetadata().getDeletionTimestamp()).isNull();
        assertThat(cluster(CLUSTER).getMetadata().getUid()).isEqualTo(template.getMetadata().getUid());
        assertThat(warnings("r1")).anySatisfy(e -> {
            assertThat(e.getReason()).isEqualTo("EncryptionKeyInvalid");
            assertThat(e.getMessage()).contains("fingerprint f1", "put that key back");
        });
    }

    // ---- item: the restore acts on what its preflight verified

    @Test
    void thePreflightRecordsTheSpecAndTheObjectItVerified() {
        template(CLUSTER, Map.of());
        storage.objects.put(PATH, new ObjectVersion("\"etag-1\"", "v1"));
        EtcdRestore restore = create("r1", CLUSTER, PATH, null);
        reconcile(restore);
        EtcdRestoreStatus status = restore.getStatus();
        assertThat(status.getPhase()).isEqualTo("Deleting");
        assertThat(status.getVerifiedSpec().getEtcdCluster().getName()).isEqualTo(CLUSTER);
        assertThat(status.getVerifiedSpec().getS3().getPath()).isEqualTo(PATH);
        assertThat(status.getBackupETag()).isEqualTo("\"etag-1\"");
        assertThat(status.getBackupVersionId()).isEqualTo("v1");
    }

    /**
     * A template whose seed pod the API server would refuse (a field of an embedded Kubernetes type the operator
     * passes on as given) fails the preflight: the template is kept, not deleted for a cluster that could not start.
     */
    @Test
    void aTemplateWhosePodsTheApiServerRefusesIsKept() {
        EtcdCluster template = template(CLUSTER, Map.of());
        server.expect().post().withPath("/api/v1/namespaces/" + NS + "/pods?dryRun=All")
                .andReturn(422, new io.fabric8.kubernetes.api.model.StatusBuilder().withCode(422)
                        .withReason("Invalid").withMessage("Pod \"alpha-preflight0-x\" is invalid:"
                                + " spec.containers[0].resources.requests: Invalid value: \"2\": must be less than or"
                                + " equal to cpu limit of 1").build()).always();
        EtcdRestore restore = create("r1", CLUSTER, PATH, null);
        reconcile(restore);
        assertThat(restore.getStatus().getPhase()).isEqualTo("Failed");
        assertThat(restore.getStatus().getReason()).startsWith("TemplateRefusedByApiServer: ")
                .contains("must be less than or equal to cpu limit", "Fix spec.pod");
        assertThat(cluster(CLUSTER).getMetadata().getUid()).isEqualTo(template.getMetadata().getUid());
        assertThat(cluster(CLUSTER).getMetadata().getAnnotations()).doesNotContainKey(RestoreAnnotations.RESTORING);
    }

    /**
     * A template whose members could not use its TLS Secrets (not there yet, or deleted while its pods kept their
     * copies) fails the preflight: deleted, it would come back as a cluster that makes no pod.
     */
    @Test
    void aTemplateWhoseTlsSecretsCannotBeUsedIsKept() {
        EtcdCluster template = Serialization.unmarshal("""
                apiVersion: etcd.database.coreos.com/v1beta2
                kind: EtcdCluster
                metadata: {name: %s, namespace: %s}
                spec:
                  size: 3
                  version: 3.6.16
                  TLS:
                    static:
                      member: {peerSecret: etcd-peer-tls, serverSecret: etcd-server-tls}
                      operatorSecret: etcd-client-tls
                """.formatted(CLUSTER, NS), EtcdCluster.class);
        template = client.resource(template).create();
        EtcdRestore restore = create("r1", CLUSTER, PATH, null);
        reconcile(restore);
        assertThat(restore.getStatus().getPhase()).isEqualTo("Failed");
        assertThat(restore.getStatus().getReason()).startsWith(RestorePreflight.TEMPLATE_TLS_UNUSABLE + ": ")
                .contains("etcd-peer-tls", "nothing was changed");
        assertThat(cluster(CLUSTER).getMetadata().getUid()).isEqualTo(template.getMetadata().getUid());
        assertThat(cluster(CLUSTER).getMetadata().getAnnotations() == null ? Map.of()
                : cluster(CLUSTER).getMetadata().getAnnotations()).doesNotContainKey(RestoreAnnotations.RESTORING);
    }

    /** A template someone else is deleting is not restored into: the restore would wait on their deletion. */
    @Test
    void aTemplateBeingDeletedIsRefused() {
        EtcdCluster template = Serialization.unmarshal("""
                apiVersion: etcd.database.coreos.com/v1beta2
                kind: EtcdCluster
                metadata: {name: %s, namespace: %s, finalizers: [example.com/hold]}
                spec: {size: 3, version: 3.6.16}
                """.formatted(CLUSTER, NS), EtcdCluster.class);
        client.resource(template).create();
        client.resources(EtcdCluster.class).inNamespace(NS).withName(CLUSTER).delete();
        assertThat(cluster(CLUSTER).getMetadata().getDeletionTimestamp()).isNotNull();
        EtcdRestore restore = create("r1", CLUSTER, PATH, null);
        reconcile(restore);
        assertThat(restore.getStatus().getPhase()).isEqualTo("Failed");
        assertThat(restore.getStatus().getReason()).startsWith(RestorePreflight.TEMPLATE_DELETING + ": ")
                .contains("being deleted");
    }

    /**
     * The spec names another cluster while the preflight of the one before runs: that preflight ends unheeded and
     * marks nothing, so the first cluster is not left marked as being restored by a restore of another.
     */
    @Test
    void aPreflightOfAnEarlierSpecMarksNothing() {
        template(CLUSTER, Map.of());
        template("beta", Map.of());
        EtcdRestore restore = create("r1", CLUSTER, PATH, null);
        restore.getMetadata().setGeneration(1L);
        reconciler.reconcile(restore, null);
        assertThat(cluster(CLUSTER).getMetadata().getAnnotations()).as("not before its result is taken")
                .doesNotContainKey(RestoreAnnotations.RESTORING);

        restore.getSpec().getEtcdCluster().setName("beta");
        restore.getMetadata().setGeneration(2L);
        reconciler.reconcile(restore, null);
        reconciler.reconcile(restore, null);

        assertThat(restore.getStatus().getPhase()).isEqualTo("Deleting");
        assertThat(cluster("beta").getMetadata().getAnnotations()).containsEntry(RestoreAnnotations.RESTORING, "r1");
        assertThat(cluster(CLUSTER).getMetadata().getAnnotations()).doesNotContainKey(RestoreAnnotations.RESTORING);
    }

    /** A path that names the prefix of periodic backups, not an object: the failure names the newest of them. */
    @Test
    void aPathThatIsAPeriodicPrefixFailsNamingTheNewestBackupUnderIt() {
        template(CLUSTER, Map.of());
        storage.objects.put("backups/alpha/hourly_v10_2026-11-30-08:00:00", new ObjectVersion("\"e1\"", null));
        storage.objects.put("backups/alpha/hourly_v12_2026-11-30-10:00:00", new ObjectVersion("\"e2\"", null));
        storage.objects.put("backups/alpha/hourly_v11_2026-11-30-09:00:00", new ObjectVersion("\"e3\"", null));
        EtcdRestore restore = create("r1", CLUSTER, "backups/alpha/hourly", null);
        reconcile(restore);
        assertThat(restore.getStatus().getPhase()).isEqualTo("Failed");
        assertThat(restore.getStatus().getReason()).startsWith(BackupFailure.S3_OBJECT_NOT_FOUND + ": ")
                .contains("prefix of 3 periodic backup(s)", "backups/alpha/hourly_v12_2026-11-30-10:00:00");
    }

    /** A preflight failure that was retried and then passed leaves no failure in the status of a restore going on. */
    @Test
    void aRetriedPreflightFailureIsNoOutcomeOnceItPasses() {
        template(CLUSTER, Map.of());
        EtcdRestoreStatus failedOnce = new EtcdRestoreStatus();
        failedOnce.setPhase(RestorePhase.Preflight.name());
        failedOnce.setSucceeded(false);
        failedOnce.setReason(BackupFailure.S3_UNREACHABLE + ": the store did not answer");
        failedOnce.setConsecutiveFailures(1);
        EtcdRestore restore = create("r1", CLUSTER, PATH, failedOnce);
        reconcile(restore);
        assertThat(restore.getStatus().getPhase()).isEqualTo("Deleting");
        assertThat(restore.getStatus().getSucceeded()).isNull();
        assertThat(restore.getStatus().getReason()).isNull();
    }

    /**
     * A spec edited while the preflight ran (allowed then) and seen only once it passed: the preflight checked the
     * spec before, so nothing is deleted and the restore fails saying so.
     */
    @Test
    void aSpecChangedWhileThePreflightRanFailsBeforeAnythingIsDeleted() {
        EtcdCluster template = template(CLUSTER, Map.of(RestoreAnnotations.RESTORING, "r1"));
        EtcdRestore restore = afterPreflight("r1", RestorePhase.Deleting, template.getMetadata().getUid());
        restore.getSpec().getS3().setPath("backups/the-right-one.db");

        reconcile(restore);

        assertThat(restore.getStatus().getPhase()).isEqualTo("Failed");
        assertThat(restore.getStatus().getReason()).startsWith(EtcdRestoreReconciler.REASON_SPEC_CHANGED + ": ")
                .contains("recreate the EtcdRestore");
        assertThat(cluster(CLUSTER).getMetadata().getUid()).isEqualTo(template.getMetadata().getUid());
        assertThat(cluster(CLUSTER).getMetadata().getDeletionTimestamp()).isNull();
    }

    @Test
    void aSpecChangedAfterTheTemplatesDeletionWasAskedIsIgnored() {
        EtcdCluster template = template(CLUSTER, Map.of(RestoreAnnotations.RESTORING, "r1"));
        EtcdCluster bystander = template("beta", Map.of());
        storage.objects.put("backups/other.db", new ObjectVersion("\"etag-9\"", null));
        EtcdRestore restore = afterPreflight("r1", RestorePhase.Deleting, template.getMetadata().getUid());
        restore.getStatus().setTemplateDeletionRequested(true);
        restore.getSpec().getEtcdCluster().setName("beta");
        restore.getSpec().getS3().setPath("backups/other.db");

        reconcile(restore);

        EtcdCluster deleted = cluster(CLUSTER);
        assertThat(deleted == null || deleted.getMetadata().getDeletionTimestamp() != null).isTrue();
        assertThat(cluster("beta").getMetadata().getUid()).isEqualTo(bystander.getMetadata().getUid());
        assertThat(storage.signed).allSatisfy(url -> assertThat(url).contains(PATH).contains("etag-1"));
        assertThat(storage.signed).isNotEmpty();
    }

    // ---- item: the seed downloads only the verified object, on a URL that never runs out

    @Test
    void theSeedsUrlIsPinnedToTheVerifiedObjectAndSignedAgainBeforeItExpires() {
        EtcdRestore restore = afterPreflight("r1", RestorePhase.Deleting);
        restore.getStatus().setBackupVersionId("v1");
        storage.objects.put(PATH, new ObjectVersion("\"etag-1\"", "v1"));
        reconcile(restore);
        assertThat(secretUrl("r1-snapshot")).contains("versionId=v1").contains("if-match=\"etag-1\"");
        assertThat(secretValue("r1-snapshot", "etag")).isEqualTo("\"etag-1\"");
        String first = secretUrl("r1-snapshot");
        assertThat(restore.getStatus().getSnapshotUrlExpires()).isEqualTo("2026-11-30T16:00:00Z");

        assertThat(restore.getStatus().getPhase()).isEqualTo("Restoring");
        clock.advance(Duration.ofHours(2));
        reconcile(restore);
        assertThat(secretUrl("r1-snapshot")).as("4 h left: not signed again").isEqualTo(first);

        clock.advance(Duration.ofHours(5));
        reconcile(restore);
        assertThat(secretUrl("r1-snapshot")).as("expired: signed again").isNotEqualTo(first)
                .contains("versionId=v1");
        assertThat(restore.getStatus().getSnapshotUrlExpires()).isEqualTo("2026-11-30T23:00:00Z");
        assertThat(restore.getStatus().getPhase()).isEqualTo("Restoring");
    }

    /**
     * The Secret deleted while the restore runs (by hand, or first of the EtcdRestore's dependents in a foreground
     * deletion) is made again: the seed waits for it, and would otherwise start empty.
     */
    @Test
    void aSnapshotSecretDeletedWhileTheRestoreRunsIsMadeAgain() {
        EtcdRestore restore = afterPreflight("r1", RestorePhase.Deleting);
        reconcile(restore);
        assertThat(restore.getStatus().getPhase()).isEqualTo("Restoring");
        assertThat(secretUrl("r1-snapshot")).contains(PATH);

        client.secrets().inNamespace(restore.getMetadata().getNamespace()).withName("r1-snapshot").delete();
        clock.advance(Duration.ofMinutes(1));
        reconcile(restore);

        assertThat(restore.getStatus().getPhase()).isEqualTo("Restoring");
        assertThat(secretUrl("r1-snapshot")).contains(PATH);
        assertThat(secretValue("r1-snapshot", "sha256")).isEqualTo(SHA);
    }

    /**
     * The seed hashes its download unless the store was seen to refuse the link for any other object; then the
     * Secret carries the ETag the link is bound to and no SHA-256.
     */
    @Test
    void theSeedIsGivenNoDigestOnlyWhereTheStoreRefusesTheLinkForAnotherObject() {
        EtcdRestore restore = afterPreflight("r1", RestorePhase.Deleting);
        reconcile(restore);
        assertThat(restore.getStatus().getPhase()).isEqualTo("Restoring");
        assertThat(secretValue("r1-snapshot", "sha256")).isEqualTo(SHA);
        assertThat(secretKeys("r1-snapshot")).containsExactlyInAnyOrder("url", "sha256", "etag");

        storage.linksRefuseOtherObjects = true;
        clock.advance(Duration.ofHours(4));
        reconcile(restore);
        assertThat(restore.getStatus().getPhase()).isEqualTo("Restoring");
        assertThat(secretValue("r1-snapshot", "etag")).isEqualTo("\"etag-1\"");
        assertThat(secretKeys("r1-snapshot")).as("signed again, for a store that refuses other objects")
                .containsExactlyInAnyOrder("url", "etag");
    }

    // ---- item: an operator restart or a leader change never ends a restore of an encrypted backup

    /** A link to the operator lives in the memory of the process that made it: another process makes it again. */
    @Test
    void anEncryptedBackupsLinkIsMadeAgainByAnOperatorProcessThatDidNotMakeIt() {
        EtcdRestore restore = afterPreflight("r1", RestorePhase.Deleting);
        restore.getStatus().setSnapshotSha256("cd".repeat(32));
        reconcile(restore);
        assertThat(restore.getStatus().getPhase()).isEqualTo("Restoring");
        String first = secretUrl("r1-snapshot");
        assertThat(secretValue("r1-snapshot", "sha256")).isEqualTo("cd".repeat(32));
        clock.advance(Duration.ofMinutes(1));
        reconcile(restore);
        assertThat(secretUrl("r1-snapshot")).as("made by this process: kept").isEqualTo(first);

        reconciler = newReconciler();
        clock.advance(Duration.ofMinutes(1));
        reconcile(restore);
        String second = secretUrl("r1-snapshot");
        assertThat(second).as("after a restart: made again").isNotEqualTo(first).contains(PATH).contains("etag-1");
        assertThat(restore.getStatus().getSnapshotUrlExpires()).isEqualTo("2026-11-30T16:02:00Z");
        assertThat(restore.getStatus().getPhase()).isEqualTo("Restoring");
        reconcile(restore);
        assertThat(secretUrl("r1-snapshot")).as("made by this process now: kept").isEqualTo(second);
    }

    /** A presigned URL of the store does not depend on the operator process: a restart keeps it. */
    @Test
    void aPlainBackupsPresignedUrlOutlivesARestart() {
        EtcdRestore restore = afterPreflight("r1", RestorePhase.Deleting);
        reconcile(restore);
        String first = secretUrl("r1-snapshot");
        reconciler = newReconciler();
        reconcile(restore);
        assertThat(restore.getStatus().getPhase()).isEqualTo("Restoring");
        assertThat(secretUrl("r1-snapshot")).isEqualTo(first);
    }

    /**
     * A seed whose download failed (a link refused after a restart) is started again with a fresh link: its pod is
     * deleted for the cluster controller to create anew, a few times, and then the restore fails.
     */
    @Test
    void aSeedWhoseDownloadFailedStartsAgainWithAFreshLinkAFewTimesThenTheRestoreFails() {
        EtcdRestore restore = afterPreflight("r1", RestorePhase.Deleting);
        restore.getStatus().setSnapshotSha256("cd".repeat(32));
        reconcile(restore);
        assertThat(restore.getStatus().getPhase()).isEqualTo("Restoring");
        for (int retry = 1; retry <= RestorePlanner.SEED_RETRIES; retry++) {
            String before = secretUrl("r1-snapshot");
            seedPod("alpha-seed", SnapshotFetch.DOWNLOAD_FAILED);
            if (retry > 1) {
                // a store failing for a while is given time: the seed starts again only after a wait that doubles
                reconcile(restore);
                assertThat(client.pods().inNamespace(NS).withName("alpha-seed").get()).as("not yet").isNotNull();
                assertThat(restore.getStatus().getSeedRetries()).isEqualTo(retry - 1);
                clock.advance(EtcdRestoreReconciler.SEED_RETRY_SPACING.multipliedBy(1L << (retry - 2)));
            }
            reconcile(restore);
            assertThat(restore.getStatus().getPhase()).isEqualTo("Restoring");
            assertThat(restore.getStatus().getSeedRetries()).isEqualTo(retry);
            assertThat(client.pods().inNamespace(NS).withName("alpha-seed").get()).as("deleted for a new seed").isNull();
            assertThat(secretUrl("r1-snapshot")).as("a fresh link before the seed starts again").isNotEqualTo(before);
        }
        assertThat(warnings("r1")).filteredOn(e -> e.getReason().equals(EtcdRestoreReconciler.REASON_SEED_RETRIED))
                .isNotEmpty().allSatisfy(e -> assertThat(e.getMessage()).contains("alpha-seed").contains("fresh link"));

        seedPod("alpha-seed", SnapshotFetch.DOWNLOAD_FAILED);
        reconcile(restore);
        assertThat(restore.getStatus().getPhase()).isEqualTo("Failed");
        assertThat(restore.getStatus().getReason()).startsWith(RestorePlanner.REASON_SEED_FAILED + ": ")
                .contains("started again " + RestorePlanner.SEED_RETRIES + " time(s)");
    }

    @Test
    void aSeedThatGotOtherDataFailsTheRestoreAtOnce() {
        EtcdRestore restore = afterPreflight("r1", RestorePhase.Deleting);
        reconcile(restore);
        seedPod("alpha-seed", 1);
        reconcile(restore);
        assertThat(restore.getStatus().getPhase()).isEqualTo("Failed");
        assertThat(restore.getStatus().getReason()).startsWith(RestorePlanner.REASON_SEED_FAILED + ": ");
        assertThat(restore.getStatus().getSeedRetries()).isNull();
    }

    /**
     * The cluster may already be Available at full size when the restore first sees its seed healthy (the event that
     * said so was the last one): the restore goes on at once instead of at its next look a second later.
     */
    @Test
    void aRestoreWhoseClusterIsAlreadyWholeWhenItsSeedIsSeenIsDoneWithoutWaiting() {
        EtcdRestore restore = afterPreflight("r1", RestorePhase.Deleting);
        reconcile(restore);
        assertThat(restore.getStatus().getPhase()).isEqualTo("Restoring");
        EtcdCluster restored = cluster(CLUSTER);
        EtcdClusterStatus whole = new EtcdClusterStatus();
        whole.setMemberDetails(java.util.stream.IntStream.range(0, 3).mapToObj(i -> {
            MemberDetail m = new MemberDetail();
            m.setName("alpha-" + i);
            m.setHealthy(true);
            return m;
        }).toList());
        whole.setReadyMembers(3);
        whole.setConditions(List.of(new dev.etcdoperator.api.v1beta2.Condition("Available", Conditions.TRUE,
                "Available", "3 of 3")));
        restored.setStatus(whole);
        client.resource(restored).updateStatus();

        UpdateControl<EtcdRestore> control = reconciler.reconcile(restore, null);
        assertThat(restore.getStatus().getPhase()).isEqualTo("Growing");
        assertThat(control.getScheduleDelay()).contains(0L);
        reconciler.reconcile(restore, null);
        assertThat(restore.getStatus().getPhase()).isEqualTo("Done");
        assertThat(restore.getStatus().getSucceeded()).isTrue();
    }

    // ---- item: an EtcdRestore deleted mid-restore

    EtcdRestore stored(String name) {
        return client.resources(EtcdRestore.class).inNamespace(NS).withName(name).get();
    }

    /** Deleted as the API server deletes an object with finalizers: a deletion timestamp, the object kept. */
    EtcdRestore markDeleted(String name) {
        EtcdRestore current = stored(name);
        current.getMetadata().setFinalizers(List.of(RestoreHold.FINALIZER));
        current = client.resource(current).update();
        current.getMetadata().setDeletionTimestamp("2026-11-30T10:00:00Z");
        EtcdRestore marked = client.resource(current).update();
        marked.setStatus(current.getStatus());
        return marked;
    }

    @Test
    void aRestoreDeletedBeforeItAskedForTheTemplatesDeletionStopsAndChangesNothing() {
        EtcdCluster template = template(CLUSTER, Map.of(RestoreAnnotations.RESTORING, "r1"));
        EtcdRestore restore = afterPreflight("r1", RestorePhase.Deleting, template.getMetadata().getUid());
        EtcdRestore deleted = markDeleted("r1");
        deleted.setStatus(restore.getStatus());

        assertThat(reconciler.cleanup(deleted, null).isRemoveFinalizer()).isTrue();

        assertThat(cluster(CLUSTER).getMetadata().getUid()).isEqualTo(template.getMetadata().getUid());
        assertThat(cluster(CLUSTER).getMetadata().getDeletionTimestamp()).isNull();
    }

    /**
     * The template deleted by someone else (both resources deleted together, say) while the restore had not gone on
     * to delete it: a restore deleted then stops, it does not create a cluster nobody asks for any more.
     */
    @Test
    void aRestoreDeletedAfterSomeoneElseDeletedTheTemplateStopsWithoutACluster() {
        EtcdRestore restore = afterPreflight("r1", RestorePhase.Deleting, "uid-template-deleted-by-a-person");
        EtcdRestore deleted = markDeleted("r1");
        deleted.setStatus(restore.getStatus());

        assertThat(reconciler.cleanup(deleted, null).isRemoveFinalizer()).isTrue();
        assertThat(cluster(CLUSTER)).isNull();
    }

    /** The restore records that it goes on to delete the template before it asks for the deletion. */
    @Test
    void theTemplatesDeletionIsRecordedBeforeItIsAskedFor() {
        EtcdCluster template = template(CLUSTER, Map.of(RestoreAnnotations.RESTORING, "r1"));
        EtcdRestore restore = afterPreflight("r1", RestorePhase.Deleting, template.getMetadata().getUid());
        restore.getStatus().setTemplateGeneration(template.getMetadata().getGeneration());
        reconciler.reconcile(restore, null);
        assertThat(restore.getStatus().getTemplateDeletionRequested()).isTrue();
        assertThat(cluster(CLUSTER).getMetadata().getUid()).as("not deleted yet")
                .isEqualTo(template.getMetadata().getUid());
        reconciler.reconcile(restore, null);
        assertThat(cluster(CLUSTER)).as("deleted on the next pass").isNull();
    }

    /**
     * A store that lets the operator read the backup but refuses the links the seed would download with (a bucket
     * policy against them, a clock it does not accept): found before the template goes, which stays; tried again.
     */
    @Test
    void aStoreThatRefusesTheSeedsLinkKeepsTheTemplate() {
        EtcdCluster template = template(CLUSTER, Map.of(RestoreAnnotations.RESTORING, "r1"));
        EtcdRestore restore = afterPreflight("r1", RestorePhase.Deleting, template.getMetadata().getUid());
        restore.getStatus().setTemplateGeneration(template.getMetadata().getGeneration());
        storage.linkRefusal = new BackupStorage.LinkRefusal(403, "AccessDenied");
        reconciler.reconcile(restore, null);
        reconciler.reconcile(restore, null);

        assertThat(cluster(CLUSTER).getMetadata().getUid()).isEqualTo(template.getMetadata().getUid());
        assertThat(restore.getStatus().getTemplateDeletionRequested()).isNotEqualTo(Boolean.TRUE);
        assertThat(restore.getStatus().getPhase()).isEqualTo("Deleting");
        assertThat(restore.getStatus().getReason()).startsWith(BackupFailure.S3_ACCESS_DENIED)
                .contains("refuses the download link", "HTTP 403", "nothing was changed");

        // a store whose downloads fail for now: waited for the same way, as a store that cannot be reached
        storage.linkRefusal = new BackupStorage.LinkRefusal(503, "SlowDown");
        clock.advance(Duration.ofMinutes(10));
        reconciler.reconcile(restore, null);
        assertThat(cluster(CLUSTER)).isNotNull();
        assertThat(restore.getStatus().getReason()).startsWith(BackupFailure.S3_UNREACHABLE).contains("HTTP 503");

        storage.linkRefusal = null;
        clock.advance(Duration.ofMinutes(10));
        reconciler.reconcile(restore, null);
        reconciler.reconcile(restore, null);
        assertThat(cluster(CLUSTER)).as("served again: the restore goes on").isNull();
    }

    /**
     * Recorded by an earlier operator version, or under an EtcdRestore CRD older than the operator (the API server
     * drops the status fields it does not know): no generation, so the deletion is asked for at once, not recorded
     * first in a field that never stays.
     */
    @Test
    void withoutARecordedGenerationTheTemplateIsDeletedAtOnceAsBefore() {
        EtcdCluster template = template(CLUSTER, Map.of(RestoreAnnotations.RESTORING, "r1"));
        EtcdRestore restore = afterPreflight("r1", RestorePhase.Deleting, template.getMetadata().getUid());
        restore.getStatus().setTemplateGeneration(null);
        reconciler.reconcile(restore, null);
        assertThat(cluster(CLUSTER)).isNull();
        assertThat(restore.getStatus().getTemplateDeletionRequested()).isNull();
    }

    /**
     * The template's spec edited after the preflight saved it (scaled, another version, other TLS Secrets): the
     * restored cluster would not have the edit, so the template stays and the restore fails, nothing changed.
     */
    @Test
    void aTemplateEditedAfterThePreflightIsKeptAndTheRestoreFails() {
        EtcdCluster template = template(CLUSTER, Map.of(RestoreAnnotations.RESTORING, "r1"));
        EtcdRestore restore = afterPreflight("r1", RestorePhase.Deleting, template.getMetadata().getUid());
        restore.getStatus().setTemplateGeneration(template.getMetadata().getGeneration());
        template.getSpec().setSize(5);
        template.getMetadata().setGeneration(template.getMetadata().getGeneration() + 1);
        client.resource(template).update();

        reconciler.reconcile(restore, null);
        reconciler.reconcile(restore, null);

        assertThat(restore.getStatus().getPhase()).isEqualTo(RestorePhase.Failed.name());
        assertThat(restore.getStatus().getReason()).startsWith(EtcdRestoreReconciler.REASON_TEMPLATE_CHANGED)
                .contains("nothing was changed");
        assertThat(cluster(CLUSTER).getMetadata().getUid()).isEqualTo(template.getMetadata().getUid());
        assertThat(cluster(CLUSTER).getMetadata().getDeletionTimestamp()).isNull();
        assertThat(cluster(CLUSTER).getSpec().getSize()).isEqualTo(5);
    }

    @Test
    void aRestoreDeletedAfterTheTemplateWasDeletedCreatesTheClusterBeforeItGoes() {
        EtcdRestore restore = afterPreflight("r1", RestorePhase.Deleting, "uid-deleted-template");
        EtcdRestore deleted = markDeleted("r1");
        deleted.setStatus(restore.getStatus());

        assertThat(reconciler.cleanup(deleted, null).isRemoveFinalizer()).as("held until the seed runs").isFalse();

        assertThat(cluster(CLUSTER)).as("the restored cluster, from the saved spec").isNotNull();
        assertThat(cluster(CLUSTER).getSpec().getSize()).isEqualTo(3);
        assertThat(stored("r1").getStatus().getPhase()).as("recorded").isEqualTo(RestorePhase.Restoring.name());

        EtcdRestore now = stored("r1");
        now.getStatus().setPhase(RestorePhase.Growing.name());
        assertThat(reconciler.cleanup(now, null).isRemoveFinalizer()).isTrue();
    }

    /** Waiting on a template that someone else's finalizer holds: the wait shows, and nothing gives up on a clock. */
    @Test
    void aDeletedRestoreWaitingForItsTemplateStaysHoweverLongItWaits() {
        EtcdCluster template = template(CLUSTER, Map.of(RestoreAnnotations.RESTORING, "r1"));
        template.getMetadata().setFinalizers(List.of("example.com/held-elsewhere"));
        template = client.resource(template).update();
        template.getMetadata().setDeletionTimestamp("2026-11-30T10:00:00Z");
        client.resource(template).update();
        EtcdRestore restore = afterPreflight("r1", RestorePhase.Deleting, template.getMetadata().getUid());
        restore.getStatus().setTemplateDeletionRequested(true);
        client.resource(restore).updateStatus();
        markDeleted("r1");
        assertThat(reconciler.cleanup(stored("r1"), null).isRemoveFinalizer()).as("waits for the template").isFalse();

        clock.advance(java.time.Duration.ofDays(2));
        assertThat(reconciler.cleanup(stored("r1"), null).isRemoveFinalizer()).isFalse();
        assertThat(stored("r1").getStatus().getConditions()).anySatisfy(c -> assertThat(c.getMessage())
                .contains("waiting for the template cluster"));
        assertThat(warnings("r1")).extracting(Event::getReason).doesNotContain("GaveUp");
    }

    /** In a namespace being deleted nothing can be created: a restore that still had to create the cluster goes. */
    @Test
    void aDeletedRestoreWhoseNamespaceIsBeingDeletedGoesWithoutTheCluster() {
        afterPreflight("r1", RestorePhase.Deleting, "uid-deleted-template");
        markDeleted("r1");
        server.expect().post().withPath("/apis/etcd.database.coreos.com/v1beta2/namespaces/" + NS + "/etcdclusters")
                .andReturn(403, new io.fabric8.kubernetes.api.model.StatusBuilder().withCode(403).withReason("Forbidden")
                        .withMessage("etcdclusters.etcd.database.coreos.com \"" + CLUSTER + "\" is forbidden: unable"
                                + " to create new content in namespace " + NS + " because it is being terminated")
                        .withNewDetails().addNewCause().withReason("NamespaceTerminating").withField("metadata.namespace")
                        .endCause().endDetails().build()).always();

        assertThat(reconciler.cleanup(stored("r1"), null).isRemoveFinalizer()).isTrue();
        assertThat(warnings("r1")).extracting(Event::getReason).contains("GaveUp");
    }

    /**
     * A namespace being deleted takes the Secrets first: the held restore fails to read its store's, and asks the API
     * server (a dry run of the cluster's creation) whether the namespace is going; it goes if so, and waits if not.
     */
    @Test
    void aDeletedRestoreWhoseSecretWentAsksWhetherItsNamespaceIsBeingDeleted() {
        String clusters = "/apis/etcd.database.coreos.com/v1beta2/namespaces/" + NS + "/etcdclusters?dryRun=All";
        afterPreflight("r1", RestorePhase.Deleting, "uid-deleted-template");
        markDeleted("r1");
        client.secrets().inNamespace(NS).withName("aws").delete();
        server.expect().post().withPath(clusters).andReturn(201, Serialization.unmarshal("""
                apiVersion: etcd.database.coreos.com/v1beta2
                kind: EtcdCluster
                metadata: {name: %s, namespace: %s}
                spec: {size: 1}
                """.formatted(CLUSTER, NS), EtcdCluster.class)).once();

        assertThat(reconciler.cleanup(stored("r1"), null).isRemoveFinalizer()).as("not going: it waits").isFalse();
        assertThat(warnings("r1")).extracting(Event::getReason).doesNotContain("GaveUp");
        assertThat(cluster(CLUSTER)).isNull();

        server.expect().post().withPath(clusters)
                .andReturn(403, new io.fabric8.kubernetes.api.model.StatusBuilder().withCode(403).withReason("Forbidden")
                        .withMessage("etcdclusters.etcd.database.coreos.com \"" + CLUSTER + "\" is forbidden: unable"
                                + " to create new content in namespace " + NS + " because it is being terminated")
                        .withNewDetails().addNewCause().withReason("NamespaceTerminating").withField("metadata.namespace")
                        .endCause().endDetails().build()).always();
        clock.advance(java.time.Duration.ofMinutes(5));
        assertThat(reconciler.cleanup(stored("r1"), null).isRemoveFinalizer()).isTrue();
        assertThat(warnings("r1")).extracting(Event::getReason).contains("GaveUp");
    }

    /** Failed after its template was deleted, then deleted: the spec only its status held is not dropped silently. */
    @Test
    void aFailedRestoreDeletedAfterItsTemplateWentLogsTheTemplatesSpec() {
        afterPreflight("r1", RestorePhase.Failed, "uid-deleted-template");
        markDeleted("r1");
        assertThat(reconciler.cleanup(stored("r1"), null).isRemoveFinalizer()).isTrue();
        assertThat(warnings("r1")).extracting(Event::getReason).contains("TemplateSpecLogged");
    }

    /** Any other refusal (a quota, a webhook) may pass: the restore holds the only copy of the spec and goes on. */
    @Test
    void aDeletedRestoreWhoseClusterIsRefusedOtherwiseStaysAndTriesAgain() {
        afterPreflight("r1", RestorePhase.Deleting, "uid-deleted-template");
        markDeleted("r1");
        server.expect().post().withPath("/apis/etcd.database.coreos.com/v1beta2/namespaces/" + NS + "/etcdclusters")
                .andReturn(403, new io.fabric8.kubernetes.api.model.StatusBuilder().withCode(403).withReason("Forbidden")
                        .withMessage("etcdclusters.etcd.database.coreos.com \"" + CLUSTER + "\" is forbidden: exceeded"
                                + " quota: q, requested: count/etcdclusters.etcd.database.coreos.com=1").build()).once();

        assertThat(reconciler.cleanup(stored("r1"), null).isRemoveFinalizer()).isFalse();
        assertThat(warnings("r1")).extracting(Event::getReason).doesNotContain("GaveUp");
        assertThat(cluster(CLUSTER)).isNull();

        assertThat(reconciler.cleanup(stored("r1"), null).isRemoveFinalizer()).as("held until the seed runs").isFalse();
        assertThat(cluster(CLUSTER)).as("created once the quota lets it").isNotNull();
    }

    /** Failed after its template was deleted and before the cluster was created: the spec is not lost silently. */
    @Test
    void aDeletedRestoreThatFailsBeforeItCreatedTheClusterLogsTheTemplatesSpec() {
        afterPreflight("r1", RestorePhase.Deleting, "uid-deleted-template");
        markDeleted("r1");
        storage.objects.remove(PATH);

        assertThat(reconciler.cleanup(stored("r1"), null).isRemoveFinalizer()).isTrue();
        assertThat(warnings("r1")).extracting(Event::getReason).contains("TemplateSpecLogged");
        assertThat(cluster(CLUSTER)).isNull();
    }

    /** A run on a cached copy older than the last status write writes nothing: it would undo that write. */
    @Test
    void aHeldRestoreRunOnAStaleCopyWritesNoStatus() {
        afterPreflight("r1", RestorePhase.Deleting, "uid-deleted-template");
        markDeleted("r1");
        assertThat(reconciler.cleanup(stored("r1"), null).isRemoveFinalizer()).isFalse();
        EtcdRestore stale = stored("r1");
        assertThat(stale.getStatus().getPhase()).isEqualTo(RestorePhase.Restoring.name());
        EtcdRestore newer = stored("r1");
        newer.getStatus().setSeedRetries(2);
        client.resource(newer).updateStatus();

        DeleteControl control = reconciler.cleanup(stale, null);

        assertThat(control.isRemoveFinalizer()).isFalse();
        assertThat(control.getScheduleDelay()).isPresent();
        assertThat(stored("r1").getStatus().getSeedRetries()).as("the newer write stays").isEqualTo(2);
        assertThat(reconciler.cleanup(stored("r1"), null).isRemoveFinalizer()).isFalse();
        assertThat(stored("r1").getStatus().getSeedRetries()).isEqualTo(2);
    }

    @Test
    void anEndedRestoreGoesAtOnce() {
        for (RestorePhase phase : List.of(RestorePhase.Done, RestorePhase.Failed, RestorePhase.Growing)) {
            EtcdRestore restore = afterPreflight("r-" + phase.name().toLowerCase(), phase, "uid-deleted-template");
            assertThat(reconciler.cleanup(restore, null).isRemoveFinalizer()).as("%s", phase).isTrue();
            // no GaveUp; a failed one whose template is gone logs the spec its status held
            assertThat(warnings(restore.getMetadata().getName())).extracting(Event::getReason)
                    .isEqualTo(phase == RestorePhase.Failed ? List.of("TemplateSpecLogged") : List.of());
        }
        assertThat(cluster(CLUSTER)).isNull();
    }

    // ---- item: the template lock, the uid precondition, the Secret

    @Test
    void theTemplateIsDeletedOnlyWithItsResourceVersionAsPreconditionAndNeverASameNamedNewerCluster() throws Exception {
        EtcdCluster template = template(CLUSTER, Map.of());
        RestoreActions actions = new RestoreActions(client);
        assertThat(actions.deleteTemplate(NS, CLUSTER, "uid-of-an-earlier-" + CLUSTER, null)).isFalse();
        assertThat(cluster(CLUSTER)).isNotNull();

        assertThat(actions.deleteTemplate(NS, CLUSTER, template.getMetadata().getUid(),
                template.getMetadata().getGeneration())).isTrue();
        RecordedRequest delete = null;
        for (RecordedRequest r = server.takeRequest(1, TimeUnit.SECONDS); r != null;
                r = server.takeRequest(100, TimeUnit.MILLISECONDS)) {
            if (r.getMethod().equals("DELETE")) {
                delete = r;
            }
        }
        assertThat(delete).isNotNull();
        assertThat(delete.getUtf8Body()).contains("\"preconditions\"")
                .contains("\"resourceVersion\":\"" + template.getMetadata().getResourceVersion() + "\"");
    }

    @Test
    void aMarkLeftByARestoreThatIsGoneOrEndedHoldsNothing() {
        for (String holder : List.of("deleted-restore", "failed-restore")) {
            if (holder.equals("failed-restore")) {
                EtcdRestore failed = create(holder, CLUSTER, PATH, null);
                failed.setStatus(new EtcdRestoreStatus());
                failed.getStatus().setPhase("Failed");
                client.resource(failed).update();
            }
            client.resources(EtcdCluster.class).inNamespace(NS).withName(CLUSTER).delete();
            org.awaitility.Awaitility.await().until(() -> cluster(CLUSTER) == null);
            template(CLUSTER, Map.of(RestoreAnnotations.RESTORING, holder));
            EtcdRestore restore = create("next-after-" + holder, CLUSTER, PATH, null);
            reconcile(restore);
            assertThat(restore.getStatus().getPhase()).as("%s: %s", holder, restore.getStatus().getReason())
                    .isEqualTo("Deleting");
            assertThat(cluster(CLUSTER).getMetadata().getAnnotations())
                    .containsEntry(RestoreAnnotations.RESTORING, "next-after-" + holder);
        }
    }

    @Test
    void aLiveRestoresMarkStillHolds() {
        create("holder", CLUSTER, PATH, null);
        template(CLUSTER, Map.of(RestoreAnnotations.RESTORING, "holder"));
        EtcdRestore restore = create("second", CLUSTER, PATH, null);
        reconcile(restore);
        assertThat(restore.getStatus().getReason()).startsWith("RestoreInProgress: ").endsWith("nothing was changed");
        assertThat(cluster(CLUSTER).getMetadata().getAnnotations())
                .containsEntry(RestoreAnnotations.RESTORING, "holder");
    }

    @Test
    void theMarkIsRemovedWhenItsRestoreIsDeleted() {
        template(CLUSTER, Map.of(RestoreAnnotations.RESTORING, "r1", "keep", "me"));
        template("beta", Map.of(RestoreAnnotations.RESTORING, "r2"));
        new RestoreDeletion(new RestoreMetrics(new SimpleMeterRegistry()), new WorkerPool(Runnable::run, clock), client).deleted(NS, "r1");
        assertThat(cluster(CLUSTER).getMetadata().getAnnotations()).doesNotContainKey(RestoreAnnotations.RESTORING)
                .containsEntry("keep", "me");
        assertThat(cluster("beta").getMetadata().getAnnotations()).containsEntry(RestoreAnnotations.RESTORING, "r2");
    }

    @Test
    void anExistingSecretOfTheNameIsNeverTakenOverButTheRestoresOwnIsUpdated() {
        Secret foreign = foreignSecret("r1-snapshot");
        EtcdRestore restore = afterPreflight("r1", RestorePhase.Deleting);
        reconcile(restore);
        assertThat(restore.getStatus().getReason()).startsWith(SnapshotSecrets.REASON_TAKEN + ": ")
                .contains("a Secret r1-snapshot exists").contains("did not create");
        Secret after = client.secrets().inNamespace(NS).withName("r1-snapshot").get();
        assertThat(after.getData()).isEqualTo(foreign.getData());
        assertThat(after.getMetadata().getOwnerReferences()).isNullOrEmpty();

        EtcdCluster template = template(CLUSTER, Map.of(RestoreAnnotations.RESTORING, "r2"));
        EtcdRestore other = afterPreflight("r2", RestorePhase.Deleting, template.getMetadata().getUid());
        reconcile(other);
        String first = secretUrl("r2-snapshot");
        reconcile(other);
        assertThat(other.getStatus().getPhase()).as("the restore's own Secret is taken again after the template"
                + " was deleted").isEqualTo("Restoring");
        assertThat(secretUrl("r2-snapshot")).isNotEqualTo(first);
        assertThat(client.secrets().inNamespace(NS).withName("r2-snapshot").get().getMetadata().getOwnerReferences())
                .singleElement().satisfies(o -> assertThat(o.getUid()).isEqualTo(other.getMetadata().getUid()));
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"Done", "Failed"})
    void theSecretIsDeletedWhenTheRestoreEndsAndAForeignOneIsNot(String end) {
        EtcdRestore restore = afterPreflight("r1", RestorePhase.Deleting);
        reconcile(restore);
        assertThat(client.secrets().inNamespace(NS).withName("r1-snapshot").get()).isNotNull();
        assertThat(restore.getStatus().getPhase()).isEqualTo("Restoring");
        restore.getStatus().setPhase(end.equals("Done") ? "Growing" : "Restoring");
        if (end.equals("Done")) {
            EtcdCluster c = cluster(CLUSTER);
            c.setStatus(Serialization.unmarshal("""
                    readyMembers: 3
                    memberDetails: [{name: a, healthy: true}, {name: b, healthy: true}, {name: c, healthy: true}]
                    conditions: [{type: Available, status: "True"}]
                    """,
                    dev.etcdoperator.api.v1beta2.EtcdClusterStatus.class));
            client.resource(c).update();
        } else {
            client.resources(EtcdCluster.class).inNamespace(NS).withName(CLUSTER).delete();
            org.awaitility.Awaitility.await().until(() -> cluster(CLUSTER) == null);
        }
        reconcile(restore);
        assertThat(restore.getStatus().getPhase()).isEqualTo(end);
        assertThat(client.secrets().inNamespace(NS).withName("r1-snapshot").get()).isNull();

        foreignSecret("r3-snapshot");
        EtcdRestore ended = afterPreflight("r3", RestorePhase.Deleting);
        ended.getStatus().setPhase(end);
        reconcile(ended);
        assertThat(client.secrets().inNamespace(NS).withName("r3-snapshot").get()).isNotNull();
    }

    // ---- helpers

    EtcdRestoreReconciler newReconciler() {
        Conditions conditions = new Conditions(clock);
        return new EtcdRestoreReconciler(new SpecValidity(conditions), new EventRecorder(client, clock), conditions,
                clock, client, new RestoreMetrics(new SimpleMeterRegistry()), storage, new WorkerPool(Runnable::run, clock));
    }

    /** A pod of the restored cluster whose fetch-snapshot ended with {@code exit}. */
    /**
     * A restore the original operator ran (its status has succeeded or a failure reason, and no phase), or one with a
     * phase this version does not know, is never run: it would delete the live cluster and rebuild it from an older
     * backup.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"succeeded", "failed", "unknown phase"})
    void aRestoreEndedByAnotherOperatorIsNeverRunAgain(String how) {
        EtcdCluster live = template(CLUSTER, Map.of());
        EtcdRestoreStatus ended = new EtcdRestoreStatus();
        switch (how) {
            case "succeeded" -> ended.setSucceeded(true);
            case "failed" -> {
                ended.setSucceeded(false);
                ended.setReason("failed to restore: timed out");
            }
            default -> ended.setPhase("Verifying");
        }
        EtcdRestore restore = create("old", CLUSTER, PATH, ended);
        for (int i = 0; i < 3; i++) {
            reconcile(restore);
        }
        assertThat(client.resources(EtcdCluster.class).inNamespace(NS).withName(CLUSTER).get().getMetadata().getUid())
                .isEqualTo(live.getMetadata().getUid());
        assertThat(client.resources(EtcdCluster.class).inNamespace(NS).withName(CLUSTER).get().getMetadata()
                .getAnnotations()).doesNotContainKey(RestoreAnnotations.RESTORING);
        assertThat(storage.opened).as("no preflight").isZero();
        assertThat(restore.getStatus().getPhase()).isEqualTo(how.equals("unknown phase") ? "Verifying" : null);
        assertThat(Conditions.find(restore.getStatus().getConditions(), EtcdRestoreReconciler.CONDITION_ENDED_ELSEWHERE))
                .hasValueSatisfying(c -> assertThat(c.getMessage()).contains("create a new EtcdRestore"));
    }

    /** A restore of ours whose spec is invalid is no restore that ended: fixed, it runs. */
    @Test
    void anInvalidSpecIsNotTakenForAnEndedRestore() {
        EtcdRestoreStatus invalid = new EtcdRestoreStatus();
        invalid.setSucceeded(false);
        invalid.setReason(dev.etcdoperator.core.status.SpecValidity.REASON_INVALID + ": spec.s3.path is required");
        assertThat(dev.etcdoperator.core.restore.RestoreEnd.endedElsewhere(invalid)).isEmpty();
        EtcdRestoreStatus fresh = new EtcdRestoreStatus();
        assertThat(dev.etcdoperator.core.restore.RestoreEnd.endedElsewhere(fresh)).isEmpty();
    }

    /** A seed pod of the restored cluster, made by it (its owner), whose snapshot fetch exited with {@code exit}. */
    void seedPod(String name, int exit) {
        client.resource(new PodBuilder().withNewMetadata().withName(name).withNamespace(NS)
                .addToLabels(ClusterResources.LABEL_CLUSTER, CLUSTER)
                .withOwnerReferences(ClusterResources.ownerReference(cluster(CLUSTER))).endMetadata()
                .withNewSpec().addNewContainer().withName("etcd").withImage("etcd").endContainer().endSpec()
                .withNewStatus().withPhase("Failed").addNewInitContainerStatus().withName(SnapshotFetch.CONTAINER)
                .withNewState().withNewTerminated().withExitCode(exit).endTerminated().endState()
                .endInitContainerStatus().endStatus().build()).create();
    }

    /** The preflight runs on a worker (here the calling thread); the reconcile after it takes its outcome. */
    /** A preflight, or the recording of the template's deletion, and the pass that acts on it. */
    void reconcile(EtcdRestore restore) {
        boolean preflight = restore.getStatus() == null || restore.getStatus().getPhase() == null
                || restore.getStatus().getPhase().equals(RestorePhase.Preflight.name());
        boolean deletionToRecord = !preflight && restore.getStatus().getPhase().equals(RestorePhase.Deleting.name())
                && !Boolean.TRUE.equals(restore.getStatus().getTemplateDeletionRequested());
        reconciler.reconcile(restore, null);
        if (preflight || deletionToRecord && restore.getStatus().getPhase().equals(RestorePhase.Deleting.name())) {
            reconciler.reconcile(restore, null);
        }
    }

    EtcdRestore create(String name, String cluster, String path, EtcdRestoreStatus status) {
        EtcdRestore restore = Serialization.unmarshal("""
                apiVersion: etcd.database.coreos.com/v1beta2
                kind: EtcdRestore
                metadata: {name: %s, namespace: %s}
                spec:
                  etcdCluster: {name: %s}
                  backupStorageType: S3
                  s3: {path: "%s", awsSecret: aws, endpoint: "http://s3.example:9000", forcePathStyle: true}
                """.formatted(name, NS, cluster, path), EtcdRestore.class);
        EtcdRestore created = client.resource(restore).create();
        created.setStatus(status);
        return created;
    }

    EtcdRestore afterPreflight(String name, RestorePhase phase) {
        return afterPreflight(name, phase, "uid-deleted-template");
    }

    /** A restore whose preflight passed on {@code CLUSTER} and {@code PATH} (ETag etag-1). */
    EtcdRestore afterPreflight(String name, RestorePhase phase, String templateUid) {
        EtcdRestore restore = create(name, CLUSTER, PATH, null);
        EtcdRestoreStatus status = new EtcdRestoreStatus();
        status.setPhase(phase.name());
        status.setTemplateUid(templateUid);
        status.setVerifiedSpec(Serialization.clone(restore.getSpec()));
        status.setClusterSpec(SavedClusterSpec.of(Serialization.unmarshal("size: 3\nversion: 3.6.16\n",
                dev.etcdoperator.api.v1beta2.EtcdClusterSpec.class)));
        status.setBackupSha256(SHA);
        status.setBackupETag("\"etag-1\"");
        EtcdCluster template = cluster(CLUSTER);
        status.setTemplateGeneration(template != null && templateUid.equals(template.getMetadata().getUid())
                ? template.getMetadata().getGeneration() : Long.valueOf(1L));
        if (templateUid.equals("uid-deleted-template")) {
            // a template this restore deleted
            status.setTemplateDeletionRequested(true);
        }
        restore.setStatus(status);
        EtcdRestore stored = client.resource(restore).update();
        stored.setStatus(status);
        return stored;
    }

    EtcdCluster template(String name, Map<String, String> annotations) {
        EtcdCluster cluster = Serialization.unmarshal("""
                apiVersion: etcd.database.coreos.com/v1beta2
                kind: EtcdCluster
                metadata: {name: %s, namespace: %s}
                spec: {size: 3, version: 3.6.16}
                """.formatted(name, NS), EtcdCluster.class);
        cluster.getMetadata().setAnnotations(new HashMap<>(annotations));
        return client.resource(cluster).create();
    }

    EtcdCluster cluster(String name) {
        return client.resources(EtcdCluster.class).inNamespace(NS).withName(name).get();
    }

    Secret foreignSecret(String name) {
        return client.resource(new SecretBuilder().withNewMetadata().withName(name).withNamespace(NS).endMetadata()
                .addToData("password", "aHVudGVyMg==").build()).create();
    }

    String secretUrl(String name) {
        return secretValue(name, "url");
    }

    String secretValue(String name, String key) {
        Secret s = client.secrets().inNamespace(NS).withName(name).get();
        return s.getStringData() != null && s.getStringData().get(key) != null ? s.getStringData().get(key)
                : new String(java.util.Base64.getDecoder().decode(s.getData().get(key)));
    }

    java.util.Set<String> secretKeys(String name) {
        Secret s = client.secrets().inNamespace(NS).withName(name).get();
        java.util.Set<String> keys = new java.util.TreeSet<>();
        if (s.getStringData() != null) {
            keys.addAll(s.getStringData().keySet());
        }
        if (s.getData() != null) {
            keys.addAll(s.getData().keySet());
        }
        return keys;
    }

    List<Event> warnings(String about) {
        return client.v1().events().inNamespace(NS).list().getItems().stream()
                .filter(e -> e.getInvolvedObject().getName().equals(about) && e.getType().equals("Warning")).toList();
    }

    /** A store in memory: which object each key holds now, and the URLs signed. */
    final class FakeStorage implements BackupStorage {
        final Map<String, ObjectVersion> objects = new HashMap<>();
        final List<String> signed = new java.util.ArrayList<>();
        /** Earlier versions kept in a bucket with versioning, by "key@versionId". */
        final Map<String, ObjectVersion> versions = new HashMap<>();
        int opened;
        final AtomicInteger signatures = new AtomicInteger();
        /** Whether the store refuses a link for another ETag than the one it was signed for. */
        boolean linksRefuseOtherObjects;
        /** Why the store does not serve the links it signs; null: it serves them. */
        BackupStorage.LinkRefusal linkRefusal;

        @Override
        public Store open(S3Settings settings) {
            opened++;
            return new Store() {
                @Override
                public VerifiedBackup verify(S3Location location) {
                    ObjectVersion object = objects.get(location.bucket() + "/" + location.key());
                    if (object == null) {
                        throw new BackupFailure(BackupFailure.S3_OBJECT_NOT_FOUND, location + " does not exist", false);
                    }
                    return new VerifiedBackup(1000, SHA, 42L, "3.6.16", object);
                }

                @Override
                public Optional<ObjectVersion> head(S3Location location, Instant deadline) {
                    return Optional.ofNullable(objects.get(location.bucket() + "/" + location.key()));
                }

                @Override
                public Optional<ObjectVersion> head(S3Location location, String versionId, Instant deadline) {
                    Optional<ObjectVersion> current = head(location, deadline);
                    if (versionId == null || current.isPresent() && versionId.equals(current.get().versionId())) {
                        return current;
                    }
                    return Optional.ofNullable(versions.get(location.bucket() + "/" + location.key() + "@"
                            + versionId));
                }

                @Override
                public String presignedGet(S3Location location, ObjectVersion object, Duration validFor) {
                    String url = "http://s3.example:9000/" + location + "?"
                            + (object.versionId() == null ? "" : "versionId=" + object.versionId() + "&")
                            + "if-match=" + object.etag() + "&expires=" + clock.instant().plus(validFor)
                            + "&n=" + signatures.incrementAndGet();
                    signed.add(url);
                    return url;
                }

                @Override
                public boolean linkRefusesOtherObjects(S3Location location, ObjectVersion object) {
                    return linksRefuseOtherObjects && object != null;
                }

                @Override
                public Optional<BackupStorage.LinkRefusal> linkRefusal(S3Location location, ObjectVersion object) {
                    return Optional.ofNullable(linkRefusal);
                }

                @Override
                public void checkBucket(String bucket, Instant deadline) {
                    throw new UnsupportedOperationException();
                }

                @Override
                public int cleanUpInterrupted(S3Location target, boolean periodic, String owner,
                        Instant startedBefore, Instant deadline) {
                    throw new UnsupportedOperationException();
                }

                @Override
                public Optional<StoredBackup> find(S3Location location, Instant deadline) {
                    throw new UnsupportedOperationException();
                }

                @Override
                public List<StoredBackup> periodicBackups(S3Location prefix, Instant deadline) {
                    return objects.keySet().stream().filter(k -> k.startsWith(prefix + "_v"))
                            .map(k -> new StoredBackup(k.substring(prefix.bucket().length() + 1), "ns/b", 1L, "c1"))
                            .toList();
                }

                @Override
                public Uploaded upload(InputStream snapshot, S3Location target, Map<String, String> metadata,
                        Instant deadline) {
                    throw new UnsupportedOperationException();
                }

                @Override
                public void delete(S3Location location, Instant deadline) {
                    throw new UnsupportedOperationException();
                }

                @Override
                public void close() {
                }
            };
        }
    }
}
