package dev.etcdoperator.core.cluster;

import static dev.etcdoperator.core.cluster.ClusterFixture.running;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import dev.etcdoperator.api.v1beta2.Condition;
import dev.etcdoperator.api.v1beta2.EtcdClusterStatus;
import dev.etcdoperator.core.cluster.Step.AddMember;
import dev.etcdoperator.core.cluster.Step.CreateMemberPod;
import dev.etcdoperator.core.cluster.Step.DeletePod;
import dev.etcdoperator.core.cluster.Step.Nothing;
import dev.etcdoperator.core.cluster.Step.PromoteLearner;
import dev.etcdoperator.core.cluster.Step.RestartMember;
import dev.etcdoperator.core.cluster.Step.UpgradeMember;
import dev.etcdoperator.core.cluster.Step.Wait;
import dev.etcdoperator.core.status.Conditions;
import org.junit.jupiter.api.Test;

/**
 * Members roll onto TLS Secrets that changed: one at a time, followers first and the leader last, only while every
 * voting member is healthy and the others are a majority without the one restarted; the next waits until the last is
 * back and healthy.
 */
class CertificateRolloutPlannerTest {
    private static final String V = "3.5.17";

    private final ClusterPlanner planner = new ClusterPlanner(new Random(7));

    private Step plan(ClusterFixture f) {
        return planner.plan(f.observe());
    }

    /**
     * Plans and applies until nothing is left (at most {@code limit} steps), checking before every restart that
     * every voting member is healthy and that the others are a majority without the one restarted.
     */
    private List<Step> roll(ClusterFixture f, int limit) {
        List<Step> steps = new ArrayList<>();
        for (int i = 0; i < limit; i++) {
            Step step = plan(f);
            steps.add(step);
            if (step instanceof Nothing) {
                return steps;
            }
            if (step instanceof RestartMember) {
                ClusterObservation o = f.observe();
                List<EtcdMember> voters = o.members().orElseThrow().stream().filter(m -> !m.learner()).toList();
                assertThat(voters).as("every voter healthy before %s", step)
                        .allSatisfy(m -> assertThat(o.healthy(m.id())).isTrue());
                assertThat(voters.size() - 1).as("the others are a majority")
                        .isGreaterThanOrEqualTo(ClusterPlanner.majority(voters.size()) - (f.observe().persistent() ? 0 : 1));
            }
            f.apply(step);
        }
        throw new AssertionError("no end after " + limit + " steps: " + steps);
    }

    private static List<String> restarts(List<Step> steps) {
        return steps.stream().filter(RestartMember.class::isInstance).map(RestartMember.class::cast)
                .map(r -> r.name() + (r.leader() ? "*" : "")).toList();
    }

    @Test
    void unchangedSecretsRestartNothing() {
        assertThat(plan(running(3, V))).isInstanceOf(Nothing.class);
    }

    @Test
    void onClaimsEachMemberIsRestartedInPlaceFollowersFirstTheLeaderLast() {
        ClusterFixture f = running(3, V).persistent().staleTls("demo-a", "demo-b", "demo-c");
        List<Long> ids = f.memberNames().stream().map(f::id).toList();
        List<Step> steps = roll(f, 20);
        assertThat(restarts(steps)).containsExactly("demo-b", "demo-c", "demo-a*");
        assertThat(steps).filteredOn(RestartMember.class::isInstance)
                .allSatisfy(s -> assertThat(((RestartMember) s).inPlace()).isTrue());
        // each restart is followed by its pod created again on its claim before anything else
        for (int i = 0; i < steps.size(); i++) {
            if (steps.get(i) instanceof RestartMember r) {
                assertThat(steps.get(i + 1)).isInstanceOfSatisfying(CreateMemberPod.class, c -> {
                    assertThat(c.name()).isEqualTo(r.name());
                    assertThat(c.reason()).isEqualTo(CreateMemberPod.RECREATING_IN_PLACE);
                });
            }
        }
        assertThat(f.staleTlsPods()).isEmpty();
        assertThat(f.memberNames().stream().map(f::id).toList()).as("same members, same data").isEqualTo(ids);
    }

    @Test
    void withoutClaimsEachMemberIsReplacedOneAtATime() {
        ClusterFixture f = running(3, V).staleTls("demo-a", "demo-b", "demo-c");
        List<Step> steps = roll(f, 30);
        assertThat(restarts(steps)).containsExactly("demo-b", "demo-c", "demo-a*");
        assertThat(steps).filteredOn(RestartMember.class::isInstance)
                .allSatisfy(s -> assertThat(((RestartMember) s).inPlace()).isFalse());
        // a restart, then its pod goes, a new member joins and is promoted before the next restart
        List<Class<?>> kinds = steps.stream().<Class<?>>map(Object::getClass).toList();
        assertThat(kinds).containsExactly(RestartMember.class, DeletePod.class, AddMember.class, PromoteLearner.class,
                RestartMember.class, DeletePod.class, AddMember.class, PromoteLearner.class,
                RestartMember.class, DeletePod.class, AddMember.class, PromoteLearner.class, Nothing.class);
        assertThat(f.staleTlsPods()).isEmpty();
        assertThat(f.memberNames()).hasSize(3).doesNotContain("demo-a", "demo-b", "demo-c");
    }

