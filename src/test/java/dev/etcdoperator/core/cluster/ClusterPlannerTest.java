package dev.etcdoperator.core.cluster;

import static dev.etcdoperator.core.cluster.ClusterFixture.NAMING;
import static dev.etcdoperator.core.cluster.ClusterFixture.fresh;
import static dev.etcdoperator.core.cluster.ClusterFixture.running;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Random;

import dev.etcdoperator.core.cluster.Step.AddMember;
import dev.etcdoperator.core.cluster.Step.AllMembersLost;
import dev.etcdoperator.core.cluster.Step.CreateInitialMembers;
import dev.etcdoperator.core.cluster.Step.CreateMemberPod;
import dev.etcdoperator.core.cluster.Step.CreateSeed;
import dev.etcdoperator.core.cluster.Step.DeletePod;
import dev.etcdoperator.core.cluster.Step.MoveLeader;
import dev.etcdoperator.core.cluster.Step.Nothing;
import dev.etcdoperator.core.cluster.Step.Paused;
import dev.etcdoperator.core.cluster.Step.PromoteLearner;
import dev.etcdoperator.core.cluster.Step.QuorumLost;
import dev.etcdoperator.core.cluster.Step.RecordInitialMembers;
import dev.etcdoperator.core.cluster.Step.RecordSeed;
import dev.etcdoperator.core.cluster.Step.Refuse;
import dev.etcdoperator.core.cluster.Step.RemoveMember;
import dev.etcdoperator.core.cluster.Step.UpgradeMember;
import dev.etcdoperator.core.cluster.Step.Wait;
import org.junit.jupiter.api.Test;

/** One observation in, one step out: every step and every refusal the planner can give. */
class ClusterPlannerTest {
    private static final String V = "3.5.17";

    private static Step plan(ClusterFixture f) {
        return new ClusterPlanner(new Random(1)).plan(f.observe());
    }

    @Test
    void aFreshClusterFirstRecordsItsSeedThenCreatesIt() {
        ClusterFixture f = fresh(2, V);
        Step first = plan(f);
        assertThat(first).isInstanceOfSatisfying(RecordSeed.class, r -> {
            assertThat(r.name()).matches("demo-[a-z0-9]{10}");
            assertThat(r.reseed()).isFalse();
        });
        f.apply(first);
        assertThat(plan(f)).isInstanceOfSatisfying(CreateSeed.class, s -> {
            assertThat(s.name()).isEqualTo(((RecordSeed) first).name());
            assertThat(s.peerUrl()).isEqualTo(NAMING.peerUrl(s.name()));
            assertThat(s.version()).isEqualTo(V);
            assertThat(s.state()).isEqualTo("new");
        });
    }

    @Test
    void aFreshClusterOfThreeOrMoreRecordsAllItsFirstMembersThenCreatesThemTogether() {
        for (int size : new int[] { 3, 4, 5, 7 }) {
            ClusterFixture f = fresh(size, V);
            Step first = plan(f);
            assertThat(first).as("size %d", size).isInstanceOfSatisfying(RecordInitialMembers.class, r ->
                    assertThat(r.names()).hasSize(size).doesNotHaveDuplicates()
                            .allMatch(n -> n.matches("demo-[a-z0-9]{10}")));
            List<String> names = ((RecordInitialMembers) first).names();
            f.apply(first);
            String initialCluster = String.join(",", names.stream().map(n -> n + "=" + NAMING.peerUrl(n)).toList());
            assertThat(plan(f)).isEqualTo(new CreateInitialMembers(names, initialCluster, V));
        }
    }

    /** However often it runs on a view without pods, it creates the recorded first members, never another set. */
    @Test
    void onlyTheRecordedFirstMembersAreEverCreated() {
        List<String> names = List.of("demo-a", "demo-b", "demo-c");
        ClusterFixture f = fresh(3, V).initialMembers(names);
        for (int draw = 0; draw < 20; draw++) {
            assertThat(new ClusterPlanner(new Random(draw)).plan(f.observe())).isInstanceOfSatisfying(
                    CreateInitialMembers.class, c -> assertThat(c.names()).isEqualTo(names));
        }
        // a spec.size changed meanwhile changes nothing in the set: scaling comes once they answer
        assertThat(plan(f.size(5))).isInstanceOfSatisfying(CreateInitialMembers.class,
                c -> assertThat(c.names()).isEqualTo(names));
    }

    @Test
    void aRestoredOrPlacementBoundClusterOrOneOnTheClaimsOfAnEarlierOneStartsFromOneSeed() {
        assertThat(plan(fresh(3, V).startsFromSeed())).isInstanceOf(RecordSeed.class);
        assertThat(plan(fresh(3, V).persistent().claim("demo-q")))
                .isEqualTo(new RecordSeed("demo-q", false));
        // a seed recorded earlier is created as it was
        assertThat(plan(fresh(3, V).seed("demo-s0000000000"))).isInstanceOf(CreateSeed.class);
    }

    @Test
    void firstMembersWhosePodsAreMissingAreCreatedAsLongAsNoEtcdOfThemRan() {
        List<String> names = List.of("demo-a", "demo-b", "demo-c");
        String initialCluster = String.join(",", names.stream().map(n -> n + "=" + NAMING.peerUrl(n)).toList());
        assertThat(plan(fresh(3, V).initialMembers(names).podStarting("demo-a")))
                .isEqualTo(new CreateInitialMembers(List.of("demo-b", "demo-c"), initialCluster, V));
        assertThat(plan(fresh(3, V).initialMembers(names).podStarting("demo-a").podStarting("demo-b")
                .podTerminating("demo-b")))
                .as("a pod of that name still terminating is not missing")
                .isEqualTo(new CreateInitialMembers(List.of("demo-c"), initialCluster, V));
        assertThat(plan(fresh(3, V).initialMembers(names).podStarting("demo-a").podStarting("demo-b")
                .podStarting("demo-c"))).isInstanceOfSatisfying(Wait.class,
                        w -> assertThat(w.reason()).isEqualTo(Wait.MEMBERS_STARTING));
    }

    /** A check-dns that timed out, an eviction: the pod ended, its etcd never started, no vote was cast. */
    @Test
    void aFirstMemberWhosePodEndedBeforeAnyEtcdStartedIsMadeAgain() {
        List<String> names = List.of("demo-a", "demo-b", "demo-c");
        assertThat(plan(fresh(3, V).initialMembers(names).podEndedBeforeEtcd("demo-a")))
                .isEqualTo(new DeletePod("demo-a", DeletePod.FIRST_MEMBER_FAILED));
        assertThat(plan(fresh(3, V).initialMembers(names).podEndedBeforeEtcd("demo-a").podStarting("demo-b")
                .podStarting("demo-c"))).isEqualTo(new DeletePod("demo-a", DeletePod.FIRST_MEMBER_FAILED));
        // once an etcd of them started, nothing is made again before the others answer
        assertThat(plan(fresh(3, V).initialMembers(names).podEndedBeforeEtcd("demo-a").pod("demo-b", true, false, V)
                .podStarting("demo-c"))).isInstanceOfSatisfying(Wait.class,
                        w -> assertThat(w.reason()).isEqualTo(Wait.MEMBERS_STARTING));
    }

    /**
     * An etcd that ran may have voted: made again, empty, it could vote twice in one term. Its pod is not made again;
     * the others answer once a majority runs, and it is then replaced as a dead member.
     */
    @Test
    void aMissingFirstMemberIsNotMadeAgainOnceAnEtcdOfThemRan() {
        List<String> names = List.of("demo-a", "demo-b", "demo-c");
        assertThat(plan(fresh(3, V).initialMembers(names).pod("demo-a", true, false, V).podStarting("demo-b")))
                .isInstanceOfSatisfying(Wait.class, w -> assertThat(w.reason()).isEqualTo(Wait.MEMBERS_STARTING));
        assertThat(plan(fresh(3, V).initialMembers(names).podStarting("demo-a").podStopped("demo-b")))
                .isInstanceOfSatisfying(Wait.class, w -> assertThat(w.reason()).isEqualTo(Wait.MEMBERS_STARTING));

        ClusterFixture answered = running(3, V).initialMembers(names).current(null).podGone("demo-c")
                .unhealthy("demo-c");
        assertThat(plan(answered)).isInstanceOfSatisfying(RemoveMember.class, r -> {
            assertThat(r.name()).isEqualTo("demo-c");
            assertThat(r.reason()).isEqualTo(RemoveMember.DEAD_MEMBER);
        });
        assertThat(plan(running(3, V).initialMembers(names).current(null).podStarting("demo-c")
                .unhealthy("demo-c"))).isInstanceOfSatisfying(Wait.class,
                        w -> assertThat(w.reason()).isEqualTo(Wait.MEMBER_STARTING));
    }

    /**
     * One first member answers while the others' pods are not seen running yet, or do not answer yet: until the first
     * members first had a quorum there was none to lose, it is a start.
     */
    @Test
    void firstMembersStillStartingAreWaitedForNotReportedAsALostQuorum() {
        List<String> names = List.of("demo-a", "demo-b", "demo-c");
        ClusterFixture f = running(3, V).current(null).initialMembers(names).firstMemberStarting("demo-b")
                .firstMemberStarting("demo-c");
        assertThat(plan(f)).isInstanceOfSatisfying(Wait.class, w -> {
            assertThat(w.reason()).isEqualTo(Wait.MEMBERS_STARTING);
            assertThat(w.message()).contains("demo-b, demo-c");
        });
        assertThat(plan(f.podStopped("demo-c"))).as("1 healthy and 1 starting of 3").isInstanceOf(Wait.class);
        assertThat(plan(f.podStopped("demo-b"))).as("1 healthy, the others ended").isInstanceOf(QuorumLost.class);
        assertThat(plan(running(3, V).current(null).initialMembers(names).unhealthy("demo-b").unhealthy("demo-c")))
                .as("pods running, not answering yet").isInstanceOf(Wait.class);
        // once they had a quorum (the status then no longer records them), two members down are a lost quorum
        assertThat(plan(running(3, V).podStarting("demo-b").unhealthy("demo-b").podStarting("demo-c")
                .unhealthy("demo-c"))).isInstanceOf(QuorumLost.class);
    }

