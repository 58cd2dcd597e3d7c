package dev.etcdoperator.core.cluster;

import static dev.etcdoperator.core.cluster.ClusterFixture.fresh;
import static dev.etcdoperator.core.cluster.ClusterFixture.running;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Random;

import dev.etcdoperator.api.v1beta2.Condition;
import dev.etcdoperator.api.v1beta2.EtcdClusterStatus;
import dev.etcdoperator.api.v1beta2.QuorumRecoveryStatus;
import dev.etcdoperator.api.v1beta2.MemberDetail;
import dev.etcdoperator.core.status.Conditions;
import org.junit.jupiter.api.Test;

class ClusterStatusBuilderTest {
    private static final String V = "3.5.17";
    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    private final ClusterPlanner planner = new ClusterPlanner(new Random(5));

    private static ClusterStatusBuilder at(Instant t) {
        return new ClusterStatusBuilder(Clock.fixed(t, ZoneOffset.UTC));
    }

    /** Plans the fixture and writes status, as a reconcile would. */
    private EtcdClusterStatus report(EtcdClusterStatus status, ClusterFixture f) {
        ClusterObservation o = f.observe();
        return at(T0).apply(status, o, planner.plan(o), 1L);
    }

    private EtcdClusterStatus report(ClusterFixture f) {
        return report(new EtcdClusterStatus(), f);
    }

    private static Condition condition(EtcdClusterStatus s, String type) {
        return Conditions.find(s.getConditions(), type).orElseThrow();
    }

    private static void assertCondition(EtcdClusterStatus s, String type, String status, String reason,
            String... messageParts) {
        Condition c = condition(s, type);
        assertThat(c.getStatus()).as(type + " " + c.getMessage()).isEqualTo(status);
        assertThat(c.getReason()).as(type + " " + c.getMessage()).isEqualTo(reason);
        assertThat(c.getMessage()).isNotBlank();
        if (messageParts.length > 0) {
            assertThat(c.getMessage()).contains(messageParts);
        }
    }

    @Test
    void aFreshClusterIsCreatingItsSeed() {
        EtcdClusterStatus s = report(fresh(2, V));
        assertThat(s.getSeedMember()).as("recorded before the seed's pod exists").matches("demo-[a-z0-9]{10}");
        assertThat(s.getPhase()).isEqualTo("Creating");
        assertThat(s.getSize()).isZero();
        assertThat(s.getReadyMembers()).isZero();
        assertThat(s.getServiceName()).isEqualTo("demo-client");
        assertThat(s.getClientPort()).isEqualTo(2379);
        assertThat(s.getControlPaused()).isFalse();
        assertThat(s.getCurrentVersion()).isNull();
        assertThat(s.getTargetVersion()).isNull();
        assertThat(s.getObservedGeneration()).isEqualTo(1L);
        assertCondition(s, "Available", "False", "NoMembers");
        assertCondition(s, "Scaling", "True", "ChoosingSeedMember", "Choosing " + s.getSeedMember()
                + " as the first member", "has 0 members; spec.size asks for 2");
        report(s, fresh(2, V).seed(s.getSeedMember()));
        assertCondition(s, "Scaling", "True", "CreatingSeedMember", "Creating the first member "
                + s.getSeedMember(), "has 0 members; spec.size asks for 2");
        assertCondition(s, "Recovering", "False", "NoFailedMembers");
        assertCondition(s, "Upgrading", "False", "NoMembers");
        assertThat(s.getConditions()).allSatisfy(c -> assertThat(c.getLastTransitionTime()).isEqualTo(
                "2026-01-01T00:00:00Z"));
    }

    @Test
    void aMemberListThatMayBeOneMembersOwnClusterIsNotReportedAvailable() {
        EtcdClusterStatus s = report(ClusterFixture.running(3, V).listedByAlone("demo-a"));
        assertCondition(s, "Available", "False", Step.Wait.MEMBER_LIST_PARTIAL, "demo-b", "demo-c");
        assertCondition(s, "Recovering", "True", Step.Wait.MEMBER_LIST_PARTIAL);

        EtcdClusterStatus paused = report(ClusterFixture.running(3, V).listedByAlone("demo-a").paused());
        assertCondition(paused, "Available", "False", Step.Wait.MEMBER_LIST_PARTIAL, "demo-b", "demo-c");

        EtcdClusterStatus split = report(ClusterFixture.running(3, V).splitOff("demo-a").leader("demo-b"));
        assertCondition(split, "Recovering", "True", Step.DeletePod.SPLIT_OFF, "demo-a", "new cluster of its own");
        assertCondition(split, "Available", "True", "QuorumHealthy", "2 of 3");
    }

    /** A restored cluster's seed that its restore named: created without a RecordSeed first, recorded when created. */
    @Test
    void aSeedCreatedBeforeTheStatusRecordedItIsRecordedThen() {
        EtcdClusterStatus s = new EtcdClusterStatus();
        report(s, fresh(1, V).seed("demo-staged0001"));
        assertThat(s.getSeedMember()).isEqualTo("demo-staged0001");
        assertCondition(s, "Scaling", "True", "CreatingSeedMember", "demo-staged0001");
    }

