package dev.etcdoperator.core.cluster;

import static dev.etcdoperator.core.cluster.ClusterFixture.running;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;

import dev.etcdoperator.api.v1beta2.Condition;
import dev.etcdoperator.api.v1beta2.EtcdClusterStatus;
import dev.etcdoperator.core.cluster.Step.AddMember;
import dev.etcdoperator.core.cluster.Step.CompactKeyspace;
import dev.etcdoperator.core.cluster.Step.DefragmentMember;
import dev.etcdoperator.core.cluster.Step.Nothing;
import dev.etcdoperator.core.cluster.Step.Paused;
import dev.etcdoperator.core.cluster.Step.PromoteLearner;
import dev.etcdoperator.core.cluster.Step.Refuse;
import dev.etcdoperator.core.cluster.Step.RemoveMember;
import dev.etcdoperator.core.cluster.Step.UpgradeMember;
import dev.etcdoperator.core.cluster.Step.Wait;
import dev.etcdoperator.core.status.Conditions;
import org.junit.jupiter.api.Test;

/**
 * Routine defragmentation ({@code spec.etcd.defragmentation}): members past the threshold one at a time, followers
 * first and the leader last, only with a healthy majority left without the member, and only once nothing else is in
 * progress.
 */
class DefragmentationPlannerTest {
    private static final String V = "3.5.17";
    private static final long MIB = 1L << 20;
    private static final long SIZE = 64 * MIB;
    private static final long IN_USE = 8 * MIB;
    private static final long MIN_BYTES = 16 * MIB;
    private static final int MIN_PERCENT = 50;

    private final ClusterPlanner planner = new ClusterPlanner(new Random(3));

    /** A converged cluster of {@code n}, {@code demo-a} leading, every member's file 64 MiB with 8 MiB in use. */
    private static ClusterFixture fragmented(int n) {
        ClusterFixture f = running(n, V).defragmentation(MIN_BYTES, MIN_PERCENT);
        for (String name : f.memberNames()) {
            f.database(name, SIZE, IN_USE);
        }
        return f;
    }

    private Step plan(ClusterFixture f) {
        return planner.plan(f.observe());
    }

    private static DefragmentMember defragment(ClusterFixture f, String name, boolean leader) {
        return new DefragmentMember(f.id(name), name, leader, DefragmentMember.FRAGMENTED, SIZE - IN_USE);
    }

    @Test
    void offByDefaultAFragmentedClusterIsLeftAlone() {
        ClusterFixture f = running(3, V);
        for (String name : f.memberNames()) {
            f.database(name, SIZE, IN_USE);
        }
        assertThat(plan(f)).isInstanceOf(Nothing.class);
    }

