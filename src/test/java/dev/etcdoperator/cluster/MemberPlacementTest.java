package dev.etcdoperator.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.util.List;

import dev.etcdoperator.api.v1beta2.EtcdClusterStatus;
import dev.etcdoperator.core.status.Conditions;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import org.junit.jupiter.api.Test;

/** A member pod the scheduler cannot place is told with the scheduler's reason and what a person can do. */
class MemberPlacementTest {
    static final String WHY = "0/1 nodes are available: 1 node(s) didn't match Pod's node affinity/selector.";

    final Conditions conditions = new Conditions(Clock.systemUTC());

    @Test
    void onlyPodsTheSchedulerFoundNoNodeForCount() {
        Pod deleting = pending("a-3", "Unschedulable", WHY);
        deleting.getMetadata().setDeletionTimestamp("2026-12-02T05:00:00Z");
        assertThat(MemberPlacement.unschedulable(List.of(pending("a-1", "Unschedulable", WHY),
                pending("a-2", "SchedulingGated", "gated"), deleting, running("a-4"))))
                .containsOnlyKeys("a-1").containsEntry("a-1", WHY);
    }

    @Test
    void theConditionNamesThePodTheReasonAndWhatToDoThenClearsOnceEveryPodIsPlaced() {
        EtcdClusterStatus status = new EtcdClusterStatus();
        MemberPlacement.record(conditions, status, "prod", List.of(running("a-1")), false, 1L);
        assertThat(status.getConditions()).as("never unplaced: not carried").isNullOrEmpty();

        MemberPlacement.record(conditions, status, "prod", List.of(running("a-1"), pending("a-2", "Unschedulable", WHY)),
                false, 1L);
        assertThat(Conditions.find(status.getConditions(), MemberPlacement.CONDITION)).hasValueSatisfying(c -> {
            assertThat(c.getStatus()).isEqualTo("False");
            assertThat(c.getReason()).isEqualTo("PodUnschedulable");
            assertThat(c.getMessage()).contains("Pod a-2 fits no node: " + WHY).contains("change spec.pod")
                    .contains("made again from it (a pod made by an earlier operator version only when deleted: kubectl"
                            + " delete pod -n prod a-2)").doesNotContain("a-1").doesNotContain("pvc");
        });

        MemberPlacement.record(conditions, status, "prod", List.of(running("a-1"), running("a-2")), false, 2L);
        assertThat(Conditions.find(status.getConditions(), MemberPlacement.CONDITION)).hasValueSatisfying(c -> {
            assertThat(c.getStatus()).isEqualTo("True");
            assertThat(c.getReason()).isEqualTo("AllPodsScheduled");
        });
    }

    @Test
    void aPodThatFitsNoNodeIsMadeAgainOnlyOnceThePlacementRulesItWasMadeFromChanged() {
        Pod old = pending("a-1", "Unschedulable", WHY);
        old.getMetadata().setAnnotations(java.util.Map.of(ClusterResources.PLACEMENT_ANNOTATION, "before"));
        Pod current = pending("a-2", "Unschedulable", WHY);
        current.getMetadata().setAnnotations(java.util.Map.of(ClusterResources.PLACEMENT_ANNOTATION, "now"));
        Pod unknown = pending("a-3", "Unschedulable", WHY);
        Pod preempting = pending("a-5", "Unschedulable", WHY);
        preempting.getMetadata().setAnnotations(java.util.Map.of(ClusterResources.PLACEMENT_ANNOTATION, "before"));
        preempting.getStatus().setNominatedNodeName("node-1");
        Pod placed = running("a-4");
        placed.getMetadata().setAnnotations(java.util.Map.of(ClusterResources.PLACEMENT_ANNOTATION, "before"));
        assertThat(MemberPlacement.outdated(List.of(old, current, unknown, placed, preempting), "now"))
                .extracting(p -> p.getMetadata().getName()).containsExactly("a-1");
    }

    @Test
    void podsAreToldInTheOrderOfTheirNamesAndAPausedClusterSaysWhenTheyAreMadeAgain() {
        EtcdClusterStatus status = new EtcdClusterStatus();
        MemberPlacement.record(conditions, status, "prod", List.of(pending("a-2", "Unschedulable", WHY),
                pending("a-1", "Unschedulable", WHY)), true, 1L);
        assertThat(Conditions.find(status.getConditions(), MemberPlacement.CONDITION)).hasValueSatisfying(c -> {
            assertThat(c.getMessage().indexOf("Pod a-1")).isLessThan(c.getMessage().indexOf("Pod a-2"));
            assertThat(c.getMessage()).contains("made again from it once the cluster is no longer paused")
                    .contains("kubectl delete pod -n prod a-1 a-2");
        });
    }

    static Pod pending(String name, String reason, String message) {
        return new PodBuilder().withNewMetadata().withName(name).endMetadata().withNewStatus().withPhase("Pending")
                .addNewCondition().withType("PodScheduled").withStatus("False").withReason(reason).withMessage(message)
                .endCondition().endStatus().build();
    }

    static Pod running(String name) {
        return new PodBuilder().withNewMetadata().withName(name).endMetadata().withNewStatus().withPhase("Running")
                .addNewCondition().withType("PodScheduled").withStatus("True").endCondition().endStatus().build();
    }
}
