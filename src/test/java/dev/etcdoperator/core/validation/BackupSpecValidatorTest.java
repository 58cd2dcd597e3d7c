package dev.etcdoperator.core.validation;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Collections;
import java.util.List;

import dev.etcdoperator.api.v1beta2.BackupPolicy;
import dev.etcdoperator.api.v1beta2.EtcdBackupSpec;
import dev.etcdoperator.api.v1beta2.EtcdClusterRef;
import dev.etcdoperator.api.v1beta2.EtcdRestoreSpec;
import dev.etcdoperator.api.v1beta2.RestoreDrillPolicy;
import dev.etcdoperator.api.v1beta2.S3ClientSideEncryption;
import dev.etcdoperator.api.v1beta2.S3ServerSideEncryption;
import dev.etcdoperator.api.v1beta2.S3Source;
import org.junit.jupiter.api.Test;

/** Strings that become S3 keys, URLs and Secret names, and the numbers that become durations, in backups and restores. */
class BackupSpecValidatorTest {
    private final BackupSpecValidator backups = new BackupSpecValidator();
    private final RestoreSpecValidator restores = new RestoreSpecValidator();

    private static EtcdBackupSpec backup() {
        EtcdBackupSpec spec = new EtcdBackupSpec();
        spec.setEtcdCluster(new EtcdClusterRef("example"));
        spec.setStorageType("S3");
        S3Source s3 = new S3Source();
        s3.setPath("etcd-backups/example/snapshot.db");
        s3.setAwsSecret("aws");
        spec.setS3(s3);
        return spec;
    }

    private static EtcdRestoreSpec restore(S3Source s3) {
        EtcdRestoreSpec spec = new EtcdRestoreSpec();
        spec.setEtcdCluster(new EtcdClusterRef("example"));
        spec.setBackupStorageType("S3");
        spec.setS3(s3);
        return spec;
    }

    private List<String> paths(EtcdBackupSpec spec) {
        return backups.validate(spec).errors().stream().map(FieldError::path).toList();
    }

    /** A one-shot backup named as a periodic one would pass, to a periodic EtcdBackup of its prefix, for its own. */
    @Test
    void aOneShotPathDoesNotEndAsAPeriodicBackupsName() {
        EtcdBackupSpec oneShot = backup();
        oneShot.getS3().setPath("etcd-backups/x_v1_2024-01-01-00:00:00");
        assertThat(backups.validate(oneShot).errors()).singleElement().satisfies(e -> {
            assertThat(e.path()).isEqualTo("spec.s3.path");
            assertThat(e.message()).contains("periodic");
        });
        EtcdBackupSpec periodic = backup();
        periodic.getS3().setPath("etcd-backups/x_v1_2024-01-01-00:00:00");
        periodic.setBackupPolicy(new dev.etcdoperator.api.v1beta2.BackupPolicy());
        periodic.getBackupPolicy().setBackupIntervalInSecond(3600L);
        assertThat(paths(periodic)).as("a periodic prefix: its backups' names do not end in the prefix's").isEmpty();
        for (String fine : List.of("etcd-backups/x_v1_2024-01-01", "etcd-backups/x_v1_2024-01-01-00:00:00.db",
                "etcd-backups/x_2024-01-01-00:00:00")) {
            EtcdBackupSpec spec = backup();
            spec.getS3().setPath(fine);
            assertThat(paths(spec)).as(fine).isEmpty();
        }
    }

