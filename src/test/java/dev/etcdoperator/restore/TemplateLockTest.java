package dev.etcdoperator.restore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.etcdoperator.api.v1beta2.EtcdCluster;
import dev.etcdoperator.api.v1beta2.EtcdClusterStatus;
import dev.etcdoperator.api.v1beta2.RestoreAnnotations;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.Test;

/** The mark a restore puts on its template, against a mock API server. */
@EnableKubernetesMockClient(crud = true)
class TemplateLockTest {
    KubernetesClient client;

    private EtcdCluster created() {
        return client.resource(Serialization.unmarshal("""
                apiVersion: etcd.database.coreos.com/v1beta2
                kind: EtcdCluster
                metadata: {name: alpha, namespace: ns}
                spec: {size: 3, version: 3.5.17}
                """, EtcdCluster.class)).create();
    }

    private EtcdCluster current() {
        return client.resources(EtcdCluster.class).inNamespace("ns").withName("alpha").get();
    }

    /** The cluster controller writes the template's status all the time: that alone does not stop the mark. */
    @Test
    void aStatusWrittenSinceThePreflightReadTheTemplateDoesNotStopTheMark() {
        EtcdCluster read = created();
        EtcdCluster busy = current();
        busy.setStatus(new EtcdClusterStatus());
        busy.getStatus().setPhase("Running");
        client.resource(busy).updateStatus();
        assertThat(current().getMetadata().getResourceVersion()).isNotEqualTo(read.getMetadata().getResourceVersion());

        new TemplateLock(client).take(read, "r1");
        assertThat(current().getMetadata().getAnnotations()).containsEntry(RestoreAnnotations.RESTORING, "r1");
    }

    /** A spec (or label, or annotation) changed since the preflight read it: the mark is not taken. */
    @Test
    void aTemplateWhoseSpecChangedSinceThePreflightIsNotMarked() {
        EtcdCluster read = created();
        client.resources(EtcdCluster.class).inNamespace("ns").withName("alpha").edit(c -> {
            c.getSpec().setSize(5);
            return c;
        });
        assertThatThrownBy(() -> new TemplateLock(client).take(read, "r1")).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("changed meanwhile");
        assertThat(current().getMetadata().getAnnotations() == null ? java.util.Map.of()
                : current().getMetadata().getAnnotations()).doesNotContainKey(RestoreAnnotations.RESTORING);
    }
}
