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
import dev.etcdoperator.core.cluster.Step.CompactKeyspace;
import dev.etcdoperator.core.cluster.Step.DefragmentMember;
import dev.etcdoperator.core.cluster.Step.DisarmNoSpace;
import dev.etcdoperator.core.cluster.Step.Nothing;
import dev.etcdoperator.core.cluster.Step.Wait;
import dev.etcdoperator.core.status.Conditions;
import org.junit.jupiter.api.Test;

/** The NOSPACE alarm: compact, defragment one member at a time (followers first, the leader last), disarm. */
class SpacePlannerTest {
    private static final String V = "3.5.17";
    private static final long QUOTA = 16L << 20;
    private static final long REVISION = 5000;

    private final ClusterPlanner planner = new ClusterPlanner(new Random(3));

    /** A converged cluster of {@code n} whose members' databases reached the quota; {@code demo-b} raised the alarm. */
    private static ClusterFixture full(int n) {
        ClusterFixture f = running(n, V);
        for (String name : f.memberNames()) {
            f.database(name, QUOTA, QUOTA - 1000);
        }
        String raisedBy = n > 1 ? ClusterFixture.name(1) : ClusterFixture.name(0);
        return f.space(new DatabaseSpace(List.of(new MemberAlarm(f.id(raisedBy), MemberAlarm.NOSPACE)), QUOTA,
                REVISION, 0, Set.of()));
    }

    private Step plan(ClusterFixture f) {
        return planner.plan(f.observe());
    }