    @Test
    void eachMemberPastTheThresholdIsDefragmentedOnceFollowersFirstTheLeaderLast() {
        ClusterFixture f = fragmented(3);
        List<Step> steps = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            Step step = plan(f);
            steps.add(step);
            if (step instanceof Nothing) {
                break;
            }
            f.apply(step);
        }
        assertThat(steps).containsExactly(defragment(f, "demo-b", false), defragment(f, "demo-c", false),
                defragment(f, "demo-a", true), new Nothing());
        assertThat(f.space().defragmented()).as("not a NOSPACE recovery's progress").isEmpty();
    }

    @Test
    void theLeaderGoesLastWhateverItsName() {
        ClusterFixture f = fragmented(5).leader("demo-c");
        for (String name : f.memberNames()) {
            f.database(name, SIZE, IN_USE);
        }
        List<String> order = new ArrayList<>();
        for (Step step = plan(f); step instanceof DefragmentMember d; step = plan(f)) {
            order.add(d.name() + (d.leader() ? "*" : ""));
            f.apply(step);
        }
        assertThat(order).containsExactly("demo-a", "demo-b", "demo-d", "demo-e", "demo-c*");
    }

    @Test
    void bothThresholdsMustBePassed() {
        ClusterFixture f = fragmented(3);
        f.database("demo-b", SIZE, SIZE - MIN_BYTES + 1);
        f.database("demo-c", 20 * MIB, 12 * MIB);
        f.database("demo-a", 100 * MIB, 49 * MIB);
        assertThat(f.healthOf("demo-c").fragmentedBytes()).as("40%, under 50").isEqualTo(8 * MIB);
        assertThat(plan(f)).as("b: too few bytes; c: too small a share").isEqualTo(new DefragmentMember(f.id("demo-a"),
                "demo-a", true, DefragmentMember.FRAGMENTED, 51 * MIB));

        f.database("demo-a", 100 * MIB, 51 * MIB);
        assertThat(plan(f)).as("49 MiB free of 100 is under 50%").isInstanceOf(Nothing.class);
        f.database("demo-a", 100 * MIB, 50 * MIB);
        assertThat(plan(f)).as("exactly at both thresholds").isInstanceOf(DefragmentMember.class);
    }

    @Test
    void aMemberThatDoesNotSayWhatItHasInUseIsNotDefragmented() {
        ClusterFixture f = fragmented(3);
        for (String name : f.memberNames()) {
            f.database(name, SIZE, 0);
        }
        assertThat(plan(f)).isInstanceOf(Nothing.class);
    }

    @Test
    void clustersOfOneOrTwoVotersAreNeverDefragmented() {
        assertThat(plan(fragmented(1))).isInstanceOf(Nothing.class);
        assertThat(plan(fragmented(2))).isInstanceOf(Nothing.class);
        assertThat(plan(fragmented(3))).isInstanceOf(DefragmentMember.class);
    }

    @Test
    void aNoSpaceRecoveryGoesFirst() {
        ClusterFixture f = fragmented(3);
        f.space(new DatabaseSpace(List.of(new MemberAlarm(f.id("demo-b"), MemberAlarm.NOSPACE)), SIZE, 500, 0,
                Set.of(), f.space().defragmentation()));
        assertThat(plan(f)).isEqualTo(new CompactKeyspace(500));
        f.apply(plan(f));
        assertThat(plan(f)).as("the recovery's own defragmentation").isEqualTo(new DefragmentMember(f.id("demo-b"),
                "demo-b", false));
    }

    @Test
    void scalingGoesFirst() {
        ClusterFixture up = fragmented(3).size(4);
        assertThat(plan(up)).isInstanceOf(AddMember.class);

        ClusterFixture learner = fragmented(3).size(4).learner("demo-d", true, 1000);
        assertThat(plan(learner)).isInstanceOf(PromoteLearner.class);
        ClusterFixture catchingUp = fragmented(3).size(4).learner("demo-d", true, 10);
        assertThat(plan(catchingUp)).isInstanceOfSatisfying(Wait.class,
                w -> assertThat(w.reason()).isEqualTo(Wait.LEARNER_CATCHING_UP));

        ClusterFixture down = fragmented(5).size(3);
        assertThat(plan(down)).isInstanceOfSatisfying(RemoveMember.class,
                r -> assertThat(r.reason()).isEqualTo(RemoveMember.SCALE_DOWN));
    }

    @Test
    void anUpgradeGoesFirstAndARefusedOneHoldsDefragmentationToo() {
        ClusterFixture f = fragmented(3).version("3.5.18");
        assertThat(plan(f)).isInstanceOf(UpgradeMember.class);
        ClusterFixture refused = fragmented(3).version("3.4.23");
        assertThat(plan(refused)).isInstanceOf(Refuse.class);
    }

    @Test
    void aReplacementOrAnUnhealthyMemberGoesFirst() {
        ClusterFixture dead = fragmented(3).dead("demo-c");
        assertThat(plan(dead)).isInstanceOfSatisfying(RemoveMember.class,
                r -> assertThat(r.reason()).isEqualTo(RemoveMember.DEAD_MEMBER));

        ClusterFixture sick = fragmented(3).sick("demo-c");
        assertThat(plan(sick)).as("with a member down, another one defragmented would cost quorum")
                .isInstanceOfSatisfying(Wait.class, w -> assertThat(w.reason()).isEqualTo(Wait.MEMBER_NOT_HEALTHY));

        ClusterFixture starting = fragmented(3).podStarting("demo-c");
        assertThat(plan(starting)).isInstanceOfSatisfying(Wait.class,
                w -> assertThat(w.reason()).isEqualTo(Wait.MEMBER_STARTING));
    }

    @Test
    void aMemberAwayOnALostNodeHoldsDefragmentation() {
        ClusterFixture f = fragmented(3).persistent().podGone("demo-c").podTerminating("demo-c");
        for (String name : f.memberNames()) {
            f.database(name, SIZE, IN_USE);
        }
        assertThat(plan(f)).isInstanceOfSatisfying(Wait.class,
                w -> assertThat(w.reason()).isEqualTo(Wait.POD_TERMINATING));
    }

    @Test
    void aPausedClusterIsNotDefragmented() {
        assertThat(plan(fragmented(3).paused())).isInstanceOf(Paused.class);
    }

    @Test
    void theConditionTellsWhatIsDefragmentedAndWhatHoldsItBack() {
        ClusterStatusBuilder builder = new ClusterStatusBuilder(Clock.fixed(ClusterFixture.NOW, ZoneOffset.UTC));
        EtcdClusterStatus status = new EtcdClusterStatus();
        ClusterFixture off = running(3, V);
        builder.apply(status, off.observe(), plan(off), 1L);
        assertThat(Conditions.find(status.getConditions(), ClusterStatusBuilder.DEFRAGMENTING)).as("off").isEmpty();

        ClusterFixture f = fragmented(3);
        builder.apply(status, f.observe(), plan(f), 1L);
        Condition on = Conditions.find(status.getConditions(), ClusterStatusBuilder.DEFRAGMENTING).orElseThrow();
        assertThat(on.getStatus()).isEqualTo(Conditions.TRUE);
        assertThat(on.getReason()).isEqualTo(ClusterStatusBuilder.REASON_DEFRAGMENTING_MEMBER);
        assertThat(on.getMessage()).contains("member demo-b", (SIZE - IN_USE) + " bytes", "leader last");
        assertThat(Conditions.find(status.getConditions(), "Ready").orElseThrow().getStatus())
                .as("routine work: the cluster stays ready").isEqualTo(Conditions.TRUE);

        for (Step step = plan(f); step instanceof DefragmentMember; step = plan(f)) {
            f.apply(step);
        }
        builder.apply(status, f.observe(), plan(f), 1L);
        Condition done = Conditions.find(status.getConditions(), ClusterStatusBuilder.DEFRAGMENTING).orElseThrow();
        assertThat(done.getStatus()).isEqualTo(Conditions.FALSE);
        assertThat(done.getReason()).isEqualTo(ClusterStatusBuilder.REASON_NO_MEMBER_FRAGMENTED);
        assertThat(done.getMessage()).contains(MIN_BYTES + " bytes and 50%");

        ClusterFixture upgrading = fragmented(3).version("3.5.18");
        builder.apply(status, upgrading.observe(), plan(upgrading), 1L);
        Condition held = Conditions.find(status.getConditions(), ClusterStatusBuilder.DEFRAGMENTING).orElseThrow();
        assertThat(held.getReason()).isEqualTo(ClusterStatusBuilder.REASON_DEFRAGMENTATION_ON_HOLD);
        assertThat(held.getMessage()).contains("demo-b, demo-c, demo-a", "Upgrading member");

        ClusterFixture two = fragmented(2);
        builder.apply(status, two.observe(), plan(two), 1L);
        assertThat(Conditions.find(status.getConditions(), ClusterStatusBuilder.DEFRAGMENTING).orElseThrow()
                .getMessage()).contains("fewer than three voting members");

        builder.apply(status, off.observe(), plan(off), 1L);
        assertThat(Conditions.find(status.getConditions(), ClusterStatusBuilder.DEFRAGMENTING).orElseThrow()
                .getReason()).as("turned off").isEqualTo(ClusterStatusBuilder.REASON_DEFRAGMENTATION_OFF);
    }
}
