package dev.etcdoperator.cluster;

import static dev.etcdoperator.cluster.EtcdClusterReconciler.AFTER_CHANGE;
import static dev.etcdoperator.cluster.EtcdClusterReconciler.WHILE_STARTING;
import static dev.etcdoperator.cluster.EtcdClusterReconciler.WHILE_WAITING;
import static dev.etcdoperator.cluster.EtcdClusterReconciler.lastPodChange;
import static dev.etcdoperator.cluster.EtcdClusterReconciler.nextCheck;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import dev.etcdoperator.core.cluster.Step;
import dev.etcdoperator.core.cluster.Step.Wait;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import org.junit.jupiter.api.Test;

class ReconcileScheduleTest {
    static final Duration INTERVAL = Duration.ofSeconds(8);
    static final Instant NOW = Instant.parse("2026-11-30T10:00:00Z");

    @Test
    void aSettledClusterIsLookedAtEveryInterval() {
        assertThat(nextCheck(new Step.Nothing(), true, NOW, NOW, INTERVAL)).isEqualTo(INTERVAL);
        assertThat(nextCheck(new Step.Paused(), true, NOW, NOW, INTERVAL)).isEqualTo(INTERVAL);
        assertThat(nextCheck(new Step.Refuse("Downgrade", "no"), true, NOW, NOW, INTERVAL)).isEqualTo(INTERVAL);
        // nothing comes back by itself; a restore or a reseed request changes the resource, which is an event
        assertThat(nextCheck(new Step.AllMembersLost("lost"), true, NOW, NOW, INTERVAL)).isEqualTo(INTERVAL);
    }

    /** A zero or negative interval from the chart's values would reconcile every settled cluster without a pause. */
    @Test
    void theIntervalIsNeverShorterThanASecond() {
        assertThat(EtcdClusterReconciler.atLeastASecond(Duration.ZERO)).isEqualTo(Duration.ofSeconds(1));
        assertThat(EtcdClusterReconciler.atLeastASecond(Duration.ofMillis(-5))).isEqualTo(Duration.ofSeconds(1));
        assertThat(EtcdClusterReconciler.atLeastASecond(Duration.ofMillis(999))).isEqualTo(Duration.ofSeconds(1));
        assertThat(EtcdClusterReconciler.atLeastASecond(Duration.ofMillis(1500))).isEqualTo(Duration.ofMillis(1500));
        assertThat(EtcdClusterReconciler.atLeastASecond(INTERVAL)).isEqualTo(INTERVAL);
    }

    @Test
    void aChangeIsFollowedSoon() {
        assertThat(nextCheck(new Step.PromoteLearner(1, "a"), true, null, NOW, INTERVAL)).isEqualTo(AFTER_CHANGE);
        // the seed recorded, its pod is created next
        assertThat(nextCheck(new Step.RecordSeed("a", false), true, null, NOW, INTERVAL)).isEqualTo(AFTER_CHANGE);
        assertThat(nextCheck(new Step.PromoteLearner(1, "a"), false, null, NOW, INTERVAL)).isEqualTo(WHILE_WAITING);
        assertThat(AFTER_CHANGE).isLessThan(WHILE_WAITING);
    }

    @Test
    void aMemberWhosePodWasJustCreatedIsLookedAtMoreOftenThanOtherWaits() {
        Instant created = NOW.minusSeconds(2);
        for (String reason : new String[] { Wait.MEMBERS_STARTING, Wait.MEMBER_STARTING, Wait.LEARNER_CATCHING_UP,
                Wait.MEMBER_NOT_HEALTHY }) {
            assertThat(nextCheck(new Wait(reason, "w"), true, created, NOW, INTERVAL)).as(reason).isEqualTo(WHILE_STARTING);
            // a member that does not come up within the window is no longer polled that often
            assertThat(nextCheck(new Wait(reason, "w"), true, NOW.minusSeconds(31), NOW, INTERVAL)).as(reason)
                    .isEqualTo(WHILE_WAITING);
            assertThat(nextCheck(new Wait(reason, "w"), true, null, NOW, INTERVAL)).as(reason).isEqualTo(WHILE_WAITING);
        }
        assertThat(nextCheck(new Wait(Wait.QUORUM_AT_RISK, "w"), true, created, NOW, INTERVAL)).isEqualTo(WHILE_WAITING);
        assertThat(nextCheck(new Wait(Wait.POD_TERMINATING, "w"), true, created, NOW, INTERVAL)).isEqualTo(WHILE_WAITING);
        assertThat(WHILE_STARTING).isLessThan(WHILE_WAITING);
    }

    @Test
    void aLostQuorumJustAfterAPodChangeIsLookedAtOftenSinceALeaderIsBeingElected() {
        Step lost = new Step.QuorumLost("q");
        assertThat(nextCheck(lost, true, NOW.minusSeconds(1), NOW, INTERVAL)).isEqualTo(WHILE_STARTING);
        // a quorum lost for longer is not polled that often
        assertThat(nextCheck(lost, true, NOW.minusSeconds(31), NOW, INTERVAL)).isEqualTo(WHILE_WAITING);
        assertThat(nextCheck(lost, true, null, NOW, INTERVAL)).isEqualTo(WHILE_WAITING);
    }

    @Test
    void theLastPodChangeIsTheNewestCreationOrContainerEnd() {
        Pod old = pod("2026-11-30T09:00:00Z", null);
        Pod ended = pod("2026-11-30T09:00:10Z", "2026-11-30T09:59:58Z");
        Pod created = pod("2026-11-30T09:59:50Z", null);
        assertThat(lastPodChange(List.of(old, created))).isEqualTo(Instant.parse("2026-11-30T09:59:50Z"));
        // a member's container ended: that is the change to look at
        assertThat(lastPodChange(List.of(old, ended, created))).isEqualTo(Instant.parse("2026-11-30T09:59:58Z"));
        assertThat(lastPodChange(List.of(pod("not a time", "neither")))).isNull();
        assertThat(lastPodChange(List.of())).isNull();
    }

    private static Pod pod(String created, String ended) {
        PodBuilder pod = new PodBuilder().withNewMetadata().withName("p").withCreationTimestamp(created).endMetadata();
        if (ended != null) {
            pod.withNewStatus().addNewContainerStatus().withName("etcd").withNewState().withNewTerminated()
                    .withFinishedAt(ended).withExitCode(137).endTerminated().endState().endContainerStatus().endStatus();
        }
        return pod.build();
    }
}
