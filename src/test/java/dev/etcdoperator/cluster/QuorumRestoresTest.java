package dev.etcdoperator.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;

import dev.etcdoperator.api.v1beta2.EtcdBackup;
import dev.etcdoperator.api.v1beta2.EtcdBackupStatus;
import dev.etcdoperator.api.v1beta2.EtcdCluster;
import dev.etcdoperator.api.v1beta2.EtcdRestore;
import dev.etcdoperator.core.cluster.QuorumLoss;
import dev.etcdoperator.core.cluster.Step;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.Test;

/** The newest successful backup of a cluster, and the EtcdRestore created from it when its quorum is lost. */
@EnableKubernetesMockClient(crud = true)
class QuorumRestoresTest {
    KubernetesClient client;

    private static final EtcdCluster CLUSTER = Serialization.unmarshal("""
            apiVersion: etcd.database.coreos.com/v1beta2
            kind: EtcdCluster
            metadata: {name: alpha, namespace: prod, uid: uid-alpha}
            spec:
              size: 3
              quorumLossRecovery: {policy: FromBackup}
            """, EtcdCluster.class);

    private static EtcdBackup backup(String name, String clusterUid, String path, String sha, String when) {
        EtcdBackup b = Serialization.unmarshal("""
                apiVersion: etcd.database.coreos.com/v1beta2
                kind: EtcdBackup
                metadata: {name: %s, namespace: prod}
                spec:
                  etcdCluster: {name: alpha}
                  storageType: S3
                  s3:
                    path: "etcd-backups/alpha/"
                    awsSecret: aws
                    endpoint: "http://minio:9000"
                    forcePathStyle: true
                    clientSideEncryption: {secretName: backup-key, key: k1}
                """.formatted(name), EtcdBackup.class);
        EtcdBackupStatus s = new EtcdBackupStatus();
        s.setClusterUID(clusterUid);
        s.setBackupPath(path);
        s.setBackupSha256(sha);
        s.setLastSuccessDate(when);
        s.setSucceeded(path != null);
        b.setStatus(s);
        return b;
    }

    @Test
    void theNewestSuccessfulBackupOfThisVeryClusterIsChosen() {
        List<EtcdBackup> backups = List.of(
                backup("old", "uid-alpha", "etcd-backups/alpha/1", "aa", "2026-01-01T00:00:00Z"),
                backup("newest", "uid-alpha", "etcd-backups/alpha/2", "bb", "2026-01-02T00:00:00Z"),
                backup("other-cluster", "uid-of-an-earlier-alpha", "etcd-backups/alpha/3", "cc", "2026-01-03T00:00:00Z"),
                backup("no-checksum", "uid-alpha", "etcd-backups/alpha/4", null, "2026-01-04T00:00:00Z"),
                backup("never-succeeded", "uid-alpha", null, null, null));
        assertThat(QuorumLossView.newestBackup(CLUSTER, backups))
                .isEqualTo(new QuorumLoss.Backup("newest", "etcd-backups/alpha/2", "2026-01-02T00:00:00Z"));
        assertThat(QuorumLossView.newestBackup(CLUSTER, backups.subList(2, 5))).isNull();
        assertThat(QuorumLossView.of(CLUSTER, backups).newestBackup().name()).isEqualTo("newest");
        assertThat(QuorumLossView.of(CLUSTER, backups).policy()).isEqualTo(QuorumLoss.FROM_BACKUP);
    }

