package dev.etcdoperator.restore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.etcdoperator.api.v1beta2.EtcdCluster;
import dev.etcdoperator.core.backup.BackupFailure;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.Test;

/**
 * A template the API server refuses to mark (its annotations over the limit once the mark is added, a policy): the
 * restore fails with what the API server said, and is not left to run its preflight again and again.
 */
@EnableKubernetesMockClient
class TemplateLockRefusedTest {
    KubernetesClient client;
    KubernetesMockServer server;

    @Test
    void aRefusedMarkIsATemplateRefusalNotARetry() {
        EtcdCluster read = Serialization.unmarshal("""
                apiVersion: etcd.database.coreos.com/v1beta2
                kind: EtcdCluster
                metadata: {name: alpha, namespace: ns, uid: u-1, resourceVersion: "7", generation: 1}
                spec: {size: 3, version: 3.5.17}
                """, EtcdCluster.class);
        for (int code : new int[] {422, 403}) {
            server.expect().put().withPath("/apis/etcd.database.coreos.com/v1beta2/namespaces/ns/etcdclusters/alpha")
                    .andReturn(code, new StatusBuilder().withCode(code).withStatus("Failure")
                            .withMessage("metadata.annotations: Too long: must have at most 262144 bytes").build())
                    .once();
            assertThatThrownBy(() -> new TemplateLock(client).take(read, "r1")).isInstanceOfSatisfying(
                    BackupFailure.class, e -> {
                        assertThat(e.reason()).isEqualTo(RestorePreflight.TEMPLATE_REFUSED);
                        assertThat(e.retryable()).isFalse();
                        assertThat(e.getMessage()).contains("EtcdCluster ns/alpha", "Too long", "Nothing was changed");
                    });
        }
    }
}