    @Test
    void anS3PathIsABucketAndPlainKeySegments() {
        for (String good : List.of("etcd-backups/example/snapshot.db", "my.bucket/a/b_c=d:e,f-g",
                "etcd-backups/example/.hidden", "abc/x", "etcd-backups/2024-01-01T00:00:00", "etcd-backups/a..b")) {
            EtcdBackupSpec spec = backup();
            spec.getS3().setPath(good);
            assertThat(paths(spec)).as("'%s'", good).isEmpty();
        }
        for (String hostile : List.of("etcd-backups/../other/key", "etcd-backups/example/../../x", "etcd-backups/./x",
                "etcd-backups/..", "etcd-backups/x/..", "etcd-backups//x", "etcd-backups/x/", "/etcd-backups/x",
                "Etcd-Backups/x", "ab/x", "etcd-backups/x y", "etcd-backups/x?versionId=1", "etcd-backups/x#y",
                "etcd-backups/$(id)", "etcd-backups/`id`", "etcd-backups/x;id", "etcd-backups/x\n",
                "etcd-backups/x\\y", "etcd-backups/x%2F..", "etcd-backups/" + "a".repeat(900), "etcd-backups/x@evil",
                "etcd-backups/x&y", "etcd-backups", "etcd-backups/")) {
            EtcdBackupSpec spec = backup();
            spec.getS3().setPath(hostile);
            assertThat(paths(spec)).as("backup '%s'", hostile).containsExactly("spec.s3.path");
            S3Source s3 = spec.getS3();
            assertThat(restores.validate(restore(s3)).errors()).as("restore '%s'", hostile)
                    .extracting(FieldError::path).containsExactly("spec.s3.path");
        }
    }

    @Test
    void everyBackupAPeriodicBackupTakesCanBeNamedByARestore() {
        String longest = "etcd-backups/" + "a".repeat(900 - 41 - 13);
        String tooLong = longest + "a";
        EtcdBackupSpec periodic = backup();
        periodic.setBackupPolicy(new BackupPolicy());
        periodic.getBackupPolicy().setBackupIntervalInSecond(3600L);
        periodic.getS3().setPath(longest);
        assertThat(paths(periodic)).isEmpty();
        S3Source taken = new S3Source();
        taken.setPath(dev.etcdoperator.core.backup.BackupNames.periodicKey(longest, Long.MAX_VALUE,
                java.time.Instant.parse("2026-12-02T23:59:59Z")));
        taken.setAwsSecret("aws");
        assertThat(taken.getPath()).hasSize(900);
        assertThat(restores.validate(restore(taken)).valid()).isTrue();

        periodic.getS3().setPath(tooLong);
        assertThat(backups.validate(periodic).errors()).singleElement().satisfies(e -> {
            assertThat(e.path()).isEqualTo("spec.s3.path");
            assertThat(e.message()).contains("periodic backup's path must be at most 859 characters");
        });
        EtcdBackupSpec oneShot = backup();
        oneShot.getS3().setPath(tooLong);
        assertThat(paths(oneShot)).isEmpty();
    }

    @Test
    void anS3EndpointIsASchemeAHostAndAPortOnly() {
        for (String good : List.of("http://127.0.0.1:9090", "https://s3.eu-west-1.amazonaws.com", "http://[::1]:9000/",
                "http://minio.storage.svc:9000/", "")) {
            EtcdBackupSpec spec = backup();
            spec.getS3().setEndpoint(good);
            assertThat(paths(spec)).as("'%s'", good).isEmpty();
        }
        for (String hostile : List.of("http://user:pw@evil.example:9000", "http://minio:9000@evil.example",
                "http://minio:9000/other-bucket", "http://minio:9000?x=1", "http://minio:9000#x", "http://minio:9000\n",
                "ftp://minio", "http://", "minio:9000", "http://minio:99999", "http://minio:0", "http://mi nio",
                "http://-minio", "http://$(id)", " http://minio", "http://" + "a".repeat(300), "http://[..]:9000",
                "http://[11]", "http://[::1::2]:9000", "http://999.1.1.1:9000")) {
            EtcdBackupSpec spec = backup();
            spec.getS3().setEndpoint(hostile);
            assertThat(paths(spec)).as("'%s'", hostile).containsExactly("spec.s3.endpoint");
        }
    }