    /**
     * However often the planner runs on a view without pods (a cache that lags behind the seed's creation), it
     * creates the recorded seed, never a second one, whatever its random source draws.
     */
    @Test
    void onlyTheRecordedSeedIsEverCreated() {
        ClusterFixture f = fresh(3, V).seed("demo-s0000000000");
        for (int draw = 0; draw < 50; draw++) {
            assertThat(new ClusterPlanner(new Random(draw)).plan(f.observe()))
                    .isEqualTo(new CreateSeed("demo-s0000000000", NAMING.peerUrl("demo-s0000000000"), V));
        }
        // persistent: the recorded seed wins over a claim an earlier cluster of this name left
        assertThat(plan(fresh(3, V).persistent().claim("demo-q").seed("demo-s0000000000")))
                .isInstanceOfSatisfying(CreateSeed.class, s -> assertThat(s.name()).isEqualTo("demo-s0000000000"));
    }

    @Test
    void aClusterThatRanAndLostEveryMemberIsNotSeededAgain() {
        for (int n : new int[] {1, 3, 5}) {
            ClusterFixture f = running(n, V);
            f.memberNames().forEach(f::podGone);
            assertThat(plan(f.settle())).as("%d members", n).isInstanceOfSatisfying(AllMembersLost.class,
                    l -> assertThat(l.message()).contains("lost", "no member pod and no data claim", "EtcdRestore",
                            "kubectl annotate etcdcluster demo etcd.database.coreos.com/reseed=",
                            "jsonpath='{.metadata.uid}'"));
        }
        // persistent, with the claims gone too
        ClusterFixture p = running(3, V).persistent();
        p.memberNames().forEach(m -> p.podGone(m).withoutClaim(m));
        assertThat(plan(p.settle())).isInstanceOf(AllMembersLost.class);
        // without claims, members whose pods all ended cannot start again
        ClusterFixture ended = running(3, V);
        ended.memberNames().forEach(ended::podStopped);
        assertThat(plan(ended.settle())).isInstanceOfSatisfying(AllMembersLost.class,
                l -> assertThat(l.message()).contains("every member pod has ended", "demo-a, demo-b, demo-c"));
    }

    @Test
    void aReseedRequestStartsALostClusterAgainFromOneNewSeed() {
        ClusterFixture f = running(3, V);
        f.memberNames().forEach(f::podGone);
        f.settle().reseedRequested();
        Step first = plan(f);
        assertThat(first).isInstanceOfSatisfying(RecordSeed.class, r -> {
            assertThat(r.reseed()).isTrue();
            assertThat(r.name()).matches("demo-[a-z0-9]{10}");
        });
        f.apply(first);
        assertThat(f.observe().ran()).isFalse();
        assertThat(f.observe().reseedRequested()).isFalse();
        assertThat(plan(f)).isInstanceOfSatisfying(CreateSeed.class,
                s -> assertThat(s.name()).isEqualTo(((RecordSeed) first).name()));
    }

    @Test
    void aReseedRequestChangesNothingWhileAMemberOrItsDataIsLeft() {
        assertThat(plan(running(3, V).reseedRequested())).isEqualTo(new Nothing());
        ClusterFixture persistent = running(3, V).persistent();
        persistent.memberNames().forEach(persistent::podGone);
        assertThat(plan(persistent.settle().reseedRequested())).isInstanceOf(CreateMemberPod.class);
        ClusterFixture oneLeft = running(3, V).podGone("demo-a").podGone("demo-b");
        assertThat(plan(oneLeft.settle().reseedRequested())).isInstanceOf(QuorumLost.class);
    }

    @Test
    void theSeedIsWaitedForWhileItStarts() {
        assertThat(plan(fresh(3, V).pod("demo-a", false, false, V)))
                .isEqualTo(new Wait(Wait.MEMBERS_STARTING, "Waiting for the first members to answer; pods demo-a"
                        + " are starting."));
        // running but not answering yet: still starting, because the cluster never ran (no current version)
        assertThat(plan(fresh(3, V).pod("demo-a", true, false, V)))
                .isInstanceOfSatisfying(Wait.class, w -> assertThat(w.reason()).isEqualTo(Wait.MEMBERS_STARTING));
    }

    @Test
    void aHealthySeedOfAClusterOfThreeGetsAMember() {
        Step step = plan(running(1, V).size(3));
        assertThat(step).isInstanceOfSatisfying(AddMember.class, a -> {
            assertThat(a.name()).matches("demo-[a-z0-9]{10}");
            assertThat(a.peerUrl()).isEqualTo(NAMING.peerUrl(a.name()));
            assertThat(a.version()).isEqualTo(V);
            assertThat(a.state()).isEqualTo("existing");
        });
    }

    @Test
    void aLearnerThatHasNotCaughtUpIsWaitedFor() {
        Step step = plan(running(1, V).size(3).learner("demo-b", true, 500));
        assertThat(step).isInstanceOfSatisfying(Wait.class, w -> {
            assertThat(w.reason()).isEqualTo(Wait.LEARNER_CATCHING_UP);
            assertThat(w.message()).contains("demo-b", "500 of 1000");
        });
    }

    @Test
    void anUnhealthyLearnerIsWaitedFor() {
        assertThat(plan(running(1, V).size(3).learner("demo-b", false, 1000)))
                .isInstanceOfSatisfying(Wait.class, w -> assertThat(w.reason()).isEqualTo(Wait.LEARNER_CATCHING_UP));
    }

    @Test
    void aHealthyLearnerThatCaughtUpIsPromoted() {
        ClusterFixture f = running(1, V).size(3).learner("demo-b", true, 900);
        assertThat(plan(f)).isEqualTo(new PromoteLearner(f.id("demo-b"), "demo-b"));
    }

    @Test
    void noMemberIsAddedWhileALearnerExists() {
        // size 5 wants two more members, but one learner at a time
        assertThat(plan(running(3, V).size(5).learner("demo-d", true, 100)))
                .isInstanceOf(Wait.class);
    }

    @Test
    void anAddedMemberWithoutAPodGetsItsPodWithStateExisting() {
        // the operator added demo-b to etcd, then crashed before creating the pod: demo-b has no name yet
        Step step = plan(running(1, V).size(3).addedNotStarted("demo-b"));
        assertThat(step).isEqualTo(new CreateMemberPod("demo-b", NAMING.peerUrl("demo-b"), "existing", V,
                CreateMemberPod.STARTING_ADDED_MEMBER));
    }

    @Test
    void anAddedMemberWhosePodIsPendingIsWaitedFor() {
        ClusterFixture f = running(1, V).size(3).addedNotStarted("demo-b").podStarting("demo-b");
        assertThat(plan(f)).isInstanceOfSatisfying(Wait.class,
                w -> assertThat(w.reason()).isEqualTo(Wait.MEMBER_STARTING));
    }

    @Test
    void anAddedMemberWhoseOldPodStillTerminatesIsWaitedFor() {
        ClusterFixture f = running(1, V).size(3).addedNotStarted("demo-b").podTerminating("demo-b");
        assertThat(plan(f)).isInstanceOfSatisfying(Wait.class,
                w -> assertThat(w.reason()).isEqualTo(Wait.POD_TERMINATING));
    }

    @Test
    void aNewMemberNeverReusesATakenName() {
        // the first draw gives demo-aaaaaaaaaa, which a member has: the planner draws again
        ClusterFixture f = running(1, V).size(3).voter("demo-aaaaaaaaaa", false, V);
        assertThat(new ClusterPlanner(new SameThenOther()).plan(f.observe()))
                .isInstanceOfSatisfying(AddMember.class, a -> assertThat(a.name()).isEqualTo("demo-bbbbbbbbbb"));
    }

    @Test
    void scaleDownRemovesAFollowerNotTheLeader() {
        ClusterFixture f = running(3, V).size(2); // demo-a leads and sorts first
        assertThat(plan(f)).isEqualTo(new RemoveMember(f.id("demo-b"), "demo-b", RemoveMember.SCALE_DOWN));
    }

    @Test
    void scaleDownPrefersAnUnhealthyFollower() {
        ClusterFixture f = running(5, V).size(4).sick("demo-d");
        assertThat(plan(f)).isEqualTo(new RemoveMember(f.id("demo-d"), "demo-d", RemoveMember.SCALE_DOWN));
    }

    /** A voter whose pod never runs (no node fits it) is the one a scale-down removes, not one it waits for. */
    @Test
    void scaleDownRemovesAVoterWhosePodDoesNotRun() {
        ClusterFixture f = running(5, V).persistent().size(3).podStarting("demo-e").unhealthy("demo-e");
        assertThat(plan(f)).isEqualTo(new RemoveMember(f.id("demo-e"), "demo-e", RemoveMember.SCALE_DOWN));
        ClusterFixture same = running(3, V).persistent().podStarting("demo-c").unhealthy("demo-c");
        assertThat(plan(same)).as("at its size, the member's pod is waited for")
                .isInstanceOfSatisfying(Wait.class, w -> assertThat(w.reason()).isEqualTo(Wait.MEMBER_STARTING));
    }

    @Test
    void scaleDownRemovesAPendingLearnerFirst() {
        ClusterFixture f = running(3, V).size(3).learner("demo-d", true, 10);
        assertThat(plan(f)).isEqualTo(new RemoveMember(f.id("demo-d"), "demo-d", RemoveMember.SCALE_DOWN));
    }

    @Test
    void scaleDownWaitsWhenRemovingWouldCostQuorum() {
        // demo-a leads but is sick: taking out healthy demo-b would leave one healthy voter of two
        ClusterFixture f = running(3, V).size(2).sick("demo-a");
        assertThat(plan(f)).isInstanceOfSatisfying(Wait.class, w -> {
            assertThat(w.reason()).isEqualTo(Wait.QUORUM_AT_RISK);
            assertThat(w.message()).contains("demo-b");
        });
    }

    @Test
    void aSeedWhosePodRunsOnceIsReplacedByAMemberWhosePodRestartsItsEtcd() {
        // a restored cluster of one: its seed's etcd, once ended, would not start again, and its data would be gone
        ClusterFixture f = running(1, V).runsOnce("demo-a");
        Step add = plan(f);
        assertThat(add).isInstanceOfSatisfying(AddMember.class, a -> {
            assertThat(a.replaces()).isEqualTo("demo-a");
            assertThat(a.describe()).contains("to replace member demo-a");
        });
        f.apply(add);
        String added = ((AddMember) add).name();
        assertThat(plan(f)).isEqualTo(new PromoteLearner(f.id(added), added));
        f.apply(plan(f));
        // two healthy voters: the seed leads, so the leadership moves first; etcd then removes a follower
        assertThat(plan(f)).isEqualTo(new MoveLeader(f.id("demo-a"), "demo-a", f.id(added), added));
        f.apply(plan(f));
        assertThat(plan(f)).isEqualTo(new RemoveMember(f.id("demo-a"), "demo-a", RemoveMember.RUNS_ONCE));
        f.apply(plan(f));
        assertThat(plan(f)).isEqualTo(new DeletePod("demo-a", DeletePod.NOT_A_MEMBER));
        f.apply(plan(f));
        assertThat(plan(f)).isInstanceOf(Nothing.class);
        assertThat(f.memberNames()).containsExactly(added);
        assertThat(f.runOncePods()).isEmpty();
    }