    @Test
    void aFreshClusterOfThreeIsCreatingItsFirstMembersTogether() {
        EtcdClusterStatus s = report(fresh(3, V));
        assertThat(s.getInitialMembers()).as("recorded before their pods exist").hasSize(3)
                .allMatch(n -> n.matches("demo-[a-z0-9]{10}"));
        assertThat(s.getSeedMember()).as("where a CRD from before initialMembers drops it, the cluster starts from"
                + " this seed").isEqualTo(s.getInitialMembers().get(0));
        assertThat(s.getPhase()).isEqualTo("Creating");
        assertCondition(s, "Scaling", "True", "ChoosingInitialMembers", "Choosing " + String.join(", ",
                s.getInitialMembers()) + " as the first members", "spec.size asks for 3");
        report(s, fresh(3, V).initialMembers(s.getInitialMembers()));
        assertCondition(s, "Scaling", "True", "CreatingInitialMembers", "Creating the first members "
                + String.join(", ", s.getInitialMembers()));
        assertCondition(s, "Available", "False", "NoMembers");

        List<String> first = List.of("demo-a", "demo-b", "demo-c");
        report(s, running(3, V).current(null).initialMembers(first).firstMemberStarting("demo-c")
                .firstMemberStarting("demo-b"));
        assertCondition(s, "Available", "False", "MembersStarting", "demo-b, demo-c");
        assertThat(s.getPhase()).isEqualTo("Creating");
        report(s, running(3, V).initialMembers(first).firstMemberStarting("demo-c"));
        assertCondition(s, "Available", "True", "QuorumHealthy");
        assertThat(s.getInitialMembers()).as("forgotten once they had a quorum").isNull();

        // a person's reseed of a cluster that lost every member starts one seed: the first members are forgotten
        report(s, running(3, V).initialMembers(first).podGone("demo-a")
                .podGone("demo-b").podGone("demo-c").noAnswer().reseedRequested());
        assertThat(s.getSeedMember()).matches("demo-[a-z0-9]{10}");
        assertThat(s.getInitialMembers()).isNull();
    }

    @Test
    void aConvergedClusterIsRunningWithDetails() {
        ClusterFixture f = running(3, V);
        EtcdClusterStatus s = report(f);
        assertThat(s.getPhase()).isEqualTo("Running");
        assertThat(s.getReason()).isNull();
        assertThat(s.getSize()).isEqualTo(3);
        assertThat(s.getReadyMembers()).isEqualTo(3);
        assertThat(s.getMembers().getReady()).containsExactly("demo-a", "demo-b", "demo-c");
        assertThat(s.getMembers().getUnready()).isEmpty();
        assertThat(s.getCurrentVersion()).isEqualTo(V);
        assertThat(s.getTargetVersion()).isNull();
        assertCondition(s, "Available", "True", "QuorumHealthy", "3 of 3", "the leader is demo-a");
        assertCondition(s, "Scaling", "False", "SizeReached", "3 members");
        assertCondition(s, "Recovering", "False", "NoFailedMembers");
        assertCondition(s, "Upgrading", "False", "VersionReached", V);
        assertThat(s.getMemberDetails()).hasSize(3);
        MemberDetail a = s.getMemberDetails().get(0);
        assertThat(a.getName()).isEqualTo("demo-a");
        assertThat(a.getId()).isEqualTo(Long.toHexString(f.id("demo-a")));
        assertThat(a.getPeerURL()).isEqualTo("http://demo-a.demo.prod.svc:2380");
        assertThat(a.getClientURL()).isEqualTo("http://demo-a.demo.prod.svc:2379");
        assertThat(a.getHealthy()).isTrue();
        assertThat(a.getLeader()).isTrue();
        assertThat(a.getLearner()).isFalse();
        assertThat(a.getVersion()).isEqualTo(V);
        assertThat(s.getMemberDetails().get(1).getLeader()).isFalse();
    }

    @Test
    void creatingLastsUntilAllMembersAreFirstReadyThenRunningStays() {
        EtcdClusterStatus s = report(running(1, V).size(3));
        assertThat(s.getPhase()).isEqualTo("Creating");
        assertCondition(s, "Scaling", "True", "AddingMember", "has 1 member;");
        assertCondition(s, "Available", "True", "QuorumHealthy", "1 of 1");

        report(s, running(1, V).size(3).learner("demo-b", true, 100));
        assertThat(s.getPhase()).isEqualTo("Creating");
        assertCondition(s, "Scaling", "True", "LearnerCatchingUp", "demo-b", "has 2 members");
        assertThat(s.getMemberDetails().get(1).getLearner()).isTrue();

        report(s, running(3, V));
        assertThat(s.getPhase()).isEqualTo("Running");

        // scaling up later, or a member starting, does not make it Creating again
        report(s, running(3, V).size(5));
        assertThat(s.getPhase()).isEqualTo("Running");
        assertCondition(s, "Scaling", "True", "AddingMember", "has 3 members; spec.size asks for 5");
    }

    @Test
    void scalingDownSaysWhichMemberGoes() {
        EtcdClusterStatus s = report(running(3, V).size(2));
        assertCondition(s, "Scaling", "True", "RemovingMember", "demo-b", "has 3 members; spec.size asks for 2");
    }

    @Test
    void replacingAMemberWhosePodRunsOnceSaysWhyTheClusterIsOverItsSize() {
        ClusterFixture f = running(1, V).runsOnce("demo-a");
        assertCondition(report(f), "Scaling", "True", "AddingMember", "to replace member demo-a",
                "has 1 member; spec.size asks for 1, and one more while member demo-a, whose pod does not start etcd"
                        + " again when it ends, is replaced");
        f.apply(planner.plan(f.observe()));
        f.apply(planner.plan(f.observe()));
        EtcdClusterStatus moving = report(f);
        assertCondition(moving, "Scaling", "True", "RunOncePodReplaced", "Moving the leadership from member demo-a",
                "has 2 members; spec.size asks for 1, and one more while member demo-a");
        assertThat(moving.getSize()).isEqualTo(2);
        f.apply(planner.plan(f.observe()));
        assertCondition(report(f), "Scaling", "True", "RunOncePodReplaced", "Removing member demo-a");
    }

    /**
     * Every member lost, policy FromBackup: still reported as every member lost (a reseed may be asked for), with the
     * loss dated, so that the grace period counts, and the recovery's wait said.
     */
    @Test
    void everyMemberLostUnderFromBackupIsDatedAndStaysAllMembersLost() {
        ClusterFixture lost = running(3, V).now(T0);
        lost.memberNames().forEach(lost::podGone);
        lost.settle().quorumLoss(new QuorumLoss(QuorumLoss.FROM_BACKUP, java.time.Duration.ofSeconds(60), null, null,
                "uid-demo", false, null, null));
        EtcdClusterStatus s = report(lost);
        assertThat(s.getReason()).isEqualTo(ClusterStatusBuilder.REASON_ALL_MEMBERS_LOST);
        assertThat(s.getQuorumLostSince()).isEqualTo(T0.toString());
        assertCondition(s, "QuorumRecovery", "False", QuorumRecoveryPlanner.GRACE_PERIOD, "grace period of 60 s",
                "newest backup");
        assertCondition(s, "Available", "False", ClusterStatusBuilder.REASON_ALL_MEMBERS_LOST, "Every member");
    }

