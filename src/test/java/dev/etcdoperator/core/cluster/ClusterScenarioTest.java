package dev.etcdoperator.core.cluster;

import static dev.etcdoperator.core.cluster.ClusterFixture.fresh;
import static dev.etcdoperator.core.cluster.ClusterFixture.running;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import dev.etcdoperator.core.cluster.Step.AddMember;
import dev.etcdoperator.core.cluster.Step.AllMembersLost;
import dev.etcdoperator.core.cluster.Step.CreateInitialMembers;
import dev.etcdoperator.core.cluster.Step.CreateSeed;
import dev.etcdoperator.core.cluster.Step.DeletePod;
import dev.etcdoperator.core.cluster.Step.Nothing;
import dev.etcdoperator.core.cluster.Step.PromoteLearner;
import dev.etcdoperator.core.cluster.Step.QuorumLost;
import dev.etcdoperator.core.cluster.Step.RecordInitialMembers;
import dev.etcdoperator.core.cluster.Step.RecordSeed;
import dev.etcdoperator.core.cluster.Step.RemoveMember;
import dev.etcdoperator.core.cluster.Step.UpgradeMember;
import dev.etcdoperator.core.cluster.Step.Wait;
import org.junit.jupiter.api.Test;

/**
 * Plans, plays the step out in {@link ClusterFixture} as a healthy environment would, and observes again until
 * the planner has nothing left to do; checks the safety rules after every step.
 */
class ClusterScenarioTest {
    private static final String V = "3.5.17";
    private final ClusterPlanner planner = new ClusterPlanner(new Random(3));

