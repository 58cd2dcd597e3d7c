package dev.etcdoperator.backup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.etcdoperator.api.v1beta2.EtcdBackup;
import dev.etcdoperator.core.backup.BackupFailure;
import dev.etcdoperator.storage.BackupKey;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.Test;

/** What an EtcdBackup's spec resolves to, against an API server (the fabric8 CRUD mock). */
@EnableKubernetesMockClient(crud = true)
class BackupRequestsTest {
    KubernetesClient client;

    @Test
    void shortServiceNamesInEtcdEndpointsMeanTheBackupsNamespaceNotTheOperators() {
        client.resource(new SecretBuilder().withNewMetadata().withName("aws").withNamespace("team-a").endMetadata()
                .addToStringData("credentials", "[default]\naws_access_key_id = k\naws_secret_access_key = s\n")
                .addToStringData("config", "[default]\nregion = us-east-1\n").build()).create();
        EtcdBackup backup = Serialization.unmarshal("""
                apiVersion: etcd.database.coreos.com/v1beta2
                kind: EtcdBackup
                metadata: {name: b, namespace: team-a}
                spec:
                  etcdEndpoints: ["http://example-client:2379", "example-client.team-b.svc:2379", "10.0.0.7:2379"]
                  storageType: S3
                  s3: {path: bucket/key.db, awsSecret: aws}
                """, EtcdBackup.class);

        BackupRequest request = new BackupRequests(client).resolve(backup);

        assertThat(request.endpoints()).containsExactly("http://example-client.team-a.svc:2379",
                "http://example-client.team-b.svc:2379", "http://10.0.0.7:2379");
    }

    @Test
    void theKeyOfClientSideEncryptionIsReadFromItsSecretInTheBackupsNamespace() {
        client.resource(new SecretBuilder().withNewMetadata().withName("aws").withNamespace("team-a").endMetadata()
                .addToStringData("credentials", "[default]\naws_access_key_id = k\naws_secret_access_key = s\n")
                .addToStringData("config", "[default]\nregion = us-east-1\n").build()).create();
        EtcdBackup backup = Serialization.unmarshal("""
                apiVersion: etcd.database.coreos.com/v1beta2
                kind: EtcdBackup
                metadata: {name: b, namespace: team-a}
                spec:
                  etcdEndpoints: ["http://example-client:2379"]
                  storageType: S3
                  s3: {path: bucket/key.db, awsSecret: aws, clientSideEncryption: {secretName: backup-key, key: k2}}
                """, EtcdBackup.class);

        assertThatThrownBy(() -> new BackupRequests(client).resolve(backup))
                .isInstanceOfSatisfying(BackupFailure.class, f -> assertThat(f.reason())
                        .isEqualTo(BackupFailure.ENCRYPTION_KEY_NOT_FOUND))
                .hasMessageContaining("team-a/backup-key").hasMessageContaining("--from-file=k2=key");
        client.resource(new SecretBuilder().withNewMetadata().withName("backup-key").withNamespace("team-a")
                .endMetadata().addToStringData("key", "A".repeat(44)).build()).create();
        assertThatThrownBy(() -> new BackupRequests(client).resolve(backup))
                .isInstanceOfSatisfying(BackupFailure.class, f -> assertThat(f.reason())
                        .isEqualTo(BackupFailure.ENCRYPTION_KEY_INVALID))
                .hasMessageContaining("team-a/backup-key[k2] is missing");
        String base64 = java.util.Base64.getEncoder().encodeToString(new byte[32]);
        client.resource(new SecretBuilder().withNewMetadata().withName("backup-key").withNamespace("team-a")
                .endMetadata().addToStringData("k2", base64 + "\n").build()).update();

        BackupKey key = new BackupRequests(client).resolve(backup).s3().clientKey();

        assertThat(key.fingerprint()).isEqualTo(BackupKey.of(new byte[32], "x").fingerprint());
        assertThat(key.source()).isEqualTo("team-a/backup-key[k2]");
    }
}
