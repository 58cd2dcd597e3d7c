package dev.etcdoperator.sandbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.etcdoperator.api.v1beta2.EtcdBackup;
import dev.etcdoperator.api.v1beta2.EtcdBackupStatus;
import dev.etcdoperator.api.v1beta2.EtcdCluster;
import dev.etcdoperator.sandbox.s3.S3Server;
import dev.etcdoperator.sandbox.support.Etcdctl;
import dev.etcdoperator.sandbox.support.PrometheusText;
import dev.etcdoperator.sandbox.support.RestoredEtcd;
import dev.etcdoperator.sandbox.support.SandboxBackups;
import dev.etcdoperator.sandbox.support.SandboxClusters;
import dev.etcdoperator.storage.BackupCipher;
import dev.etcdoperator.storage.BackupKey;
import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.NonDeletingOperation;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.core.ResponseInputStream;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * The backup controller on the sandbox with real etcd and a real S3-compatible server: one-shot and periodic
 * backups of a 3-member cluster, checked with etcdctl, then every fault the controller must report clearly without
 * leaving anything that could pass for a backup.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class EtcdBackupIT {
    static final String NS = "default";
    static final String CLUSTER = "example";
    static final String BUCKET = Sandbox.S3_BUCKET;
    static final Duration WITHIN = Duration.ofSeconds(90);
    static Sandbox sandbox;
    static SandboxClusters clusters;
    static SandboxBackups backups;
    static S3Client s3;
    static final Map<String, String> written = new LinkedHashMap<>();

    @BeforeAll
    static void start() {
        // the operator's own identity, for backups without awsSecret: environment variables, the first source of
        // the AWS SDK's default chain (no instance metadata on this machine)
        sandbox = Sandbox.start(Sandbox.options().stateDir(Path.of("target", "sandbox-backup-it")).withS3()
                .chartValues("""
                        clusterWide: true
                        extraEnv:
                        - {name: AWS_ACCESS_KEY_ID, value: %s}
                        - {name: AWS_SECRET_ACCESS_KEY, value: %s}
                        - {name: AWS_EC2_METADATA_DISABLED, value: "true"}
                        """.formatted(S3Server.ACCESS_KEY, S3Server.SECRET_KEY)));
        clusters = new SandboxClusters(sandbox.client(), NS);
        backups = new SandboxBackups(sandbox.client(), NS, WITHIN);
        s3 = sandbox.s3().client();
        clusters.create(CLUSTER, 3, "3.5.35");
        clusters.awaitConverged(CLUSTER, 3);
        Etcdctl etcdctl = new Etcdctl(clusters.endpoints(CLUSTER));
        for (int i = 0; i < 30; i++) {
            etcdctl.put("k-" + i, "value-" + i);
            written.put("k-" + i, "value-" + i);
        }
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
    void aOneShotBackupThroughTheClientServiceHoldsEveryKeyAtItsRevision(@TempDir Path dir) throws Exception {
        apply("once", """
                etcdEndpoints: ["http://%s-client:2379"]
                s3: {path: %s/once/snapshot.db, awsSecret: aws, endpoint: "%s", forcePathStyle: true}
                """.formatted(CLUSTER, BUCKET, sandbox.s3().endpoint()));
        EtcdBackupStatus status = awaitSucceeded("once");
        new Etcdctl(clusters.endpoints(CLUSTER)).put("after-backup", "not in the backup");

        assertThat(status.getBackupPath()).isEqualTo(BUCKET + "/once/snapshot.db");
        assertThat(status.getEtcdVersion()).isEqualTo("3.5.35");
        assertThat(status.getEtcdClusterID()).matches("[0-9a-f]+");
        assertThat(status.getLastSuccessDate()).isNotBlank();
        Path file = download("once/snapshot.db", dir);
        assertThat(Files.size(file)).isEqualTo(status.getBackupSize());
        assertThat(sha256(file)).isEqualTo(status.getBackupSha256());
        assertThat(recorded("once/snapshot.db"))
                .containsEntry("etcd-backup-sha256", status.getBackupSha256())
                .containsEntry("etcd-revision", Long.toString(status.getEtcdRevision()))
                .containsEntry("etcd-version", "3.5.35")
                .containsEntry("etcd-cluster-id", status.getEtcdClusterID());
        try (RestoredEtcd restored = RestoredEtcd.restore(file, dir.resolve("restore"))) {
            assertThat(restored.keys("k-", status.getEtcdRevision())).isEqualTo(written);
            assertThat(restored.keys("after-backup", 0)).isEmpty();
        }
        assertThat(reasons("once")).contains("BackupTaken");
        assertNoPartialObjects();
    }

    @Test
    @Order(2)
    void aBackupCanNameTheManagedClusterInsteadOfEndpoints(@TempDir Path dir) throws Exception {
        apply("by-name", """
                etcdCluster: {name: %s}
                s3: {path: %s/by-name/snapshot.db, awsSecret: aws, endpoint: "%s", forcePathStyle: true}
                """.formatted(CLUSTER, BUCKET, sandbox.s3().endpoint()));
        EtcdBackupStatus status = awaitSucceeded("by-name");
        try (RestoredEtcd restored = RestoredEtcd.restore(download("by-name/snapshot.db", dir), dir.resolve("r"))) {
            assertThat(restored.keys("k-", 0)).isEqualTo(written);
        }
        assertThat(status.getBackupSha256()).hasSize(64);
        assertThat(status.getClusterUID()).isEqualTo(client().resources(EtcdCluster.class).inNamespace(NS)
                .withName(CLUSTER).get().getMetadata().getUid());
    }

    @Test
    @Order(5)
    void withoutAnAwsSecretTheOperatorsOwnCredentialsAreUsed() {
        apply("own-identity", """
                etcdCluster: {name: %s}
                s3: {path: %s/own-identity/snapshot.db, endpoint: "%s", forcePathStyle: true}
                """.formatted(CLUSTER, BUCKET, sandbox.s3().endpoint()));
        EtcdBackupStatus status = awaitSucceeded("own-identity");
        assertThat(recorded("own-identity/snapshot.db"))
                .containsEntry("etcd-backup-sha256", status.getBackupSha256());
    }

    @Test
    @Order(6)
    void backupsAskedForServerSideEncryptionAreStoredEncryptedAndRestore(@TempDir Path dir) throws Exception {
        apply("sse-s3", """
                etcdCluster: {name: %s}
                s3: {path: %s/sse-s3/snapshot.db, awsSecret: aws, endpoint: "%s", forcePathStyle: true,
                     serverSideEncryption: {algorithm: AES256}}
                """.formatted(CLUSTER, BUCKET, sandbox.s3().endpoint()));
        apply("sse-kms", """
                etcdCluster: {name: %s}
                s3: {path: %s/sse-kms/snapshot.db, awsSecret: aws, endpoint: "%s", forcePathStyle: true,
                     serverSideEncryption: {algorithm: "aws:kms", kmsKeyId: %s}}
                """.formatted(CLUSTER, BUCKET, sandbox.s3().endpoint(), S3Server.KMS_KEY));
        EtcdBackupStatus s3Managed = awaitSucceeded("sse-s3");
        EtcdBackupStatus kms = awaitSucceeded("sse-kms");

        HeadObjectResponse a = s3.headObject(b -> b.bucket(BUCKET).key("sse-s3/snapshot.db"));
        assertThat(a.serverSideEncryptionAsString()).isEqualTo("AES256");
        HeadObjectResponse k = s3.headObject(b -> b.bucket(BUCKET).key("sse-kms/snapshot.db"));
        assertThat(k.serverSideEncryptionAsString()).isEqualTo("aws:kms");
        assertThat(k.ssekmsKeyId()).endsWith(S3Server.KMS_KEY);
        assertThat(sha256(download("sse-s3/snapshot.db", dir))).isEqualTo(s3Managed.getBackupSha256());
        try (RestoredEtcd restored = RestoredEtcd.restore(download("sse-kms/snapshot.db", dir), dir.resolve("r"))) {
            assertThat(restored.keys("k-", kms.getEtcdRevision())).isEqualTo(written);
        }
        assertNoPartialObjects();
    }

    @Test
    @Order(7)
    void aClientSideEncryptedBackupStoresOnlyCiphertextAndRecordsBothDigests(@TempDir Path dir) throws Exception {
        apply("cse", """
                etcdCluster: {name: %s}
                s3: {path: %s/cse/snapshot.db, awsSecret: aws, endpoint: "%s", forcePathStyle: true,
                     clientSideEncryption: {secretName: backup-key}}
                """.formatted(CLUSTER, BUCKET, sandbox.s3().endpoint()));
        assertThat(awaitFailure("cse", "EncryptionKeySecretNotFound").getReason()).contains("openssl rand -base64 32");
        keySecret("backup-key", "too short");
        awaitFailure("cse", "EncryptionKeyInvalid");
        assertThat(objects("cse/")).as("nothing is uploaded without a usable key").isEmpty();
        byte[] key = new byte[32];
        new java.security.SecureRandom().nextBytes(key);
        keySecret("backup-key", java.util.Base64.getEncoder().encodeToString(key) + "\n");
        EtcdBackupStatus status = awaitSucceeded("cse");

        Path object = download("cse/snapshot.db", dir);
        byte[] stored = Files.readAllBytes(object);
        assertThat(new String(stored, 0, 8, StandardCharsets.US_ASCII)).isEqualTo("etcdenc1");
        assertThat(new String(stored, StandardCharsets.ISO_8859_1)).doesNotContain("value-1");
        BackupKey backupKey = BackupKey.of(key, "backup-key");
        assertThat(status.getEncryptionKeyFingerprint()).isEqualTo(backupKey.fingerprint());
        assertThat(status.getBackupSize()).isEqualTo(stored.length);
        assertThat(sha256(object)).isEqualTo(status.getBackupSha256());
        assertThat(status.getSnapshotSha256()).matches("[0-9a-f]{64}").isNotEqualTo(status.getBackupSha256());
        assertThat(recorded("cse/snapshot.db"))
                .containsEntry("etcd-backup-sha256", status.getBackupSha256())
                .containsEntry("etcd-snapshot-sha256", status.getSnapshotSha256())
                .containsEntry("etcd-snapshot-size", Long.toString(status.getSnapshotSize()))
                .containsEntry("etcd-backup-encryption-key", backupKey.fingerprint())
                .containsEntry("etcd-backup-encryption-secret", "backup-key[key]");
        Path plain = dir.resolve("decrypted.db");
        try (var in = BackupCipher.decrypt(Files.newInputStream(object), backupKey, "cse/snapshot.db")) {
            Files.copy(in, plain);
        }
        assertThat(Files.size(plain)).isEqualTo(status.getSnapshotSize());
        assertThat(sha256(plain)).isEqualTo(status.getSnapshotSha256());
        try (RestoredEtcd restored = RestoredEtcd.restore(plain, dir.resolve("restore"))) {
            assertThat(restored.keys("k-", status.getEtcdRevision())).isEqualTo(written);
        }
        assertNoPartialObjects();
    }

    static void keySecret(String name, String key) {
        client().resource(new SecretBuilder().withNewMetadata().withName(name).withNamespace(NS).endMetadata()
                .addToData("key", java.util.Base64.getEncoder().encodeToString(key.getBytes(StandardCharsets.ISO_8859_1)))
                .build()).createOr(NonDeletingOperation::update);
    }

    @Test
    @Order(4)
    void aSecondEtcdBackupWritingTheSameKeyIsRefusedAndTheFirstBackupStays() {
        EtcdBackupStatus first = status("once");
        apply("same-key", """
                etcdEndpoints: ["http://%s-client:2379"]
                s3: {path: %s/once/snapshot.db, awsSecret: aws, endpoint: "%s", forcePathStyle: true}
                """.formatted(CLUSTER, BUCKET, sandbox.s3().endpoint()));
        assertThat(awaitFailure("same-key", "S3PathInUse").getReason()).contains("default/once");
        assertThat(recorded("once/snapshot.db"))
                .containsEntry("etcd-backup-sha256", first.getBackupSha256())
                .containsEntry("etcd-backup-owner", NS + "/once");
        assertThat(objects("once/")).extracting(S3Object::key).containsExactly("once/snapshot.db");
        client().resources(EtcdBackup.class).inNamespace(NS).withName("same-key").delete();
    }

    @Test
    @Order(3)
    void periodicBackupsKeepTheNewestThreeAcrossAnOperatorRestart() {
        apply("every", """
                etcdEndpoints: ["http://%s-client.%s.svc:2379"]
                backupPolicy: {backupIntervalInSecond: 2, maxBackups: 3}
                s3: {path: %s/periodic/example, awsSecret: aws, endpoint: "%s", forcePathStyle: true}
                """.formatted(CLUSTER, NS, BUCKET, sandbox.s3().endpoint()));
        await().atMost(WITHIN).until(() -> count(reasons("every"), "BackupTaken") >= 5);
        awaitExactlyTheNewestThree();

        sandbox.operator().kill();
        long takenBefore = count(reasons("every"), "BackupTaken");
        sandbox.startOperator();
        await().atMost(WITHIN).until(() -> count(reasons("every"), "BackupTaken") >= takenBefore + 3);
        awaitExactlyTheNewestThree();

        client().resources(EtcdBackup.class).inNamespace(NS).withName("every").delete();
        await().atMost(WITHIN).until(() -> client().resources(EtcdBackup.class).inNamespace(NS).withName("every").get() == null);
    }

    @Test
    @Order(10)
    void aMissingSecretIsReportedAndRetriedUntilItExists() {
        apply("no-secret", """
                etcdEndpoints: ["http://%s-client:2379"]
                s3: {path: %s/no-secret/snapshot.db, awsSecret: later, endpoint: "%s", forcePathStyle: true}
                """.formatted(CLUSTER, BUCKET, sandbox.s3().endpoint()));
        awaitFailure("no-secret", "AWSSecretNotFound");
        await().atMost(WITHIN).until(() -> failures("no-secret") >= 2);
        assertThat(objects("no-secret/")).isEmpty();
        Secret aws = client().secrets().inNamespace(NS).withName(Sandbox.S3_SECRET).get();
        client().resource(new SecretBuilder().withNewMetadata().withName("later").withNamespace(NS).endMetadata()
                .withData(aws.getData()).build()).create();
        awaitSucceeded("no-secret");
    }

    @Test
    @Order(15)
    void wrongCredentialsAreReportedAsAccessDenied() {
        client().resource(new SecretBuilder().withNewMetadata().withName("wrong").withNamespace(NS).endMetadata()
                .addToStringData("credentials", "[default]\naws_access_key_id = not-the-key\naws_secret_access_key = nope\n")
                .addToStringData("config", "[default]\nregion = us-east-1\n").build()).create();
        apply("wrong-keys", """
                etcdEndpoints: ["http://%s-client:2379"]
                s3: {path: %s/wrong-keys/snapshot.db, awsSecret: wrong, endpoint: "%s", forcePathStyle: true}
                """.formatted(CLUSTER, BUCKET, sandbox.s3().endpoint()));
        assertThat(awaitFailure("wrong-keys", "S3AccessDenied").getReason()).contains("access denied");
        assertThat(objects("wrong-keys/")).isEmpty();
    }

    @Test
    @Order(16)
    void theMetricsCountBackupsTakenAndFailed() {
        // the operator restarted in the periodic test: its counters started again from there
        PrometheusText m = PrometheusText.parse(sandbox.operator().get("/q/metrics").body());
        EtcdBackupStatus noSecret = status("no-secret");
        assertThat(m.value("etcd_operator_backups_total", "backup", "no-secret", "result", "success")).isEqualTo(1.0);
        assertThat(m.value("etcd_operator_backups_total", "backup", "no-secret", "result", "failure")).isGreaterThanOrEqualTo(2.0);
        assertThat(m.value("etcd_operator_backup_failures_total", "backup", "no-secret", "reason", "AWSSecretNotFound"))
                .isGreaterThanOrEqualTo(2.0);
        assertThat(m.value("etcd_operator_backup_size_bytes", "backup", "no-secret")).isEqualTo((double) noSecret.getBackupSize());
        // a one-shot backup's age only grows: no age series, or EtcdBackupTooOld would fire on it for ever
        assertThat(noSecret.getLastSuccessDate()).isNotNull();
        assertThat(m.series("etcd_operator_backup_last_success_timestamp_seconds", "backup", "no-secret")).isEmpty();
        assertThat(m.series("etcd_operator_backup_interval_seconds", "backup", "no-secret")).isEmpty();
        assertThat(m.value("etcd_operator_backup_duration_seconds_count", "backup", "no-secret", "result", "success")).isEqualTo(1.0);
        assertThat(m.value("etcd_operator_backup_failures_total", "backup", "no-bucket", "reason", "S3BucketNotFound"))
                .isGreaterThanOrEqualTo(1.0);
        assertThat(m.series("etcd_operator_backup_last_success_timestamp_seconds", "backup", "no-bucket")).isEmpty();
        assertThat(m.series("etcd_operator_backups_total", "backup", "every")).as("a deleted backup's series go").isEmpty();
    }

    @Test
    @Order(11)
    void aMissingBucketIsReported() {
        apply("no-bucket", """
                etcdEndpoints: ["http://%s-client:2379"]
                s3: {path: no-such-bucket/snapshot.db, awsSecret: aws, endpoint: "%s", forcePathStyle: true}
                """.formatted(CLUSTER, sandbox.s3().endpoint()));
        awaitFailure("no-bucket", "S3BucketNotFound");
    }

    @Test
    @Order(12)
    void anUnreachableS3EndpointIsReported() {
        apply("no-s3", """
                etcdEndpoints: ["http://%s-client:2379"]
                s3: {path: %s/no-s3/snapshot.db, awsSecret: aws, endpoint: "http://127.0.0.1:1", forcePathStyle: true}
                """.formatted(CLUSTER, BUCKET));
        awaitFailure("no-s3", "S3Unreachable");
        assertThat(objects("no-s3/")).isEmpty();
    }

    @Test
    @Order(13)
    void allEtcdEndpointsDownIsReported() {
        apply("no-etcd", """
                etcdEndpoints: ["http://127.0.0.1:1", "http://127.0.0.1:2"]
                s3: {path: %s/no-etcd/snapshot.db, awsSecret: aws, endpoint: "%s", forcePathStyle: true}
                """.formatted(BUCKET, sandbox.s3().endpoint()));
        awaitFailure("no-etcd", "EtcdUnreachable");
        assertThat(objects("no-etcd/")).isEmpty();
    }

    @Test
    @Order(14)
    void aPathWithoutABucketIsRefused() {
        // the operator writes its status while the schema is lax: a real API server checks the whole object, spec
        // included, on a status update
        sandbox.withoutSchemaChecks(() -> {
            apply("no-key", """
                    etcdEndpoints: ["http://%s-client:2379"]
                    s3: {path: snapshot.db, awsSecret: aws, endpoint: "%s", forcePathStyle: true}
                    """.formatted(CLUSTER, sandbox.s3().endpoint()));
            awaitFailure("no-key", "InvalidSpec");
            assertThat(status("no-key").getReason()).contains("spec.s3.path");
        });
    }

    @Test
    @Order(20)
    void theS3ServerDyingDuringAnUploadLeavesNoBackupAndTheRetrySucceeds() throws Exception {
        fill(80);
        apply("killed", """
                etcdEndpoints: ["http://%s-client:2379"]
                s3: {path: %s/killed/snapshot.db, awsSecret: aws, endpoint: "%s", forcePathStyle: true}
                """.formatted(CLUSTER, BUCKET, sandbox.s3().endpoint()));
        // the upload's empty partial object comes first, then the multipart upload at the backup's key, which is
        // free (MinIO lists uploads by exact key only)
        String partialKey = await().atMost(WITHIN).pollInterval(Duration.ofMillis(20))
                .until(() -> objects("killed/").stream().map(S3Object::key).filter(k -> k.contains(".partial-"))
                        .findFirst().orElse(null), java.util.Objects::nonNull);
        await().atMost(WITHIN).pollInterval(Duration.ofMillis(20)).until(() -> !s3.listMultipartUploads(b -> b
                .bucket(BUCKET).prefix("killed/snapshot.db")).uploads().isEmpty());
        sandbox.s3().kill();
        EtcdBackupStatus failed = awaitFailure("killed", null);
        assertThat(failed.getReason()).matches("^(UploadFailed|S3Unreachable): .*");
        sandbox.s3().start();
        // no backup; what the dead store kept of the attempt is named as partial, for a later clean-up
        assertThat(objects("killed/")).extracting(S3Object::key).allMatch(k -> k.contains(".partial-"));
        EtcdBackupStatus ok = awaitSucceeded("killed");
        assertThat(ok.getBackupSize()).isGreaterThan(80L * 1024 * 1024);
        assertThat(objects("killed/")).extracting(S3Object::key).contains("killed/snapshot.db")
                .allMatch(k -> k.equals("killed/snapshot.db") || k.equals(partialKey));
        assertThat(recorded("killed/snapshot.db")).containsKey("etcd-backup-sha256");
    }

    @Test
    @Order(21)
    void aTimeoutShorterThanTheBackupFailsCleanly() {
        apply("hurried", """
                etcdEndpoints: ["http://%s-client:2379"]
                backupPolicy: {timeoutInSecond: 1}
                s3: {path: %s/hurried/snapshot.db, awsSecret: aws, endpoint: "%s", forcePathStyle: true}
                """.formatted(CLUSTER, BUCKET, sandbox.s3().endpoint()));
        awaitFailure("hurried", "BackupTimeout");
        await().atMost(WITHIN).untilAsserted(() -> {
            assertThat(objects("hurried/")).isEmpty();
            assertThat(s3.listMultipartUploads(b -> b.bucket(BUCKET).prefix("hurried/")).uploads()).isEmpty();
        });
    }

    // ---- helpers

    static void apply(String name, String spec) {
        backups.apply(name, spec);
    }

    static EtcdBackupStatus status(String name) {
        return backups.status(name);
    }

    static EtcdBackupStatus awaitSucceeded(String name) {
        return backups.awaitSucceeded(name);
    }

    /** Waits for a failure with that reason (any failure when null), with a Warning Event of the same reason. */
    static EtcdBackupStatus awaitFailure(String name, String reason) {
        await().atMost(WITHIN).untilAsserted(() -> {
            EtcdBackupStatus s = status(name);
            assertThat(s.getSucceeded()).isFalse();
            if (reason != null) {
                assertThat(s.getReason()).startsWith(reason + ": ");
            }
        });
        String actual = status(name).getReason().substring(0, status(name).getReason().indexOf(':'));
        await().atMost(WITHIN).untilAsserted(() -> assertThat(clusters.events(name))
                .anySatisfy(e -> {
                    assertThat(e.getType()).isEqualTo("Warning");
                    assertThat(e.getReason()).isEqualTo(actual);
                }));
        return status(name);
    }

    static int failures(String name) {
        Integer n = status(name).getConsecutiveFailures();
        return n == null ? 0 : n;
    }

    static List<String> reasons(String name) {
        return clusters.events(name).stream().map(Event::getReason).toList();
    }

    static long count(List<String> reasons, String reason) {
        return reasons.stream().filter(reason::equals).count();
    }

    /**
     * What a backup recorded on its object: the metadata, and the tags its checksums become when it was uploaded to
     * a free key.
     */
    static Map<String, String> recorded(String key) {
        Map<String, String> all = new java.util.HashMap<>(s3.headObject(b -> b.bucket(BUCKET).key(key)).metadata());
        s3.getObjectTagging(b -> b.bucket(BUCKET).key(key)).tagSet().forEach(t -> all.put(t.key(), t.value()));
        return all;
    }

    static List<S3Object> objects(String prefix) {
        return s3.listObjectsV2(b -> b.bucket(BUCKET).prefix(prefix)).contents();
    }

    static void assertNoPartialObjects() {
        assertThat(s3.listObjectsV2(b -> b.bucket(BUCKET)).contents()).extracting(S3Object::key)
                .noneMatch(k -> k.contains(".partial-"));
    }

    static void awaitExactlyTheNewestThree() {
        await().atMost(WITHIN).untilAsserted(() -> {
            List<String> keys = objects("periodic/example_v").stream().map(S3Object::key).sorted().toList();
            assertThat(keys).hasSize(3).allMatch(k -> k.matches("periodic/example_v\\d+_\\d{4}-\\d{2}-\\d{2}-\\d{2}:\\d{2}:\\d{2}"));
            String newest = status("every").getBackupPath();
            assertThat(keys).contains(newest.substring(BUCKET.length() + 1));
        });
    }

    static Path download(String key, Path dir) throws Exception {
        Path file = dir.resolve(key.replace('/', '_'));
        try (ResponseInputStream<GetObjectResponse> in = s3.getObject(b -> b.bucket(BUCKET).key(key))) {
            Files.copy(in, file);
        }
        return file;
    }

    static String sha256(Path file) throws Exception {
        MessageDigest d = MessageDigest.getInstance("SHA-256");
        try (var in = Files.newInputStream(file)) {
            byte[] buffer = new byte[1 << 16];
            int n;
            while ((n = in.read(buffer)) > 0) {
                d.update(buffer, 0, n);
            }
        }
        return HexFormat.of().formatHex(d.digest());
    }

    /** Adds about {@code mebibytes} MiB of values to the cluster, one MiB per key. */
    static void fill(int mebibytes) throws Exception {
        byte[] value = new byte[1024 * 1024];
        new java.util.Random(7).nextBytes(value);
        try (Client client = Client.builder().endpoints(clusters.endpointList(CLUSTER).toArray(String[]::new)).build()) {
            for (int i = 0; i < mebibytes; i++) {
                client.getKVClient().put(ByteSequence.from("big-" + i, StandardCharsets.UTF_8), ByteSequence.from(value))
                        .get(30, java.util.concurrent.TimeUnit.SECONDS);
            }
        }
    }
}