    @Test
    void aRestoredClusterOfTwoReplacesItsSeedButOneOfThreeOrMoreKeepsIt() {
        List<Step> two = playOut(running(1, V).size(2).runsOnce("demo-a"));
        assertThat(two).filteredOn(AddMember.class::isInstance).extracting(s -> ((AddMember) s).replaces())
                .containsExactly(null, "demo-a");
        assertThat(two).filteredOn(RemoveMember.class::isInstance).extracting(s -> ((RemoveMember) s).name())
                .containsExactly("demo-a");
        // three or more: the two members added to it restart in place, a majority; its seed, should its etcd end,
        // is replaced as any member whose pod ended
        for (int size : new int[] {3, 5}) {
            ClusterFixture f = running(1, V).size(size).runsOnce("demo-a");
            List<Step> steps = playOut(f);
            assertThat(steps).filteredOn(AddMember.class::isInstance).hasSize(size - 1)
                    .allSatisfy(a -> assertThat(((AddMember) a).replaces()).isNull());
            assertThat(steps).noneMatch(RemoveMember.class::isInstance);
            assertThat(f.runOncePods()).containsExactly("demo-a");
        }
    }

    @Test
    void aClusterWhosePodsAllRunOnceIsReplacedFollowersFirstUntilAMajorityRestartsInPlace() {
        // pods an earlier operator version made
        ClusterFixture f = running(3, V).runsOnce("demo-a", "demo-b", "demo-c");
        List<Step> steps = playOut(f);
        assertThat(steps).filteredOn(AddMember.class::isInstance).extracting(s -> ((AddMember) s).replaces())
                .containsExactly("demo-b", "demo-c");
        assertThat(steps).filteredOn(RemoveMember.class::isInstance).extracting(s -> ((RemoveMember) s).name())
                .containsExactly("demo-b", "demo-c");
        assertThat(steps).noneMatch(MoveLeader.class::isInstance);
        assertThat(f.memberNames()).hasSize(3).contains("demo-a");
        assertThat(f.runOncePods()).containsExactly("demo-a");
    }

    @Test
    void aMemberWhosePodRunsOnceIsNotReplacedWhileAnotherIsUnhealthyOrOnAClaim() {
        assertThat(plan(running(3, V).runsOnce("demo-b", "demo-c").sick("demo-a"))).isInstanceOfSatisfying(
                Wait.class, w -> assertThat(w.reason()).isEqualTo(Wait.MEMBER_NOT_HEALTHY));
        // on claims, a pod that ends is made again on its claim, and restarts in place from then on
        assertThat(plan(running(1, V).persistent().runsOnce("demo-a"))).isInstanceOf(Nothing.class);
    }

    @Test
    void aMemberWhosePodRunsOnceAndEndsDuringItsReplacementIsReplacedAsADeadOne() {
        ClusterFixture f = running(2, V).runsOnce("demo-a");
        f.apply(plan(f));
        f.apply(plan(f));
        f.podStopped("demo-a").unhealthy("demo-a");
        Step step = plan(f);
        assertThat(step).isEqualTo(new RemoveMember(f.id("demo-a"), "demo-a", RemoveMember.DEAD_MEMBER, true));
        f.apply(step);
        assertThat(playOut(f)).noneMatch(AddMember.class::isInstance);
        assertThat(f.memberNames()).hasSize(2).doesNotContain("demo-a");
    }

    @Test
    void aScaleDownDuringAReplacementTakesTheLearnerAddedForItThenTheMemberWhosePodRunsOnce() {
        ClusterFixture f = running(2, V).runsOnce("demo-a");
        Step add = plan(f);
        f.apply(add);
        f.size(1);
        String learner = ((AddMember) add).name();
        assertThat(plan(f)).isEqualTo(new RemoveMember(f.id(learner), learner, RemoveMember.SCALE_DOWN));
        f.apply(plan(f));
        List<Step> rest = playOut(f);
        assertThat(rest).filteredOn(RemoveMember.class::isInstance).extracting(s -> ((RemoveMember) s).name())
                .containsExactly("demo-a");
        assertThat(f.memberNames()).containsExactly("demo-b");
    }

    @Test
    void aScaleDownTakesAFollowerWhosePodRunsOnceFirst() {
        ClusterFixture f = running(4, V).size(3).runsOnce("demo-d");
        assertThat(plan(f)).isEqualTo(new RemoveMember(f.id("demo-d"), "demo-d", RemoveMember.SCALE_DOWN));
    }

    /** Plans and applies until nothing is left to do; never more than one member over spec.size on the way. */
    private static List<Step> playOut(ClusterFixture f) {
        List<Step> steps = new java.util.ArrayList<>();
        for (Step step = plan(f); !(step instanceof Nothing); step = plan(f)) {
            assertThat(steps).as("steps so far").hasSizeLessThan(40);
            steps.add(step);
            f.apply(step);
            assertThat(f.memberNames().size()).as("members after " + step).isLessThanOrEqualTo(f.observe()
                    .desiredSize() + 1);
        }
        return steps;
    }

    @Test
    void aMemberListFromOneMemberLeadingItsOwnClusterChangesNothing() {
        // demo-a's data was wiped and it started a new cluster of its own; demo-b and demo-c do not answer now
        for (ClusterFixture f : List.of(running(3, V).listedByAlone("demo-a"),
                running(3, V).persistent().listedByAlone("demo-a"),
                running(3, V).listedByAlone("demo-a").podCrashLooping("demo-b").podStopped("demo-c"),
                running(5, V).listedByAlone("demo-a").podGone("demo-e"),
                // a member away (its pod terminating, or gone with its claim kept) counts as one the list lacks
                running(3, V).listedByAlone("demo-a").podTerminatingUntil("demo-b", ClusterFixture.NOW.plusSeconds(20)),
                running(3, V).persistent().listedByAlone("demo-a").podGone("demo-b"))) {
            assertThat(plan(f)).isInstanceOfSatisfying(Wait.class, w -> {
                assertThat(w.reason()).isEqualTo(Wait.MEMBER_LIST_PARTIAL);
                assertThat(w.message()).contains("demo-a", "demo-b", "demo-c");
            });
        }
    }

    @Test
    void aMemberRemovedWhosePodIsLeftIsStillDeletedOneAtATime() {
        // a scale down removed demo-c from etcd; its pod is deleted next
        ClusterFixture f = running(3, V).size(2);
        f.apply(new RemoveMember(f.id("demo-c"), "demo-c", RemoveMember.SCALE_DOWN));
        assertThat(plan(f)).isEqualTo(new DeletePod("demo-c", DeletePod.NOT_A_MEMBER));
        // down to one member: the last pod removed from two is no majority of them either
        ClusterFixture g = running(2, V).size(1);
        g.apply(new RemoveMember(g.id("demo-b"), "demo-b", RemoveMember.SCALE_DOWN));
        assertThat(plan(g)).isEqualTo(new DeletePod("demo-b", DeletePod.NOT_A_MEMBER));
    }

    /**
     * The list answered by a member still applying the leader's log (its data wiped, it is sent the log again) lacks a
     * member added since, the leader itself: its pod is no member of that list, yet it leads the cluster. A list that
     * names no leader deletes no pod; one that a listed leader answered does.
     */
    @Test
    void aPodMissingFromAListThatNamesNoLeaderIsNotDeleted() {
        ClusterFixture f = running(3, V).persistent();
        f.apply(new RemoveMember(f.id("demo-c"), "demo-c", RemoveMember.SCALE_DOWN));
        f.claim("demo-c").pod("demo-c", true, true, V).answers("demo-a", false).answers("demo-b", false);
        assertThat(plan(f)).isInstanceOfSatisfying(Wait.class, w -> {
            assertThat(w.reason()).isEqualTo(Wait.LEADER_NOT_LISTED);
            assertThat(w.message()).contains("demo-c");
        });
        // a member of the list that leads: its list stands, and the pod is no member
        f.answers("demo-a", true);
        assertThat(plan(f)).isEqualTo(new DeletePod("demo-c", DeletePod.NOT_A_MEMBER));
        // unless that list was not the leader's own (the leader did not answer the member list)
        f.listNotFromLeader();
        assertThat(plan(f)).isInstanceOfSatisfying(Wait.class,
                w -> assertThat(w.reason()).isEqualTo(Wait.LEADER_NOT_LISTED));
    }

    /** A list that is not the leader's may lack members added since: no member is added or removed on its count. */
    @Test
    void noMemberIsAddedOrRemovedToScaleOnAListThatIsNotTheLeaders() {
        assertThat(plan(running(2, V).size(3).listNotFromLeader())).isInstanceOfSatisfying(Wait.class,
                w -> assertThat(w.reason()).isEqualTo(Wait.LEADER_NOT_LISTED));
        assertThat(plan(running(3, V).size(2).listNotFromLeader())).isInstanceOfSatisfying(Wait.class,
                w -> assertThat(w.reason()).isEqualTo(Wait.LEADER_NOT_LISTED));
        assertThat(plan(running(2, V).size(3))).isInstanceOf(AddMember.class);
        // at its size, the rest goes on
        assertThat(plan(running(3, V).listNotFromLeader())).isInstanceOf(Nothing.class);
    }

    @Test
    void ofTwoMembersOnClaimsTheOtherOnesKeptClaimIsEnoughToWait() {
        ClusterFixture f = running(2, V).persistent().listedByAlone("demo-a");
        assertThat(plan(f)).isInstanceOfSatisfying(Wait.class,
                w -> assertThat(w.reason()).isEqualTo(Wait.MEMBER_LIST_PARTIAL));
        // a scale-down to one deletes the member's claim with its removal: its pod goes next
        ClusterFixture g = running(2, V).persistent().size(1);
        g.apply(new RemoveMember(g.id("demo-b"), "demo-b", RemoveMember.SCALE_DOWN)).withoutClaim("demo-b");
        assertThat(plan(g)).isEqualTo(new DeletePod("demo-b", DeletePod.NOT_A_MEMBER));
    }

