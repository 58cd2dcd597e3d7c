package dev.etcdoperator.core.cluster;

import static dev.etcdoperator.core.cluster.ClusterFixture.running;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import dev.etcdoperator.api.v1beta2.Condition;
import dev.etcdoperator.api.v1beta2.DefragmentationStatus;
import dev.etcdoperator.api.v1beta2.EtcdClusterStatus;
import dev.etcdoperator.core.cluster.Step.DefragmentMember;
import dev.etcdoperator.core.cluster.Step.Nothing;
import dev.etcdoperator.core.cluster.Step.UpgradeMember;
import dev.etcdoperator.core.cluster.Step.Wait;
import dev.etcdoperator.core.schedule.CronSchedule;
import dev.etcdoperator.core.status.Conditions;
import org.junit.jupiter.api.Test;

/**
 * The rounds of {@code spec.etcd.defragmentation.schedule}: each voting member once per round, followers first and the
 * leader last, only with a healthy majority left and once nothing else is in progress; recorded in
 * {@code status.defragmentation} as the reconciler would, observing the round from the status it wrote last.
 */
class DefragmentationScheduleTest {
    private static final String V = "3.5.17";
    private static final long MIB = 1L << 20;
    private static final CronSchedule DAILY_AT_THREE = CronSchedule.parse("0 3 * * *");
    private static final Instant FIRST = Instant.parse("2026-01-01T03:00:00Z");

    private final ClusterPlanner planner = new ClusterPlanner(new Random(3));
    private final ClusterStatusBuilder builder = new ClusterStatusBuilder(Clock.fixed(ClusterFixture.NOW,
            ZoneOffset.UTC));
    private final EtcdClusterStatus status = new EtcdClusterStatus();

    /** One reconcile: observe the round status records, plan, act (or fail to), report. */
    private Step reconcile(ClusterFixture f, CronSchedule schedule, boolean acts) {
        f.round(observedRound(schedule));
        ClusterObservation o = f.observe();
        Step step = planner.plan(o);
        if (acts) {
            f.apply(step);
        }
        builder.apply(status, o, step, 1L, acts);
        return step;
    }

    /** What the observer reads back from {@code status.defragmentation} for this schedule. */
    private DefragmentationRound observedRound(CronSchedule schedule) {
        DefragmentationStatus d = status.getDefragmentation();
        if (d == null || !schedule.text().equals(d.getSchedule()) || d.getNextRoundTime() == null) {
            return new DefragmentationRound(schedule, null, List.of());
        }
        return new DefragmentationRound(schedule, Instant.parse(d.getNextRoundTime()), d.getRoundMembers());
    }

    private static ClusterFixture cluster(int n) {
        ClusterFixture f = running(n, V);
        for (String name : f.memberNames()) {
            f.database(name, 64 * MIB, 60 * MIB);
        }
        return f;
    }

