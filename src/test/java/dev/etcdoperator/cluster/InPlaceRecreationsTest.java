package dev.etcdoperator.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.junit.jupiter.api.Test;

import dev.etcdoperator.core.cluster.ClusterObservation;
import dev.etcdoperator.core.cluster.ClusterPlanner;
import dev.etcdoperator.core.cluster.EtcdMember;
import dev.etcdoperator.core.cluster.MemberHealth;
import dev.etcdoperator.core.cluster.MemberPod;
import dev.etcdoperator.core.cluster.Step;

class InPlaceRecreationsTest {
    private static final String KEY = "prod/alpha";
    private static final String UID = "uid-1";
    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
    private static final Step RECREATE_B = new Step.DeletePod("alpha-b", Step.DeletePod.POD_STOPPED);

    private final InPlaceRecreations recreations = new InPlaceRecreations();

    private static MemberPod crashLooping(String name) {
        return new MemberPod(name, false, false, false, "3.5.17", true, false, null, false, true, true);
    }

    private static MemberPod running(String name) {
        return new MemberPod(name, true, true, false, "3.5.17", true);
    }

    /** alpha-a healthy; alpha-b as {@code b}, healthy or not. */
    private static ClusterObservation observed(Instant now, MemberPod b, boolean bHealthy) {
        List<EtcdMember> members = List.of(new EtcdMember(1, "alpha-a", "http://a:2380", false),
                new EtcdMember(2, "alpha-b", "http://b:2380", false));
        Map<Long, MemberHealth> health = Map.of(1L, new MemberHealth(1, true, true, "3.5.17", 100),
                2L, new MemberHealth(2, bHealthy, false, "3.5.17", 100));
        return new ClusterObservation("alpha", "prod", 2, "3.5.17", false, true, List.of(running("alpha-a"), b),
                Optional.of(members), health, "3.5.17", "", false, Set.of("alpha-a", "alpha-b"), null, false, now,
                null, null, false, List.of(), false);
    }

    private void recreateB(int times, Instant at) {
        for (int i = 0; i < times; i++) {
            recreations.done(KEY, UID, RECREATE_B, at);
        }
    }

    private boolean bKeepsFailing(ClusterObservation o) {
        return recreations.marked(KEY, UID, o).pods().stream().filter(p -> p.name().equals("alpha-b")).findFirst()
                .orElseThrow().keepsFailing();
    }

    @Test
    void aMemberMadeAgainOnItsClaimAsOftenAsThePlannerAllowsAndFailingAgainIsMarked() {
        recreateB(ClusterPlanner.RECREATIONS_BEFORE_REPLACING - 1, T0);
        assertThat(bKeepsFailing(observed(T0, crashLooping("alpha-b"), false))).isFalse();
        recreateB(1, T0);
        assertThat(bKeepsFailing(observed(T0, crashLooping("alpha-b"), false))).isTrue();
        // an ended pod fails as much as a crash-looping one
        assertThat(bKeepsFailing(observed(T0, new MemberPod("alpha-b", false, false, false, "3.5.17", true), false)))
                .isTrue();
    }

    @Test
    void aPodThatIsNotFailingNowIsNotMarked() {
        recreateB(ClusterPlanner.RECREATIONS_BEFORE_REPLACING, T0);
        // starting again (not healthy yet) in its new pod
        assertThat(bKeepsFailing(observed(T0, MemberPod.starting("alpha-b", "3.5.17", true), false))).isFalse();
        // a pod that never started etcd (its node refused it) says nothing of its data
        assertThat(bKeepsFailing(observed(T0, new MemberPod("alpha-b", false, false, false, "3.5.17", true, true,
                null, false, false), false))).isFalse();
    }

    @Test
    void aMemberSeenHealthyIsForgotten() {
        recreateB(ClusterPlanner.RECREATIONS_BEFORE_REPLACING - 1, T0);
        recreations.marked(KEY, UID, observed(T0, running("alpha-b"), true));
        recreateB(1, T0);
        assertThat(bKeepsFailing(observed(T0, crashLooping("alpha-b"), false))).isFalse();
    }

    @Test
    void recreationsOutsideTheWindowAreNotCounted() {
        recreateB(ClusterPlanner.RECREATIONS_BEFORE_REPLACING - 1, T0);
        Instant later = T0.plus(InPlaceRecreations.WINDOW).plus(Duration.ofSeconds(1));
        recreateB(1, later);
        assertThat(bKeepsFailing(observed(later, crashLooping("alpha-b"), false))).isFalse();
    }

    @Test
    void aClusterMadeAgainUnderItsNameStartsAfresh() {
        recreateB(ClusterPlanner.RECREATIONS_BEFORE_REPLACING, T0);
        assertThat(recreations.marked(KEY, "uid-2", observed(T0, crashLooping("alpha-b"), false)).pods())
                .noneMatch(MemberPod::keepsFailing);
        recreations.done(KEY, "uid-2", RECREATE_B, T0);
        assertThat(recreations.marked(KEY, "uid-2", observed(T0, crashLooping("alpha-b"), false)).pods())
                .noneMatch(MemberPod::keepsFailing);
    }

    @Test
    void onlyPodsDeletedToBeMadeAgainOnTheirClaimAreCounted() {
        recreateB(ClusterPlanner.RECREATIONS_BEFORE_REPLACING - 1, T0);
        recreations.done(KEY, UID, new Step.DeletePod("alpha-b", Step.DeletePod.NOT_A_MEMBER), T0);
        recreations.done(KEY, UID, new Step.DeletePod("alpha-b", Step.DeletePod.LEARNER_FAILED), T0);
        recreations.done(KEY, UID, new Step.DeletePod("alpha-b", Step.DeletePod.SPLIT_OFF), T0);
        assertThat(bKeepsFailing(observed(T0, crashLooping("alpha-b"), false))).isFalse();
    }

    @Test
    void aDeletedClusterIsForgotten() {
        recreateB(ClusterPlanner.RECREATIONS_BEFORE_REPLACING, T0);
        recreations.forget(KEY);
        assertThat(bKeepsFailing(observed(T0, crashLooping("alpha-b"), false))).isFalse();
    }
}
