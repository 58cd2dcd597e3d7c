package dev.etcdoperator.sandbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.etcdoperator.api.v1beta2.EtcdBackup;
import dev.etcdoperator.api.v1beta2.EtcdBackupStatus;
import dev.etcdoperator.api.v1beta2.EtcdCluster;
import dev.etcdoperator.api.v1beta2.EtcdRestore;
import dev.etcdoperator.api.v1beta2.EtcdRestoreStatus;
import dev.etcdoperator.api.v1beta2.RestoreAnnotations;
import dev.etcdoperator.sandbox.support.Etcdctl;
import dev.etcdoperator.sandbox.support.Kubectl;
import dev.etcdoperator.sandbox.support.PrometheusText;
import dev.etcdoperator.sandbox.support.SandboxBackups;
import dev.etcdoperator.sandbox.support.SandboxClusters;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * The restore controller on the sandbox with real etcd and a real S3-compatible server: a cluster rebuilt from a
 * backup holds exactly the backup's data; bad backups and a missing template are refused with the running cluster
 * untouched; a cluster that lost quorum comes back from its latest periodic backup; the operator killed during
 * each phase finishes the restore after it starts again.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class EtcdRestoreIT {
    static final String NS = "default";
    static final String CLUSTER = "alpha";
    static final String BUCKET = Sandbox.S3_BUCKET;
    static final Duration WITHIN = Duration.ofSeconds(150);
    static Sandbox sandbox;
    static SandboxClusters clusters;
    static SandboxBackups backups;
    static S3Client s3;
    /** The data in the first backup, key to value. */
    static Map<String, String> firstBackup;

    @BeforeAll
    static void start() {
        sandbox = Sandbox.start(Sandbox.options().stateDir(Path.of("target", "sandbox-restore-it")).withS3()
                .operatorProperty("etcd-operator.cluster.reconcile-interval", "4s"));
        clusters = new SandboxClusters(sandbox.client(), NS);
        backups = new SandboxBackups(sandbox.client(), NS, WITHIN);
        s3 = sandbox.s3().client();
        clusters.create(CLUSTER, 3, "3.6.16");
        clusters.awaitConverged(CLUSTER, 3);
    }

    @AfterAll
    static void stop() {
        if (s3 != null) {
            s3.close();
        }
        if (sandbox != null) {
            sandbox.close();
        }
    }

    static KubernetesClient client() {
        return sandbox.client();
    }

    @Test
    @Order(1)
    void aRestoredClusterHoldsExactlyTheBackupsData() {
        Etcdctl etcdctl = new Etcdctl(clusters.endpoints(CLUSTER));
        for (int i = 0; i < 20; i++) {
            etcdctl.put("a-" + i, "value-" + i);
        }
        backup("b1", BUCKET + "/alpha/b1.db");
        firstBackup = dump();
        assertThat(firstBackup).hasSize(20);
        for (int i = 0; i < 10; i++) {
            etcdctl.put("later-" + i, "x");
        }
        for (int i = 0; i < 5; i++) {
            etcdctl.run("del", "a-" + i);
        }
        String before = uid();

        restore("r1", BUCKET + "/alpha/b1.db");
        EtcdRestoreStatus status = awaitRestored("r1");

        assertThat(uid()).isNotEqualTo(before);
        assertThat(dump()).isEqualTo(firstBackup);
        assertThat(status.getConditions()).filteredOn(c -> List.of("Preflight", "Deleting", "Restoring", "Growing", "Done")
                .contains(c.getType())).hasSize(5).allSatisfy(c -> assertThat(c.getStatus()).isEqualTo("True"));
        assertThat(status.getRestoredRevision()).isPositive();
        assertThat(reasons("r1")).contains("PreflightPassed", "TemplateDeleted", "ClusterCreated", "Restored");
        EtcdCluster restored = client().resources(EtcdCluster.class).inNamespace(NS).withName(CLUSTER).get();
        assertThat(restored.getMetadata().getAnnotations()).containsEntry("etcd.database.coreos.com/restored-by", "r1")
                .containsEntry("etcd.database.coreos.com/restored-from-uid", before);
        assertThat(restored.getSpec().getSize()).isEqualTo(3);
        // its seed runs once; the two members that joined it restart in place, a majority: the seed stays
        assertThat(clusters.pods(CLUSTER)).filteredOn(p -> "Never".equals(p.getSpec().getRestartPolicy()))
                .singleElement().satisfies(p -> assertThat(p.getMetadata().getName())
                        .isEqualTo(clusters.status(CLUSTER).getSeedMember()));
        assertThat(reasons(CLUSTER)).doesNotContain("LeaderMoved");
        // MinIO binds the seed's link to the verified object: the seed started beside the template and was handed over
        assertThat(reasons("r1")).contains("SeedStaged", "StagedSeedAdopted");
        assertThat(status.getStagedSeed()).isEqualTo(clusters.status(CLUSTER).getSeedMember());
        assertThat(clusters.status(CLUSTER).getConditions()).filteredOn(c -> "RestoreSnapshot".equals(c.getType()))
                .singleElement().satisfies(c -> assertThat(c.getStatus()).isEqualTo("True"));
        assertThat(status.getBackupETag()).isNotBlank();
        assertThat(status.getVerifiedSpec().getS3().getPath()).isEqualTo(BUCKET + "/alpha/b1.db");
        await().atMost(WITHIN).untilAsserted(() -> assertThat(client().secrets().inNamespace(NS)
                .withName("r1-snapshot").get()).as("the snapshot Secret is deleted when the restore ends").isNull());
    }

    @Test
    @Order(2)
    void theSpecOfARestoreWhosePreflightPassedCannotChange() {
        assertThatThrownBy(() -> Edits.edit(client().resources(EtcdRestore.class).inNamespace(NS).withName("r1"), r -> {
            r.getSpec().getS3().setPath(BUCKET + "/alpha/other.db");
            return r;
        }))
                .isInstanceOfSatisfying(KubernetesClientException.class, e -> {
                    assertThat(e.getCode()).isEqualTo(422);
                    assertThat(e.getMessage()).contains("cannot change once its preflight passed");
                });
        // a store that cannot be reached keeps the preflight retrying: its spec may be corrected
        client().resource(Serialization.unmarshal("""
                apiVersion: etcd.database.coreos.com/v1beta2
                kind: EtcdRestore
                metadata: {name: not-started, namespace: %s}
                spec:
                  etcdCluster: {name: %s}
                  backupStorageType: S3
                  s3: {path: "%s/alpha/b1.db", awsSecret: aws, endpoint: "http://127.0.0.1:1", forcePathStyle: true}
                """.formatted(NS, CLUSTER, BUCKET), EtcdRestore.class)).create();
        await().atMost(WITHIN).until(() -> restoreStatus("not-started").getConsecutiveFailures() != null);
        assertThat(restoreStatus("not-started").getPhase()).isIn(null, "Preflight");
        EtcdRestore edited = Edits.edit(client().resources(EtcdRestore.class).inNamespace(NS).withName("not-started"),
                r -> {
                    r.getSpec().getS3().setPath(BUCKET + "/alpha/other.db");
                    return r;
                });
        assertThat(edited.getSpec().getS3().getPath()).endsWith("other.db");
        client().resource(edited).delete();
    }

    @Test
    @Order(2)
    void aSecretOfTheSnapshotsNameIsNeverTakenOver() {
        client().resource(new SecretBuilder().withNewMetadata().withName("taken-snapshot").withNamespace(NS)
                .endMetadata().addToStringData("password", "hunter2").build()).create();
        EtcdRestoreStatus status = assertRefusedUntouched("taken", BUCKET + "/alpha/b1.db", "SnapshotSecretInUse");
        assertThat(status.getReason()).contains("taken-snapshot");
        Secret secret = client().secrets().inNamespace(NS).withName("taken-snapshot").get();
        assertThat(secret.getData()).containsOnlyKeys("password");
        assertThat(secret.getMetadata().getOwnerReferences()).isNullOrEmpty();
    }

    @Test
    @Order(2)
    void aMissingObjectIsRefusedAndTheClusterKeepsRunning() {
        assertRefusedUntouched("missing", BUCKET + "/alpha/none.db", "S3ObjectNotFound");
    }

    @Test
    @Order(3)
    void aTruncatedObjectIsRefused() throws Exception {
        byte[] whole = s3.getObjectAsBytes(b -> b.bucket(BUCKET).key("alpha/b1.db")).asByteArray();
        byte[] cut = Arrays.copyOf(whole, whole.length - 1000);
        s3.putObject(b -> b.bucket(BUCKET).key("alpha/truncated.db"), RequestBody.fromBytes(cut));
        EtcdRestoreStatus status = assertRefusedUntouched("truncated", BUCKET + "/alpha/truncated.db", "VerificationFailed");
        assertThat(status.getReason()).contains("truncated");
    }

    @Test
    @Order(4)
    void anObjectWithAFlippedByteIsRefused() {
        // the same metadata and checksum tags as the backup, one bit changed
        Map<String, String> metadata = s3.headObject(b -> b.bucket(BUCKET).key("alpha/b1.db")).metadata();
        var tags = s3.getObjectTagging(b -> b.bucket(BUCKET).key("alpha/b1.db")).tagSet();
        byte[] bytes = s3.getObjectAsBytes(b -> b.bucket(BUCKET).key("alpha/b1.db")).asByteArray();
        bytes[bytes.length / 2] ^= 0x10;
        s3.putObject(b -> b.bucket(BUCKET).key("alpha/flipped.db").metadata(metadata)
                .tagging(software.amazon.awssdk.services.s3.model.Tagging.builder().tagSet(tags).build()),
                RequestBody.fromBytes(bytes));
        EtcdRestoreStatus status = assertRefusedUntouched("flipped", BUCKET + "/alpha/flipped.db", "VerificationFailed");
        assertThat(status.getReason()).contains("checksum");
    }

    /**
     * A running template whose spec.pod the API server would refuse in a new pod (its pods were made before the spec
     * changed): the preflight asks in a dry run, and the template stays.
     */
    @Test
    @Order(4)
    void aTemplateWhosePodsTheApiServerWouldRefuseIsKept() {
        Edits.edit(client().resources(EtcdCluster.class).inNamespace(NS).withName(CLUSTER), c -> {
            if (c.getSpec().getPod() == null) {
                c.getSpec().setPod(new dev.etcdoperator.api.v1beta2.PodPolicy());
            }
            c.getSpec().getPod().setResources(new io.fabric8.kubernetes.api.model.ResourceRequirementsBuilder()
                    .addToRequests("cpu", new io.fabric8.kubernetes.api.model.Quantity("2"))
                    .addToLimits("cpu", new io.fabric8.kubernetes.api.model.Quantity("1")).build());
            return c;
        });
        try {
            EtcdRestoreStatus status = assertRefusedUntouched("refused-pods", BUCKET + "/alpha/b1.db",
                    "TemplateRefusedByApiServer");
            assertThat(status.getReason()).contains("cpu", "Fix spec.pod");
        } finally {
            Edits.edit(client().resources(EtcdCluster.class).inNamespace(NS).withName(CLUSTER), c -> {
                c.getSpec().getPod().setResources(null);
                return c;
            });
        }
    }

    /**
     * The restored cluster carries the template's annotations and the restore's own: with the template's filling the
     * API server's limit for them (256 KiB together), the restored cluster could never be created, and the template
     * is kept.
     */
    @Test
    @Order(5)
    void aTemplateWhoseRestoredClusterTheApiServerWouldRefuseIsKept() {
        String key = "example.com/note";
        Edits.edit(client().resources(EtcdCluster.class).inNamespace(NS).withName(CLUSTER), c -> {
            Map<String, String> kept = new java.util.HashMap<>(c.getMetadata().getAnnotations() == null ? Map.of()
                    : c.getMetadata().getAnnotations());
            // an earlier restore's marks go (a restore replaces them), and 100 bytes are left: this one's need more
            kept.keySet().removeIf(k -> k.startsWith("etcd.database.coreos.com/restore") || k.equals(key));
            int others = kept.entrySet().stream().mapToInt(e -> e.getKey().length() + e.getValue().length()).sum();
            kept.put(key, "n".repeat(256 * 1024 - 100 - key.length() - others));
            c.getMetadata().setAnnotations(kept);
            return c;
        });
        try {
            EtcdRestoreStatus status = assertRefusedUntouched("annotations-full", BUCKET + "/alpha/b1.db",
                    "TemplateRefusedByApiServer");
            assertThat(status.getReason()).contains("in its place", "annotations");
        } finally {
            Edits.edit(client().resources(EtcdCluster.class).inNamespace(NS).withName(CLUSTER), c -> {
                c.getMetadata().getAnnotations().remove(key);
                return c;
            });
        }
    }

    @Test
    @Order(6)
    void wrongCredentialsAreRefused() {
        client().resource(new SecretBuilder().withNewMetadata().withName("wrong").withNamespace(NS).endMetadata()
                .addToStringData("credentials", "[default]\naws_access_key_id = " + sandbox.s3().accessKey()
                        + "\naws_secret_access_key = not-the-secret\n")
                .addToStringData("config", "[default]\nregion = us-east-1\n").build()).create();
        String uid = uid();
        client().resource(Serialization.unmarshal("""
                apiVersion: etcd.database.coreos.com/v1beta2
                kind: EtcdRestore
                metadata: {name: wrong-keys, namespace: %s}
                spec:
                  etcdCluster: {name: %s}
                  backupStorageType: S3
                  s3: {path: "%s/alpha/b1.db", awsSecret: wrong, endpoint: "%s", forcePathStyle: true}
                """.formatted(NS, CLUSTER, BUCKET, sandbox.s3().endpoint()), EtcdRestore.class)).create();
        EtcdRestoreStatus status = awaitFailed("wrong-keys", "S3AccessDenied");
        assertThat(status.getReason()).contains("SignatureDoesNotMatch").contains("nothing was changed");
        assertThat(uid()).isEqualTo(uid);
    }

    @Test
    @Order(7)
    void theMetricsCountRestoresDoneAndFailed() {
        PrometheusText m = PrometheusText.parse(sandbox.operator().get("/q/metrics").body());
        assertThat(m.value("etcd_operator_restores_total", "restore", "r1", "etcd_cluster", CLUSTER, "result", "success")).isEqualTo(1.0);
        assertThat(m.value("etcd_operator_restores_total", "restore", "missing", "result", "failure")).isEqualTo(1.0);
        assertThat(m.series("etcd_operator_restores_total", "restore", "r1", "result", "failure")).isEmpty();
    }

    @Test
    @Order(8)
    void aClientSideEncryptedBackupRestoresWithItsKeyAndAnotherKeyIsRefusedBeforeAnythingChanges() {
        keySecret("backup-key");
        keySecret("other-key");
        Etcdctl etcdctl = new Etcdctl(clusters.endpoints(CLUSTER));
        for (int i = 0; i < 10; i++) {
            etcdctl.put("enc-" + i, "secret-" + i);
        }
        applyBackup("benc", """
                etcdCluster: {name: %s}
                s3: {path: %s/alpha/enc.db, awsSecret: aws, endpoint: "%s", forcePathStyle: true,
                     clientSideEncryption: {secretName: backup-key}}
                """.formatted(CLUSTER, BUCKET, sandbox.s3().endpoint()));
        EtcdBackupStatus backup = backups.awaitSucceeded("benc");
        Map<String, String> backedUp = dump();
        String path = BUCKET + "/alpha/enc.db";

        EtcdRestoreStatus wrong = assertRefusedUntouched("enc-wrong-key", path, "DecryptionFailed",
                ", clientSideEncryption: {secretName: other-key}");
        assertThat(wrong.getReason()).contains(backup.getEncryptionKeyFingerprint());
        assertThat(assertRefusedUntouched("enc-no-key", path, "DecryptionFailed", "").getReason())
                .contains("s3.clientSideEncryption");

        etcdctl.put("enc-later", "not in the backup");
        apply("enc-r", CLUSTER, path, ", clientSideEncryption: {secretName: backup-key}");
        EtcdRestoreStatus restored = awaitRestored("enc-r");
        assertThat(dump()).isEqualTo(backedUp);
        assertThat(restored.getBackupSha256()).isEqualTo(backup.getBackupSha256());
        assertThat(restored.getSnapshotSha256()).isEqualTo(backup.getSnapshotSha256());
    }

    /**
     * The seed of an encrypted backup downloads it from the operator, on a link that lives in the operator's memory:
     * an operator restarted once the seed pod exists makes the link again (or starts the seed again with a fresh
     * one when its download was refused), and the restore finishes with the backup's data.
     */
    @Test
    @Order(9)
    void anOperatorRestartedWhileTheSeedOfAnEncryptedRestoreStartsFinishesTheRestore() {
        Etcdctl etcdctl = new Etcdctl(clusters.endpoints(CLUSTER));
        for (int i = 0; i < 10; i++) {
            etcdctl.put("restart-" + i, "before the backup " + i);
        }
        String path = BUCKET + "/alpha/enc-restart.db";
        applyBackup("benc-restart", """
                etcdCluster: {name: %s}
                s3: {path: %s, awsSecret: aws, endpoint: "%s", forcePathStyle: true,
                     clientSideEncryption: {secretName: backup-key}}
                """.formatted(CLUSTER, path, sandbox.s3().endpoint()));
        backups.awaitSucceeded("benc-restart");
        Map<String, String> backedUp = dump();
        etcdctl.put("restart-later", "not in the backup");

        apply("enc-restart", CLUSTER, path, ", clientSideEncryption: {secretName: backup-key}");
        await().atMost(WITHIN).pollInterval(Duration.ofMillis(20)).until(() -> "Restoring".equals(
                restoreStatus("enc-restart").getPhase()) && !clusters.pods(CLUSTER).isEmpty());
        sandbox.stopOperator();
        sandbox.startOperator();

        EtcdRestoreStatus restored = awaitRestored("enc-restart");
        assertThat(dump()).isEqualTo(backedUp);
        assertThat(reasons("enc-restart")).doesNotContain("SeedRestoreFailed");
        assertThat(restored.getSeedRetries() == null ? 0 : restored.getSeedRetries()).isLessThanOrEqualTo(1);
    }

    static void keySecret(String name) {
        byte[] key = new byte[32];
        new java.security.SecureRandom().nextBytes(key);
        client().resource(new SecretBuilder().withNewMetadata().withName(name).withNamespace(NS).endMetadata()
                .addToData("key", java.util.Base64.getEncoder().encodeToString(key)).build()).create();
    }

    @Test
    @Order(5)
    void aMissingTemplateClusterIsRefused() {
        apply("no-template", "nosuchcluster", BUCKET + "/alpha/b1.db");
        EtcdRestoreStatus status = awaitFailed("no-template", "TemplateNotFound");
        assertThat(status.getPhase()).isEqualTo("Failed");
        assertThat(client().resources(EtcdCluster.class).inNamespace(NS).withName("nosuchcluster").get()).isNull();
    }

    @Test
    @Order(5)
    void aPausedTemplateClusterIsRefusedAndLeftAsItIs() {
        client().resource(Serialization.unmarshal("""
                apiVersion: etcd.database.coreos.com/v1beta2
                kind: EtcdCluster
                metadata: {name: held, namespace: %s}
                spec: {size: 1, version: 3.6.16, paused: true}
                """.formatted(NS), EtcdCluster.class)).create();
        String uid = client().resources(EtcdCluster.class).inNamespace(NS).withName("held").get().getMetadata().getUid();
        apply("paused-template", "held", BUCKET + "/alpha/b1.db");
        EtcdRestoreStatus status = awaitFailed("paused-template", "TemplatePaused");
        assertThat(status.getReason()).contains("spec.paused").contains("nothing was changed");
        EtcdCluster held = client().resources(EtcdCluster.class).inNamespace(NS).withName("held").get();
        assertThat(held.getMetadata().getUid()).isEqualTo(uid);
        assertThat(held.getMetadata().getAnnotations() == null ? Map.of() : held.getMetadata().getAnnotations())
                .doesNotContainKey(RestoreAnnotations.RESTORING);
        client().resource(held).delete();
    }

    @Test
    @Order(10)
    void aClusterThatLostQuorumComesBackFromItsLatestPeriodicBackup() {
        Etcdctl etcdctl = new Etcdctl(clusters.endpoints(CLUSTER));
        for (int i = 0; i < 10; i++) {
            etcdctl.put("q-" + i, "quorum-" + i);
        }
        applyBackup("every", """
                etcdCluster: {name: %s}
                backupPolicy: {backupIntervalInSecond: 2, maxBackups: 2}
                s3: {path: %s/alpha/periodic, awsSecret: aws, endpoint: "%s", forcePathStyle: true}
                """.formatted(CLUSTER, BUCKET, sandbox.s3().endpoint()));
        await().atMost(WITHIN).until(() -> backupStatus("every").getSucceeded() == Boolean.TRUE);
        Map<String, String> expected = dump();
        Edits.edit(client().resources(EtcdBackup.class).inNamespace(NS).withName("every"), b -> {
            b.getSpec().getBackupPolicy().setBackupIntervalInSecond(3600L);
            return b;
        });
        String latest = backupStatus("every").getBackupPath();
        assertThat(s3.getObjectTagging(b -> b.bucket(BUCKET).key(latest.substring(BUCKET.length() + 1))).tagSet())
                .as("the checksum recorded with the backup").anyMatch(t -> t.key().equals("etcd-backup-sha256"));
        List<Pod> pods = clusters.pods(CLUSTER);
        for (Pod victim : pods.subList(0, 2)) {
            clusters.loseForGood(victim);
        }
        await().atMost(WITHIN).until(() -> "QuorumLost".equals(clusters.status(CLUSTER).getReason()));
        // what survives can still be saved: a snapshot needs no quorum
        Pod survivor = pods.get(2);
        applyBackup("last-words", """
                etcdEndpoints: ["http://%s.%s.%s.svc:2379"]
                s3: {path: %s/alpha/last-words.db, awsSecret: aws, endpoint: "%s", forcePathStyle: true}
                """.formatted(survivor.getMetadata().getName(), CLUSTER, NS, BUCKET, sandbox.s3().endpoint()));
        backups.awaitSucceeded("last-words");
        assertThat(backupStatus("last-words").getEtcdRevision()).isGreaterThanOrEqualTo(backupStatus("every").getEtcdRevision());

        restore("after-quorum-loss", latest);
        awaitRestored("after-quorum-loss");
        assertThat(dump()).isEqualTo(expected);
    }

    /**
     * A restored cluster's seed restores the snapshot in its init containers once, and its pod does not start etcd
     * again: in a cluster of one the operator replaces it by a member whose pod does (moving the leadership to it
     * first). The cluster then keeps its data when its etcd is killed.
     */
    @Test
    @Order(11)
    void aRestoredClusterOfOneKeepsItsDataWhenItsEtcdIsKilled() {
        clusters.create("solo", 1, "3.6.16");
        clusters.awaitConverged("solo", 1);
        Etcdctl etcdctl = new Etcdctl(clusters.endpoints("solo"));
        for (int i = 0; i < 10; i++) {
            etcdctl.put("solo-" + i, "value-" + i);
        }
        String path = BUCKET + "/solo/s1.db";
        applyBackup("solo-backup", """
                etcdCluster: {name: solo}
                s3: {path: %s, awsSecret: aws, endpoint: "%s", forcePathStyle: true}
                """.formatted(path, sandbox.s3().endpoint()));
        backups.awaitSucceeded("solo-backup");
        apply("solo-restore", "solo", path);
        await().atMost(WITHIN).until(() -> restoreStatus("solo-restore").getSucceeded() == Boolean.TRUE);
        String seed = clusters.status("solo").getSeedMember();

        await().atMost(WITHIN).untilAsserted(() -> assertThat(clusters.pods("solo")).singleElement()
                .satisfies(p -> assertThat(p.getSpec().getRestartPolicy()).isEqualTo("Always")));
        clusters.awaitConverged("solo", 1);
        Pod member = clusters.pods("solo").get(0);
        assertThat(member.getMetadata().getName()).isNotEqualTo(seed);
        assertThat(clusters.events("solo")).anySatisfy(e -> {
            assertThat(e.getReason()).isEqualTo("MemberAdded");
            assertThat(e.getMessage()).contains("to replace member " + seed);
        }).anySatisfy(e -> {
            assertThat(e.getReason()).isEqualTo("LeaderMoved");
            assertThat(e.getMessage()).contains("from member " + seed);
        }).anySatisfy(e -> {
            assertThat(e.getReason()).isEqualTo("MemberRemoved");
            assertThat(e.getMessage()).contains(seed, "a member whose pod does has been added in its place");
        });
        await().atMost(WITHIN).until(() -> clusters.endpointList("solo").size() == 1);
        assertThat(keys("solo")).hasSize(10);

        ProcessHandle.of(SandboxClusters.pid(member)).ifPresent(ProcessHandle::destroyForcibly);
        await().atMost(WITHIN).until(() -> clusters.pods("solo"), pods -> pods.size() == 1
                && pods.get(0).getMetadata().getUid().equals(member.getMetadata().getUid())
                && SandboxClusters.restarts(pods.get(0)) >= 1);
        clusters.awaitConverged("solo", 1);
        // the status may still tell of the member before the kill: its pod ready again is what says it serves
        await().atMost(WITHIN).until(() -> clusters.endpointList("solo").size() == 1);
        assertThat(keys("solo")).as("the restored data, after its only etcd was killed").hasSize(10);
        client().resources(EtcdCluster.class).inNamespace(NS).withName("solo").delete();
    }

    /**
     * The manifest of a restore applied again after the first one was deleted: the cluster that restore made is its
     * template now, and is restored again, not taken for the cluster the restore makes.
     */
    @Test
    @Order(12)
    void aRestoreAppliedAgainUnderTheSameNameRestoresAgain() {
        clusters.create("again", 1, "3.6.16");
        clusters.awaitConverged("again", 1);
        for (int i = 0; i < 5; i++) {
            new Etcdctl(clusters.endpoints("again")).put("again-" + i, "value-" + i);
        }
        String path = BUCKET + "/again/a1.db";
        applyBackup("again-backup", """
                etcdCluster: {name: again}
                s3: {path: %s, awsSecret: aws, endpoint: "%s", forcePathStyle: true}
                """.formatted(path, sandbox.s3().endpoint()));
        backups.awaitSucceeded("again-backup");
        apply("again-restore", "again", path);
        await().atMost(WITHIN).until(() -> restoreStatus("again-restore").getSucceeded() == Boolean.TRUE);
        client().resources(EtcdRestore.class).inNamespace(NS).withName("again-restore").delete();
        await().atMost(WITHIN).until(() -> client().resources(EtcdRestore.class).inNamespace(NS)
                .withName("again-restore").get() == null);
        clusters.awaitConverged("again", 1);
        new Etcdctl(clusters.endpoints("again")).put("written-after-the-first-restore", "x");
        assertThat(keys("again")).hasSize(6);
        String restoredOnce = client().resources(EtcdCluster.class).inNamespace(NS).withName("again").get()
                .getMetadata().getUid();

        apply("again-restore", "again", path);
        await().atMost(WITHIN).untilAsserted(() -> assertThat(restoreStatus("again-restore").getSucceeded())
                .as("phase %s, %s", restoreStatus("again-restore").getPhase(), restoreStatus("again-restore")
                        .getReason()).isTrue());
        assertThat(reasons("again-restore")).contains("TemplateDeleted", "ClusterCreated", "Restored");
        assertThat(client().resources(EtcdCluster.class).inNamespace(NS).withName("again").get().getMetadata()
                .getUid()).isNotEqualTo(restoredOnce);
        clusters.awaitConverged("again", 1);
        await().atMost(WITHIN).until(() -> clusters.endpointList("again").size() == 1);
        assertThat(keys("again")).as("the backup's data, without the key written after the first restore")
                .containsExactlyInAnyOrder("again-0", "again-1", "again-2", "again-3", "again-4");
        client().resources(EtcdCluster.class).inNamespace(NS).withName("again").delete();
    }

    /**
     * The backup object overwritten after the template was deleted, before the restored cluster is created: the
     * seed started beside the template has downloaded the verified version whole by then, and is the only copy of
     * the data left; the restore goes on with it instead of failing and deleting it.
     */
    @Test
    @Order(13)
    void aBackupReplacedAfterTheTemplateIsGoneIsRestoredFromTheStagedSeedsCopy() {
        clusters.create("held", 1, "3.6.16");
        clusters.awaitConverged("held", 1);
        for (int i = 0; i < 5; i++) {
            new Etcdctl(clusters.endpoints("held")).put("held-" + i, "value-" + i);
        }
        String key = "held/h1.db";
        applyBackup("held-backup", """
                etcdCluster: {name: held}
                s3: {path: %s/%s, awsSecret: aws, endpoint: "%s", forcePathStyle: true}
                """.formatted(BUCKET, key, sandbox.s3().endpoint()));
        backups.awaitSucceeded("held-backup");
        // the template's deletion waits on this finalizer until the object is replaced
        Edits.edit(client().resources(EtcdCluster.class).inNamespace(NS).withName("held"), c -> {
            c.getMetadata().getFinalizers().add("etcd-operator.test/hold");
            return c;
        });
        apply("held-restore", "held", BUCKET + "/" + key);
        await().atMost(WITHIN).until(() -> {
            EtcdCluster c = client().resources(EtcdCluster.class).inNamespace(NS).withName("held").get();
            return c != null && c.getMetadata().getDeletionTimestamp() != null;
        });
        String staged = restoreStatus("held-restore").getStagedSeed();
        assertThat(staged).as("the seed started beside the template").isNotNull();
        await().atMost(WITHIN).until(() -> {
            Pod pod = client().pods().inNamespace(NS).withName(staged).get();
            return pod != null && pod.getStatus() != null && pod.getStatus().getInitContainerStatuses() != null
                    && pod.getStatus().getInitContainerStatuses().stream().anyMatch(st -> "fetch-snapshot".equals(
                            st.getName()) && st.getState().getTerminated() != null);
        });
        s3.putObject(b -> b.bucket(BUCKET).key(key), RequestBody.fromString("not the backup any more"));
        Edits.edit(client().resources(EtcdCluster.class).inNamespace(NS).withName("held"), c -> {
            c.getMetadata().getFinalizers().remove("etcd-operator.test/hold");
            return c;
        });

        await().atMost(WITHIN).untilAsserted(() -> assertThat(restoreStatus("held-restore").getSucceeded())
                .as("phase %s, %s", restoreStatus("held-restore").getPhase(), restoreStatus("held-restore")
                        .getReason()).isTrue());
        assertThat(reasons("held-restore")).contains("BackupChanged", "StagedSeedAdopted", "Restored");
        clusters.awaitConverged("held", 1);
        await().atMost(WITHIN).until(() -> clusters.endpointList("held").size() == 1);
        assertThat(keys("held")).containsExactlyInAnyOrder("held-0", "held-1", "held-2", "held-3", "held-4");
        client().resources(EtcdCluster.class).inNamespace(NS).withName("held").delete();
    }

    static List<String> keys(String cluster) {
        String out = new Etcdctl(clusters.endpoints(cluster)).run("get", "", "--prefix", "--keys-only").output();
        return Arrays.stream(out.split("\n")).map(String::strip).filter(k -> !k.isEmpty()).toList();
    }

    /**
     * An EtcdRestore deleted after it deleted the template, while the template (held here by a finalizer of the
     * test's) still goes: it stays until the restored cluster runs on the backup's data, then goes.
     */
    @Test
    @Order(19)
    void anEtcdRestoreDeletedAfterItDeletedTheTemplateFinishesTheClusterFirst() {
        Map<String, String> data = dump();
        String path = BUCKET + "/alpha/held.db";
        backup("for-held", path);
        String hold = "example.com/test-hold";
        Edits.edit(client().resources(EtcdCluster.class).inNamespace(NS).withName(CLUSTER), c -> {
            c.getMetadata().setFinalizers(new java.util.ArrayList<>(List.of(hold)));
            return c;
        });
        String templateUid = uid();
        apply("held", CLUSTER, path);
        await().atMost(WITHIN).until(() -> client().resources(EtcdCluster.class).inNamespace(NS).withName(CLUSTER)
                .get().getMetadata().getDeletionTimestamp() != null);
        EtcdRestore held = client().resources(EtcdRestore.class).inNamespace(NS).withName("held").get();
        assertThat(held.getMetadata().getFinalizers()).contains("etcd.database.coreos.com/restore");

        client().resources(EtcdRestore.class).inNamespace(NS).withName("held").delete();
        EtcdRestore deleted = client().resources(EtcdRestore.class).inNamespace(NS).withName("held").get();
        assertThat(deleted).as("held by its finalizer").isNotNull();
        assertThat(deleted.getMetadata().getDeletionTimestamp()).isNotNull();
        Edits.edit(client().resources(EtcdCluster.class).inNamespace(NS).withName(CLUSTER), c -> {
            c.getMetadata().setFinalizers(null);
            return c;
        });

        await().atMost(WITHIN).until(() -> client().resources(EtcdRestore.class).inNamespace(NS).withName("held")
                .get() == null);
        EtcdCluster restored = client().resources(EtcdCluster.class).inNamespace(NS).withName(CLUSTER).get();
        assertThat(restored).as("the restored cluster was created before the EtcdRestore went").isNotNull();
        assertThat(restored.getMetadata().getUid()).isNotEqualTo(templateUid);
        assertThat(restored.getMetadata().getAnnotations()).containsEntry("etcd.database.coreos.com/restored-by",
                "held");
        clusters.awaitConverged(CLUSTER, 3);
        assertThat(dump()).isEqualTo(data);
    }

    @Test
    @Order(20)
    void anOperatorKilledInEachPhaseFinishesTheRestore() {
        Map<String, String> data = dump();
        String path = BUCKET + "/alpha/for-kills.db";
        backup("for-kills", path);
        int n = 0;
        for (String phase : List.of("Preflight", "Deleting", "Restoring", "Growing")) {
            String name = "killed-in-" + phase.toLowerCase();
            restore(name, path);
            if (!phase.equals("Preflight")) {
                await().atMost(WITHIN).pollInterval(Duration.ofMillis(20)).until(() -> phase.equals(restoreStatus(name).getPhase()));
            }
            sandbox.operator().kill();
            sandbox.startOperator();
            awaitRestored(name);
            assertThat(dump()).as("after the operator was killed in %s", phase).isEqualTo(data);
            assertThat(client().resources(EtcdCluster.class).inNamespace(NS).list().getItems())
                    .extracting(c -> c.getMetadata().getName()).containsOnlyOnce(CLUSTER);
            n++;
        }
        assertThat(n).isEqualTo(4);
    }

    // ---- helpers

    static EtcdRestoreStatus assertRefusedUntouched(String name, String path, String reason) {
        return assertRefusedUntouched(name, path, reason, "");
    }

    /** @param s3Fields more fields of {@code spec.s3}, each with a leading comma */
    static EtcdRestoreStatus assertRefusedUntouched(String name, String path, String reason, String s3Fields) {
        String uid = uid();
        Map<String, String> before = dump();
        List<String> podsBefore = clusters.pods(CLUSTER).stream().map(p -> p.getMetadata().getUid()).sorted().toList();
        apply(name, CLUSTER, path, s3Fields);
        EtcdRestoreStatus status = awaitFailed(name, reason);
        assertThat(status.getPhase()).isEqualTo("Failed");
        assertThat(status.getReason()).contains("nothing was changed");
        assertThat(uid()).isEqualTo(uid);
        assertThat(clusters.pods(CLUSTER).stream().map(p -> p.getMetadata().getUid()).sorted().toList()).isEqualTo(podsBefore);
        assertThat(dump()).isEqualTo(before);
        EtcdCluster cluster = client().resources(EtcdCluster.class).inNamespace(NS).withName(CLUSTER).get();
        assertThat(cluster.getMetadata().getAnnotations() == null ? Map.of() : cluster.getMetadata().getAnnotations())
                .doesNotContainKey("etcd.database.coreos.com/restoring");
        String restoreUid = client().resources(EtcdRestore.class).inNamespace(NS).withName(name).get().getMetadata()
                .getUid();
        await().atMost(WITHIN).untilAsserted(() -> assertThat(client().pods().inNamespace(NS).list().getItems())
                .as("a seed the refused restore started beside the template is deleted")
                .noneMatch(p -> p.getMetadata().getOwnerReferences() != null && p.getMetadata().getOwnerReferences()
                        .stream().anyMatch(o -> restoreUid.equals(o.getUid()))));
        return status;
    }

    static void restore(String name, String path) {
        apply(name, CLUSTER, path);
    }

    static void apply(String name, String cluster, String path) {
        apply(name, cluster, path, "");
    }

    /** @param s3Fields more fields of {@code spec.s3}, each with a leading comma */
    static void apply(String name, String cluster, String path, String s3Fields) {
        client().resource(Serialization.unmarshal("""
                apiVersion: etcd.database.coreos.com/v1beta2
                kind: EtcdRestore
                metadata: {name: %s, namespace: %s}
                spec:
                  etcdCluster: {name: %s}
                  backupStorageType: S3
                  s3: {path: "%s", awsSecret: aws, endpoint: "%s", forcePathStyle: true%s}
                """.formatted(name, NS, cluster, path, sandbox.s3().endpoint(), s3Fields), EtcdRestore.class)).create();
    }

    static EtcdRestoreStatus restoreStatus(String name) {
        EtcdRestore r = client().resources(EtcdRestore.class).inNamespace(NS).withName(name).get();
        return r == null || r.getStatus() == null ? new EtcdRestoreStatus() : r.getStatus();
    }

    /** Succeeded, and the cluster is available at full size at that moment. */
    static EtcdRestoreStatus awaitRestored(String name) {
        await().atMost(WITHIN).untilAsserted(() -> assertThat(restoreStatus(name).getSucceeded())
                .as("%s: phase %s, %s", name, restoreStatus(name).getPhase(), restoreStatus(name).getReason()).isTrue());
        clusters.awaitConverged(CLUSTER, 3);
        return restoreStatus(name);
    }

    static EtcdRestoreStatus awaitFailed(String name, String reason) {
        await().atMost(WITHIN).untilAsserted(() -> {
            EtcdRestoreStatus s = restoreStatus(name);
            assertThat(s.getSucceeded()).isFalse();
            assertThat(s.getReason()).startsWith(reason + ": ");
        });
        await().atMost(WITHIN).untilAsserted(() -> assertThat(clusters.events(name)).anySatisfy(e -> {
            assertThat(e.getType()).isEqualTo("Warning");
            assertThat(e.getReason()).isEqualTo(reason);
        }));
        return restoreStatus(name);
    }

    static void backup(String name, String path) {
        applyBackup(name, """
                etcdCluster: {name: %s}
                s3: {path: %s, awsSecret: aws, endpoint: "%s", forcePathStyle: true}
                """.formatted(CLUSTER, path, sandbox.s3().endpoint()));
        backups.awaitSucceeded(name);
    }

    static void applyBackup(String name, String spec) {
        backups.apply(name, spec);
    }

    static EtcdBackupStatus backupStatus(String name) {
        return backups.status(name);
    }

    static String uid() {
        return client().resources(EtcdCluster.class).inNamespace(NS).withName(CLUSTER).get().getMetadata().getUid();
    }

    static List<String> reasons(String name) {
        return clusters.events(name).stream().map(Event::getReason).toList();
    }

    /** Every key of the cluster with its value. */
    static Map<String, String> dump() {
        Kubectl.Result r = new Etcdctl(clusters.endpoints(CLUSTER)).run("get", "", "--prefix");
        assertThat(r.ok()).as(r.output()).isTrue();
        List<String> lines = Arrays.stream(r.output().split("\n")).toList();
        Map<String, String> keys = new LinkedHashMap<>();
        for (int i = 0; i + 1 < lines.size(); i += 2) {
            keys.put(lines.get(i), lines.get(i + 1));
        }
        return keys;
    }
}