    @Test
    void etcdEndpointsAreClientUrlsWithoutUserInfoPathOrQuery() {
        for (String good : List.of("http://example-client:2379", "example-client:2379", "https://10.0.0.1:2379",
                "http://[::1]:2379", "example-client.ns.svc:2379/")) {
            EtcdBackupSpec spec = backup();
            spec.setEtcdEndpoints(List.of(good));
            assertThat(paths(spec)).as("'%s'", good).isEmpty();
        }
        for (String hostile : List.of("http://x@evil.example:2379", "http://host:2379/v3/kv", "http://host:2379?x",
                "http://host:2379#x", "--endpoints=evil", "-host:2379", "host:2379\n", "host:2379;id",
                "unix:///var/run/etcd.sock", "http://host:70000", " host:2379", "ftp://host:2379", "http://[..]:2379",
                "[11]:2379", "http://[::1::2]:2379")) {
            EtcdBackupSpec spec = backup();
            spec.setEtcdEndpoints(List.of(hostile));
            assertThat(paths(spec)).as("'%s'", hostile).containsExactly("spec.etcdEndpoints[0]");
        }
        EtcdBackupSpec many = backup();
        many.setEtcdEndpoints(Collections.nCopies(33, "http://host:2379"));
        assertThat(paths(many)).containsExactly("spec.etcdEndpoints");
    }

    @Test
    void secretNamesAreDnsLabels() {
        for (String hostile : List.of("../aws", "aws/x", "a b", "AWS", "-aws", "aws\n", "a".repeat(64))) {
            EtcdBackupSpec spec = backup();
            spec.getS3().setAwsSecret(hostile);
            spec.setClientTLSSecret(hostile);
            assertThat(paths(spec)).as("'%s'", hostile).containsExactly("spec.s3.awsSecret", "spec.clientTLSSecret");
        }
    }

    @Test
    void serverSideEncryptionIsAes256OrKmsWithAKeyOfKmsOnly() {
        EtcdBackupSpec spec = backup();
        spec.getS3().setServerSideEncryption(sse("AES256", null));
        assertThat(paths(spec)).isEmpty();
        spec.getS3().setServerSideEncryption(sse("aws:kms", "arn:aws:kms:us-east-1:111122223333:alias/etcd-backups"));
        assertThat(paths(spec)).isEmpty();
        spec.getS3().setServerSideEncryption(sse("aws:kms", null));
        assertThat(paths(spec)).isEmpty();

        spec.getS3().setServerSideEncryption(sse("AES256", "alias/etcd"));
        assertThat(paths(spec)).containsExactly("spec.s3.serverSideEncryption.kmsKeyId");
        for (String algorithm : new String[] { "aws:kms:dsse", "aes256", "", null }) {
            spec.getS3().setServerSideEncryption(sse(algorithm, null));
            assertThat(paths(spec)).as("'%s'", algorithm).containsExactly("spec.s3.serverSideEncryption.algorithm");
        }
        for (String hostile : List.of("key; rm -rf /", "$(id)", "-key", "k\n", "k".repeat(2049))) {
            spec.getS3().setServerSideEncryption(sse("aws:kms", hostile));
            assertThat(paths(spec)).as("'%s'", hostile).containsExactly("spec.s3.serverSideEncryption.kmsKeyId");
        }
    }

    @Test
    void clientSideEncryptionNamesASecretAndOptionallyItsEntry() {
        EtcdBackupSpec spec = backup();
        spec.getS3().setClientSideEncryption(cse("backup-key", null));
        assertThat(paths(spec)).isEmpty();
        spec.getS3().setClientSideEncryption(cse("backup-key", "key-2025_01.b64"));
        assertThat(paths(spec)).isEmpty();

        spec.getS3().setClientSideEncryption(cse(null, null));
        assertThat(paths(spec)).containsExactly("spec.s3.clientSideEncryption.secretName");
        for (String hostile : List.of("../key", "Key", "key;rm", "k".repeat(64))) {
            spec.getS3().setClientSideEncryption(cse(hostile, null));
            assertThat(paths(spec)).as("'%s'", hostile).containsExactly("spec.s3.clientSideEncryption.secretName");
        }
        for (String hostile : List.of("a/b", "$(id)", "k\n", "k".repeat(254))) {
            spec.getS3().setClientSideEncryption(cse("backup-key", hostile));
            assertThat(paths(spec)).as("'%s'", hostile).containsExactly("spec.s3.clientSideEncryption.key");
        }
    }

    private static S3ClientSideEncryption cse(String secretName, String key) {
        S3ClientSideEncryption cse = new S3ClientSideEncryption();
        cse.setSecretName(secretName);
        cse.setKey(key);
        return cse;
    }