    @Test
    void aLostQuorumIsDatedOnceAndTheDateStaysUntilAMajorityIsBack() {
        ClusterFixture lost = running(3, V).podStopped("demo-a").podStopped("demo-b").unhealthy("demo-a")
                .unhealthy("demo-b").survivor("demo-c", 950, 480).now(T0);
        EtcdClusterStatus s = report(lost);
        assertThat(s.getQuorumLostSince()).isEqualTo(T0.toString());
        assertCondition(s, "QuorumRecovery", "False", QuorumRecoveryPlanner.GRACE_PERIOD, "demo-a, demo-b",
                "grace period of 60 s");
        report(s, lost.now(T0.plusSeconds(30)));
        assertThat(s.getQuorumLostSince()).as("kept, so that the grace period survives restarts")
                .isEqualTo(T0.toString());
        assertThat(s.getQuorumLostVoters()).as("the voters the member list gave while quorum was lost")
                .containsExactly("demo-a", "demo-b", "demo-c");
        report(s, running(3, V).podStopped("demo-a").podStopped("demo-b").noAnswer().now(T0.plusSeconds(40)));
        assertThat(s.getQuorumLostVoters()).as("kept while no member answers")
                .containsExactly("demo-a", "demo-b", "demo-c");
        report(s, running(3, V));
        assertThat(s.getQuorumLostSince()).isNull();
        assertThat(s.getQuorumLostVoters()).isNull();
        assertCondition(s, "QuorumRecovery", "False", "QuorumHealthy");
        assertThat(report(running(3, V)).getConditions()).as("no condition before quorum was ever lost")
                .extracting(Condition::getType).doesNotContain("QuorumRecovery");
    }

    @Test
    void aRecoveryFromTheSurvivorIsRecordedAndClearedOnceItsMemberAnswers() {
        Instant since = T0.minusSeconds(120);
        ClusterFixture lost = running(3, V).podStopped("demo-a").podStopped("demo-b").unhealthy("demo-a")
                .unhealthy("demo-b").survivor("demo-c", 950, 480).now(T0).quorumLoss(new QuorumLoss(
                        QuorumLoss.FROM_SURVIVOR, java.time.Duration.ofSeconds(60), since, null, "u", false, null,
                        null));
        EtcdClusterStatus s = new EtcdClusterStatus();
        s.setQuorumLostSince(since.toString());
        report(s, lost);
        assertThat(s.getQuorumRecovery()).isNotNull().satisfies(r -> {
            assertThat(r.getSurvivor()).isEqualTo("demo-c");
            assertThat(r.getMember()).matches("demo-[a-z0-9]{10}");
            assertThat(r.getRevision()).isEqualTo(480);
            assertThat(r.getRaftIndex()).isEqualTo(950);
            assertThat(r.getStartedAt()).isEqualTo(T0.toString());
        });
        assertCondition(s, "QuorumRecovery", "True", QuorumRecoveryPlanner.RECOVERING_FROM_SURVIVOR,
                "Survivor demo-c has the newest data");
        assertCondition(s, "Recovering", "True", "RecoveringQuorum");

        String member = s.getQuorumRecovery().getMember();
        QuorumLoss.Recovery recovery = new QuorumLoss.Recovery("demo-c", member, 480, 950, null);
        ClusterFixture back = running(3, V).podGone("demo-a").podGone("demo-b").podGone("demo-c")
                .oneMemberCluster(member).now(T0).quorumLoss(new QuorumLoss(QuorumLoss.FROM_SURVIVOR,
                        java.time.Duration.ofSeconds(60), since, null, "u", false, recovery, null));
        report(s, back);
        assertThat(s.getQuorumRecovery()).isNull();
        assertThat(s.getQuorumLostSince()).isNull();
        assertCondition(s, "QuorumRecovery", "False", QuorumRecoveryPlanner.RECOVERED, "Recovered from survivor"
                + " demo-c (revision 480, raft index 950): member " + member, "Writes that only the lost members had");
    }

    @Test
    void aRecoveryFromTheSurvivorsClaimIsRecordedAsSuchAndEndsOnceTheOldClaimsAreGone() {
        Instant since = T0.minusSeconds(120);
        ClusterFixture lost = running(3, V).persistent().podGone("demo-a").podGone("demo-b").withoutClaim("demo-a")
                .withoutClaim("demo-b").noAnswer().now(T0).quorumLoss(new QuorumLoss(QuorumLoss.FROM_SURVIVOR,
                        java.time.Duration.ofSeconds(60), since, null, "u", false, null, null,
                        List.of("demo-a", "demo-b", "demo-c")));
        EtcdClusterStatus s = new EtcdClusterStatus();
        s.setQuorumLostSince(since.toString());
        report(s, lost);
        assertThat(s.getQuorumRecovery()).isNotNull().satisfies(r -> {
            assertThat(r.getSurvivor()).isEqualTo("demo-c");
            assertThat(r.getFromClaim()).isTrue();
            assertThat(r.getRevision()).isZero();
        });
        assertCondition(s, "QuorumRecovery", "True", QuorumRecoveryPlanner.RECOVERING_FROM_SURVIVOR,
                "Recovering from survivor demo-c's claim");

        String member = s.getQuorumRecovery().getMember();
        QuorumLoss.Recovery recovery = QuorumLoss.Recovery.fromClaim("demo-c", member).answeredAt(7);
        ClusterFixture running = running(3, V).persistent().podGone("demo-a").podGone("demo-b").podGone("demo-c")
                .withoutClaim("demo-a").withoutClaim("demo-b").claim(member).oneMemberCluster(member).now(T0)
                .quorumLoss(new QuorumLoss(QuorumLoss.FROM_SURVIVOR, java.time.Duration.ofSeconds(60), since, null,
                        "u", false, recovery, null));
        report(s, running.survivorClaimMounted(member));
        assertThat(s.getQuorumRecovery()).as("the survivor's claim is still there").isNotNull();
        report(s, running.withoutClaim("demo-c"));
        assertThat(s.getQuorumRecovery()).as("its pod still mounts the survivor's claim").isNotNull();
        report(s, running.oneMemberCluster(member));
        assertThat(s.getQuorumRecovery()).isNull();
        assertCondition(s, "QuorumRecovery", "False", QuorumRecoveryPlanner.RECOVERED, "Recovered from the database"
                + " on survivor demo-c's claim: member " + member);
    }