    @Test
    void aRemovedMembersPodStuckTerminatingDoesNotHoldTheNextRemoval() {
        ClusterFixture f = running(3, V).size(1);
        f.apply(new RemoveMember(f.id("demo-c"), "demo-c", RemoveMember.SCALE_DOWN))
                .podTerminatingUntil("demo-c", ClusterFixture.NOW.minusSeconds(600));
        f.apply(new RemoveMember(f.id("demo-b"), "demo-b", RemoveMember.SCALE_DOWN));
        assertThat(plan(f)).isEqualTo(new DeletePod("demo-b", DeletePod.NOT_A_MEMBER));
    }

    @Test
    void podsWhoseEtcdNeverRanDoNotMakeTheMemberListPartial() {
        ClusterFixture f = running(1, V).podOnlyBeforeEtcd("demo-x", false).podOnlyBeforeEtcd("demo-y", true);
        assertThat(plan(f)).isEqualTo(new DeletePod("demo-x", DeletePod.NOT_A_MEMBER));
    }

    @Test
    void aMemberLeadingItsOwnClusterBesideTheClusterIsDeletedWithItsClaimAndReplaced() {
        ClusterFixture f = running(3, V).splitOff("demo-a").leader("demo-b");
        assertThat(plan(f)).isEqualTo(new DeletePod("demo-a", DeletePod.SPLIT_OFF));
        assertThat(new DeletePod("demo-a", DeletePod.SPLIT_OFF).describe()).contains("its claim", "replaced");
        f.apply(plan(f));
        assertThat(plan(f)).isEqualTo(new RemoveMember(f.id("demo-a"), "demo-a", RemoveMember.DEAD_MEMBER, false));
        playOut(f);
        assertThat(f.memberNames()).hasSize(3).doesNotContain("demo-a");

        // on claims: the actuator deletes its claim with the pod, so it is not made again on that data
        ClusterFixture p = running(3, V).persistent().splitOff("demo-a").leader("demo-b");
        assertThat(plan(p)).isEqualTo(new DeletePod("demo-a", DeletePod.SPLIT_OFF));
        p.apply(plan(p)).withoutClaim("demo-a");
        assertThat(plan(p)).isEqualTo(new RemoveMember(p.id("demo-a"), "demo-a", RemoveMember.DEAD_MEMBER, false));
    }

    @Test
    void aPodThatIsNoMemberIsDeleted() {
        assertThat(plan(running(3, V).pod("demo-x", true, true, V)))
                .isEqualTo(new DeletePod("demo-x", DeletePod.NOT_A_MEMBER));
    }

    @Test
    void aMemberIsNotAddedWhileAnotherIsUnhealthy() {
        ClusterFixture f = running(3, V).size(5).sick("demo-c");
        assertThat(plan(f)).isInstanceOfSatisfying(Wait.class, w -> {
            assertThat(w.reason()).isEqualTo(Wait.MEMBER_NOT_HEALTHY);
            assertThat(w.message()).contains("demo-c");
        });
    }

    @Test
    void aDeadMemberIsRemovedThenReplaced() {
        ClusterFixture f = running(3, V).dead("demo-c");
        Step first = plan(f);
        assertThat(first).isEqualTo(new RemoveMember(f.id("demo-c"), "demo-c", RemoveMember.DEAD_MEMBER));
        f.apply(first);
        assertThat(plan(f)).isInstanceOfSatisfying(AddMember.class,
                a -> assertThat(a.name()).isNotIn(f.memberNames()));
    }

    @Test
    void aMemberWhosePodStoppedIsDeadWithoutClaimsAndGoesWithItsPodInOneStep() {
        ClusterFixture f = running(3, V).podStopped("demo-b").unhealthy("demo-b");
        Step first = plan(f);
        assertThat(first).isEqualTo(new RemoveMember(f.id("demo-b"), "demo-b", RemoveMember.DEAD_MEMBER, true));
        assertThat(first.describe()).isEqualTo("Removing dead member demo-b (" + Long.toHexString(f.id("demo-b"))
                + ") and deleting its failed pod; a fresh member replaces it next.");
        f.apply(first);
        // the replacement is added at the next look, with no step in between for the old pod
        assertThat(plan(f)).isInstanceOfSatisfying(AddMember.class,
                a -> assertThat(a.name()).isNotIn("demo-a", "demo-b", "demo-c"));
    }

    /** On claims: a pod that ended for good (evicted, it stays Failed) whose claim was deleted has nothing left. */
    @Test
    void onClaimsAMemberWhosePodEndedAndWhoseClaimWentIsDeadAndGoesWithItsPod() {
        ClusterFixture f = running(3, V).persistent().podStopped("demo-b").unhealthy("demo-b").withoutClaim("demo-b");
        assertThat(plan(f)).isEqualTo(new RemoveMember(f.id("demo-b"), "demo-b", RemoveMember.DEAD_MEMBER, true));
        // with its claim the pod is made again on it instead
        ClusterFixture kept = running(3, V).persistent().podStopped("demo-b").unhealthy("demo-b");
        assertThat(plan(kept)).isEqualTo(new DeletePod("demo-b", DeletePod.POD_STOPPED));
    }

    /**
     * On claims: a pod made again in place found no data on its claim (wiped, a new volume). etcd refuses to start
     * a member that joined before without its data, so making the pod again would loop for ever: the member is
     * dead, and goes with its pod (and claim) to be replaced.
     */
    @Test
    void onClaimsAMemberWhoseClaimLostItsDataIsReplacedNotMadeAgainInPlace() {
        ClusterFixture f = running(3, V).persistent().podDataMissing("demo-b");
        assertThat(plan(f)).isEqualTo(new RemoveMember(f.id("demo-b"), "demo-b", RemoveMember.DEAD_MEMBER, true));
        // its data put back, the check passed on a later try and its etcd answers healthy: kept
        ClusterFixture back = running(3, V).persistent();
        back.podDataMissingOnly("demo-b");
        assertThat(plan(back)).isNotInstanceOf(RemoveMember.class);
    }

    /**
     * On claims, a member whose etcd failed in each of its last pods made on its claim (its data no longer the
     * cluster's: it bootstrapped a cluster of its own, say) is replaced, claim and all, while every other member is
     * healthy, instead of made again on it for ever.
     */
    @Test
    void onClaimsAMemberThatKeepsFailingOnItsClaimBesideHealthyMembersIsReplaced() {
        ClusterFixture f = running(3, V).persistent().podCrashLooping("demo-b").unhealthy("demo-b");
        // made again on its claim until it failed in as many pods as allowed
        assertThat(plan(f)).isEqualTo(new DeletePod("demo-b", DeletePod.POD_STOPPED));
        f.keepsFailing("demo-b");
        Step first = plan(f);
        assertThat(first).isEqualTo(new RemoveMember(f.id("demo-b"), "demo-b", RemoveMember.KEEPS_FAILING, true));
        assertThat(((RemoveMember) first).replacement()).isTrue();
        assertThat(first.describe()).isEqualTo("Removing member demo-b (" + Long.toHexString(f.id("demo-b"))
                + "), whose etcd failed again in each of its last " + ClusterPlanner.RECREATIONS_BEFORE_REPLACING
                + " pods made on its claim while the other members are healthy, with its claim and its pod; a fresh"
                + " member replaces it next (see the logs of its etcd for why it failed).");
        f.apply(first);
        assertThat(plan(f)).isInstanceOfSatisfying(AddMember.class,
                a -> assertThat(a.name()).isNotIn("demo-a", "demo-b", "demo-c"));
        // a pod that ended for good fails as much
        ClusterFixture ended = running(3, V).persistent().podStopped("demo-b").unhealthy("demo-b")
                .keepsFailing("demo-b");
        assertThat(plan(ended)).isEqualTo(new RemoveMember(ended.id("demo-b"), "demo-b", RemoveMember.KEEPS_FAILING,
                true));
    }

    /**
     * Beside another member that is not healthy, the failing one is made again in place: replacing it would leave the
     * cluster fewer healthy members than a second failure allows, or without quorum; and what fails may be what
     * both share (a node, a network).
     */
    @Test
    void aMemberThatKeepsFailingIsMadeAgainInPlaceBesideAnUnhealthyMember() {
        ClusterFixture f = running(3, V).persistent().podCrashLooping("demo-b").unhealthy("demo-b")
                .keepsFailing("demo-b").unhealthy("demo-c");
        assertThat(plan(f)).isEqualTo(new DeletePod("demo-b", DeletePod.POD_STOPPED));
        ClusterFixture five = running(5, V).persistent().podCrashLooping("demo-b").unhealthy("demo-b")
                .keepsFailing("demo-b").unhealthy("demo-e");
        assertThat(plan(five)).isEqualTo(new DeletePod("demo-b", DeletePod.POD_STOPPED));
        // a learner that never caught up is no healthy member either
        ClusterFixture learning = running(3, V).persistent().podCrashLooping("demo-b").unhealthy("demo-b")
                .keepsFailing("demo-b").learner("demo-d", false, 10);
        assertThat(plan(learning)).isEqualTo(new DeletePod("demo-b", DeletePod.POD_STOPPED));
    }

    /** A lone member has nothing to be replaced from: made again on its claim, as ever. */
    @Test
    void aLoneMemberThatKeepsFailingIsMadeAgainInPlace() {
        ClusterFixture f = running(1, V).persistent().podCrashLooping("demo-a").unhealthy("demo-a")
                .keepsFailing("demo-a");
        assertThat(plan(f)).isEqualTo(new DeletePod("demo-a", DeletePod.POD_STOPPED));
    }

    /**
     * A member that keeps failing on another release than the others (the first given an upgrade its data or settings
     * do not take) is made again in place: a fresh member on that release would fail as well.
     */
    @Test
    void aMemberThatKeepsFailingOnAnotherReleaseThanTheOthersIsNotReplaced() {
        ClusterFixture f = running(3, "3.5.35").persistent().version("3.6.16").podVersion("demo-b", "3.6.16")
                .podCrashLooping("demo-b").unhealthy("demo-b").keepsFailing("demo-b");
        assertThat(plan(f)).isEqualTo(new DeletePod("demo-b", DeletePod.POD_STOPPED));
        // the first member made on new TLS material, the others still on the old
        ClusterFixture tls = running(3, V).persistent().podCrashLooping("demo-b").unhealthy("demo-b")
                .keepsFailing("demo-b").staleTls("demo-a", "demo-c");
        assertThat(plan(tls)).isNotInstanceOf(RemoveMember.class);
    }

    /** Every claim wiped (no member answers, each pod made again in place finds nothing): said, not waited on. */
    @Test
    void onClaimsEveryClaimWithoutItsDataIsAllMembersLost() {
        ClusterFixture f = running(3, V).persistent();
        f.memberNames().forEach(m -> f.podDataMissing(m));
        assertThat(plan(f.noAnswer())).isInstanceOfSatisfying(AllMembersLost.class,
                l -> assertThat(l.message()).contains("hold none of its data"));
    }

