package dev.etcdoperator.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import org.junit.jupiter.api.Test;

/**
 * A pod that fits no node is deleted to be made again from the changed spec, and reported only when this call deleted
 * it. (The resourceVersion precondition that leaves a pod changed meanwhile alone is the API server's: the mock does
 * not check it; EtcdClusterIT order 16 runs the whole path on the real one.)
 */
@EnableKubernetesMockClient(crud = true)
class MemberPlacementDeletionTest {
    KubernetesClient client;

    private Pod create(String name) {
        return client.pods().inNamespace("prod").resource(new PodBuilder().withNewMetadata().withName(name)
                .withNamespace("prod").endMetadata().withNewSpec().addNewContainer().withName("etcd").withImage("etcd")
                .endContainer().endSpec().build()).create();
    }

    private List<String> podNames() {
        return client.pods().inNamespace("prod").list().getItems().stream().map(p -> p.getMetadata().getName())
                .sorted().toList();
    }

    @Test
    void aPodAsSeenIsDeletedAndReported() {
        Pod seen = create("a-1");
        create("a-2");
        assertThat(MemberPlacement.deleteAsSeen(client, List.of(seen))).containsExactly("a-1");
        assertThat(podNames()).containsExactly("a-2");
    }

    @Test
    void aPodAlreadyGoneIsNotReportedAsDeleted() {
        Pod seen = create("a-1");
        client.pods().inNamespace("prod").withName("a-1").delete();
        assertThat(MemberPlacement.deleteAsSeen(client, List.of(seen))).isEmpty();
    }
}