    @Test
    void eachFailedPodOfTheRecoveryMemberThatIsDeletedIsCounted() {
        EtcdClusterStatus s = new EtcdClusterStatus();
        QuorumRecoveryStatus record = new QuorumRecoveryStatus();
        record.setSurvivor("demo-c");
        record.setMember("demo-r");
        s.setQuorumRecovery(record);
        QuorumRecoveryReport.countFailedCopy(s, new Step.DeletePod("demo-r", Step.DeletePod.RECOVERY_MEMBER_FAILED));
        QuorumRecoveryReport.countFailedCopy(s, new Step.DeletePod("demo-r", Step.DeletePod.RECOVERY_MEMBER_FAILED));
        QuorumRecoveryReport.countFailedCopy(s, new Step.DeletePod("demo-r", Step.DeletePod.POD_STOPPED));
        QuorumRecoveryReport.countFailedCopy(s, new Step.DeletePod("demo-x", Step.DeletePod.RECOVERY_MEMBER_FAILED));
        assertThat(record.getFailedCopies()).isEqualTo(2);
        // a deletion that failed is retried, not counted
        ClusterFixture lost = running(3, V).podStopped("demo-a").podStopped("demo-b").unhealthy("demo-a")
                .unhealthy("demo-b").survivor("demo-c", 950, 480).now(T0);
        at(T0).apply(s, lost.observe(), new Step.DeletePod("demo-r",
                Step.DeletePod.RECOVERY_MEMBER_FAILED), 1L, false);
        assertThat(record.getFailedCopies()).isEqualTo(2);
        at(T0).apply(s, lost.observe(), new Step.DeletePod("demo-r",
                Step.DeletePod.RECOVERY_MEMBER_FAILED), 1L, true);
        assertThat(record.getFailedCopies()).isEqualTo(3);
    }

    @Test
    void lostQuorumFailsTheClusterUntilItIsBack() {
        EtcdClusterStatus s = report(running(3, V).dead("demo-b").dead("demo-c"));
        assertThat(s.getPhase()).isEqualTo("Failed");
        assertThat(s.getReason()).isEqualTo("QuorumLost");
        assertCondition(s, "Available", "False", "QuorumLost", "1 of 3", "backup");
        assertCondition(s, "Recovering", "False", "QuorumLost", "majority");
        assertCondition(s, "Scaling", "False", "QuorumLost");
        assertCondition(s, "Upgrading", "False", "QuorumLost");
        assertThat(s.getMembers().getReady()).containsExactly("demo-a");

        report(s, running(3, V));
        assertThat(s.getPhase()).isEqualTo("Running");
        assertThat(s.getReason()).isNull();
        assertCondition(s, "Available", "True", "QuorumHealthy");
    }

    @Test
    void aClusterThatLostEveryMemberFailsWithAReasonOfItsOwnUntilAPersonActs() {
        EtcdClusterStatus s = report(running(3, V));
        ClusterFixture lost = running(3, V);
        lost.memberNames().forEach(lost::podGone);
        report(s, lost.settle());
        assertThat(s.getPhase()).isEqualTo("Failed");
        assertThat(s.getReason()).isEqualTo("AllMembersLost");
        assertThat(s.getCurrentVersion()).as("what it ran is kept").isEqualTo(V);
        assertCondition(s, "Available", "False", "AllMembersLost", "data is gone", "EtcdRestore",
                "etcd.database.coreos.com/reseed=");
        assertCondition(s, "Recovering", "False", "AllMembersLost");
        assertCondition(s, "Scaling", "False", "AllMembersLost");
        assertCondition(s, "Upgrading", "False", "AllMembersLost");

        // a person asks for a new, empty cluster: it is Creating again, from a new seed, and has not run
        s.setLastSurvivorRecoveryDate("2025-12-01T00:00:00Z");
        java.util.List<dev.etcdoperator.api.v1beta2.Condition> withRestore = new java.util.ArrayList<>(s.getConditions());
        withRestore.add(new dev.etcdoperator.api.v1beta2.Condition("RestoreSnapshot", "True", "RestoreSnapshotConfirmed",
                "The seed member restores the snapshot"));
        s.setConditions(withRestore);
        report(s, lost.reseedRequested());
        assertThat(s.getLastSurvivorRecoveryDate()).as("the new cluster is not the recovered one").isNull();
        assertCondition(s, "RestoreSnapshot", "False", "RestoreSnapshotSuperseded", "reseed");
        assertThat(s.getPhase()).isEqualTo("Creating");
        assertThat(s.getReason()).isNull();
        assertThat(s.getCurrentVersion()).isNull();
        assertThat(s.getSeedMember()).isNotEqualTo("demo-a").matches("demo-[a-z0-9]{10}");
        assertCondition(s, "Scaling", "True", "Reseeding", s.getSeedMember(), "empty");
    }

    /** A recovery from a survivor makes a new etcd cluster: when it began is kept for the cluster's backups. */
    @Test
    void aRecoveryFromASurvivorIsDatedForTheBackupsOfTheCluster() {
        ClusterFixture f = running(3, V).dead("demo-b").dead("demo-c");
        EtcdClusterStatus s = at(T0).apply(new EtcdClusterStatus(), f.observe(),
                new Step.RecordQuorumRecovery("demo-a", "demo-x", 10, 20, false, "recovering"), 1L);
        assertThat(s.getLastSurvivorRecoveryDate()).isEqualTo(T0.toString());
        assertThat(s.getQuorumRecovery().getStartedAt()).isEqualTo(T0.toString());
    }