    /**
     * A learner added but never started whose pod was made as one on its data (every pod was gone, no member
     * answered, and the claims named it): it is made again as the new member it is, not taken for one that lost it.
     */
    @Test
    void onClaimsALearnerThatNeverStartedIsMadeAgainAsANewMemberAfterItsDataCheck() {
        ClusterFixture f = running(3, V).persistent().addedNotStarted("demo-d").claim("demo-d");
        f.podOnlyBeforeEtcd("demo-d", false);
        f.podDataMissingOnly("demo-d");
        assertThat(plan(f)).isEqualTo(new DeletePod("demo-d", DeletePod.POD_STOPPED));
        f.podGone("demo-d");
        assertThat(plan(f)).isInstanceOfSatisfying(CreateMemberPod.class,
                c -> assertThat(c.reason()).isEqualTo(CreateMemberPod.STARTING_ADDED_MEMBER));
    }

    /**
     * A cluster made again on the claims an earlier cluster of its name kept: its seed opens that cluster's data and
     * waits for the members it names, so their claims get their pods too (the seed alone never answers).
     */
    @Test
    void aNewClusterOnAnEarlierClustersClaimsStartsTheMembersItsSeedWaitsFor() {
        ClusterFixture f = fresh(3, V).persistent().claim("demo-a").claim("demo-b").claim("demo-c");
        assertThat(plan(f)).isEqualTo(new RecordSeed("demo-a", false));
        f.seed("demo-a").pod("demo-a", true, false, V);
        assertThat(plan(f)).isInstanceOfSatisfying(CreateMemberPod.class, c -> {
            assertThat(c.name()).isEqualTo("demo-b");
            assertThat(c.reason()).isEqualTo(CreateMemberPod.RECREATING_IN_PLACE);
        });
        f.pod("demo-b", true, false, V);
        assertThat(plan(f)).isInstanceOfSatisfying(CreateMemberPod.class, c -> assertThat(c.name())
                .isEqualTo("demo-c"));
        // the seed's pod gone (evicted) while a peer's is there: made again on its claim
        ClusterFixture seedGone = fresh(3, V).persistent().claim("demo-a").claim("demo-b").claim("demo-c")
                .seed("demo-a").pod("demo-b", true, false, V).pod("demo-c", true, false, V);
        assertThat(plan(seedGone)).isInstanceOfSatisfying(CreateMemberPod.class, c -> assertThat(c.name())
                .isEqualTo("demo-a"));
        // a seed on a new claim waits alone, as before
        assertThat(plan(fresh(2, V).persistent().claim("demo-a").seed("demo-a").pod("demo-a", true, false, V)))
                .isInstanceOf(Wait.class);
    }

    /** The seed's pod evicted before the cluster first answered: made again, not waited for as "starting". */
    @Test
    void aSeedWhosePodEndedBeforeTheClusterFirstAnsweredIsMadeAgain() {
        ClusterFixture f = fresh(2, V).seed("demo-a").podEndedBeforeEtcd("demo-a");
        Step first = plan(f);
        assertThat(first).isEqualTo(new DeletePod("demo-a", DeletePod.FIRST_MEMBER_FAILED));
        f.apply(first);
        assertThat(plan(f)).isInstanceOf(Step.CreateSeed.class);
        // a restored cluster's seed runs once: its restore reads why it ended
        ClusterFixture restored = fresh(1, V).seed("demo-a").podEndedBeforeEtcd("demo-a").runsOnce("demo-a");
        assertThat(plan(restored)).isNotInstanceOf(DeletePod.class);
    }

    /** Every pod ended, no claims, and a person asked for a reseed: the ended pods go, then a new seed. */
    @Test
    void aReseedAskedForAfterEveryPodEndedRemovesThePodsThenSeeds() {
        ClusterFixture f = running(3, V);
        f.memberNames().forEach(f::podStopped);
        f.settle();
        assertThat(plan(f)).isInstanceOf(Step.AllMembersLost.class);
        f.reseedRequested();
        for (int i = 0; i < 3; i++) {
            Step step = plan(f);
            assertThat(step).isInstanceOfSatisfying(DeletePod.class, d -> assertThat(d.reason())
                    .isEqualTo(DeletePod.POD_STOPPED));
            f.apply(step);
        }
        assertThat(plan(f)).isInstanceOfSatisfying(RecordSeed.class, r -> assertThat(r.reseed()).isTrue());
    }

    @Test
    void aMemberWhoseEtcdCrashLoopsInItsPodIsReplacedWhenThatIsSafeAndItsPodGoesWithIt() {
        ClusterFixture f = running(3, V).podCrashLooping("demo-b").unhealthy("demo-b");
        Step first = plan(f);
        assertThat(first).isEqualTo(new RemoveMember(f.id("demo-b"), "demo-b", RemoveMember.DEAD_MEMBER, true));
        f.apply(first);
        assertThat(plan(f)).isInstanceOfSatisfying(AddMember.class,
                a -> assertThat(a.name()).isNotIn("demo-a", "demo-b", "demo-c"));
    }

    @Test
    void aMemberWhoseEtcdCrashLoopsIsLeftToStartAgainInPlaceWithoutQuorumAndIsMadeAgainOnItsClaim() {
        // another voter does not answer either: no membership change can pass; the kubelet starts demo-b again
        ClusterFixture f = running(3, V).podCrashLooping("demo-b").unhealthy("demo-b").sick("demo-c");
        assertThat(plan(f)).isInstanceOfSatisfying(QuorumLost.class,
                q -> assertThat(q.recoveryReason()).isEqualTo(QuorumRecoveryPlanner.MAY_COME_BACK));
        // on claims its pod is made again on its data, at the version the cluster runs, with or without quorum;
        // nothing is removed
        for (ClusterFixture onClaims : List.of(running(3, V).persistent().podCrashLooping("demo-b").unhealthy("demo-b"),
                running(3, V).persistent().podCrashLooping("demo-b").unhealthy("demo-b").sick("demo-c"))) {
            Step step = plan(onClaims);
            assertThat(step).isEqualTo(new DeletePod("demo-b", DeletePod.POD_STOPPED));
            onClaims.apply(step);
            assertThat(plan(onClaims)).isInstanceOfSatisfying(CreateMemberPod.class, c -> {
                assertThat(c.name()).isEqualTo("demo-b");
                assertThat(c.reason()).isEqualTo(CreateMemberPod.RECREATING_IN_PLACE);
            });
        }
    }

    @Test
    void aClusterThatRanWhoseEtcdsAllCrashLoopHasLostQuorumAndIsNotStarting() {
        ClusterFixture f = running(3, V).podCrashLooping("demo-a").podCrashLooping("demo-b").podCrashLooping("demo-c")
                .noAnswer();
        assertThat(plan(f)).isInstanceOfSatisfying(QuorumLost.class, q -> {
            assertThat(q.recoveryReason()).isEqualTo(QuorumRecoveryPlanner.NO_MEMBER_ANSWERS);
            assertThat(q.message()).contains("in pods demo-a, demo-b, demo-c etcd failed and the kubelet starts it"
                    + " again after a back-off");
        });
    }

    @Test
    void aDeadMemberWhosePodIsGoneLeavesNoPodToDelete() {
        ClusterFixture f = running(3, V).dead("demo-b");
        assertThat(plan(f)).isInstanceOfSatisfying(RemoveMember.class, r -> {
            assertThat(r.deleteFailedPod()).isFalse();
            assertThat(r.describe()).doesNotContain("pod");
        });
    }

    @Test
    void aRemovedMemberWhosePodIsLeftGetsItDeletedLater() {
        // the removal went through but deleting the pod did not (or an older operator removed it): rule 7
        ClusterFixture f = running(3, V).podStopped("demo-b").unhealthy("demo-b");
        f.apply(new RemoveMember(f.id("demo-b"), "demo-b", RemoveMember.DEAD_MEMBER));
        assertThat(plan(f)).isEqualTo(new DeletePod("demo-b", DeletePod.NOT_A_MEMBER));
    }

    @Test
    void aLearnerWhosePodEndedIsRemovedWithItsPodEvenThoughItNeverVoted() {
        ClusterFixture f = running(3, V).size(4).learner("demo-d", true, 1000).podStopped("demo-d")
                .unhealthy("demo-d");
        assertThat(plan(f)).isEqualTo(new RemoveMember(f.id("demo-d"), "demo-d", RemoveMember.DEAD_MEMBER, true));
    }

    /**
     * A member is declared dead by its pod alone. While the others elect a new leader after the old one's pod ended,
     * none of them answers health checks: nothing is removed until a majority answers again, and then only the
     * member whose pod ended.
     */
    @Test
    void afterTheLeadersPodEndsNothingIsRemovedUntilANewLeaderIsElected() {
        ClusterFixture f = running(3, V).leader("demo-a").podStopped("demo-a").unhealthy("demo-a")
                .sick("demo-b").sick("demo-c");
        assertThat(plan(f)).isInstanceOf(QuorumLost.class);
        // one of the two answers: still fewer than a majority of the three voters
        f.answers("demo-b", true);
        assertThat(plan(f)).isInstanceOf(QuorumLost.class);
        f.answers("demo-c", false);
        assertThat(plan(f)).isEqualTo(new RemoveMember(f.id("demo-a"), "demo-a", RemoveMember.DEAD_MEMBER, true));
    }

    /** Members that do not answer for a while but whose pods run are waited for, never replaced. */
    @Test
    void aSlowOrUnreachableMemberIsNeverDeclaredDead() {
        // one voter silent, its pod running: the others keep quorum, nothing is removed or added
        assertThat(plan(running(3, V).sick("demo-c"))).isInstanceOfSatisfying(Wait.class,
                w -> assertThat(w.reason()).isEqualTo(Wait.MEMBER_NOT_HEALTHY));
        assertThat(plan(running(3, V).unhealthy("demo-c"))).isInstanceOfSatisfying(Wait.class,
                w -> assertThat(w.reason()).isEqualTo(Wait.MEMBER_NOT_HEALTHY));
        // every voter silent (an election, a partition): quorum lost, nothing changed
        assertThat(plan(running(3, V).sick("demo-a").sick("demo-b").sick("demo-c"))).isInstanceOf(QuorumLost.class);
        // a pod not running yet (pending, initializing) is starting, not dead
        assertThat(plan(running(3, V).podStarting("demo-c").unhealthy("demo-c"))).isInstanceOfSatisfying(Wait.class,
                w -> assertThat(w.reason()).isEqualTo(Wait.MEMBER_STARTING));
        // a pod being deleted (its node lost, a person deleting it) with a claim: away, recreated on its data
        assertThat(plan(running(3, V).persistent().podTerminating("demo-c").unhealthy("demo-c")))
                .isNotInstanceOf(RemoveMember.class);
    }

