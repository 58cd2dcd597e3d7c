package dev.etcdoperator.sandbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import dev.etcdoperator.api.v1beta2.Condition;
import dev.etcdoperator.api.v1beta2.EtcdBackup;
import dev.etcdoperator.api.v1beta2.EtcdBackupStatus;
import dev.etcdoperator.api.v1beta2.RestoreDrillPolicy;
import dev.etcdoperator.core.status.Conditions;
import dev.etcdoperator.sandbox.support.Etcdctl;
import dev.etcdoperator.sandbox.support.SandboxBackups;
import dev.etcdoperator.sandbox.support.SandboxClusters;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * Restore drills on the sandbox: a backup of a real etcd cluster is restored into a throwaway one-member etcd pod
 * and compared with the source; an object overwritten in the store fails its drill with the reason; no drill pod
 * or Secret stays behind; periodic retention keeps the last verified backup.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class EtcdBackupDrillIT {
    static final String NS = "default";
    static final String CLUSTER = "drilled";
    static final String BUCKET = Sandbox.S3_BUCKET;
    static final String DRILL_LABEL = "etcd.database.coreos.com/restore-drill";
    static final Duration WITHIN = Duration.ofSeconds(120);
    static Sandbox sandbox;
    static SandboxClusters clusters;
    static SandboxBackups backups;
    static S3Client s3;

    @BeforeAll
    static void start() {
        sandbox = Sandbox.start(Sandbox.options().stateDir(Path.of("target", "sandbox-drill-it")).withS3());
        clusters = new SandboxClusters(sandbox.client(), NS);
        backups = new SandboxBackups(sandbox.client(), NS, WITHIN);
        s3 = sandbox.s3().client();
        clusters.create(CLUSTER, 3, "3.5.35");
        clusters.awaitConverged(CLUSTER, 3);
        Etcdctl etcdctl = new Etcdctl(clusters.endpoints(CLUSTER));
        for (int i = 0; i < 25; i++) {
            etcdctl.put("k-" + i, "value-" + i);
        }
        for (int i = 0; i < 5; i++) {
            etcdctl.put("k-" + i, "changed-" + i);
        }
        assertThat(etcdctl.run("del", "k-24").ok()).isTrue();
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
    void aBackupWithADrillIsRestoredIntoItsOwnPodAndVerifiedAgainstTheSource() {
        backups.apply("verified", """
                etcdCluster: {name: %s}
                restoreDrill: {timeoutInSecond: 120}
                s3: {path: %s/verified/snapshot.db, awsSecret: aws, endpoint: "%s", forcePathStyle: true}
                """.formatted(CLUSTER, BUCKET, sandbox.s3().endpoint()));
        EtcdBackupStatus backedUp = backups.awaitSucceeded("verified");
        long keys = backedUp.getBackupKeyspace().getKeyCount();
        assertThat(keys).isGreaterThanOrEqualTo(24);
        assertThat(backedUp.getBackupKeyspace().getHashKV()).isNotNull();

        Condition verified = awaitVerified("verified");
        assertThat(verified.getStatus()).as(verified.getMessage()).isEqualTo("True");
        assertThat(verified.getReason()).isEqualTo("Verified");
        assertThat(verified.getMessage()).contains("HashKV equal", keys + " keys")
                .doesNotContain("not compared");
        EtcdBackupStatus status = backups.status("verified");
        assertThat(status.getLastVerifiedDate()).isNotBlank();
        assertThat(status.getLastVerifiedBackupPath()).isEqualTo(BUCKET + "/verified/snapshot.db");
        assertThat(reasons("verified")).contains("Verified");
        awaitNoDrillLeftovers("verified");
        assertThat(clusters.pods(CLUSTER)).as("the cluster never counted the drill pod").hasSize(3);
    }

    @Test
    @Order(2)
    void anObjectOverwrittenInTheStoreFailsItsDrillWithTheReason() {
        backups.apply("overwritten", """
                etcdCluster: {name: %s}
                s3: {path: %s/overwritten/snapshot.db, awsSecret: aws, endpoint: "%s", forcePathStyle: true}
                """.formatted(CLUSTER, BUCKET, sandbox.s3().endpoint()));
        backups.awaitSucceeded("overwritten");
        s3.putObject(b -> b.bucket(BUCKET).key("overwritten/snapshot.db"),
                RequestBody.fromString("not an etcd snapshot".repeat(1000), StandardCharsets.UTF_8));

        Edits.edit(client().resources(EtcdBackup.class).inNamespace(NS).withName("overwritten"), b -> {
            b.getSpec().setRestoreDrill(new RestoreDrillPolicy());
            return b;
        });
        Condition verified = awaitVerified("overwritten");
        assertThat(verified.getStatus()).isEqualTo("False");
        assertThat(verified.getReason()).isEqualTo("DigestMismatch");
        assertThat(verified.getMessage()).contains("overwritten/snapshot.db");
        EtcdBackupStatus status = backups.status("overwritten");
        assertThat(status.getLastVerifiedDate()).isNull();
        assertThat(status.getLastDrilledBackupPath()).isEqualTo(BUCKET + "/overwritten/snapshot.db");
        assertThat(clusters.events("overwritten")).filteredOn(e -> e.getReason().equals("DigestMismatch"))
                .isNotEmpty().allSatisfy(e -> assertThat(e.getType()).isEqualTo("Warning"));
        awaitNoDrillLeftovers("overwritten");
    }

    @Test
    @Order(3)
    void periodicRetentionKeepsTheLastVerifiedBackupBesideTheNewest() {
        // only the first backup is drilled (never drilled before); the next ones wait for a 1000th
        backups.apply("hourly", """
                etcdCluster: {name: %s}
                backupPolicy: {backupIntervalInSecond: 2, maxBackups: 1}
                restoreDrill: {every: 1000}
                s3: {path: %s/hourly/example, awsSecret: aws, endpoint: "%s", forcePathStyle: true}
                """.formatted(CLUSTER, BUCKET, sandbox.s3().endpoint()));
        await().atMost(WITHIN).until(() -> backups.status("hourly").getLastVerifiedBackupPath() != null);
        String verifiedKey = backups.status("hourly").getLastVerifiedBackupPath().substring(BUCKET.length() + 1);
        Etcdctl etcdctl = new Etcdctl(clusters.endpoints(CLUSTER));
        long taken = count(reasons("hourly"), "BackupTaken");
        for (int i = 0; i < 3; i++) {
            etcdctl.put("later-" + i, "value");
            long before = taken + i;
            await().atMost(WITHIN).until(() -> count(reasons("hourly"), "BackupTaken") > before);
        }
        await().atMost(WITHIN).untilAsserted(() -> {
            List<String> keys = s3.listObjectsV2(b -> b.bucket(BUCKET).prefix("hourly/")).contents().stream()
                    .map(S3Object::key).toList();
            assertThat(keys).as("the verified backup and the newest").hasSize(2).contains(verifiedKey)
                    .contains(backups.status("hourly").getBackupPath().substring(BUCKET.length() + 1));
        });
        assertThat(count(reasons("hourly"), "Verified")).as("one drill").isEqualTo(1);
        client().resources(EtcdBackup.class).inNamespace(NS).withName("hourly").delete();
    }

    static Condition awaitVerified(String name) {
        await().atMost(WITHIN).until(() -> Conditions.find(backups.status(name).getConditions(), "BackupVerified")
                .isPresent());
        return Conditions.find(backups.status(name).getConditions(), "BackupVerified").orElseThrow();
    }

    static void awaitNoDrillLeftovers(String name) {
        String uid = client().resources(EtcdBackup.class).inNamespace(NS).withName(name).get().getMetadata().getUid();
        await().atMost(WITHIN).untilAsserted(() -> {
            List<Pod> pods = client().pods().inNamespace(NS).withLabel(DRILL_LABEL, uid).list().getItems();
            assertThat(pods).as("drill pods").isEmpty();
            assertThat(client().secrets().inNamespace(NS).withLabel(DRILL_LABEL, uid).list().getItems())
                    .as("drill Secrets").isEmpty();
        });
    }

    static long count(List<String> reasons, String reason) {
        return reasons.stream().filter(reason::equals).count();
    }

    static List<String> reasons(String name) {
        return clusters.events(name).stream().map(Event::getReason).toList();
    }
}