    /** What is done without a quorum (members made again on their claims) does not say the cluster runs again. */
    @Test
    void aClusterThatLostItsQuorumStaysFailedUntilAMajorityIsBack() {
        ClusterFixture f = running(3, V).persistent();
        EtcdClusterStatus s = report(f);
        f.unhealthy("demo-a").unhealthy("demo-b").unhealthy("demo-c");
        report(s, f);
        assertThat(s.getPhase()).isEqualTo("Failed");
        assertThat(s.getReason()).isEqualTo("QuorumLost");
        f.podGone("demo-a").podGone("demo-b").podGone("demo-c");
        report(s, f);
        assertThat(s.getPhase()).as("pods made again on their claims, none answering yet").isEqualTo("Failed");
        assertThat(s.getReason()).isEqualTo("QuorumLost");
        report(s, running(3, V).persistent());
        assertThat(s.getPhase()).isEqualTo("Running");
        assertThat(s.getReason()).isNull();
    }

    /** A lost quorum's condition said members might come back; once every member is lost it says so instead. */
    @Test
    void theQuorumRecoveryConditionFollowsTheLossOfEveryMember() {
        ClusterFixture f = running(3, V);
        EtcdClusterStatus s = report(f);
        f.unhealthy("demo-a").unhealthy("demo-b").unhealthy("demo-c");
        report(s, f);
        assertThat(s.getConditions()).anySatisfy(c -> assertThat(c.getType()).isEqualTo("QuorumRecovery"));
        assertThat(Conditions.find(s.getConditions(), "QuorumRecovery").orElseThrow().getReason())
                .isNotEqualTo("AllMembersLost");
        ClusterFixture lost = running(3, V);
        lost.memberNames().forEach(lost::podGone);
        report(s, lost.settle());
        assertThat(s.getReason()).isEqualTo("AllMembersLost");
        assertCondition(s, "QuorumRecovery", "False", "AllMembersLost", "No member is left");
    }

    @Test
    void aPodTerminatingPastTheBoundIsReportedForAPersonWhateverElseGoesOn() {
        ClusterFixture f = running(5, V).persistent().podTerminatingSince("demo-b", T0).unhealthy("demo-b").size(6);
        EtcdClusterStatus s = report(f.now(T0.plusSeconds(60)));
        assertCondition(s, "Scaling", "True", "AddingMember");
        assertCondition(s, "Recovering", "False", "NoFailedMembers");

        report(s, f.now(T0.plus(ClusterPlanner.STUCK_AFTER).plusSeconds(1)));
        assertCondition(s, "Scaling", "True", "AddingMember");
        assertCondition(s, "Recovering", "True", "PodStuckTerminating", "demo-b", "2026-01-01T00:00:00Z",
                "recreated on its claim demo-b", "kubectl delete pod -n prod --grace-period=0 --force demo-b");

        // without claims the member is replaced, and the pod object that lingers is reported the same way
        ClusterFixture plain = running(3, V).podTerminatingSince("demo-b", T0).unhealthy("demo-b");
        plain.apply(planner.plan(plain.observe()));
        EtcdClusterStatus p = report(plain.now(T0.plusSeconds(3600)));
        assertCondition(p, "Recovering", "True", "PodStuckTerminating", "replaced");
    }

    @Test
    void aLostQuorumWithPodsStuckTerminatingSaysHowToLetThemGo() {
        // two of three on lost nodes, without claims: never lost for good while their pods terminate
        ClusterFixture f = running(3, V).podTerminatingSince("demo-a", T0).podTerminatingSince("demo-b", T0)
                .unhealthy("demo-a").unhealthy("demo-b").unhealthy("demo-c");
        EtcdClusterStatus s = report(f.now(T0.plus(ClusterPlanner.STUCK_AFTER).plusSeconds(1)));
        assertThat(s.getReason()).isEqualTo("QuorumLost");
        assertCondition(s, "Recovering", "False", "QuorumLost", "waits for a majority",
                "kubectl delete pod -n prod --grace-period=0 --force demo-a demo-b");
    }

    @Test
    void anInvalidSpecReasonIsLeftToTheReconciler() {
        EtcdClusterStatus s = new EtcdClusterStatus();
        s.setReason("InvalidSpec");
        report(s, running(3, V));
        assertThat(s.getReason()).isEqualTo("InvalidSpec");
    }

    @Test
    void aDeadMemberIsReportedAsRecovering() {
        EtcdClusterStatus s = report(running(3, V).dead("demo-c"));
        assertCondition(s, "Recovering", "True", "ReplacingDeadMember", "demo-c");
        assertCondition(s, "Available", "True", "QuorumHealthy", "2 of 3");
        assertThat(s.getMemberDetails()).filteredOn(d -> "demo-c".equals(d.getName()))
                .singleElement().satisfies(d -> assertThat(d.getHealthy()).isFalse());
    }

    @Test
    void aPersistentMemberBeingRecreatedIsRecovering() {
        EtcdClusterStatus s = report(running(3, V).persistent().dead("demo-b"));
        assertCondition(s, "Recovering", "True", "RecreatingMemberPod", "demo-b");
    }

    @Test
    void aStrayPodIsRecovering() {
        EtcdClusterStatus s = report(running(3, V).pod("demo-x", true, false, V));
        assertCondition(s, "Recovering", "True", "DeletingStrayPod", "demo-x");
        assertThat(s.getMembers().getUnready()).containsExactly("demo-x");
    }

    @Test
    void anUpgradeInProgressShowsItsTarget() {
        EtcdClusterStatus s = report(running(3, "3.4.23").version(V));
        assertCondition(s, "Upgrading", "True", "UpgradingMember", "demo-b from 3.4.23 to 3.5.17", "0 of 3");
        assertThat(s.getTargetVersion()).isEqualTo(V);
        assertThat(s.getCurrentVersion()).isEqualTo("3.4.23");
    }