    @Test
    void aMemberWhosePodIsOnlyStartingAgainIsWaitedForNotReplaced() {
        ClusterFixture f = running(3, V).podStarting("demo-b").unhealthy("demo-b");
        assertThat(plan(f)).isInstanceOfSatisfying(Wait.class,
                w -> assertThat(w.reason()).isEqualTo(Wait.MEMBER_STARTING));
    }

    @Test
    void aPersistentMemberWhoseRecreatedPodIsStartingIsNotDeletedAgain() {
        ClusterFixture f = running(3, V).persistent().podStarting("demo-b").unhealthy("demo-b");
        assertThat(plan(f)).isInstanceOfSatisfying(Wait.class,
                w -> assertThat(w.reason()).isEqualTo(Wait.MEMBER_STARTING));
    }

    @Test
    void aDeadLeaderIsReplacedToo() {
        ClusterFixture f = running(3, V).dead("demo-a").leader("demo-b");
        assertThat(plan(f)).isEqualTo(new RemoveMember(f.id("demo-a"), "demo-a", RemoveMember.DEAD_MEMBER));
    }

    @Test
    void aPersistentMemberWhosePodWasDeletedIsRecreatedInPlace() {
        ClusterFixture f = running(3, V).persistent().dead("demo-b");
        assertThat(plan(f)).isEqualTo(new CreateMemberPod("demo-b", NAMING.peerUrl("demo-b"), "existing", V,
                CreateMemberPod.RECREATING_IN_PLACE));
    }

    /**
     * A member's pod pending for good (its node lost with a local volume) whose claim a person deleted: no node takes
     * a pod whose claim does not exist. It is replaced, not waited for as starting; without quorum it is lost for good.
     */
    @Test
    void aPendingPodWhoseClaimIsGoneIsADeadMember() {
        ClusterFixture f = running(3, V).persistent().podStarting("demo-c").unhealthy("demo-c").withoutClaim("demo-c");
        assertThat(plan(f)).isEqualTo(new RemoveMember(f.id("demo-c"), "demo-c", RemoveMember.DEAD_MEMBER));

        ClusterFixture lost = running(3, V).persistent().podStarting("demo-b").unhealthy("demo-b")
                .withoutClaim("demo-b").podStarting("demo-c").unhealthy("demo-c").withoutClaim("demo-c");
        assertThat(plan(lost)).isInstanceOfSatisfying(QuorumLost.class, q -> assertThat(q.recoveryReason())
                .isNotEqualTo(QuorumRecoveryPlanner.MAY_COME_BACK));
    }

    @Test
    void aPersistentMemberWhoseClaimIsGoneToIsReplaced() {
        ClusterFixture f = running(3, V).persistent().dead("demo-b").withoutClaim("demo-b");
        assertThat(plan(f)).isEqualTo(new RemoveMember(f.id("demo-b"), "demo-b", RemoveMember.DEAD_MEMBER));
    }

    @Test
    void aPersistentMemberWhosePodStoppedGetsItsPodDeletedToBeRecreated() {
        ClusterFixture f = running(3, V).persistent().podStopped("demo-b").unhealthy("demo-b");
        assertThat(plan(f)).isEqualTo(new DeletePod("demo-b", DeletePod.POD_STOPPED));
        f.podGone("demo-b");
        assertThat(plan(f)).isInstanceOf(CreateMemberPod.class);
    }

    @Test
    void twoOfThreeDeadIsQuorumLost() {
        Step step = plan(running(3, V).dead("demo-b").dead("demo-c"));
        assertThat(step).isInstanceOfSatisfying(QuorumLost.class,
                q -> assertThat(q.message()).contains("1 of 3", "demo-b, demo-c", "needs 2", "backup"));
    }

    /**
     * etcd's CORRUPT alarm makes every member report itself unhealthy: no lost quorum (whose message says to wait for
     * members that may come back) but the alarm, the member it names, and what a person does.
     */
    @Test
    void aCorruptAlarmIsNamedAndNoMembershipChangesNotTakenForALostQuorum() {
        ClusterFixture f = running(3, V).sick("demo-a").sick("demo-b").sick("demo-c");
        f.space(new DatabaseSpace(List.of(new MemberAlarm(f.id("demo-b"), MemberAlarm.CORRUPT)), 1L << 31, 100, 0,
                java.util.Set.of()));
        assertThat(plan(f)).isInstanceOfSatisfying(Wait.class, w -> {
            assertThat(w.reason()).isEqualTo(Wait.CORRUPT_ALARM);
            assertThat(w.message()).contains("CORRUPT", "demo-b", "hashkv", "alarm disarm");
        });

        // no member leads: the alarm list is an earlier one, and what is known is a lost quorum
        ClusterFixture silent = running(3, V).unhealthy("demo-a").unhealthy("demo-b").unhealthy("demo-c");
        silent.space(f.space());
        assertThat(plan(silent)).isInstanceOf(QuorumLost.class);
    }

    /** With a CORRUPT alarm last seen, FromSurvivor does not copy a survivor by itself: it may be the corrupt one. */
    @Test
    void aLastSeenCorruptAlarmStopsAnAutomaticRecoveryFromASurvivor() {
        ClusterFixture f = running(3, V).podStopped("demo-a").podStopped("demo-b").unhealthy("demo-a")
                .unhealthy("demo-b").survivor("demo-c", 950, 480).quorumLoss(new QuorumLoss(QuorumLoss.FROM_SURVIVOR, java.time.Duration.ofMinutes(1),
                        java.time.Instant.parse("2020-01-01T00:00:00Z"), null, "uid-demo", false, null, null));
        assertThat(plan(f)).isInstanceOf(Step.RecordQuorumRecovery.class);
        f.space(new DatabaseSpace(List.of(new MemberAlarm(f.id("demo-c"), MemberAlarm.CORRUPT)), 1L << 31, 100, 0,
                java.util.Set.of()));
        assertThat(plan(f)).isInstanceOfSatisfying(QuorumLost.class, q -> {
            assertThat(q.recoveryReason()).isEqualTo(Wait.CORRUPT_ALARM);
            assertThat(q.recoveryMessage()).contains("demo-c", "approve");
        });
    }

    @Test
    void twoOfThreeSilentWithRunningPodsIsQuorumLostToo() {
        assertThat(plan(running(3, V).unhealthy("demo-b").unhealthy("demo-c"))).isInstanceOf(QuorumLost.class);
    }

    @Test
    void persistentPodsComeBackEvenWithoutQuorum() {
        // recreating a member's pod on its claim changes no membership: it is how quorum comes back
        ClusterFixture f = running(3, V).persistent().dead("demo-b").dead("demo-c");
        assertThat(plan(f)).isEqualTo(new CreateMemberPod("demo-b", NAMING.peerUrl("demo-b"), "existing", V,
                CreateMemberPod.RECREATING_IN_PLACE));
    }

    /**
     * No member answers but pods exist: Wait while the cluster never ran or a pod is still starting (nothing is
     * known to be wrong yet); QuorumLost once the cluster ran and every pod runs yet none answers. Either way
     * nothing is changed; the difference is what status says (Failed for QuorumLost).
     */
    @Test
    void noMemberReachableButPodsExist() {
        ClusterFixture ran = running(3, V).noAnswer();
        assertThat(plan(ran)).isInstanceOfSatisfying(QuorumLost.class,
                q -> assertThat(q.message()).contains("demo-a, demo-b, demo-c"));
        assertThat(plan(running(3, V).noAnswer().podStarting("demo-c")))
                .isInstanceOfSatisfying(Wait.class, w -> assertThat(w.reason()).isEqualTo(Wait.MEMBERS_STARTING));
        // a pod that ended does not start again: it is no reason to wait
        assertThat(plan(running(3, V).noAnswer().podStopped("demo-c"))).isInstanceOf(QuorumLost.class);
        assertThat(plan(running(3, V).noAnswer().current(null)))
                .isInstanceOfSatisfying(Wait.class, w -> assertThat(w.reason()).isEqualTo(Wait.MEMBERS_STARTING));
    }

    /** On claims too: every pod ended and every claim gone (deleted with its data) is every member lost. */
    @Test
    void everyPodEndedAndEveryClaimGoneIsEveryMemberLost() {
        ClusterFixture f = running(3, V).persistent().podStopped("demo-a").podStopped("demo-b").podStopped("demo-c")
                .withoutClaim("demo-a").withoutClaim("demo-b").withoutClaim("demo-c").noAnswer();
        assertThat(plan(f)).isInstanceOfSatisfying(AllMembersLost.class,
                a -> assertThat(a.message()).contains("demo-a, demo-b, demo-c", "gone"));
        assertThat(plan(f.reseedRequested())).isEqualTo(new DeletePod("demo-a", DeletePod.POD_STOPPED));
    }

    @Test
    void onlyTerminatingPodsAreWaitedFor() {
        ClusterFixture f = running(1, V).noAnswer().podTerminating("demo-a");
        assertThat(plan(f)).isInstanceOfSatisfying(Wait.class,
                w -> assertThat(w.reason()).isEqualTo(Wait.POD_TERMINATING));
    }

    /**
     * Mid-upgrade with nothing answering: a member on its claim whose pod went is made again at the version the
     * cluster ran, not at the release one member was just given (which may be what crash-loops).
     */
    @Test
    void withNothingAnsweringAMemberMadeAgainOnItsClaimDoesNotCarryInAPendingUpgrade() {
        ClusterFixture f = running(3, "3.5.35").persistent().version("3.6.16").podVersion("demo-a", "3.6.16")
                .podCrashLooping("demo-a").podGone("demo-b").podGone("demo-c").noAnswer();
        assertThat(plan(f)).isEqualTo(new CreateMemberPod("demo-b", NAMING.peerUrl("demo-b"), "existing", "3.5.35",
                CreateMemberPod.RECREATING_IN_PLACE));
    }

    @Test
    void aPersistentClusterThatLostAllItsPodsRestartsFromItsClaims() {
        ClusterFixture f = running(3, V).persistent().podGone("demo-a").podGone("demo-b").podGone("demo-c")
                .noAnswer();
        assertThat(plan(f)).isEqualTo(new CreateMemberPod("demo-a", NAMING.peerUrl("demo-a"), "existing", V,
                CreateMemberPod.RECREATING_IN_PLACE));
        f.pod("demo-a", false, false, V);
        assertThat(plan(f)).isInstanceOfSatisfying(CreateMemberPod.class,
                c -> assertThat(c.name()).isEqualTo("demo-b"));
    }

