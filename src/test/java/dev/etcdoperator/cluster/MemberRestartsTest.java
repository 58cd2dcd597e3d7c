package dev.etcdoperator.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import io.fabric8.kubernetes.api.model.ContainerStateTerminatedBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import org.junit.jupiter.api.Test;

/** Each restart of a member's etcd in its pod is reported once, and none that happened before the pod was seen. */
class MemberRestartsTest {
    private static final String KEY = "prod/demo";

    private static Pod pod(String name, String uid, Integer restarts, Integer lastExit) {
        return pod(name, uid, restarts, lastExit, "quay.io/coreos/etcd:v3.5.17");
    }

    /** {@code image}: the image of the container last started in the pod, as the kubelet reports it. */
    private static Pod pod(String name, String uid, Integer restarts, Integer lastExit, String image) {
        PodBuilder pod = new PodBuilder().withNewMetadata().withName(name).withUid(uid).endMetadata();
        if (restarts == null) {
            return pod.build();
        }
        return pod.withNewStatus().addNewContainerStatus().withName(ClusterResources.ETCD_CONTAINER)
                .withImage(image).withRestartCount(restarts).withNewLastState()
                .withTerminated(lastExit == null ? null
                        : new ContainerStateTerminatedBuilder().withExitCode(lastExit).withReason("Error").build())
                .endLastState().endContainerStatus().endStatus().build();
    }

    @Test
    void aRestartIsReportedOnceWithHowTheEtcdEnded() {
        MemberRestarts restarts = new MemberRestarts();
        assertThat(restarts.since(KEY, List.of(pod("demo-a", "u1", 0, null), pod("demo-b", "u2", null, null))))
                .isEmpty();
        List<MemberRestarts.Restart> seen = restarts.since(KEY, List.of(pod("demo-a", "u1", 1, 137),
                pod("demo-b", "u2", 0, null)));
        assertThat(seen).containsExactly(new MemberRestarts.Restart("demo-a", 1, 137, "Error"));
        assertThat(seen.get(0).describe()).isEqualTo("The etcd of member demo-a ended (exit code 137, Error) and the"
                + " kubelet started it again in its pod, on its data (1 restart of this pod).");
        assertThat(restarts.since(KEY, List.of(pod("demo-a", "u1", 1, 137)))).isEmpty();
        // a pod of no status yet, then seen at 0, then started again twice between two looks
        assertThat(restarts.since(KEY, List.of(pod("demo-b", "u2", 2, 1)))).isEmpty();
        assertThat(restarts.since(KEY, List.of(pod("demo-b", "u2", 4, 1)))).extracting(MemberRestarts.Restart::restarts)
                .containsExactly(4);
    }

    @Test
    void aRestartOnAnotherImageIsAnUpgradeNotAFailure() {
        MemberRestarts restarts = new MemberRestarts();
        restarts.since(KEY, List.of(pod("demo-a", "u1", 0, null, "quay.io/coreos/etcd:v3.5.17")));
        // the image changed in place: the kubelet stopped the old etcd and started the new one
        assertThat(restarts.since(KEY, List.of(pod("demo-a", "u1", 1, 143, "quay.io/coreos/etcd:v3.6.16"))))
                .isEmpty();
        // then it fails on the new image
        assertThat(restarts.since(KEY, List.of(pod("demo-a", "u1", 2, 2, "quay.io/coreos/etcd:v3.6.16"))))
                .extracting(MemberRestarts.Restart::exitCode).containsExactly(2);
    }

    @Test
    void restartsBeforeThePodWasSeenOrOfAnotherPodOfTheSameNameAreNotReported() {
        MemberRestarts restarts = new MemberRestarts();
        // the operator started: the pods' earlier restarts are history
        assertThat(restarts.since(KEY, List.of(pod("demo-a", "u1", 3, 137)))).isEmpty();
        // the member's pod made again under the same name: a new pod
        assertThat(restarts.since(KEY, List.of(pod("demo-a", "u9", 1, 137)))).isEmpty();
        // another cluster, or this one after its deletion, starts from nothing
        restarts.since(KEY, List.of(pod("demo-a", "u9", 1, 137)));
        restarts.forget(KEY);
        assertThat(restarts.since(KEY, List.of(pod("demo-a", "u9", 2, 137)))).isEmpty();
        assertThat(restarts.since("prod/other", List.of(pod("demo-a", "u9", 5, 137)))).isEmpty();
    }
}