    /** A member whose pod is gone has no known version: no upgrade is said to wait on it when none was asked. */
    @Test
    void aMemberWithoutAPodIsNoUpgradeWaiting() {
        EtcdClusterStatus s = report(running(3, V).persistent().podGone("demo-b").unhealthy("demo-b"));
        assertThat(Conditions.find(s.getConditions(), "Upgrading").orElseThrow().getStatus()).isEqualTo("False");
        assertThat(s.getTargetVersion()).isNull();
    }

    @Test
    void anUpgradeOnHoldSaysWhy() {
        EtcdClusterStatus s = report(running(3, "3.4.23").version(V).podVersion("demo-b", V).sick("demo-b"));
        assertCondition(s, "Upgrading", "True", "UpgradeOnHold", "1 of 3", "demo-b to become healthy");
        assertCondition(s, "Recovering", "True", "MemberNotHealthy", "demo-b");
        assertThat(s.getTargetVersion()).isEqualTo(V);
        assertThat(s.getCurrentVersion()).isEqualTo("3.4.23");
    }

    @Test
    void aMemberThatKeepsFailingOnItsClaimIsReportedAsReplaced() {
        EtcdClusterStatus s = report(running(3, V).persistent().podCrashLooping("demo-b").unhealthy("demo-b")
                .keepsFailing("demo-b"));
        assertCondition(s, "Recovering", "True", "ReplacingFailingMember", "demo-b", "failed again in each");
        assertCondition(s, "Available", "True", "QuorumHealthy", "2 of 3");
    }

    @Test
    void aListThatNamesNoLeaderIsReportedAsRecovering() {
        ClusterFixture f = running(3, V).persistent();
        f.apply(new Step.RemoveMember(f.id("demo-c"), "demo-c", Step.RemoveMember.SCALE_DOWN));
        f.claim("demo-c").pod("demo-c", true, true, V).answers("demo-a", false).answers("demo-b", false);
        assertCondition(report(f), "Recovering", "True", "LeaderNotListed", "demo-c", "not the leader's");
    }

    @Test
    void aRefusedVersionIsReportedAndTheOldVersionKept() {
        EtcdClusterStatus s = report(running(3, V).version("3.4.23"));
        assertCondition(s, "Upgrading", "False", "Downgrade", "3.5.17", "3.4.23");
        assertThat(s.getTargetVersion()).isNull();
        assertThat(s.getCurrentVersion()).isEqualTo(V);
        assertThat(s.getPhase()).isEqualTo("Running");

        // still reported while the planner is busy with something else
        EtcdClusterStatus busy = report(running(3, "3.4.23").version("3.6.0").dead("demo-c"));
        assertCondition(busy, "Upgrading", "False", "SkippedMinorVersion", "3.5");
        assertCondition(busy, "Recovering", "True", "ReplacingDeadMember");
    }

    /**
     * An upgrade whose new release fails on the first member given it: the member is taken out (replaced without
     * claims, made again at the running version on its claim), the version is recorded as failed, and the rollout
     * says so instead of upgrading the next member into the same failure.
     */
    @Test
    void anUpgradeWhoseReleaseFailsOnAMemberIsRecordedAsFailed() {
        EtcdClusterStatus replaced = report(running(3, "3.5.35").version("3.6.16").podVersion("demo-b", "3.6.16")
                .podCrashLooping("demo-b").unhealthy("demo-b"));
        assertThat(replaced.getFailedUpgradeVersion()).isEqualTo("3.6.16");
        assertCondition(replaced, "Upgrading", "False", VersionPolicy.UPGRADE_FAILED, "kubectl logs");

        EtcdClusterStatus onClaims = report(running(3, "3.5.35").persistent().version("3.6.16")
                .podVersion("demo-b", "3.6.16").podCrashLooping("demo-b").unhealthy("demo-b"));
        assertThat(onClaims.getFailedUpgradeVersion()).isEqualTo("3.6.16");

        EtcdClusterStatus after = report(replaced, running(3, "3.5.35").version("3.6.16").failedUpgrade("3.6.16"));
        assertThat(after.getFailedUpgradeVersion()).as("kept while spec.version names it").isEqualTo("3.6.16");
        assertCondition(after, "Upgrading", "False", VersionPolicy.UPGRADE_FAILED);
        EtcdClusterStatus back = report(after, running(3, "3.5.35").failedUpgrade("3.6.16"));
        assertThat(back.getFailedUpgradeVersion()).as("spec.version set back").isNull();

        // a member of a new cluster failing on the only version it ever ran is no failed upgrade
        EtcdClusterStatus fresh = report(running(3, "3.6.16").podCrashLooping("demo-b").unhealthy("demo-b"));
        assertThat(fresh.getFailedUpgradeVersion()).isNull();

        // nor is a member that ran well on the new release before it failed (an OOM kill, say)
        EtcdClusterStatus ranWell = report(running(3, "3.5.35").version("3.6.16").podVersion("demo-b", "3.6.16"));
        assertThat(ranWell.getMemberDetails()).anySatisfy(d -> {
            assertThat(d.getName()).isEqualTo("demo-b");
            assertThat(d.getHealthy()).isTrue();
            assertThat(d.getVersion()).isEqualTo("3.6.16");
        });
        EtcdClusterStatus later = report(ranWell, running(3, "3.5.35").version("3.6.16")
                .podVersion("demo-b", "3.6.16").podCrashLooping("demo-b").unhealthy("demo-b"));
        assertThat(later.getFailedUpgradeVersion()).isNull();

        // nor a pod that ended (evicted, its node shut down)
        EtcdClusterStatus evicted = report(running(3, "3.5.35").version("3.6.16").podVersion("demo-b", "3.6.16")
                .podStopped("demo-b").unhealthy("demo-b"));
        assertThat(evicted.getFailedUpgradeVersion()).isNull();
    }