    /** Members whose pods ended ({@code restartPolicy: Never}) are recreated on their claims, quorum or not. */
    @Test
    void persistentPodsThatEndedComeBackEvenWithoutQuorum() {
        // a minority still answers the member list
        ClusterFixture answering = running(3, V).persistent().podStopped("demo-b").unhealthy("demo-b")
                .podStopped("demo-c").unhealthy("demo-c");
        assertThat(plan(answering)).isEqualTo(new DeletePod("demo-b", DeletePod.POD_STOPPED));
        // no member answers at all
        ClusterFixture silent = running(3, V).persistent().podStopped("demo-b").podStopped("demo-c").settle();
        assertThat(plan(silent)).isEqualTo(new DeletePod("demo-b", DeletePod.POD_STOPPED));
        // every pod ended
        ClusterFixture all = running(3, V).persistent();
        all.memberNames().forEach(all::podStopped);
        assertThat(plan(all.settle())).isEqualTo(new DeletePod("demo-a", DeletePod.POD_STOPPED));
    }

    /**
     * With no member to read the member list from, a member recreated on its claim gets the members the claims
     * name as its initial cluster (etcd ignores it when the member's data directory holds data, and uses it to find
     * its peers when not).
     */
    @Test
    void theInitialClusterOfAMemberRecreatedWithoutAnAnswerComesFromTheClaims() {
        ClusterFixture f = running(3, V).persistent();
        f.memberNames().forEach(f::podGone);
        ClusterObservation o = f.settle().observe();
        assertThat(o.initialCluster()).isEqualTo("demo-a=" + NAMING.peerUrl("demo-a") + ",demo-b="
                + NAMING.peerUrl("demo-b") + ",demo-c=" + NAMING.peerUrl("demo-c"));
        // with an answer, the member list it gave, a member added but not started named by its peer URL
        ClusterObservation answered = running(2, V).addedNotStarted("demo-c").observe();
        assertThat(answered.initialCluster()).isEqualTo("demo-a=" + NAMING.peerUrl("demo-a") + ",demo-b="
                + NAMING.peerUrl("demo-b") + ",demo-c=" + NAMING.peerUrl("demo-c"));
    }

    /** A member on a claim whose old pod is stuck terminating (a lost node), with 5 members. */
    private static ClusterFixture oneAway() {
        return running(5, V).persistent().podTerminatingSince("demo-b", ClusterFixture.NOW.minusSeconds(60))
                .unhealthy("demo-b");
    }

    @Test
    void aPodStuckTerminatingBlocksNoScaling() {
        assertThat(plan(oneAway().size(6))).isInstanceOf(AddMember.class);
        // scaling down takes the member that is away first
        ClusterFixture f = oneAway().size(4);
        assertThat(plan(f)).isEqualTo(new RemoveMember(f.id("demo-b"), "demo-b", RemoveMember.SCALE_DOWN));
    }

    @Test
    void aPodStuckTerminatingBlocksNoUpgradeThatKeepsQuorum() {
        assertThat(plan(oneAway().version("3.5.18"))).isInstanceOfSatisfying(UpgradeMember.class,
                u -> assertThat(u.name()).isNotEqualTo("demo-b"));
        // with three members, restarting one of the two left would cost quorum: the upgrade waits, and says why
        ClusterFixture three = running(3, V).persistent().podTerminatingSince("demo-b", ClusterFixture.NOW)
                .unhealthy("demo-b").version("3.5.18");
        assertThat(plan(three)).isInstanceOfSatisfying(Wait.class, w -> {
            assertThat(w.reason()).isEqualTo(Wait.QUORUM_AT_RISK);
            assertThat(w.message()).contains("demo-b", "away");
        });
    }

    @Test
    void aPodStuckTerminatingBlocksNoReplacementOfAnotherMember() {
        // demo-c lost its pod and its claim: it is dead and replaced while demo-b waits for its old pod
        ClusterFixture f = oneAway().dead("demo-c").withoutClaim("demo-c");
        assertThat(plan(f)).isEqualTo(new RemoveMember(f.id("demo-c"), "demo-c", RemoveMember.DEAD_MEMBER));
        // demo-c's pod gone but its claim kept: recreated in place
        assertThat(plan(oneAway().dead("demo-c"))).isEqualTo(new CreateMemberPod("demo-c", NAMING.peerUrl("demo-c"),
                "existing", V, CreateMemberPod.RECREATING_IN_PLACE));
    }

    @Test
    void withNothingElseToDoTheMemberWhoseOldPodTerminatesIsWaitedFor() {
        assertThat(plan(oneAway())).isInstanceOfSatisfying(Wait.class, w -> {
            assertThat(w.reason()).isEqualTo(Wait.POD_TERMINATING);
            assertThat(w.message()).contains("demo-b", "claim");
        });
        ClusterFixture gone = oneAway().podGone("demo-b");
        assertThat(plan(gone)).isEqualTo(new CreateMemberPod("demo-b", NAMING.peerUrl("demo-b"), "existing", V,
                CreateMemberPod.RECREATING_IN_PLACE));
    }

    @Test
    void aPodIsStuckOnlyOnceItTerminatesLongerThanTheBound() {
        ClusterFixture f = oneAway().podTerminatingSince("demo-b", ClusterFixture.NOW)
                .now(ClusterFixture.NOW.plus(ClusterPlanner.STUCK_AFTER));
        assertThat(ClusterPlanner.stuckPods(f.observe())).isEmpty();
        f.now(ClusterFixture.NOW.plus(ClusterPlanner.STUCK_AFTER).plusSeconds(1));
        assertThat(ClusterPlanner.stuckPods(f.observe())).extracting(MemberPod::name).containsExactly("demo-b");
        assertThat(ClusterPlanner.stuckPods(f.now(null).observe())).as("no time, no judgement").isEmpty();
    }

    @Test
    void aClaimOfAClusterThatNeverRanSeedsIt() {
        ClusterFixture f = fresh(3, V).persistent().claim("demo-q");
        assertThat(plan(f)).isEqualTo(new RecordSeed("demo-q", false));
        assertThat(plan(f.seed("demo-q"))).isEqualTo(new CreateSeed("demo-q", NAMING.peerUrl("demo-q"), V));
    }

    @Test
    void aDowngradeIsRefused() {
        Step step = plan(running(3, V).version("3.4.23"));
        assertThat(step).isInstanceOfSatisfying(Refuse.class, r -> {
            assertThat(r.reason()).isEqualTo(VersionPolicy.DOWNGRADE);
            assertThat(r.message()).contains("3.5.17", "3.4.23");
        });
    }

    @Test
    void aSkippedMinorIsRefused() {
        assertThat(plan(running(3, "3.4.23").version("3.6.0"))).isInstanceOfSatisfying(Refuse.class,
                r -> assertThat(r.reason()).isEqualTo(VersionPolicy.SKIPPED_MINOR));
    }

    @Test
    void aRefusedVersionStillRepairsAtTheVersionItRuns() {
        ClusterFixture f = running(3, "3.4.23").version("3.6.0").dead("demo-c");
        f.apply(plan(f));
        assertThat(plan(f)).isInstanceOfSatisfying(AddMember.class,
                a -> assertThat(a.version()).isEqualTo("3.4.23"));
    }

    @Test
    void anUpgradeTakesAFollowerFirst() {
        ClusterFixture f = running(3, "3.4.23").version(V).leader("demo-b");
        assertThat(plan(f)).isEqualTo(new UpgradeMember("demo-a", "3.4.23", V));
    }

    @Test
    void anUpgradeTakesTheLeaderLast() {
        ClusterFixture f = running(3, "3.4.23").version(V).podVersion("demo-b", V).podVersion("demo-c", V);
        assertThat(plan(f)).isEqualTo(new UpgradeMember("demo-a", "3.4.23", V));
    }

    @Test
    void anUpgradeWaitsWhileAMemberIsUnhealthy() {
        ClusterFixture f = running(3, "3.4.23").version(V).podVersion("demo-b", V).sick("demo-b");
        assertThat(plan(f)).isInstanceOfSatisfying(Wait.class,
                w -> assertThat(w.reason()).isEqualTo(Wait.MEMBER_NOT_HEALTHY));
    }

    @Test
    void anUpgradeWaitsForALearner() {
        ClusterFixture f = running(3, "3.4.23").version(V).size(4).learner("demo-d", true, 10);
        assertThat(plan(f)).isInstanceOf(Wait.class);
    }

    @Test
    void aPatchChangeIsAnUpgradeToo() {
        assertThat(plan(running(1, "3.5.16").version(V))).isEqualTo(new UpgradeMember("demo-a", "3.5.16", V));
    }

    @Test
    void aMemberWhoseUpgradeImageCannotBeHadWaitsAndSaysWhy() {
        ClusterFixture f = running(3, V).version("3.5.99").podImageUnavailable("demo-a", "3.5.99");
        assertThat(plan(f)).isInstanceOfSatisfying(Wait.class, w -> {
            assertThat(w.reason()).isEqualTo(Wait.MEMBER_STARTING);
            assertThat(w.message()).contains("demo-a", "ImagePullBackOff", "set spec.version");
        });
    }

    @Test
    void aMemberWhoseImageCannotBeHadGetsTheImageSpecVersionAsksForNow() {
        // set back to the version the cluster runs
        ClusterFixture back = running(3, V).podImageUnavailable("demo-a", "3.5.99");
        assertThat(plan(back)).isInstanceOfSatisfying(Step.ResetMemberImage.class, r -> {
            assertThat(r.name()).isEqualTo("demo-a");
            assertThat(r.fromVersion()).isEqualTo("3.5.99");
            assertThat(r.toVersion()).isEqualTo(V);
        });
        // or on to another patch release: an upgrade of that member as any other
        assertThat(plan(running(3, V).version("3.5.18").podImageUnavailable("demo-a", "3.5.99")))
                .isEqualTo(new Step.ResetMemberImage("demo-a", "3.5.99", "3.5.18",
                        "ImagePullBackOff: Back-off pulling image \"quay.io/coreos/etcd:v3.5.99\""));
        // a cluster of one: no member answers, and the pod is still given the image
        assertThat(plan(running(1, V).podImageUnavailable("demo-a", "3.5.99")))
                .isInstanceOf(Step.ResetMemberImage.class);
    }

