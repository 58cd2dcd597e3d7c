package dev.etcdoperator.core.cluster;

import static dev.etcdoperator.core.cluster.ClusterFixture.fresh;
import static dev.etcdoperator.core.cluster.ClusterFixture.running;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import dev.etcdoperator.core.cluster.Step.AddMember;
import dev.etcdoperator.core.cluster.Step.CreateSeed;
import dev.etcdoperator.core.cluster.Step.DeletePod;
import dev.etcdoperator.core.cluster.Step.Nothing;
import dev.etcdoperator.core.cluster.Step.PromoteLearner;
import dev.etcdoperator.core.cluster.Step.RemoveMember;
import dev.etcdoperator.core.cluster.Step.UpgradeMember;
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
    void aFreshClusterOfThreeGrowsOneLearnerAtATime() {
        assertThat(converge(fresh(3, V))).containsExactly(CreateSeed.class, AddMember.class, PromoteLearner.class,
                AddMember.class, PromoteLearner.class, Nothing.class);
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
        assertThat(converge(f)).containsExactly(RemoveMember.class, DeletePod.class, AddMember.class,
                PromoteLearner.class, Nothing.class);
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