    /**
     * On claims, the last member given the release crash-loops on it: every pod then has the release's image, but
     * the cluster never ran it. The recorded version stays what the members reported, the failure is recorded, and
     * the member is made again on its claim at the version it ran, not on the failing release for ever.
     */
    @Test
    void theLastMemberOfARolloutFailingOnTheReleaseIsRecordedAndMadeAgainAtTheVersionItRan() {
        ClusterFixture f = running(3, "3.5.35").persistent().version("3.6.16");
        for (String member : List.of("demo-b", "demo-c", "demo-a")) {
            f.podVersion(member, "3.6.16");
        }
        EtcdClusterStatus before = report(f.podStarting("demo-a").unhealthy("demo-a"));
        assertThat(before.getCurrentVersion()).as("demo-a has not told its version yet").isEqualTo("3.5.35");

        f.podCrashLooping("demo-a").current(before.getCurrentVersion());
        ClusterObservation o = f.observe();
        Step step = planner.plan(o);
        assertThat(step).isEqualTo(new Step.DeletePod("demo-a", Step.DeletePod.POD_STOPPED));
        EtcdClusterStatus failed = at(T0).apply(before, o, step, 1L);
        assertThat(failed.getFailedUpgradeVersion()).isEqualTo("3.6.16");
        assertCondition(failed, "Upgrading", "False", VersionPolicy.UPGRADE_FAILED, "set spec.version to 3.5.35");
        assertThat(failed.getCurrentVersion()).isEqualTo("3.5.35");

        f.podGone("demo-a").failedUpgrade("3.6.16").current(failed.getCurrentVersion());
        assertThat(planner.plan(f.observe())).isInstanceOfSatisfying(Step.CreateMemberPod.class,
                c -> assertThat(c.version()).isEqualTo("3.5.35"));
    }

    /**
     * Without claims the last member failing on the release is replaced by a fresh member at the version the others
     * run, the release: no failed upgrade to record, and the rollout ends as reached.
     */
    @Test
    void theLastMemberFailingWithoutClaimsIsReplacedAndNoFailureIsRecorded() {
        ClusterFixture f = running(3, "3.5.35").version("3.6.16");
        for (String member : List.of("demo-b", "demo-c", "demo-a")) {
            f.podVersion(member, "3.6.16");
        }
        f.podCrashLooping("demo-a").unhealthy("demo-a").current("3.5.35");
        ClusterObservation o = f.observe();
        Step step = planner.plan(o);
        assertThat(step).isInstanceOf(Step.RemoveMember.class);
        EtcdClusterStatus s = at(T0).apply(new EtcdClusterStatus(), o, step, 1L);
        assertThat(s.getFailedUpgradeVersion()).isNull();
    }

    /**
     * etcd raised its cluster version (the members' data is at 3.6) before the operator saw the last member healthy
     * on the release: the version recorded before is no version a member can be made again at.
     */
    @Test
    void theRecordedVersionNeverStaysBelowTheMembersDataVersion() {
        ClusterFixture f = running(3, "3.5.35").persistent().version("3.6.16");
        for (String member : List.of("demo-b", "demo-c", "demo-a")) {
            f.podVersion(member, "3.6.16");
        }
        f.unhealthy("demo-a").current("3.5.35");
        assertThat(report(f).getCurrentVersion()).as("demo-a untold, the data still at 3.5").isEqualTo("3.5.35");
        f.storageVersion("demo-b", "3.6.0").storageVersion("demo-c", "3.6.0");
        assertThat(report(f).getCurrentVersion()).as("the data at 3.6").isEqualTo("3.6.16");

        // the last member ran the release (the data moved to 3.6), then crash-loops: no failed upgrade to undo
        f.podCrashLooping("demo-a");
        EtcdClusterStatus crashed = report(f);
        assertThat(crashed.getFailedUpgradeVersion()).isNull();
    }

    /** A custom build's tag (3.5.35-fips) reports 3.5.35: the version recorded is the tag, which images are made of. */
    @Test
    void theRecordedVersionKeepsTheTagOfTheReleaseTheMembersReport() {
        // the pods carry the tag; the members answer with the release their binary reports
        ClusterFixture f = running(3, "3.5.35-fips").version("3.5.35");
        f.answers("demo-a", true).answers("demo-b", false).answers("demo-c", false).version("3.5.35-fips");
        ClusterObservation o = f.observe();
        assertThat(o.healthOf(f.id("demo-b")).orElseThrow().version()).isEqualTo("3.5.35");
        assertThat(report(f).getCurrentVersion()).isEqualTo("3.5.35-fips");
    }

    /** A CORRUPT alarm makes every member unhealthy: Available names the alarm, not a lost quorum. */
    @Test
    void aCorruptAlarmIsWhatAvailableSays() {
        ClusterFixture f = running(3, V).sick("demo-a").sick("demo-b").sick("demo-c");
        f.space(new DatabaseSpace(List.of(new MemberAlarm(f.id("demo-b"), MemberAlarm.CORRUPT)), 1L << 31, 100, 0,
                java.util.Set.of()));
        EtcdClusterStatus s = report(f);
        assertCondition(s, "Available", "False", Step.Wait.CORRUPT_ALARM, "demo-b");
        assertCondition(s, "Recovering", "True", Step.Wait.CORRUPT_ALARM, "alarm disarm");
    }

    /** spec.version set back while etcd's downgrade is enabled: the status says the job is still there, and how to end it. */
    @Test
    void aDowngradeLeftEnabledIsNoVersionReached() {
        EtcdClusterStatus s = report(running(3, "3.6.16").downgradeEnabled("3.5.0"));
        assertCondition(s, "Upgrading", "False", ClusterStatusBuilder.REASON_DOWNGRADE_STILL_ENABLED, "3.5.0",
                "etcdctl downgrade cancel");
        assertCondition(report(running(3, "3.6.16")), "Upgrading", "False", "VersionReached");
        // the end of a downgrade to 3.5, before etcd clears its job: reached
        assertCondition(report(running(3, "3.5.35").downgradeEnabled("3.5.0")), "Upgrading", "False",
                "VersionReached");
    }