    /** A cluster an EtcdRestore rebuilt has no backup of its own yet: its predecessor's newest stands for it. */
    @Test
    void aRestoredClusterFallsBackOnTheBackupsOfTheClusterItReplacedUntilItHasItsOwn() {
        EtcdCluster restored = Serialization.unmarshal(Serialization.asYaml(CLUSTER), EtcdCluster.class);
        restored.getMetadata().setUid("uid-alpha-2");
        restored.getMetadata().setAnnotations(java.util.Map.of(
                dev.etcdoperator.api.v1beta2.RestoreAnnotations.RESTORED_FROM_UID, "uid-alpha-1, uid-alpha"));
        List<EtcdBackup> before = List.of(
                backup("old", "uid-alpha", "etcd-backups/alpha/1", "aa", "2026-01-01T00:00:00Z"),
                backup("unrelated", "uid-beta", "etcd-backups/beta/1", "dd", "2026-01-05T00:00:00Z"),
                backup("of-endpoints", null, "etcd-backups/endpoints/1", "ff", "2026-01-06T00:00:00Z"));
        assertThat(QuorumLossView.newestBackup(restored, before)).as("the seed's restore not confirmed").isNull();
        restored.setStatus(new dev.etcdoperator.api.v1beta2.EtcdClusterStatus());
        restored.getStatus().setConditions(List.of(new dev.etcdoperator.api.v1beta2.Condition("RestoreSnapshot",
                "True", "RestoreSnapshotConfirmed", "the seed restores the snapshot")));
        assertThat(QuorumLossView.newestBackup(restored, before).name()).isEqualTo("old");
        EtcdBackup ofAnotherName = backup("other-name", "uid-alpha", "etcd-backups/alpha/3", "ee", "2026-01-03T00:00:00Z");
        ofAnotherName.getSpec().getEtcdCluster().setName("beta");
        assertThat(QuorumLossView.newestBackup(restored, List.of(before.get(0), ofAnotherName)).name())
                .as("a backup of another cluster name").isEqualTo("old");
        List<EtcdBackup> since = List.of(before.get(0), before.get(1),
                backup("own", "uid-alpha-2", "etcd-backups/alpha/2", "bb", "2026-01-02T00:00:00Z"));
        assertThat(QuorumLossView.newestBackup(restored, since).name()).isEqualTo("own");
        restored.getMetadata().setAnnotations(null);
        assertThat(QuorumLossView.newestBackup(restored, before)).as("not restored: another cluster's").isNull();
    }

    @Test
    void theRestoreNamesTheClusterAndTheBackupsObjectWithItsStore() {
        client.resource(backup("newest", "uid-alpha", "etcd-backups/alpha/2", "bb", "2026-01-02T00:00:00Z"))
                .create();
        Step.CreateRestore step = new Step.CreateRestore("alpha-quorum-x",
                new QuorumLoss.Backup("newest", "etcd-backups/alpha/2", "2026-01-02T00:00:00Z"), "m");
        new QuorumRestores(client).create(CLUSTER, step);
        new QuorumRestores(client).create(CLUSTER, step);

        assertThat(client.resources(EtcdRestore.class).inNamespace("prod").list().getItems()).singleElement()
                .satisfies(r -> {
                    assertThat(r.getMetadata().getName()).isEqualTo("alpha-quorum-x");
                    assertThat(r.getSpec().getEtcdCluster().getName()).isEqualTo("alpha");
                    assertThat(r.getSpec().getBackupStorageType()).isEqualTo("S3");
                    assertThat(r.getSpec().getS3().getPath()).isEqualTo("etcd-backups/alpha/2");
                    assertThat(r.getSpec().getS3().getAwsSecret()).isEqualTo("aws");
                    assertThat(r.getSpec().getS3().getEndpoint()).isEqualTo("http://minio:9000");
                    assertThat(r.getSpec().getS3().getForcePathStyle()).isTrue();
                    // the key the backups were encrypted with: without it the restore could not read them
                    assertThat(r.getSpec().getS3().getClientSideEncryption().getSecretName()).isEqualTo("backup-key");
                    assertThat(r.getSpec().getS3().getClientSideEncryption().getKey()).isEqualTo("k1");
                });
        assertThatThrownBy(() -> new QuorumRestores(client).create(CLUSTER, new Step.CreateRestore("alpha-quorum-y",
                new QuorumLoss.Backup("gone", "etcd-backups/alpha/9", null), "m")))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("gone");
    }
}