    private static S3ServerSideEncryption sse(String algorithm, String kmsKeyId) {
        S3ServerSideEncryption sse = new S3ServerSideEncryption();
        sse.setAlgorithm(algorithm);
        sse.setKmsKeyId(kmsKeyId);
        return sse;
    }

    @Test
    void anAbsentAwsSecretIsValidAndMeansTheOperatorsOwnCredentials() {
        EtcdBackupSpec spec = backup();
        spec.getS3().setAwsSecret(null);
        assertThat(paths(spec)).isEmpty();
        spec.getS3().setAwsSecret("");
        assertThat(paths(spec)).isEmpty();
    }

    @Test
    void everyNumberHasAMaximumSoNoDurationOverflows() {
        EtcdBackupSpec ok = backup();
        BackupPolicy max = new BackupPolicy();
        max.setTimeoutInSecond(86_400L);
        max.setBackupIntervalInSecond(31_622_400L);
        max.setMaxBackups(10_000);
        ok.setBackupPolicy(max);
        assertThat(paths(ok)).isEmpty();

        for (long hostile : new long[] { Long.MAX_VALUE, Long.MAX_VALUE / 1000 + 1, Integer.MAX_VALUE + 1L,
                31_622_401L, -1, Long.MIN_VALUE }) {
            EtcdBackupSpec spec = backup();
            BackupPolicy policy = new BackupPolicy();
            policy.setTimeoutInSecond(Math.min(hostile, hostile == 31_622_401L ? 86_401L : hostile));
            policy.setBackupIntervalInSecond(hostile);
            policy.setMaxBackups((int) Math.max(Integer.MIN_VALUE, Math.min(Integer.MAX_VALUE, hostile)));
            spec.setBackupPolicy(policy);
            assertThat(paths(spec)).as("%d", hostile).containsExactly("spec.backupPolicy.timeoutInSecond",
                    "spec.backupPolicy.backupIntervalInSecond", "spec.backupPolicy.maxBackups");
        }
    }

    @Test
    void aRestoreDrillRunsEvery1To10000BackupsWithinAtMostAnHour() {
        EtcdBackupSpec ok = backup();
        RestoreDrillPolicy drill = new RestoreDrillPolicy();
        ok.setRestoreDrill(drill);
        assertThat(paths(ok)).as("every and the timeout are optional").isEmpty();
        for (int every : new int[] { 1, 10_000 }) {
            drill.setEvery(every);
            drill.setTimeoutInSecond(every == 1 ? 0L : 3_600L);
            assertThat(paths(ok)).as("every %d", every).isEmpty();
        }

        for (int hostile : new int[] { 0, -1, 10_001, Integer.MAX_VALUE, Integer.MIN_VALUE }) {
            EtcdBackupSpec spec = backup();
            RestoreDrillPolicy policy = new RestoreDrillPolicy();
            policy.setEvery(hostile);
            policy.setTimeoutInSecond(hostile == 0 ? 3_601L : (long) hostile * 1000);
            spec.setRestoreDrill(policy);
            assertThat(paths(spec)).as("%d", hostile).containsExactly("spec.restoreDrill.every",
                    "spec.restoreDrill.timeoutInSecond");
        }
    }

    @Test
    void aDrillScheduleIsACronScheduleThatFires() {
        for (String good : new String[] { "0 3 * * 0", "@weekly", "*/30 * * * *" }) {
            EtcdBackupSpec spec = backup();
            RestoreDrillPolicy policy = new RestoreDrillPolicy();
            policy.setSchedule(good);
            spec.setRestoreDrill(policy);
            assertThat(paths(spec)).as(good).isEmpty();
        }
        for (String bad : new String[] { "", "0 3 * *", "0 0 31 4 *", "@reboot", "* * * * * *", "x".repeat(101) }) {
            EtcdBackupSpec spec = backup();
            RestoreDrillPolicy policy = new RestoreDrillPolicy();
            policy.setSchedule(bad);
            spec.setRestoreDrill(policy);
            assertThat(paths(spec)).as(bad).containsExactly("spec.restoreDrill.schedule");
        }
    }
}