    /** A downgrade from 3.6 not asked for is refused, also while another step comes first: no downgrade "on hold". */
    @Test
    void aDowngradeThatWillBeRefusedIsNotOnHoldWhileAnotherStepComesFirst() {
        EtcdClusterStatus busy = report(running(3, "3.6.16").version("3.5.35").sick("demo-b"));
        assertCondition(busy, "Upgrading", "False", "Downgrade", "spec.allowDowngrade");
        assertThat(busy.getTargetVersion()).isNull();

        EtcdClusterStatus asked = report(running(3, "3.6.16").version("3.5.35").allowDowngrade().size(4));
        assertCondition(asked, "Upgrading", "True", "DowngradeOnHold", "3.5.35");

        // an upgrade that never finished, set back while its upgraded member restarts: rolled back once it answers
        EtcdClusterStatus rollback = report(running(3, "3.5.35").podVersion("demo-b", "3.6.16").sick("demo-b"));
        assertCondition(rollback, "Upgrading", "True", "DowngradeOnHold", "3.5.35");
    }

    @Test
    void pausedStillReports() {
        EtcdClusterStatus s = report(running(3, V).size(5).paused());
        assertThat(s.getControlPaused()).isTrue();
        assertThat(s.getPhase()).as("3 of 5 were never all ready").isEqualTo("Creating");
        assertThat(s.getSize()).isEqualTo(3);
        assertCondition(s, "Available", "True", "QuorumHealthy");
        assertCondition(s, "Scaling", "False", "ControlPaused", "spec.paused");
        assertCondition(s, "Recovering", "False", "ControlPaused");
        assertCondition(s, "Upgrading", "False", "ControlPaused");
    }

    /** Paused, a cluster whose members are ready is not Ready while its size or version is not what the spec asks. */
    @Test
    void aPausedClusterIsReadyOnlyWhenItIsAsItsSpecAsks() {
        EtcdClusterStatus smaller = report(running(5, V).size(3).paused());
        assertCondition(smaller, "Ready", "False", "ControlPaused", "5 members", "asks for 3");
        EtcdClusterStatus older = report(running(3, V).version("3.6.16").paused());
        assertCondition(older, "Ready", "False", "ControlPaused", V, "3.6.16");
        EtcdClusterStatus asAsked = report(running(3, V).paused());
        assertCondition(asAsked, "Ready", "True", "ClusterReady");
    }

    @Test
    void noMemberAnsweringIsReportedFromThePods() {
        EtcdClusterStatus s = report(fresh(3, V).pod("demo-a", false, false, V));
        assertThat(s.getPhase()).isEqualTo("Creating");
        assertThat(s.getSize()).isEqualTo(1);
        assertThat(s.getMembers().getUnready()).containsExactly("demo-a");
        assertThat(s.getMemberDetails()).singleElement().satisfies(d -> {
            assertThat(d.getName()).isEqualTo("demo-a");
            assertThat(d.getHealthy()).isFalse();
            assertThat(d.getId()).isNull();
        });
        assertCondition(s, "Available", "False", "NoMemberReachable", "demo-a");
        assertCondition(s, "Scaling", "True", "MembersStarting", "demo-a");
    }

    @Test
    void anUnchangedConditionKeepsItsTimes() {
        ClusterFixture f = running(3, V);
        ClusterObservation o = f.observe();
        EtcdClusterStatus s = at(T0).apply(new EtcdClusterStatus(), o, planner.plan(o), 1L);
        List<Condition> first = List.copyOf(s.getConditions());
        at(T0.plusSeconds(60)).apply(s, o, planner.plan(o), 1L);
        for (int i = 0; i < first.size(); i++) {
            assertThat(s.getConditions().get(i)).isSameAs(first.get(i));
        }

        f.dead("demo-c");
        at(T0.plusSeconds(120)).apply(s, f.observe(), planner.plan(f.observe()), 1L);
        assertThat(condition(s, "Recovering").getLastTransitionTime()).isEqualTo("2026-01-01T00:02:00Z");
        assertThat(condition(s, "Available").getLastTransitionTime()).isEqualTo("2026-01-01T00:00:00Z");
        assertThat(condition(s, "Available").getLastUpdateTime()).isEqualTo("2026-01-01T00:02:00Z");
        assertThat(condition(s, "Scaling")).isSameAs(first.get(2));
    }

    @Test
    void otherConditionsAreLeftAlone() {
        EtcdClusterStatus s = new EtcdClusterStatus();
        s.getConditions().add(new Condition("Valid", "True", "SpecAccepted", "The spec is valid."));
        report(s, running(1, V));
        assertThat(s.getConditions()).extracting(Condition::getType)
                .containsExactly("Valid", "Available", "Recovering", "Scaling", "Upgrading", "Ready");
    }

    @Test
    void readyWhenRunningAvailableAtSizeAndVersionWithNothingUnderWay() {
        EtcdClusterStatus fresh = report(fresh(3, V));
        assertCondition(fresh, "Ready", "False", "NoMembers");
        assertThat(fresh.getReady()).isEqualTo("0/3");

        EtcdClusterStatus s = report(running(3, V));
        assertCondition(s, "Ready", "True", "ClusterReady", "3 of 3 members are ready", "the leader is demo-a");
        assertThat(s.getReady()).isEqualTo("3/3");
        String since = condition(s, "Ready").getLastTransitionTime();
        at(T0.plusSeconds(30)).apply(s, running(3, V).observe(), planner.plan(running(3, V).observe()), 2L);
        assertThat(condition(s, "Ready").getLastTransitionTime()).as("unchanged while it stays ready").isEqualTo(since);

        report(s, running(3, V).size(5));
        assertCondition(s, "Ready", "False", "AddingMember", "spec.size asks for 5");
        assertThat(s.getReady()).isEqualTo("3/5");

        assertCondition(report(running(3, V).dead("demo-b").dead("demo-c")), "Ready", "False", "QuorumLost");
        assertCondition(report(running(3, "3.4.23").version(V)), "Ready", "False", "UpgradingMember");
        assertCondition(report(running(3, V).version("3.4.23")), "Ready", "False", "Downgrade");
        assertCondition(report(running(3, V).dead("demo-c")), "Ready", "False", "ReplacingDeadMember");
        assertCondition(report(running(3, V).paused()), "Ready", "True", "ClusterReady");
    }
}
