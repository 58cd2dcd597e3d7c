package dev.etcdoperator.backup;

import static org.assertj.core.api.Assertions.assertThat;

import dev.etcdoperator.api.v1beta2.EtcdRestore;
import dev.etcdoperator.api.v1beta2.EtcdRestoreSpec;
import dev.etcdoperator.api.v1beta2.EtcdRestoreStatus;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.Test;

/** Which backup objects restores are using, read from the EtcdRestores on the API server. */
@EnableKubernetesMockClient(crud = true)
class RestoresInProgressTest {
    KubernetesClient client;

    @Test
    void everyRestoreThatHasNotEndedUsesTheObjectItVerifiedOrElseTheOneItNames() {
        restore("ns1", "starting", "b/p_v1", null, null);
        restore("ns1", "verified", "b/changed-later", "b/p_v2", "Deleting");
        restore("ns2", "elsewhere", "b/p_v3", "b/p_v3", "Restoring");
        restore("ns1", "done", "b/p_v4", "b/p_v4", "Done");
        restore("ns1", "failed", "b/p_v5", "b/p_v5", "Failed");
        restore("ns1", "other-bucket", "c/p_v6", "c/p_v6", "Growing");

        assertThat(new RestoresInProgress(client).keys("b", "ns1")).containsExactlyInAnyOrder("p_v1", "p_v2", "p_v3");
        assertThat(new RestoresInProgress(client).keys("c", "ns1")).containsExactly("p_v6");
    }

    void restore(String namespace, String name, String path, String verifiedPath, String phase) {
        EtcdRestore restore = Serialization.unmarshal("""
                apiVersion: etcd.database.coreos.com/v1beta2
                kind: EtcdRestore
                metadata: {name: %s, namespace: %s}
                spec:
                  etcdCluster: {name: alpha}
                  backupStorageType: S3
                  s3: {path: "%s", awsSecret: aws}
                """.formatted(name, namespace, path), EtcdRestore.class);
        if (phase != null) {
            EtcdRestoreStatus status = new EtcdRestoreStatus();
            status.setPhase(phase);
            EtcdRestoreSpec verified = Serialization.clone(restore.getSpec());
            verified.getS3().setPath(verifiedPath);
            status.setVerifiedSpec(verified);
            restore.setStatus(status);
        }
        client.resource(restore).create();
    }
}