    /** An upgrade recorded as failed is not tried on the next member while spec.version names it. */
    @Test
    void anUpgradeRecordedAsFailedIsNotTriedAgainUntilSpecVersionChanges() {
        assertThat(plan(running(3, "3.5.35").version("3.6.16").failedUpgrade("3.6.16")))
                .isInstanceOfSatisfying(Step.Refuse.class, r -> {
                    assertThat(r.reason()).isEqualTo(VersionPolicy.UPGRADE_FAILED);
                    assertThat(r.message()).contains("set spec.version to 3.5.35");
                });
        assertThat(plan(running(3, "3.5.35").version("3.6.16").failedUpgrade("3.6.15")))
                .isInstanceOf(UpgradeMember.class);
    }

    /**
     * An upgrade whose new release crash-loops on a member, then spec.version set back: the member gets the version
     * the others run in place, also without quorum (two members, no claims: it cannot be removed, and no other step
     * gives it another image).
     */
    @Test
    void aMemberCrashLoopingOnAnUpgradeSetBackGetsTheVersionTheOthersRunInPlace() {
        // demo-a answers etcd's status call, but without quorum it is not healthy
        ClusterFixture two = running(2, "3.5.35").podVersion("demo-b", "3.6.16").podCrashLooping("demo-b")
                .unhealthy("demo-b").sick("demo-a");
        assertThat(plan(two)).isEqualTo(new Step.ResetMemberImage("demo-b", "3.6.16", "3.5.35",
                "its etcd crash-loops", true));
        assertThat(plan(two.version("3.6.16"))).as("spec still asks for the release that crash-loops")
                .isInstanceOfSatisfying(Step.QuorumLost.class, q -> assertThat(q.recoveryMessage())
                        .contains("demo-b (etcd 3.6.16) crash-loops").contains("set spec.version back to 3.5.35"));

        ClusterFixture three = running(3, "3.5.35").podVersion("demo-a", "3.6.16").podVersion("demo-b", "3.6.16")
                .podCrashLooping("demo-b").unhealthy("demo-b");
        assertThat(plan(three)).as("one member upgraded and healthy: the cluster's version is still 3.5")
                .isInstanceOfSatisfying(Step.ResetMemberImage.class, r -> assertThat(r.toVersion()).isEqualTo("3.5.35"));
        // within a minor, whatever the others run
        assertThat(plan(running(1, V).podVersion("demo-a", "3.5.99").podCrashLooping("demo-a").unhealthy("demo-a")))
                .isInstanceOf(Step.ResetMemberImage.class);
    }

    @Test
    void aMemberCrashLoopingOnALaterMinorIsNotGivenAnEarlierOneWhereItsDataMayBeOfTheLaterMinor() {
        // no member answers: nothing says the cluster's version is still the earlier minor
        assertThat(plan(running(1, "3.5.35").podVersion("demo-a", "3.6.16").podCrashLooping("demo-a")
                .unhealthy("demo-a"))).isNotInstanceOf(Step.ResetMemberImage.class);
        // every member that answers runs the later minor
        assertThat(plan(running(3, "3.5.35").podVersion("demo-a", "3.6.16").podVersion("demo-b", "3.6.16")
                .podVersion("demo-c", "3.6.16").podCrashLooping("demo-b").unhealthy("demo-b")))
                .isNotInstanceOf(Step.ResetMemberImage.class);
        // a downgrade through etcd's API under way, or data of the later minor reported
        ClusterFixture base = running(3, "3.5.35").podVersion("demo-a", "3.6.16").podVersion("demo-b", "3.6.16");
        assertThat(plan(base.podCrashLooping("demo-b").unhealthy("demo-b").downgradeEnabled("3.5.0")))
                .isNotInstanceOf(Step.ResetMemberImage.class);
        ClusterFixture stored = running(3, "3.5.35").podVersion("demo-a", "3.6.16").podVersion("demo-b", "3.6.16")
                .storageVersion("demo-a", "3.6.0").podCrashLooping("demo-b").unhealthy("demo-b");
        assertThat(plan(stored)).isNotInstanceOf(Step.ResetMemberImage.class);
        // a crash-looping member behind the version asked for is upgraded by the rollout's rules, not here
        assertThat(plan(running(3, "3.5.35").version("3.6.16").podCrashLooping("demo-b").unhealthy("demo-b")))
                .isNotInstanceOf(Step.ResetMemberImage.class);
    }

    /**
     * The last member on the earlier version loses its pod while spec.version is set back: it is made again on the
     * version the cluster recorded, not on the later one the pods left all run (which would finish the upgrade being
     * rolled back).
     */
    @Test
    void aMemberWhosePodIsGoneIsMadeAgainOnTheVersionRecordedNotTheLaterOneTheOthersRun() {
        ClusterFixture f = running(3, "3.6.16").persistent().version("3.5.35").current("3.5.35")
                .podGone("demo-c").unhealthy("demo-c");
        assertThat(plan(f)).isInstanceOfSatisfying(CreateMemberPod.class,
                c -> assertThat(c.version()).isEqualTo("3.5.35"));
        assertThat(ClusterPlanner.runningVersion(f.observe())).isEqualTo("3.5.35");
        f.pod("demo-c", true, true, "3.5.35");
        assertThat(ClusterPlanner.runningVersion(f.observe())).isEqualTo("3.5.35");
        assertThat(ClusterPlanner.runningVersion(running(3, "3.6.16").current("3.5.35").observe()))
                .as("every member's version known: the recorded one does not hold it back").isEqualTo("3.6.16");
    }

    @Test
    void aStatusWrittenFromTheUnpullableImageIsNotTakenForWhatTheDataRan() {
        // a cluster of one: status.currentVersion was written from the pod's new image before the kubelet failed it
        assertThat(plan(running(1, V).current("3.5.99").podImageUnavailable("demo-a", "3.5.99")))
                .isEqualTo(new Step.ResetMemberImage("demo-a", "3.5.99", V,
                        "ImagePullBackOff: Back-off pulling image \"quay.io/coreos/etcd:v3.5.99\""));
        // nothing says which minor opened the data: not across minors
        assertThat(plan(running(1, "3.5.35").current("3.6.99").podImageUnavailable("demo-a", "3.6.99")))
                .isNotInstanceOf(Step.ResetMemberImage.class);
    }

    @Test
    void aPullThatFailsForAWhileOnTheVersionTheClusterRunsIsLeftToTheKubelet() {
        // mid-upgrade, a pod still at the version the others run cannot get its image for a while
        assertThat(plan(running(3, V).version("3.5.18").podImageUnavailable("demo-a", V)))
                .isNotInstanceOf(Step.ResetMemberImage.class);
    }

    @Test
    void aDowngradeThroughEtcdsApiIsLeftToItsPlanner() {
        ClusterFixture f = running(3, "3.6.16").version("3.5.35").allowDowngrade().podVersion("demo-b", "3.5.35")
                .podImageUnavailable("demo-a", "3.6.16");
        assertThat(plan(f)).isNotInstanceOf(Step.ResetMemberImage.class);
    }

    @Test
    void aFixedRepositoryGivesThePodTheImageOfTheSameVersionFromIt() {
        assertThat(plan(running(3, V).podImageOfOtherRepositoryUnavailable("demo-a", V)))
                .isInstanceOfSatisfying(Step.ResetMemberImage.class, r -> {
                    assertThat(r.fromVersion()).isEqualTo(V);
                    assertThat(r.toVersion()).isEqualTo(V);
                });
        assertThat(plan(running(3, V).podImageUnavailable("demo-a", V))).as("the same image: the kubelet retries")
                .isNotInstanceOf(Step.ResetMemberImage.class);
    }

    @Test
    void aMemberWhoseImageCannotBeHadIsNeverGivenAnOlderOrRefusedVersion() {
        // below the version the cluster runs: its data may be in a newer format
        assertThat(plan(running(3, V).version("3.5.16").podImageUnavailable("demo-a", "3.5.99")))
                .isNotInstanceOf(Step.ResetMemberImage.class);
        // a version the policy refuses from the one the cluster runs
        assertThat(plan(running(3, "3.4.23").version("3.6.16").podImageUnavailable("demo-a", "3.5.99")))
                .isNotInstanceOf(Step.ResetMemberImage.class);
    }

    @Test
    void aLearnerWhosePodEndedBeforeItJoinedIsMadeAgainNotWaitedForForever() {
        ClusterFixture f = running(3, V).size(4).addedNotStarted("demo-d").podOnly("demo-d", false, true);
        assertThat(plan(f)).isEqualTo(new DeletePod("demo-d", DeletePod.LEARNER_FAILED));
        f.podGone("demo-d");
        assertThat(plan(f)).isInstanceOfSatisfying(Step.CreateMemberPod.class,
                c -> assertThat(c.reason()).isEqualTo(Step.CreateMemberPod.STARTING_ADDED_MEMBER));
        // still starting: waited for
        assertThat(plan(running(3, V).size(4).addedNotStarted("demo-d").podOnly("demo-d", false, false)))
                .isInstanceOf(Wait.class);
    }

    @Test
    void aLearnerWhoseEtcdFailsBeforeItJoinedIsMadeAgainFromTheMemberListAsItIs() {
        // its pod was made with a member list that changed before its etcd started (a dead member removed
        // meanwhile): etcd refuses it on every restart in the pod
        ClusterFixture f = running(3, V).size(4).addedNotStarted("demo-d").podOnly("demo-d", true, false)
                .podCrashLooping("demo-d");
        assertThat(plan(f)).isEqualTo(new DeletePod("demo-d", DeletePod.LEARNER_FAILED));
        f.podGone("demo-d");
        assertThat(plan(f)).isInstanceOfSatisfying(Step.CreateMemberPod.class,
                c -> assertThat(c.reason()).isEqualTo(Step.CreateMemberPod.STARTING_ADDED_MEMBER));
    }

    @Test
    void pausedIsPausedWhateverElse() {
        assertThat(plan(fresh(3, V).paused())).isEqualTo(new Paused());
        assertThat(plan(running(3, V).dead("demo-b").dead("demo-c").paused())).isEqualTo(new Paused());
        assertThat(plan(running(3, V).version("3.4.0").paused())).isEqualTo(new Paused());
    }

    @Test
    void aConvergedClusterNeedsNothing() {
        assertThat(plan(running(3, V))).isEqualTo(new Nothing());
        assertThat(plan(running(1, V).persistent())).isEqualTo(new Nothing());
    }

    /** Returns 0 on every draw until asked 11 times, then 1: two draws of ten give the same name. */
    private static final class SameThenOther implements java.util.random.RandomGenerator {
        private int calls;

        @Override
        public long nextLong() {
            return 0;
        }

        @Override
        public int nextInt(int bound) {
            return calls++ < 10 ? 0 : 1;
        }
    }
}