    private List<Class<?>> converge(ClusterFixture f) {
        List<Class<?>> steps = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            ClusterObservation before = f.observe();
            Step step = planner.plan(before);
            steps.add(step.getClass());
            if (step instanceof Nothing) {
                return steps;
            }
            checkSafety(f, before, step);
            f.apply(step);
        }
        return fail("no convergence after 30 steps: " + steps);
    }

    /**
     * Plans and plays steps out with health following the pods as etcd's would ({@link ClusterFixture#settle()}),
     * until the planner has nothing to do or repeats a step that changes nothing (a lost quorum, lost members, a
     * wait); returns the steps. Checks that a cluster that ran is never seeded again by itself.
     */
    private List<Step> play(ClusterFixture f) {
        List<Step> steps = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            ClusterObservation before = f.observe();
            Step step = planner.plan(before);
            steps.add(step);
            if (before.ran() && !before.reseedRequested()) {
                assertThat(step).as("a cluster that ran is never seeded again: %s", steps)
                        .isNotInstanceOfAny(RecordSeed.class, CreateSeed.class);
            }
            if (step instanceof Nothing || (steps.size() > 1 && step.equals(steps.get(steps.size() - 2))
                    && (step instanceof QuorumLost || step instanceof AllMembersLost || step instanceof Wait))) {
                return steps;
            }
            checkSafety(f, before, step);
            f.apply(step).settle();
        }
        return fail("no end after 40 steps: " + steps);
    }

    private static Step last(List<Step> steps) {
        return steps.get(steps.size() - 1);
    }

    /** Each member of {@code n} is fine (0), its pod gone (1), or its pod ended (2), by the digits of {@code code}. */
    private static ClusterFixture outage(ClusterFixture f, int n, int code) {
        for (int i = 0, c = code; i < n; i++, c /= 3) {
            String m = ClusterFixture.name(i);
            if (c % 3 == 1) {
                f.podGone(m);
            } else if (c % 3 == 2) {
                f.podStopped(m);
            }
        }
        return f.settle();
    }

    private static int lost(int n, int code) {
        int lost = 0;
        for (int i = 0, c = code; i < n; i++, c /= 3) {
            lost += c % 3 == 0 ? 0 : 1;
        }
        return lost;
    }

    /**
     * Without claims, every combination of members whose pods are gone or ended: a minority is replaced, a majority
     * is a lost quorum, all of them is a cluster that lost every member; never is a fresh seed created.
     */
    @Test
    void aClusterWithoutClaimsThatRanIsNeverSeededAgainWhateverItLoses() {
        for (int n : new int[] {1, 3, 5}) {
            for (int code = 0; code < Math.pow(3, n); code++) {
                List<Step> steps = play(outage(running(n, V), n, code));
                int lost = lost(n, code);
                String as = n + " members, outage " + code + ": " + steps;
                if (lost == n) {
                    assertThat(last(steps)).as(as).isInstanceOf(AllMembersLost.class);
                } else if (lost >= ClusterPlanner.majority(n)) {
                    assertThat(last(steps)).as(as).isInstanceOf(QuorumLost.class);
                } else {
                    assertThat(last(steps)).as(as).isInstanceOf(Nothing.class);
                }
            }
        }
    }

    /**
     * Without claims, every combination of members whose etcd failed and crash-loops in its pod (the kubelet starts it
     * again on its data after a back-off), up to all of them: a minority is replaced; a majority is a lost quorum in
     * which nothing is removed or deleted, and once the kubelet has started them again the same members are back.
     */
    @Test
    void membersWhoseEtcdCrashLoopsWithoutClaimsAreReplacedOnlyWithQuorumElseComeBackInPlace() {
        for (int n : new int[] {1, 3, 5}) {
            for (int mask = 1; mask < (1 << n); mask++) {
                ClusterFixture f = running(n, V);
                List<String> before = f.memberNames();
                List<String> failing = new ArrayList<>();
                for (int i = 0; i < n; i++) {
                    if ((mask >> i & 1) == 1) {
                        failing.add(ClusterFixture.name(i));
                        f.podCrashLooping(ClusterFixture.name(i));
                    }
                }
                List<Step> steps = play(f.settle());
                String as = n + " members, " + failing + " crash-looping: " + steps;
                if (failing.size() < ClusterPlanner.majority(n)) {
                    assertThat(last(steps)).as(as).isInstanceOf(Nothing.class);
                    assertThat(f.memberNames()).as(as).hasSize(n).doesNotContainAnyElementsOf(failing);
                    continue;
                }
                assertThat(last(steps)).as(as).isInstanceOf(QuorumLost.class);
                assertThat(steps).as(as).noneMatch(s -> s instanceof RemoveMember || s instanceof DeletePod);
                failing.forEach(m -> f.pod(m, true, true, V));
                List<Step> after = play(f.settle());
                assertThat(last(after)).as(as + ", then " + after).isInstanceOf(Nothing.class);
                assertThat(f.memberNames()).as(as).isEqualTo(before);
            }
        }
    }

    /**
     * On claims, any outage that leaves the claims: every combination of members whose pods are gone or ended
     * (evicted), up to all of them. Each member comes back on its claim with its
     * name and identity; none is removed, added or seeded.
     */
    @Test
    void aClusterOnClaimsComesBackFromAnyOutageThatLeavesItsClaims() {
        for (int n : new int[] {1, 3, 5}) {
            for (int code = 0; code < Math.pow(3, n); code++) {
                ClusterFixture f = outage(running(n, V).persistent(), n, code);
                List<String> before = f.memberNames();
                List<Step> steps = play(f);
                String as = n + " members, outage " + code + ": " + steps;
                assertThat(last(steps)).as(as).isInstanceOf(Nothing.class);
                assertThat(steps).as(as).allMatch(s -> s instanceof Step.CreateMemberPod || s instanceof DeletePod
                        || s instanceof Nothing);
                assertThat(f.memberNames()).as(as).isEqualTo(before);
                assertThat(f.observe().health().values()).as(as).hasSize(n).allMatch(MemberHealth::healthy);
            }
        }
    }

    /**
     * A member on a claim whose old pod never finishes terminating (a lost node) blocks no other work: growing,
     * shrinking, upgrading (when quorum allows it) and recreating or replacing other members all complete; then the
     * planner waits for that one pod alone.
     */
    @Test
    void aPodStuckTerminatingBlocksNothingElse() {
        java.util.Map<String, java.util.function.UnaryOperator<ClusterFixture>> asks = new java.util.LinkedHashMap<>();
        asks.put("grow", f -> f.size(7));
        asks.put("shrink", f -> f.size(4));
        asks.put("upgrade", f -> f.version("3.5.18"));
        asks.put("another pod ends", f -> f.podStopped("demo-d"));
        asks.put("another pod is deleted", f -> f.podGone("demo-d"));
        asks.put("another member loses its claim", f -> f.podGone("demo-d").withoutClaim("demo-d"));
        for (var ask : asks.entrySet()) {
            ClusterFixture f = ask.getValue().apply(running(5, V).persistent()
                    .podTerminatingSince("demo-b", ClusterFixture.NOW.minusSeconds(600))).settle();
            List<Step> steps = play(f);
            String as = ask.getKey() + ": " + steps;
            ClusterObservation o = f.observe();
            boolean shrunk = o.desiredSize() < 5;
            if (shrunk) {
                // the member away is the one the shrink takes
                assertThat(last(steps)).as(as).isInstanceOf(Nothing.class);
                assertThat(f.memberNames()).as(as).doesNotContain("demo-b");
            } else {
                assertThat(last(steps)).as(as).isInstanceOfSatisfying(Wait.class,
                        w -> assertThat(w.reason()).isEqualTo(Wait.POD_TERMINATING));
                assertThat(f.memberNames()).as(as).contains("demo-b");
            }
            assertThat(f.memberNames()).as(as).hasSize(o.desiredSize());
            List<String> others = f.memberNames().stream().filter(n -> !n.equals("demo-b")).toList();
            assertThat(others).as(as).allSatisfy(n -> {
                assertThat(o.healthy(f.id(n))).as(n).isTrue();
                assertThat(o.livePod(n).orElseThrow().etcdVersion()).as(n).isEqualTo(o.desiredVersion());
            });
        }
    }

    @Test
    void aReseededClusterGrowsFromItsNewSeedOnly() {
        ClusterFixture f = running(3, V);
        f.memberNames().forEach(f::podGone);
        List<Step> steps = play(f.settle());
        assertThat(last(steps)).isInstanceOf(AllMembersLost.class);
        steps = play(f.reseedRequested());
        assertThat(steps).extracting(s -> (Object) s.getClass()).containsExactly(RecordSeed.class, CreateSeed.class,
                AddMember.class, PromoteLearner.class, AddMember.class,
                PromoteLearner.class, Nothing.class);
        assertThat(steps).filteredOn(RecordSeed.class::isInstance).hasSize(1);
    }

    private static void checkSafety(ClusterFixture f, ClusterObservation before, Step step) {
        if (step instanceof RemoveMember r) {
            List<String> followers = f.memberNames().stream()
                    .filter(n -> !f.isLearner(n) && !f.leaderName().map(n::equals).orElse(false)).toList();
            if (!followers.isEmpty()) {
                assertThat(f.leaderName()).as("never the leader while a follower can go").isNotEqualTo(
                        java.util.Optional.of(r.name()));
            }
        }
        if (step instanceof AddMember) {
            assertThat(f.memberNames().stream().noneMatch(f::isLearner)).as("one learner at a time").isTrue();
            assertThat(before.health().values()).as("all healthy before adding").allMatch(MemberHealth::healthy);
        }
    }

    @Test
    void aFreshClusterOfTwoGrowsFromItsSeedOneLearnerAtATime() {
        assertThat(converge(fresh(2, V))).containsExactly(RecordSeed.class, CreateSeed.class, AddMember.class,
                PromoteLearner.class, Nothing.class);
    }

    @Test
    void aFreshClusterOfThreeStartsItsMembersTogetherAndGrowsLaterOneLearnerAtATime() {
        ClusterFixture f = fresh(3, V);
        assertThat(converge(f)).containsExactly(RecordInitialMembers.class, CreateInitialMembers.class,
                Nothing.class);
        assertThat(f.memberNames()).hasSize(3).containsExactlyInAnyOrderElementsOf(f.initialMembers());
        f.size(5);
        assertThat(converge(f)).containsExactly(AddMember.class, PromoteLearner.class, AddMember.class,
                PromoteLearner.class, Nothing.class);
    }

    @Test
    void threeToFiveAndBackToThree() {
        ClusterFixture f = running(3, V).size(5);
        assertThat(converge(f)).containsExactly(AddMember.class, PromoteLearner.class, AddMember.class,
                PromoteLearner.class, Nothing.class);
        assertThat(f.memberNames()).hasSize(5);
        f.size(3);
        assertThat(converge(f)).containsExactly(RemoveMember.class, DeletePod.class, RemoveMember.class,
                DeletePod.class, Nothing.class);
        assertThat(f.memberNames()).hasSize(3).contains("demo-a");
        assertThat(f.leaderName()).contains("demo-a");
    }

    @Test
    void aDeadMemberIsReplaced() {
        ClusterFixture f = running(3, V).podStopped("demo-b").unhealthy("demo-b");
        // the ended pod goes with the removal: no step of its own
        assertThat(converge(f)).containsExactly(RemoveMember.class, AddMember.class, PromoteLearner.class,
                Nothing.class);
        assertThat(f.memberNames()).hasSize(3).doesNotContain("demo-b");
    }

    @Test
    void aRollingUpgradeTakesTheLeaderLast() {
        ClusterFixture f = running(3, "3.4.23").version(V).leader("demo-b");
        List<String> order = new ArrayList<>();
        for (Step step = planner.plan(f.observe()); step instanceof UpgradeMember u; step = planner.plan(f.observe())) {
            order.add(u.name());
            f.apply(u);
        }
        assertThat(order).containsExactly("demo-a", "demo-c", "demo-b");
        assertThat(planner.plan(f.observe())).isEqualTo(new Nothing());
        assertThat(f.observe().currentVersion()).isEqualTo(V);
    }
}