    /** Plans and applies steps until there is nothing to do (at most ten), and returns them, the last included. */
    private List<Step> planUntilNothing(ClusterFixture f) {
        List<Step> steps = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            Step step = plan(f);
            steps.add(step);
            if (step instanceof Nothing) {
                break;
            }
            f.apply(step);
        }
        return steps;
    }

    @Test
    void withoutTheAlarmTheDatabaseSizesChangeNothing() {
        ClusterFixture f = running(3, V);
        for (String name : f.memberNames()) {
            f.database(name, QUOTA, 1000);
        }
        f.space(new DatabaseSpace(List.of(), QUOTA, REVISION, 0, Set.of()));
        assertThat(plan(f)).isInstanceOf(Nothing.class);
        // another alarm is no NOSPACE either: no space step (a CORRUPT alarm is for a person, see ClusterPlannerTest)
        f.space(new DatabaseSpace(List.of(new MemberAlarm(f.id("demo-a"), MemberAlarm.CORRUPT)), QUOTA, REVISION, 0,
                Set.of()));
        assertThat(plan(f)).isNotInstanceOfAny(CompactKeyspace.class, DefragmentMember.class, DisarmNoSpace.class);
    }

    @Test
    void aFullClusterIsCompactedThenDefragmentedFollowersFirstTheLeaderLastThenDisarmed() {
        ClusterFixture f = full(3);
        List<Step> steps = planUntilNothing(f);
        assertThat(steps).hasSize(6);
        assertThat(steps.get(0)).isEqualTo(new CompactKeyspace(REVISION));
        assertThat(steps.subList(1, 4)).containsExactly(new DefragmentMember(f.id("demo-b"), "demo-b", false),
                new DefragmentMember(f.id("demo-c"), "demo-c", false), new DefragmentMember(f.id("demo-a"), "demo-a",
                        true));
        assertThat(steps.get(4)).isInstanceOfSatisfying(DisarmNoSpace.class, d -> {
            assertThat(d.alarms()).containsExactly(new MemberAlarm(f.id("demo-b"), MemberAlarm.NOSPACE));
            assertThat(d.message()).contains("revision " + REVISION, "quota of " + QUOTA,
                    "largest: " + ClusterFixture.COMPACTED_IN_USE);
        });
        assertThat(steps.get(5)).isInstanceOf(Nothing.class);
    }

    @Test
    void aVoterIsDefragmentedOnlyWhileTheOtherHealthyVotersAreAMajority() {
        ClusterFixture f = full(3);
        f.apply(plan(f));
        f.unhealthy("demo-c");
        assertThat(plan(f)).isInstanceOfSatisfying(Wait.class, w -> {
            assertThat(w.reason()).isEqualTo(Wait.QUORUM_AT_RISK);
            assertThat(w.message()).contains("demo-b", "majority");
        });

        ClusterFixture five = full(5);
        five.apply(plan(five));
        five.unhealthy("demo-e");
        assertThat(plan(five)).as("4 healthy of 5: 3 stay while one is defragmented")
                .isEqualTo(new DefragmentMember(five.id("demo-b"), "demo-b", false));
    }

    /**
     * Two voters (a member lost under the alarm and removed, or spec.size 2): no majority can stay while one is
     * defragmented, and waiting would keep the alarm, and the writes it refuses, for good; both healthy, they are
     * defragmented, the follower first. With one of them unhealthy nothing is done.
     */
    @Test
    void twoHealthyVotersAreDefragmentedTheFollowerFirstAndTheAlarmGoes() {
        ClusterFixture f = full(2);
        List<Step> steps = planUntilNothing(f);
        assertThat(steps).hasSize(5);
        assertThat(steps.get(0)).isEqualTo(new CompactKeyspace(REVISION));
        assertThat(steps.subList(1, 3)).containsExactly(new DefragmentMember(f.id("demo-b"), "demo-b", false),
                new DefragmentMember(f.id("demo-a"), "demo-a", true));
        assertThat(steps.get(3)).isInstanceOf(DisarmNoSpace.class);

        ClusterFixture sick = full(2);
        sick.apply(plan(sick));
        sick.unhealthy("demo-b");
        assertThat(plan(sick)).isNotInstanceOf(DefragmentMember.class);
    }

    /**
     * A voter that does not answer was never defragmented and its size is not known: disarmed now, the alarm would
     * be raised again by that member at the quota, and the message would say every database is below it.
     */
    @Test
    void theAlarmStaysWhileAVoterThatRaisedItDoesNotAnswer() {
        ClusterFixture f = full(5);
        f.unhealthy("demo-b");
        List<Step> steps = planUntilNothing(f);
        assertThat(steps).noneMatch(DisarmNoSpace.class::isInstance);
        assertThat(steps.get(steps.size() - 1)).isInstanceOfSatisfying(Wait.class, w -> {
            assertThat(w.reason()).isEqualTo(Wait.MEMBER_NOT_HEALTHY);
            assertThat(w.message()).contains("demo-b", "raised it", "does not answer");
        });
        ClusterObservation o = f.observe();
        var status = new ClusterStatusBuilder(java.time.Clock.systemUTC()).apply(
                new dev.etcdoperator.api.v1beta2.EtcdClusterStatus(), o, planner.plan(o), 1L);
        assertThat(Conditions.find(status.getConditions(), "OutOfSpace").orElseThrow().getReason())
                .as("not live data over the quota").isEqualTo("NoSpaceAlarm");

        // one that raised none (away on a lost node) holds nothing back: it raises the alarm again if it must
        ClusterFixture away = full(5);
        away.unhealthy("demo-e");
        assertThat(planUntilNothing(away)).anyMatch(DisarmNoSpace.class::isInstance);
    }

    @Test
    void aClusterOfOneIsDefragmentedAllTheSame() {
        ClusterFixture f = full(1);
        f.apply(plan(f));
        assertThat(plan(f)).isEqualTo(new DefragmentMember(f.id("demo-a"), "demo-a", true));
    }

    @Test
    void liveDataOverTheQuotaKeepsTheAlarmAndSaysWhatAPersonCanDo() {
        ClusterFixture f = full(3);
        f.apply(plan(f));
        // nothing was freed: every revision is live
        for (String name : f.memberNames()) {
            f.database(name, QUOTA, QUOTA - 1000);
        }
        Step step;
        do {
            step = plan(f);
            f.apply(step);
            for (String name : f.memberNames()) {
                f.database(name, QUOTA, QUOTA - 1000);
            }
        } while (step instanceof DefragmentMember);
        assertThat(step).isInstanceOfSatisfying(Wait.class, w -> {
            assertThat(w.reason()).isEqualTo(Wait.NO_SPACE);
            assertThat(w.message()).contains("demo-a (" + QUOTA + " bytes", "spec.etcd.quotaBackendBytes",
                    "delete keys");
        });

        // a person deleted keys: the revision moved, and the operator starts again
        DatabaseSpace s = f.space();
        f.space(new DatabaseSpace(s.alarms(), s.quotaBytes(), REVISION + 10, s.compactedRevision(), s.defragmented()));
        assertThat(plan(f)).isEqualTo(new CompactKeyspace(REVISION + 10));
    }

    @Test
    void aDefragmentedMemberStillAtTheQuotaIsDefragmentedAgainOnlyWhenItHasATenthFree() {
        ClusterFixture f = full(3);
        f.apply(plan(f));
        f.apply(plan(f));
        f.apply(plan(f));
        f.apply(plan(f));
        assertThat(f.space().defragmented()).hasSize(3);
        f.database("demo-c", QUOTA, QUOTA - QUOTA / 5);
        assertThat(plan(f)).isEqualTo(new DefragmentMember(f.id("demo-c"), "demo-c", false));
        f.database("demo-c", QUOTA, QUOTA - QUOTA / 20);
        assertThat(f.healthOf("demo-c").fragmentedBytes()).isEqualTo(QUOTA / 20);
        assertThat(plan(f)).isInstanceOfSatisfying(Wait.class, w -> assertThat(w.reason()).isEqualTo(Wait.NO_SPACE));
    }

    @Test
    void theStatusShowsTheAlarmWhatIsDoneAndTheDisarming() {
        ClusterStatusBuilder builder = new ClusterStatusBuilder(Clock.fixed(ClusterFixture.NOW, ZoneOffset.UTC));
        EtcdClusterStatus status = new EtcdClusterStatus();
        ClusterFixture healthy = running(3, V);
        builder.apply(status, healthy.observe(), plan(healthy), 1L);
        assertThat(Conditions.find(status.getConditions(), ClusterStatusBuilder.OUT_OF_SPACE))
                .as("absent until the alarm is first seen").isEmpty();

        ClusterFixture f = full(3);
        builder.apply(status, f.observe(), plan(f), 1L);
        Condition raised = Conditions.find(status.getConditions(), ClusterStatusBuilder.OUT_OF_SPACE).orElseThrow();
        assertThat(raised.getStatus()).isEqualTo(Conditions.TRUE);
        assertThat(raised.getReason()).isEqualTo(ClusterStatusBuilder.REASON_NO_SPACE_ALARM);
        assertThat(raised.getMessage()).contains("NOSPACE alarm is raised (by demo-b)", "refuses writes",
                "Compacting the keyspace to revision " + REVISION);
        Condition ready = Conditions.find(status.getConditions(), "Ready").orElseThrow();
        assertThat(ready.getStatus()).isEqualTo(Conditions.FALSE);
        assertThat(ready.getReason()).isEqualTo(ClusterStatusBuilder.REASON_NO_SPACE_ALARM);

        Step step = plan(f);
        while (!(step instanceof DisarmNoSpace)) {
            f.apply(step);
            step = plan(f);
        }
        builder.apply(status, f.observe(), step, 1L);
        Condition disarmed = Conditions.find(status.getConditions(), ClusterStatusBuilder.OUT_OF_SPACE).orElseThrow();
        assertThat(disarmed.getStatus()).isEqualTo(Conditions.FALSE);
        assertThat(disarmed.getReason()).isEqualTo(ClusterStatusBuilder.REASON_ALARM_DISARMED);
        f.apply(step);
        builder.apply(status, f.observe(), plan(f), 1L);
        assertThat(Conditions.find(status.getConditions(), ClusterStatusBuilder.OUT_OF_SPACE).orElseThrow())
                .as("the disarming stays told").isEqualTo(disarmed);
        assertThat(Conditions.find(status.getConditions(), "Ready").orElseThrow().getStatus())
                .isEqualTo(Conditions.TRUE);
    }

    @Test
    void aLearnerIsNeitherDefragmentedNorWaitedFor() {
        ClusterFixture f = full(3).size(4).learner("demo-d", true, 1000);
        f.database("demo-d", QUOTA, QUOTA - 1000);
        List<Step> steps = new ArrayList<>();
        Step step = plan(f);
        while (!(step instanceof DisarmNoSpace) && steps.size() < 10) {
            steps.add(step);
            f.apply(step);
            step = plan(f);
        }
        assertThat(steps).hasSize(4).noneMatch(s -> s instanceof DefragmentMember d && d.name().equals("demo-d"));
        assertThat(step).isInstanceOf(DisarmNoSpace.class);
    }
}
