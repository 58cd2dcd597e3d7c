package dev.etcdoperator.backup;

import static org.assertj.core.api.Assertions.assertThat;

import dev.etcdoperator.api.v1beta2.EtcdBackup;
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
}