    @Test
    void theNextMemberWaitsUntilTheLastIsBackAndHealthy() {
        ClusterFixture f = running(3, V).persistent().staleTls("demo-a", "demo-b", "demo-c");
        Step first = plan(f);
        assertThat(first).isEqualTo(new RestartMember(f.id("demo-b"), "demo-b", false, true));
        f.apply(first);
        f.apply(plan(f)); // its pod created again
        f.podStarting("demo-b").unhealthy("demo-b");
        assertThat(plan(f)).isInstanceOfSatisfying(Wait.class,
                w -> assertThat(w.reason()).isEqualTo(Wait.MEMBER_STARTING));
        f.answers("demo-b", false).pod("demo-b", true, true, V).unhealthy("demo-b");
        assertThat(plan(f)).isInstanceOfSatisfying(Wait.class,
                w -> assertThat(w.reason()).isEqualTo(Wait.MEMBER_NOT_HEALTHY));
        f.answers("demo-b", false);
        assertThat(plan(f)).isEqualTo(new RestartMember(f.id("demo-c"), "demo-c", false, true));
    }

    @Test
    void neverWhileAMemberIsUnhealthyNorBelowAHealthyMajority() {
        ClusterFixture sick = running(3, V).persistent().staleTls("demo-b", "demo-c").unhealthy("demo-a");
        assertThat(plan(sick)).isInstanceOfSatisfying(Wait.class,
                w -> assertThat(w.reason()).isEqualTo(Wait.MEMBER_NOT_HEALTHY));

        ClusterFixture onePersistent = running(1, V).persistent().staleTls("demo-a");
        assertThat(plan(onePersistent)).isInstanceOfSatisfying(Wait.class, w -> {
            assertThat(w.reason()).isEqualTo(Wait.QUORUM_AT_RISK);
            assertThat(w.message()).contains("demo-a", "delete its pod yourself");
        });
        ClusterFixture one = running(1, V).staleTls("demo-a");
        assertThat(plan(one)).isInstanceOfSatisfying(Wait.class,
                w -> assertThat(w.reason()).isEqualTo(Wait.QUORUM_AT_RISK));

        // two voters on claims: one down leaves one of two, no majority
        ClusterFixture twoPersistent = running(2, V).persistent().staleTls("demo-a", "demo-b");
        assertThat(plan(twoPersistent)).isInstanceOfSatisfying(Wait.class,
                w -> assertThat(w.reason()).isEqualTo(Wait.QUORUM_AT_RISK));
        // two voters without claims: the one replaced leaves the voters first, and one of one is a majority
        ClusterFixture two = running(2, V).staleTls("demo-a", "demo-b");
        assertThat(plan(two)).isEqualTo(new RestartMember(two.id("demo-b"), "demo-b", false, false));
    }

    @Test
    void anUpgradeGoesFirst() {
        ClusterFixture f = running(3, V).persistent().staleTls("demo-a", "demo-b", "demo-c").version("3.5.18");
        assertThat(plan(f)).isInstanceOf(UpgradeMember.class);
    }

    @Test
    void secretsThatChangeAgainMidwayRollEveryMemberOntoTheLatest() {
        // a CA change in passes: the new CA added to the bundles, then new certificates, then the old CA dropped
        ClusterFixture f = running(3, V).persistent().staleTls("demo-a", "demo-b", "demo-c");
        f.apply(plan(f));
        f.apply(plan(f));
        assertThat(f.staleTlsPods()).containsExactly("demo-a", "demo-c");
        f.staleTls("demo-b"); // the Secrets change again: b was restarted on the content before
        List<Step> steps = roll(f, 20);
        assertThat(restarts(steps)).containsExactly("demo-b", "demo-c", "demo-a*");
        assertThat(f.staleTlsPods()).isEmpty();
    }

    @Test
    void theConditionTellsWhileMembersRollAndThatTheyAllRunOnTheCurrentSecrets() {
        ClusterStatusBuilder builder = new ClusterStatusBuilder(Clock.fixed(ClusterFixture.NOW, ZoneOffset.UTC));
        EtcdClusterStatus status = new EtcdClusterStatus();
        ClusterFixture f = running(3, V).persistent();
        builder.apply(status, f.observe(), plan(f), 1L);
        assertThat(Conditions.find(status.getConditions(), ClusterStatusBuilder.CERTIFICATES_ROTATING))
                .as("absent until the secrets first change").isEmpty();

        f.staleTls("demo-a", "demo-b", "demo-c");
        Step restart = plan(f);
        builder.apply(status, f.observe(), restart, 1L);
        Condition rotating = Conditions.find(status.getConditions(), ClusterStatusBuilder.CERTIFICATES_ROTATING)
                .orElseThrow();
        assertThat(rotating.getStatus()).isEqualTo(Conditions.TRUE);
        assertThat(rotating.getReason()).isEqualTo(ClusterStatusBuilder.REASON_RESTARTING_MEMBER);
        assertThat(rotating.getMessage()).contains("demo-a, demo-b, demo-c", "Restarting member demo-b");

        f.apply(restart);
        Step recreate = plan(f);
        builder.apply(status, f.observe(), recreate, 1L);
        rotating = Conditions.find(status.getConditions(), ClusterStatusBuilder.CERTIFICATES_ROTATING).orElseThrow();
        assertThat(rotating.getStatus()).isEqualTo(Conditions.TRUE);
        assertThat(rotating.getReason()).isEqualTo(ClusterStatusBuilder.REASON_ROTATION_WAITING);
        assertThat(rotating.getMessage()).contains("demo-a, demo-c").doesNotContain("demo-b,");

        roll(f.apply(recreate), 20);
        builder.apply(status, f.observe(), plan(f), 1L);
        rotating = Conditions.find(status.getConditions(), ClusterStatusBuilder.CERTIFICATES_ROTATING).orElseThrow();
        assertThat(rotating.getStatus()).isEqualTo(Conditions.FALSE);
        assertThat(rotating.getReason()).isEqualTo(ClusterStatusBuilder.REASON_CERTIFICATES_CURRENT);
    }
}