    private List<String> runRound(ClusterFixture f, CronSchedule schedule) {
        List<String> order = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            Step step = reconcile(f, schedule, true);
            if (!(step instanceof DefragmentMember d)) {
                break;
            }
            assertThat(d.reason()).isEqualTo(DefragmentMember.SCHEDULED);
            order.add(d.name() + (d.leader() ? "*" : ""));
        }
        return order;
    }

    private Condition defragmenting() {
        return Conditions.find(status.getConditions(), ClusterStatusBuilder.DEFRAGMENTING).orElseThrow();
    }

    @Test
    void nothingHappensBeforeTheFirstScheduledTimeWhichStatusRecords() {
        ClusterFixture f = cluster(3);
        assertThat(reconcile(f, DAILY_AT_THREE, true)).isInstanceOf(Nothing.class);
        assertThat(status.getDefragmentation().getSchedule()).isEqualTo("0 3 * * *");
        assertThat(status.getDefragmentation().getNextRoundTime()).isEqualTo(FIRST.toString());
        assertThat(reconcile(f.now(FIRST.minusSeconds(1)), DAILY_AT_THREE, true)).isInstanceOf(Nothing.class);
        assertThat(defragmenting().getStatus()).isEqualTo(Conditions.FALSE);
        assertThat(defragmenting().getMessage()).contains("next scheduled round is due at " + FIRST);
    }

    @Test
    void aDueRoundDefragmentsEveryVoterOnceFollowersFirstTheLeaderLastThenWaitsForTheNext() {
        ClusterFixture f = cluster(5).leader("demo-c");
        reconcile(f, DAILY_AT_THREE, true);
        f.now(FIRST.plusSeconds(4));
        assertThat(runRound(f, DAILY_AT_THREE)).containsExactly("demo-a", "demo-b", "demo-d", "demo-e", "demo-c*");
        DefragmentationStatus d = status.getDefragmentation();
        assertThat(d.getLastRoundCompletionTime()).isEqualTo(FIRST.plusSeconds(4).toString());
        assertThat(d.getLastRoundMembers()).containsExactly("demo-a", "demo-b", "demo-d", "demo-e", "demo-c");
        assertThat(d.getNextRoundTime()).isEqualTo(FIRST.plus(Duration.ofDays(1)).toString());
        assertThat(d.getRoundStartTime()).isNull();
        assertThat(d.getRoundMembers()).isNull();

        assertThat(reconcile(f.now(FIRST.plus(Duration.ofHours(23))), DAILY_AT_THREE, true))
                .as("until the next day's time").isInstanceOf(Nothing.class);
        f.now(FIRST.plus(Duration.ofDays(1)));
        assertThat(runRound(f, DAILY_AT_THREE)).hasSize(5).endsWith("demo-c*");
    }

    @Test
    void theRoundInProgressIsRecordedMemberByMemberAndShown() {
        ClusterFixture f = cluster(3);
        reconcile(f, DAILY_AT_THREE, true);
        f.now(FIRST.plusSeconds(30));
        assertThat(reconcile(f, DAILY_AT_THREE, true)).isInstanceOf(DefragmentMember.class);
        assertThat(status.getDefragmentation().getRoundStartTime()).isEqualTo(FIRST.plusSeconds(30).toString());
        assertThat(status.getDefragmentation().getRoundMembers()).containsExactly("demo-b");
        assertThat(status.getDefragmentation().getNextRoundTime()).as("the round's own time while in progress")
                .isEqualTo(FIRST.toString());
        assertThat(defragmenting().getStatus()).isEqualTo(Conditions.TRUE);
        assertThat(defragmenting().getReason()).isEqualTo(ClusterStatusBuilder.REASON_DEFRAGMENTING_MEMBER);
        assertThat(defragmenting().getMessage()).contains("member demo-b", "spec.etcd.defragmentation.schedule");
        assertThat(Conditions.find(status.getConditions(), "Ready").orElseThrow().getStatus())
                .as("routine work: the cluster stays ready").isEqualTo(Conditions.TRUE);
    }

    @Test
    void aStepThatFailedIsNotCountedAndIsTriedAgain() {
        ClusterFixture f = cluster(3);
        reconcile(f, DAILY_AT_THREE, true);
        f.now(FIRST);
        Step failed = reconcile(f, DAILY_AT_THREE, false);
        assertThat(failed).isInstanceOf(DefragmentMember.class);
        assertThat(status.getDefragmentation().getRoundMembers()).isNull();
        assertThat(reconcile(f, DAILY_AT_THREE, true)).isEqualTo(failed);
        assertThat(status.getDefragmentation().getRoundMembers()).containsExactly("demo-b");
    }

    @Test
    void aDueRoundWaitsForAnUnhealthyMemberAndForOtherWorkAndCarriesOnAfter() {
        ClusterFixture f = cluster(3);
        reconcile(f, DAILY_AT_THREE, true);
        f.now(FIRST);
        reconcile(f, DAILY_AT_THREE, true);
        f.sick("demo-c");
        assertThat(reconcile(f, DAILY_AT_THREE, true)).isInstanceOfSatisfying(Wait.class,
                w -> assertThat(w.reason()).isEqualTo(Wait.MEMBER_NOT_HEALTHY));
        assertThat(status.getDefragmentation().getRoundMembers()).as("not completed meanwhile")
                .containsExactly("demo-b");
        assertThat(status.getDefragmentation().getLastRoundCompletionTime()).isNull();

        ClusterFixture healed = cluster(3).now(FIRST.plusSeconds(60));
        healed.version("3.5.18");
        assertThat(reconcile(healed, DAILY_AT_THREE, true)).isInstanceOf(UpgradeMember.class);
        assertThat(defragmenting().getReason()).isEqualTo(ClusterStatusBuilder.REASON_DEFRAGMENTATION_ON_HOLD);
        assertThat(defragmenting().getMessage()).contains("demo-c, demo-a left", "Upgrading member");

        ClusterFixture upgraded = cluster(3).now(FIRST.plusSeconds(120));
        assertThat(runRound(upgraded, DAILY_AT_THREE)).as("the members left, once").containsExactly("demo-c",
                "demo-a*");
        assertThat(status.getDefragmentation().getLastRoundMembers()).containsExactly("demo-b", "demo-c", "demo-a");
    }

    @Test
    void roundsMissedMeanwhileRunOnceAndTheNextIsAfterTheCompletion() {
        ClusterFixture f = cluster(3);
        reconcile(f, DAILY_AT_THREE, true);
        Instant late = FIRST.plus(Duration.ofDays(3)).plus(Duration.ofHours(5));
        f.now(late);
        assertThat(runRound(f, DAILY_AT_THREE)).hasSize(3);
        assertThat(reconcile(f, DAILY_AT_THREE, true)).isInstanceOf(Nothing.class);
        assertThat(status.getDefragmentation().getNextRoundTime()).isEqualTo(FIRST.plus(Duration.ofDays(4))
                .toString());
    }

    @Test
    void aMemberPastTheThresholdDuringTheRoundCountsForIt() {
        ClusterFixture f = cluster(3).defragmentation(16 * MIB, 50);
        reconcile(f, DAILY_AT_THREE, true);
        f.database("demo-c", 64 * MIB, 8 * MIB);
        f.now(FIRST);
        assertThat(reconcile(f, DAILY_AT_THREE, true)).isInstanceOfSatisfying(DefragmentMember.class, d -> {
            assertThat(d.name()).isEqualTo("demo-c");
            assertThat(d.reason()).isEqualTo(DefragmentMember.FRAGMENTED);
        });
        assertThat(runRound(f, DAILY_AT_THREE)).containsExactly("demo-b", "demo-a*");
        assertThat(status.getDefragmentation().getLastRoundMembers()).containsExactly("demo-c", "demo-b", "demo-a");
    }

    @Test
    void withAScheduleAloneTheThresholdsAreOffBetweenRounds() {
        ClusterFixture f = cluster(3);
        f.database("demo-b", 1024 * MIB, MIB);
        assertThat(reconcile(f, DAILY_AT_THREE, true)).isInstanceOf(Nothing.class);
        assertThat(defragmenting().getReason()).isEqualTo(ClusterStatusBuilder.REASON_NO_MEMBER_FRAGMENTED);
        assertThat(defragmenting().getMessage()).startsWith("No scheduled round is in progress.");
    }

    @Test
    void roundsOfClustersOfOneOrTwoVotersArePassedOver() {
        for (int n = 1; n <= 2; n++) {
            ClusterFixture f = cluster(n);
            status.setDefragmentation(null);
            reconcile(f, DAILY_AT_THREE, true);
            f.now(FIRST.plusSeconds(1));
            assertThat(reconcile(f, DAILY_AT_THREE, true)).isInstanceOf(Nothing.class);
            assertThat(status.getDefragmentation().getNextRoundTime()).as(n + " voters")
                    .isEqualTo(FIRST.plus(Duration.ofDays(1)).toString());
            assertThat(status.getDefragmentation().getLastRoundCompletionTime()).isNull();
            assertThat(defragmenting().getMessage()).contains("fewer than three voting members");
        }
    }

    @Test
    void aChangedScheduleStartsOverFromItsOwnNextTimeAndKeepsTheLastRound() {
        ClusterFixture f = cluster(3);
        reconcile(f, DAILY_AT_THREE, true);
        f.now(FIRST);
        runRound(f, DAILY_AT_THREE);
        String last = status.getDefragmentation().getLastRoundCompletionTime();

        CronSchedule weekly = CronSchedule.parse("0 4 * * 0");
        f.now(FIRST.plusSeconds(60));
        assertThat(reconcile(f, weekly, true)).isInstanceOf(Nothing.class);
        assertThat(status.getDefragmentation().getSchedule()).isEqualTo("0 4 * * 0");
        assertThat(status.getDefragmentation().getNextRoundTime()).isEqualTo("2026-01-04T04:00:00Z");
        assertThat(status.getDefragmentation().getLastRoundCompletionTime()).isEqualTo(last);
    }

    @Test
    void withoutAScheduleTheStatusHasNoRounds() {
        ClusterFixture f = cluster(3);
        reconcile(f, DAILY_AT_THREE, true);
        assertThat(status.getDefragmentation()).isNotNull();
        f.round(null);
        builder.apply(status, f.observe(), planner.plan(f.observe()), 1L);
        assertThat(status.getDefragmentation()).isNull();
    }
}
