package dev.etcdoperator.core.cluster;

import static dev.etcdoperator.core.cluster.ClusterFixture.NAMING;
import static dev.etcdoperator.core.cluster.ClusterFixture.NOW;
import static dev.etcdoperator.core.cluster.ClusterFixture.running;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Random;

import dev.etcdoperator.core.cluster.Step.AddMember;
import dev.etcdoperator.core.cluster.Step.CreateMemberPod;
import dev.etcdoperator.core.cluster.Step.CreateRecoveryMember;
import dev.etcdoperator.core.cluster.Step.CreateRestore;
import dev.etcdoperator.core.cluster.Step.DeletePod;
import dev.etcdoperator.core.cluster.Step.QuorumLost;
import dev.etcdoperator.core.cluster.Step.RecordSeed;
import dev.etcdoperator.core.cluster.Step.RecordQuorumRecovery;
import dev.etcdoperator.core.cluster.Step.RetireSurvivor;
import dev.etcdoperator.core.cluster.Step.StopSurvivor;
import dev.etcdoperator.core.cluster.Step.Wait;
import org.junit.jupiter.api.Test;

/** Every rule of a lost quorum: when the operator waits, when it tells a person, and when and how it recovers. */
class QuorumRecoveryPlannerTest {
    private static final String V = "3.5.17";
    private static final String UID = "0d2c7c55-1b0e-4b8e-9d51-5d3c1f6f0a11";
    private static final Duration GRACE = Duration.ofSeconds(60);
    /** Quorum was first seen lost long enough ago for the grace period to be over. */
    private static final Instant LONG_AGO = NOW.minus(GRACE).minusSeconds(1);
    private static final QuorumLoss.Backup NIGHTLY = new QuorumLoss.Backup("nightly", "etcd-backups/demo/snapshot.db",
            "2025-12-31T23:00:00Z");
    /** The voting members of {@link #twoOfThreeLost()}, as the status records them at the loss. */
    private static final List<String> VOTERS = List.of("demo-a", "demo-b", "demo-c");

    private static Step plan(ClusterFixture f) {
        return new ClusterPlanner(new Random(1)).plan(f.observe());
    }

    private static QuorumLoss loss(String policy, Instant since) {
        return new QuorumLoss(policy, GRACE, since, null, UID, false, null, null);
    }

    private static QuorumLoss approved(String approval, boolean awaiting) {
        return new QuorumLoss(QuorumLoss.MANUAL, GRACE, LONG_AGO, approval, UID, awaiting, null, null);
    }

    /** 3 members; demo-a (the leader) and demo-b ended for good (no claims), demo-c survives without a leader. */
    private static ClusterFixture twoOfThreeLost() {
        return running(3, V).podStopped("demo-a").podStopped("demo-b").unhealthy("demo-a").unhealthy("demo-b")
                .survivor("demo-c", 950, 480);
    }

    private static void assertRecoveryReason(Step step, String reason) {
        assertThat(step).isInstanceOfSatisfying(QuorumLost.class,
                q -> assertThat(q.recoveryReason()).as(q.recoveryMessage()).isEqualTo(reason));
    }

    @Test
    void byDefaultTheOperatorWaitsForAPersonAndSaysExactlyWhatToDo() {
        Step step = plan(twoOfThreeLost().quorumLoss(loss(QuorumLoss.MANUAL, LONG_AGO)));
        assertRecoveryReason(step, QuorumRecoveryPlanner.WAITING_FOR_PERSON);
        assertThat(((QuorumLost) step).recoveryMessage()).contains(
                "voting members demo-a, demo-b are gone with their data",
                "Survivor demo-c has the newest data (raft index 950, revision 480); it is the only survivor",
                "Writes that only the lost members had (after revision 480) are lost",
                "kubectl -n prod annotate etcdcluster demo etcd.database.coreos.com/recover-quorum=$(kubectl -n prod"
                        + " get etcdcluster demo -o jsonpath='{.metadata.uid}')",
                "EtcdRestore", "spec.quorumLossRecovery.policy");
        // the default observation (no policy set) is Manual
        assertThat(plan(twoOfThreeLost())).isInstanceOfSatisfying(QuorumLost.class,
                q -> assertThat(q.recoveryReason()).isEqualTo(QuorumRecoveryPlanner.GRACE_PERIOD));
    }

    @Test
    void nothingStartsWithinTheGracePeriodNorBeforeTheLossIsRecorded() {
        for (String policy : new String[] {QuorumLoss.MANUAL, QuorumLoss.FROM_SURVIVOR, QuorumLoss.FROM_BACKUP}) {
            Step first = plan(twoOfThreeLost().quorumLoss(loss(policy, null)));
            assertRecoveryReason(first, QuorumRecoveryPlanner.GRACE_PERIOD);
            Step within = plan(twoOfThreeLost().quorumLoss(loss(policy, NOW.minus(GRACE).plusSeconds(1))));
            assertRecoveryReason(within, QuorumRecoveryPlanner.GRACE_PERIOD);
            assertThat(((QuorumLost) within).recoveryMessage()).contains("grace period of 60 s",
                    NOW.plusSeconds(1).toString());
        }
        // at the end of the grace period exactly, it starts
        assertThat(plan(twoOfThreeLost().quorumLoss(loss(QuorumLoss.FROM_SURVIVOR, NOW.minus(GRACE)))))
                .isInstanceOf(RecordQuorumRecovery.class);
    }

    @Test
    void theSecondAfterALeaderDiesIsNoLossForGood() {
        // the leader's pod ended; the two others run but answer nothing while they elect a new leader
        ClusterFixture f = running(3, V).podStopped("demo-a").unhealthy("demo-a").sick("demo-b").sick("demo-c")
                .quorumLoss(loss(QuorumLoss.FROM_SURVIVOR, LONG_AGO));
        Step step = plan(f);
        assertRecoveryReason(step, QuorumRecoveryPlanner.MAY_COME_BACK);
        assertThat(((QuorumLost) step).recoveryMessage()).contains("demo-b, demo-c may come back",
                "2 of 3 voting members are not lost for good");
    }

    @Test
    void membersWhosePodsRunStartOrTerminateMayComeBack() {
        QuorumLoss fromSurvivor = loss(QuorumLoss.FROM_SURVIVOR, LONG_AGO);
        // running pods that do not answer
        assertRecoveryReason(plan(running(3, V).unhealthy("demo-a").unhealthy("demo-b").survivor("demo-c", 9, 9)
                .quorumLoss(fromSurvivor)), QuorumRecoveryPlanner.MAY_COME_BACK);
        // a pod that is starting again
        assertRecoveryReason(plan(twoOfThreeLost().podStarting("demo-b").quorumLoss(fromSurvivor)),
                QuorumRecoveryPlanner.MAY_COME_BACK);
        // a pod still terminating may still run etcd
        assertRecoveryReason(plan(twoOfThreeLost().podTerminating("demo-b").quorumLoss(fromSurvivor)),
                QuorumRecoveryPlanner.MAY_COME_BACK);
    }

    @Test
    void membersWhoseEtcdFailedInPodsThatRunComeBackInPlaceAndAreNeitherLostNorTouched() {
        // the leader and a follower had their etcd killed: their pods run and start it again on its data
        for (String policy : new String[] {QuorumLoss.MANUAL, QuorumLoss.FROM_SURVIVOR, QuorumLoss.FROM_BACKUP}) {
            ClusterFixture f = running(3, V).podCrashLooping("demo-a").podCrashLooping("demo-b").unhealthy("demo-a")
                    .unhealthy("demo-b").survivor("demo-c", 950, 480).quorumLoss(loss(policy, LONG_AGO));
            Step step = plan(f);
            assertRecoveryReason(step, QuorumRecoveryPlanner.MAY_COME_BACK);
            assertThat(((QuorumLost) step).recoveryMessage()).contains("demo-a, demo-b, demo-c may come back");
        }
    }

    @Test
    void membersOnClaimsComeBackOnThemAndOnlyWithoutTheirClaimsAreLostForGood() {
        QuorumLoss fromSurvivor = loss(QuorumLoss.FROM_SURVIVOR, LONG_AGO);
        ClusterFixture onClaims = running(3, V).persistent().podGone("demo-a").podGone("demo-b").unhealthy("demo-a")
                .unhealthy("demo-b").survivor("demo-c", 950, 480).quorumLoss(fromSurvivor);
        assertThat(plan(onClaims)).isInstanceOfSatisfying(CreateMemberPod.class,
                c -> assertThat(c.reason()).isEqualTo(CreateMemberPod.RECREATING_IN_PLACE));
        ClusterFixture claimsGone = running(3, V).persistent().podGone("demo-a").podGone("demo-b")
                .withoutClaim("demo-a").withoutClaim("demo-b").unhealthy("demo-a").unhealthy("demo-b")
                .survivor("demo-c", 950, 480).quorumLoss(fromSurvivor);
        assertThat(plan(claimsGone)).isInstanceOfSatisfying(RecordQuorumRecovery.class,
                r -> assertThat(r.message()).contains("their claims are gone, and their pods gone or ended"));
        // one claim left: that member comes back first
        ClusterFixture oneClaim = running(3, V).persistent().podGone("demo-a").podGone("demo-b")
                .withoutClaim("demo-a").unhealthy("demo-a").unhealthy("demo-b").survivor("demo-c", 950, 480)
                .quorumLoss(fromSurvivor);
        assertThat(plan(oneClaim)).isInstanceOfSatisfying(CreateMemberPod.class,
                c -> assertThat(c.name()).isEqualTo("demo-b"));
    }

    @Test
    void theSurvivorWithTheHighestRaftIndexIsChosenThenTheHighestRevision() {
        ClusterFixture f = running(5, V).podStopped("demo-a").podStopped("demo-b").podStopped("demo-c")
                .unhealthy("demo-a").unhealthy("demo-b").unhealthy("demo-c")
                .survivor("demo-d", 900, 700).survivor("demo-e", 950, 480)
                .quorumLoss(loss(QuorumLoss.FROM_SURVIVOR, LONG_AGO));
        assertThat(plan(f)).isInstanceOfSatisfying(RecordQuorumRecovery.class, r -> {
            assertThat(r.survivor()).isEqualTo("demo-e");
            assertThat(r.raftIndex()).isEqualTo(950);
            assertThat(r.revision()).isEqualTo(480);
            assertThat(r.approved()).isFalse();
            assertThat(r.member()).matches("demo-[a-z0-9]{10}");
            assertThat(r.message()).contains("Survivor demo-e has the newest data (raft index 950, revision 480);"
                    + " demo-d has raft index 900, revision 700", "policy FromSurvivor", "grows back to 5 members");
        });
        f.survivor("demo-d", 950, 481);
        assertThat(plan(f)).isInstanceOfSatisfying(RecordQuorumRecovery.class,
                r -> assertThat(r.survivor()).isEqualTo("demo-d"));
    }

    @Test
    void aSurvivorThatDoesNotAnswerIsWaitedFor() {
        ClusterFixture f = running(5, V).podStopped("demo-a").podStopped("demo-b").podStopped("demo-c")
                .unhealthy("demo-a").unhealthy("demo-b").unhealthy("demo-c").unhealthy("demo-d")
                .survivor("demo-e", 950, 480).quorumLoss(loss(QuorumLoss.FROM_SURVIVOR, LONG_AGO));
        Step step = plan(f);
        assertRecoveryReason(step, QuorumRecoveryPlanner.SURVIVOR_NOT_ANSWERING);
        assertThat(((QuorumLost) step).recoveryMessage()).contains("Survivor demo-d did not answer");
    }

    @Test
    void anApprovalCountsOnlyWithTheClustersUidAndOnlyOnceThePersonWasAsked() {
        assertThat(plan(twoOfThreeLost().quorumLoss(approved(UID, true))))
                .isInstanceOfSatisfying(RecordQuorumRecovery.class, r -> {
                    assertThat(r.approved()).isTrue();
                    assertThat(r.survivor()).isEqualTo("demo-c");
                    assertThat(r.message()).contains("approved by the etcd.database.coreos.com/recover-quorum"
                            + " annotation");
                });
        Step wrongUid = plan(twoOfThreeLost().quorumLoss(approved("some-other-uid", true)));
        assertRecoveryReason(wrongUid, QuorumRecoveryPlanner.APPROVAL_REFUSED);
        assertThat(((QuorumLost) wrongUid).recoveryMessage()).contains(
                "etcd.database.coreos.com/recover-quorum=some-other-uid is refused", "this cluster's uid, " + UID,
                "kubectl -n prod annotate");
        // put on before the operator asked: no standing order
        assertRecoveryReason(plan(twoOfThreeLost().quorumLoss(approved(UID, false))),
                QuorumRecoveryPlanner.WAITING_FOR_PERSON);
        // an approval does not cut the grace period short
        assertRecoveryReason(plan(twoOfThreeLost().quorumLoss(new QuorumLoss(QuorumLoss.MANUAL, GRACE, NOW, UID, UID,
                true, null, null))), QuorumRecoveryPlanner.GRACE_PERIOD);
    }

    @Test
    void fromTheSurvivorTheRecoveryMemberCopiesItsDataThenTheOldPodsGoThenTheClusterGrowsBack() {
        String member = "demo-r000000000";
        QuorumLoss.Recovery recovery = new QuorumLoss.Recovery("demo-c", member, 480, 950, null);
        ClusterFixture f = twoOfThreeLost().quorumLoss(new QuorumLoss(QuorumLoss.FROM_SURVIVOR, GRACE, LONG_AGO,
                null, UID, false, recovery, null));
        assertThat(plan(f)).isEqualTo(new CreateRecoveryMember(member, NAMING.peerUrl(member), "demo-c", V));
        f.podOnly(member, false, false);
        assertThat(plan(f)).isInstanceOfSatisfying(Wait.class,
                w -> assertThat(w.reason()).isEqualTo(Wait.RECOVERY_MEMBER_STARTING));
        f.podOnlyBeforeEtcd(member, true);
        assertThat(plan(f)).as("its copy failed").isEqualTo(new DeletePod(member, DeletePod.RECOVERY_MEMBER_FAILED));
        f.podOnly(member, true, false);
        // its etcd runs, but it has not yet served what it copied: the survivor stays
        assertThat(plan(f)).isInstanceOfSatisfying(Wait.class, w -> {
            assertThat(w.reason()).isEqualTo(Wait.RECOVERY_MEMBER_STARTING);
            assertThat(w.message()).contains("the survivor is kept", "revision 480");
        });
        f.quorumLoss(new QuorumLoss(QuorumLoss.FROM_SURVIVOR, GRACE, LONG_AGO, null, UID, false,
                recovery.answeredAt(479), null));
        assertThat(plan(f)).as("behind the survivor's revision").isInstanceOf(Wait.class);
        f.quorumLoss(new QuorumLoss(QuorumLoss.FROM_SURVIVOR, GRACE, LONG_AGO, null, UID, false,
                recovery.answeredAt(480), null));
        assertThat(plan(f)).isEqualTo(new RetireSurvivor("demo-c", member, List.of("demo-a", "demo-b", "demo-c")));
        f.podTerminating("demo-a").podTerminating("demo-b").podTerminating("demo-c");
        assertThat(plan(f)).isInstanceOfSatisfying(Wait.class,
                w -> assertThat(w.reason()).isEqualTo(Wait.POD_TERMINATING));
        f.podGone("demo-a").podGone("demo-b").podGone("demo-c");
        assertThat(plan(f)).isInstanceOfSatisfying(Wait.class,
                w -> assertThat(w.reason()).isEqualTo(Wait.RECOVERY_MEMBER_STARTING));
        assertThat(QuorumRecoveryPlanner.recovered(f.observe())).isFalse();
        // the one-member cluster answers, alone: the usual planning adds learners
        f.oneMemberCluster(member);
        assertThat(QuorumRecoveryPlanner.recovered(f.observe())).isTrue();
        assertThat(plan(f)).isInstanceOf(AddMember.class);
    }

    @Test
    void everySurvivorOfTheOldClusterGoesNotOnlyTheOneCopied() {
        String member = "demo-r000000000";
        QuorumLoss.Recovery recovery = new QuorumLoss.Recovery("demo-e", member, 480, 950, null);
        ClusterFixture f = running(5, V).podStopped("demo-a").podGone("demo-b").podStopped("demo-c")
                .unhealthy("demo-a").unhealthy("demo-b").unhealthy("demo-c").survivor("demo-d", 900, 470)
                .survivor("demo-e", 950, 480).podOnly(member, true, false)
                .quorumLoss(new QuorumLoss(QuorumLoss.FROM_SURVIVOR, GRACE, LONG_AGO, null, UID, false,
                        recovery.answeredAt(500), null));
        assertThat(plan(f)).isEqualTo(new RetireSurvivor("demo-e", member,
                List.of("demo-a", "demo-c", "demo-d", "demo-e")));
        // a member list read from an old survivor while it is still there changes nothing
        assertThat(QuorumRecoveryPlanner.recovered(f.observe())).isFalse();
    }

    @Test
    void aRecoveryMemberThatEndsOnceTheSurvivorIsRetiredIsNeverDeleted() {
        String member = "demo-r000000000";
        QuorumLoss.Recovery recovery = new QuorumLoss.Recovery("demo-c", member, 480, 950, null);
        ClusterFixture f = twoOfThreeLost().quorumLoss(new QuorumLoss(QuorumLoss.FROM_SURVIVOR, GRACE, LONG_AGO,
                null, UID, false, recovery, null));
        f.podOnlyBeforeEtcd(member, true);
        // its etcd never started and the survivor is still there: the member's copy can be made again from it
        assertThat(plan(f)).isEqualTo(new DeletePod(member, DeletePod.RECOVERY_MEMBER_FAILED));
        f.podOnly(member, false, true);
        f.podGone("demo-a").podGone("demo-b").podGone("demo-c");
        assertThat(plan(f)).isInstanceOfSatisfying(QuorumLost.class, q -> {
            assertThat(q.recoveryReason()).isEqualTo(QuorumRecoveryPlanner.RECOVERY_MEMBER_ENDED);
            assertThat(q.message()).contains("only copy", "deletes nothing");
        });
    }

    @Test
    void aRecoveryMemberThatEndsWhileTheSurvivorsPodTerminatesIsNeverDeleted() {
        String member = "demo-r000000000";
        QuorumLoss.Recovery recovery = new QuorumLoss.Recovery("demo-c", member, 480, 950, null);
        ClusterFixture f = twoOfThreeLost().quorumLoss(new QuorumLoss(QuorumLoss.FROM_SURVIVOR, GRACE, LONG_AGO,
                null, UID, false, recovery, null));
        f.podOnly(member, false, true).podTerminating("demo-c");
        assertThat(plan(f)).isInstanceOfSatisfying(QuorumLost.class, q -> {
            assertThat(q.recoveryReason()).isEqualTo(QuorumRecoveryPlanner.RECOVERY_MEMBER_ENDED);
            assertThat(q.message()).contains("only copy", "deletes nothing");
        });
    }

    /**
     * Its etcd started, so it was ready behind the client Service and may have taken writes, whether or not the
     * operator saw it answer before it ended: it is kept, the survivor's copy is not made again over it.
     */
    @Test
    void aRecoveryMemberWhoseEtcdStartedIsNeverDeletedEvenUnseen() {
        String member = "demo-r000000000";
        QuorumLoss.Recovery recovery = new QuorumLoss.Recovery("demo-c", member, 480, 950, null);
        ClusterFixture f = twoOfThreeLost().quorumLoss(new QuorumLoss(QuorumLoss.FROM_SURVIVOR, GRACE, LONG_AGO,
                null, UID, false, recovery, null));
        f.podOnly(member, false, true);
        assertThat(plan(f)).isInstanceOfSatisfying(QuorumLost.class, q -> {
            assertThat(q.recoveryReason()).isEqualTo(QuorumRecoveryPlanner.RECOVERY_MEMBER_ENDED);
            assertThat(q.message()).contains("may hold writes", "deletes nothing");
        });
    }

    /** The survivor goes while the member still copies it (or its copy failed): the member has nothing to keep. */
    @Test
    void aRecoveryMemberWhoseSurvivorGoesBeforeItsEtcdStartedIsDeleted() {
        String member = "demo-r000000000";
        QuorumLoss.Recovery recovery = new QuorumLoss.Recovery("demo-c", member, 480, 950, null);
        ClusterFixture f = twoOfThreeLost().quorumLoss(new QuorumLoss(QuorumLoss.FROM_SURVIVOR, GRACE, LONG_AGO,
                null, UID, false, recovery, null));
        // still in its init containers (its copy may have finished; the restore and placing may take minutes): waited
        // for; its copy fails when the survivor went mid-way, and it ends
        f.podOnlyBeforeEtcd(member, false).podTerminating("demo-c");
        assertThat(plan(f)).isInstanceOfSatisfying(Wait.class,
                w -> assertThat(w.reason()).isEqualTo(Wait.RECOVERY_MEMBER_STARTING));
        f.podOnlyBeforeEtcd(member, true);
        assertThat(plan(f)).isEqualTo(new DeletePod(member, DeletePod.RECOVERY_MEMBER_FAILED));
        f.podGone(member).podGone("demo-c");
        assertRecoveryReason(plan(f), QuorumRecoveryPlanner.NO_SURVIVOR);
    }

    @Test
    void aRecoveryMemberThatEndsAfterItAnsweredAsTheRecoveredClusterIsNeverDeleted() {
        String member = "demo-r000000000";
        QuorumLoss.Recovery recovery = new QuorumLoss.Recovery("demo-c", member, 480, 950, null).answeredAt(480);
        ClusterFixture f = twoOfThreeLost().quorumLoss(new QuorumLoss(QuorumLoss.FROM_SURVIVOR, GRACE, LONG_AGO,
                null, UID, false, recovery, null));
        f.podOnly(member, false, true);
        // the survivor is still there, but the member may have taken writes the survivor lacks
        assertThat(plan(f)).isInstanceOfSatisfying(QuorumLost.class, q -> {
            assertThat(q.recoveryReason()).isEqualTo(QuorumRecoveryPlanner.RECOVERY_MEMBER_ENDED);
            assertThat(q.message()).contains("may hold writes", "deletes nothing");
        });
    }

    @Test
    void aSurvivorOnAClaimWhosePodWasEvictedBeforeTheCopyIsMadeAnewOnItsClaim() {
        QuorumLoss.Recovery recovery = new QuorumLoss.Recovery("demo-c", "demo-r000000000", 480, 950, null);
        ClusterFixture f = ClusterFixture.running(3, V).persistent().dead("demo-a").dead("demo-b")
                .withoutClaim("demo-a").withoutClaim("demo-b").podStopped("demo-c").unhealthy("demo-c")
                .quorumLoss(new QuorumLoss(QuorumLoss.FROM_SURVIVOR, GRACE, LONG_AGO, null, UID, false, recovery, null));
        // the evicted pod stays (Failed): it is deleted, its claim kept, and the pod made again on the claim
        assertThat(plan(f)).isEqualTo(new DeletePod("demo-c", DeletePod.POD_STOPPED));
        f.podGone("demo-c");
        assertThat(plan(f)).isInstanceOfSatisfying(CreateMemberPod.class, c -> {
            assertThat(c.name()).isEqualTo("demo-c");
            assertThat(c.reason()).isEqualTo(CreateMemberPod.RECREATING_IN_PLACE);
        });
    }

    @Test
    void aSurvivorOnAClaimWhosePodWentBeforeTheCopyComesBackOnItsClaim() {
        QuorumLoss.Recovery recovery = new QuorumLoss.Recovery("demo-c", "demo-r000000000", 480, 950, null);
        ClusterFixture f = ClusterFixture.running(3, V).persistent().dead("demo-a").dead("demo-b")
                .withoutClaim("demo-a").withoutClaim("demo-b").podGone("demo-c").unhealthy("demo-c")
                .quorumLoss(new QuorumLoss(QuorumLoss.FROM_SURVIVOR, GRACE, LONG_AGO, null, UID, false, recovery, null));
        assertThat(plan(f)).isInstanceOfSatisfying(CreateMemberPod.class, c -> {
            assertThat(c.name()).isEqualTo("demo-c");
            assertThat(c.reason()).isEqualTo(CreateMemberPod.RECREATING_IN_PLACE);
        });
    }

    @Test
    void aSurvivorWhosePodEndedBeforeTheCopyIsReported() {
        QuorumLoss.Recovery recovery = new QuorumLoss.Recovery("demo-c", "demo-r000000000", 480, 950, null);
        ClusterFixture f = twoOfThreeLost().podStopped("demo-c").quorumLoss(new QuorumLoss(QuorumLoss.FROM_SURVIVOR,
                GRACE, LONG_AGO, null, UID, false, recovery, null));
        assertRecoveryReason(plan(f), QuorumRecoveryPlanner.NO_SURVIVOR);
        // still starting (not ended): waited for
        ClusterFixture starting = twoOfThreeLost().podStarting("demo-c").quorumLoss(new QuorumLoss(
                QuorumLoss.FROM_SURVIVOR, GRACE, LONG_AGO, null, UID, false, recovery, null));
        assertRecoveryReason(plan(starting), QuorumRecoveryPlanner.SURVIVOR_LOST);
    }

    /** The survivor chosen is lost for good before its copy, and another survives: that one is chosen instead. */
    @Test
    void anotherSurvivorIsChosenWhenTheChosenOneIsLostBeforeItsCopy() {
        QuorumLoss.Recovery recovery = new QuorumLoss.Recovery("demo-e", "demo-r000000000", 480, 950, null);
        ClusterFixture f = running(5, V).podStopped("demo-a").podGone("demo-b").podStopped("demo-c")
                .unhealthy("demo-a").unhealthy("demo-b").unhealthy("demo-c").survivor("demo-d", 900, 470)
                .podGone("demo-e").unhealthy("demo-e")
                .quorumLoss(new QuorumLoss(QuorumLoss.FROM_SURVIVOR, GRACE, LONG_AGO, null, UID, false, recovery,
                        null));
        assertThat(plan(f)).isInstanceOfSatisfying(RecordQuorumRecovery.class,
                r -> assertThat(r.survivor()).isEqualTo("demo-d"));
    }

    /**
     * Every member lost with its data (every pod deleted, no claims; every pod ended): with policy FromBackup the
     * cluster is restored from its newest backup once the grace period is over, as a quorum lost for good is.
     */
    @Test
    void everyMemberLostIsRestoredFromTheNewestBackupUnderFromBackup() {
        QuorumLoss.Backup backup = new QuorumLoss.Backup("nightly", "etcd-backups/demo/snapshot.db",
                "2025-12-31T23:00:00Z");
        for (boolean deleted : new boolean[] {true, false}) {
            ClusterFixture f = running(3, V);
            f.memberNames().forEach(deleted ? f::podGone : f::podStopped);
            f.settle();
            // still reported as every member lost (a reseed may be asked for), with the grace period counted
            assertThat(plan(f.quorumLoss(new QuorumLoss(QuorumLoss.FROM_BACKUP, GRACE, null, null, UID, false, null,
                    backup)))).isInstanceOfSatisfying(Step.AllMembersLost.class,
                            l -> assertThat(l.recoveryReason()).isEqualTo(QuorumRecoveryPlanner.GRACE_PERIOD));
            Step within = plan(f.quorumLoss(new QuorumLoss(QuorumLoss.FROM_BACKUP, GRACE, NOW.minusSeconds(1), null,
                    UID, false, null, backup)));
            assertThat(within).isInstanceOfSatisfying(Step.AllMembersLost.class, l -> {
                assertThat(l.message()).contains("Every member of the cluster is lost");
                assertThat(l.recoveryReason()).isEqualTo(QuorumRecoveryPlanner.GRACE_PERIOD);
                assertThat(l.recoveryMessage()).contains("before restoring it from its newest backup");
            });
            assertThat(plan(f.quorumLoss(new QuorumLoss(QuorumLoss.FROM_BACKUP, GRACE, LONG_AGO, null, UID, false,
                    null, backup)))).as("deleted: " + deleted).isInstanceOfSatisfying(CreateRestore.class, r -> {
                        assertThat(r.backup()).isEqualTo(backup);
                        assertThat(r.restore()).startsWith("demo-quorum-");
                    });
            assertRecoveryReason(plan(f.quorumLoss(loss(QuorumLoss.FROM_BACKUP, LONG_AGO))),
                    QuorumRecoveryPlanner.NO_BACKUP);
            for (String policy : new String[] {QuorumLoss.MANUAL, QuorumLoss.FROM_SURVIVOR}) {
                assertThat(plan(f.quorumLoss(loss(policy, LONG_AGO)))).as(policy).isInstanceOfSatisfying(
                        Step.AllMembersLost.class, l -> assertThat(l.recoveryReason()).isNull());
            }
        }
        ClusterFixture reseed = running(3, V);
        reseed.memberNames().forEach(reseed::podGone);
        reseed.settle().reseedRequested();
        assertThat(plan(reseed.quorumLoss(new QuorumLoss(QuorumLoss.FROM_BACKUP, GRACE, LONG_AGO, null, UID, false,
                null, backup)))).as("a reseed asked for wins").isInstanceOf(RecordSeed.class);
    }

    @Test
    void fromTheLatestBackupARestoreIsCreatedOrItIsSaidThatThereIsNone() {
        assertRecoveryReason(plan(twoOfThreeLost().quorumLoss(loss(QuorumLoss.FROM_BACKUP, LONG_AGO))),
                QuorumRecoveryPlanner.NO_BACKUP);
        QuorumLoss.Backup backup = new QuorumLoss.Backup("nightly", "etcd-backups/demo/snapshot.db",
                "2025-12-31T23:00:00Z");
        ClusterFixture f = twoOfThreeLost().quorumLoss(new QuorumLoss(QuorumLoss.FROM_BACKUP, GRACE, LONG_AGO, null,
                UID, false, null, backup));
        assertThat(plan(f)).isInstanceOfSatisfying(CreateRestore.class, r -> {
            assertThat(r.backup()).isEqualTo(backup);
            assertThat(r.restore()).startsWith("demo-quorum-");
            assertThat(plan(f)).as("named after the loss, not the time of the reconcile").isEqualTo(r);
            assertThat(r.message()).contains("EtcdBackup nightly (etcd-backups/demo/snapshot.db)",
                    "writes after that backup are lost");
        });
        QuorumLoss.Recovery restoring = new QuorumLoss.Recovery(null, null, 0, 0, "demo-quorum-x");
        assertRecoveryReason(plan(twoOfThreeLost().quorumLoss(new QuorumLoss(QuorumLoss.FROM_BACKUP, GRACE, LONG_AGO,
                null, UID, false, restoring, backup))), QuorumRecoveryPlanner.RESTORING_FROM_BACKUP);
    }

    /** A restore from the backup that failed is no recovery in progress; one deleted (a person's retry) is made again. */
    @Test
    void aFailedRestoreFromTheBackupIsSaidAndOneThatIsGoneIsMadeAgain() {
        QuorumLoss.Backup backup = new QuorumLoss.Backup("nightly", "etcd-backups/demo/snapshot.db",
                "2025-12-31T23:00:00Z");
        QuorumLoss.Recovery failed = new QuorumLoss.Recovery(null, null, 0, 0, "demo-quorum-x")
                .withRestoreSeen(new QuorumLoss.RestoreSeen(false, "S3AccessDenied: Access Denied; nothing was changed"));
        Step step = plan(twoOfThreeLost().quorumLoss(new QuorumLoss(QuorumLoss.FROM_BACKUP, GRACE, LONG_AGO, null, UID,
                false, failed, backup)));
        assertRecoveryReason(step, QuorumRecoveryPlanner.RESTORE_FAILED);
        assertThat(((QuorumLost) step).recoveryMessage()).contains("S3AccessDenied", "delete EtcdRestore demo-quorum-x");

        QuorumLoss.Recovery gone = new QuorumLoss.Recovery(null, null, 0, 0, "demo-quorum-x")
                .withRestoreSeen(new QuorumLoss.RestoreSeen(true, null));
        ClusterFixture again = twoOfThreeLost().quorumLoss(new QuorumLoss(QuorumLoss.FROM_BACKUP, GRACE, LONG_AGO, null,
                UID, false, gone, backup));
        assertThat(plan(again)).isInstanceOfSatisfying(CreateRestore.class, r -> assertThat(r.backup())
                .isEqualTo(backup));
    }

    /** The policy changed after the restore it made failed or went: the new policy is followed, not the old one. */
    @Test
    void aRestoreFromTheBackupThatEndedGivesWayToAPolicyChangedSince() {
        QuorumLoss.Backup backup = new QuorumLoss.Backup("nightly", "etcd-backups/demo/snapshot.db",
                "2025-12-31T23:00:00Z");
        for (QuorumLoss.RestoreSeen seen : List.of(new QuorumLoss.RestoreSeen(true, null),
                new QuorumLoss.RestoreSeen(false, "S3AccessDenied: Access Denied"))) {
            QuorumLoss.Recovery ended = new QuorumLoss.Recovery(null, null, 0, 0, "demo-quorum-x").withRestoreSeen(seen);
            assertThat(plan(twoOfThreeLost().quorumLoss(new QuorumLoss(QuorumLoss.FROM_SURVIVOR, GRACE, LONG_AGO, null,
                    UID, false, ended, backup)))).as("%s", seen).isInstanceOf(RecordQuorumRecovery.class);
            assertRecoveryReason(plan(twoOfThreeLost().quorumLoss(new QuorumLoss(QuorumLoss.MANUAL, GRACE, LONG_AGO,
                    null, UID, false, ended, backup))), QuorumRecoveryPlanner.WAITING_FOR_PERSON);
        }
        QuorumLoss.Recovery running = new QuorumLoss.Recovery(null, null, 0, 0, "demo-quorum-x")
                .withRestoreSeen(new QuorumLoss.RestoreSeen(false, null));
        assertRecoveryReason(plan(twoOfThreeLost().quorumLoss(new QuorumLoss(QuorumLoss.FROM_SURVIVOR, GRACE, LONG_AGO,
                null, UID, false, running, backup))), QuorumRecoveryPlanner.RESTORING_FROM_BACKUP);
    }

    /** Made again under the name it had, even when the time quorum was lost is no longer recorded. */
    @Test
    void aRestoreFromTheBackupThatWentIsMadeAgainUnderItsName() {
        QuorumLoss.Backup backup = new QuorumLoss.Backup("nightly", "etcd-backups/demo/snapshot.db",
                "2025-12-31T23:00:00Z");
        QuorumLoss.Recovery gone = new QuorumLoss.Recovery(null, null, 0, 0, "demo-quorum-x")
                .withRestoreSeen(new QuorumLoss.RestoreSeen(true, null));
        assertThat(plan(twoOfThreeLost().quorumLoss(new QuorumLoss(QuorumLoss.FROM_BACKUP, GRACE, null, null, UID,
                false, gone, backup)))).isInstanceOfSatisfying(CreateRestore.class,
                        r -> assertThat(r.restore()).isEqualTo("demo-quorum-x"));
    }

    /** On claims: two members whose pods were evicted and whose claims were deleted are lost for good. */
    @Test
    void onClaimsEndedPodsWithoutClaimsAreLostForGood() {
        ClusterFixture f = ClusterFixture.running(3, V).persistent().podStopped("demo-a").unhealthy("demo-a")
                .withoutClaim("demo-a").podStopped("demo-b").unhealthy("demo-b").withoutClaim("demo-b")
                .unhealthy("demo-c").survivor("demo-c", 950, 480)
                .quorumLoss(loss(QuorumLoss.FROM_SURVIVOR, LONG_AGO));
        assertThat(plan(f)).isInstanceOf(RecordQuorumRecovery.class);
    }

    /** On claims: members whose claims hold none of their data are lost for good, claims or not. */
    @Test
    void onClaimsMembersWithoutTheirDataAreLostForGood() {
        ClusterFixture f = ClusterFixture.running(3, V).persistent().podDataMissing("demo-a").podDataMissing("demo-b")
                .unhealthy("demo-c").survivor("demo-c", 950, 480)
                .quorumLoss(loss(QuorumLoss.FROM_SURVIVOR, LONG_AGO));
        assertThat(plan(f)).isInstanceOf(RecordQuorumRecovery.class);
    }

    @Test
    void whenNoMemberAnswersNothingIsRecovered() {
        ClusterFixture f = running(3, V).podStopped("demo-a").podStopped("demo-b").noAnswer()
                .quorumLoss(loss(QuorumLoss.FROM_SURVIVOR, LONG_AGO));
        assertRecoveryReason(plan(f), QuorumRecoveryPlanner.NO_MEMBER_ANSWERS);
    }

    /**
     * The survivor's etcd started again after the loss and serves nothing: under FromBackup the voters the status
     * recorded while the loss was seen with a member list still show a majority lost for good.
     */
    @Test
    void underFromBackupASurvivorThatAnswersNothingIsRestoredFromTheVotersRecordedAtTheLoss() {
        ClusterFixture f = twoOfThreeLostNoneAnswering();
        Step restore = plan(f.quorumLoss(fromBackup(LONG_AGO, NIGHTLY, VOTERS)));
        assertThat(restore).isInstanceOfSatisfying(CreateRestore.class, r -> {
            assertThat(r.backup()).isEqualTo(NIGHTLY);
            assertThat(r.restore()).isEqualTo("demo-quorum-" + Long.toString(LONG_AGO.getEpochSecond(), 36));
            assertThat(r.message()).contains("voting members demo-a, demo-b are gone with their data",
                    "no member left answers");
        });
        // the same restore as when the survivor answered: one name per loss
        ClusterFixture answering = twoOfThreeLost().quorumLoss(fromBackup(LONG_AGO, NIGHTLY, List.of()));
        assertThat(((CreateRestore) plan(answering)).restore()).isEqualTo(((CreateRestore) restore).restore());

        // within the grace period it waits and says until when
        Step within = plan(f.quorumLoss(fromBackup(NOW.minusSeconds(1), NIGHTLY, VOTERS)));
        assertRecoveryReason(within, QuorumRecoveryPlanner.GRACE_PERIOD);
        assertThat(((QuorumLost) within).recoveryMessage()).contains(NOW.minusSeconds(1).plus(GRACE).toString());
        // no backup: said
        assertRecoveryReason(plan(f.quorumLoss(fromBackup(LONG_AGO, null, VOTERS))), QuorumRecoveryPlanner.NO_BACKUP);
    }

    @Test
    void withoutAnswersNothingIsRestoredUnlessTheRecordedVotersShowAMajorityLostForGoodUnderFromBackup() {
        ClusterFixture twoLost = twoOfThreeLostNoneAnswering();
        // other policies wait, and say what a person can do
        for (String policy : new String[] {QuorumLoss.MANUAL, QuorumLoss.FROM_SURVIVOR}) {
            Step step = plan(twoLost.quorumLoss(new QuorumLoss(policy, GRACE, LONG_AGO, null, UID, false, null,
                    NIGHTLY, VOTERS)));
            assertRecoveryReason(step, QuorumRecoveryPlanner.NO_MEMBER_ANSWERS);
            assertThat(((QuorumLost) step).recoveryMessage()).contains(
                    "voting members demo-a, demo-b are gone with their data", "The data of demo-c cannot be read",
                    "policy " + policy, "EtcdRestore", "FromBackup");
        }
        // no voters recorded (the loss was never seen with a member list), or no loss recorded
        assertRecoveryReason(plan(twoLost.quorumLoss(fromBackup(LONG_AGO, NIGHTLY, List.of()))),
                QuorumRecoveryPlanner.NO_MEMBER_ANSWERS);
        assertRecoveryReason(plan(twoLost.quorumLoss(fromBackup(null, NIGHTLY, VOTERS))),
                QuorumRecoveryPlanner.NO_MEMBER_ANSWERS);
        // one of three lost: the two others may come back
        ClusterFixture oneLost = running(3, V).podStopped("demo-a").noAnswer();
        Step oneOfThree = plan(oneLost.quorumLoss(fromBackup(LONG_AGO, NIGHTLY, VOTERS)));
        assertRecoveryReason(oneOfThree, QuorumRecoveryPlanner.NO_MEMBER_ANSWERS);
        assertThat(((QuorumLost) oneOfThree).recoveryMessage()).startsWith("No member answers")
                .doesNotContain("lost for good:");
        // five voters recorded, two lost: no majority lost
        ClusterFixture ofFive = running(5, V).podStopped("demo-a").podStopped("demo-b").noAnswer();
        assertRecoveryReason(plan(ofFive.quorumLoss(fromBackup(LONG_AGO, NIGHTLY, ofFive.memberNames()))),
                QuorumRecoveryPlanner.NO_MEMBER_ANSWERS);
        // two voters recorded (one removed while the others still made a majority), one lost: the survivor alone
        // can never make a majority of two
        ClusterFixture ofTwo = running(3, V).podStopped("demo-a").noAnswer();
        assertThat(plan(ofTwo.quorumLoss(fromBackup(LONG_AGO, NIGHTLY, List.of("demo-a", "demo-c")))))
                .isInstanceOf(CreateRestore.class);
        // four voters, two lost: the two left are no majority of four
        ClusterFixture ofFour = running(4, V).podStopped("demo-a").podStopped("demo-b").noAnswer();
        assertThat(plan(ofFour.quorumLoss(fromBackup(LONG_AGO, NIGHTLY, ofFour.memberNames()))))
                .isInstanceOf(CreateRestore.class);
        // a pod still terminating may still run etcd
        ClusterFixture terminating = running(3, V).podStopped("demo-a").podTerminating("demo-b").noAnswer();
        assertRecoveryReason(plan(terminating.quorumLoss(fromBackup(LONG_AGO, NIGHTLY, VOTERS))),
                QuorumRecoveryPlanner.NO_MEMBER_ANSWERS);
        // on claims, a member whose claim is left comes back on it
        ClusterFixture onClaims = running(3, V).persistent().podGone("demo-a").podGone("demo-b")
                .withoutClaim("demo-a").noAnswer();
        assertThat(plan(onClaims.quorumLoss(fromBackup(LONG_AGO, NIGHTLY, VOTERS))))
                .isNotInstanceOf(CreateRestore.class);
        ClusterFixture claimsGone = running(3, V).persistent().podGone("demo-a").podGone("demo-b")
                .withoutClaim("demo-a").withoutClaim("demo-b").noAnswer();
        assertThat(plan(claimsGone.quorumLoss(fromBackup(LONG_AGO, NIGHTLY, VOTERS)))).isInstanceOf(CreateRestore.class);
    }

    /**
     * On claims, the only survivor's etcd started again and serves nothing, but its data is on its claim: FromSurvivor
     * (or a person's approval under Manual) recovers from that claim; several survivors, none answering, cannot be
     * told apart.
     */
    @Test
    void onClaimsTheOnlySurvivorThatAnswersNothingIsRecoveredFromItsClaim() {
        ClusterFixture f = twoOfThreeLostOnClaimsNoneAnswering();
        Step step = plan(f.quorumLoss(new QuorumLoss(QuorumLoss.FROM_SURVIVOR, GRACE, LONG_AGO, null, UID, false, null,
                null, VOTERS)));
        assertThat(step).isInstanceOfSatisfying(RecordQuorumRecovery.class, r -> {
            assertThat(r.survivor()).isEqualTo("demo-c");
            assertThat(r.fromClaim()).isTrue();
            assertThat(r.approved()).isFalse();
            assertThat(r.revision()).isZero();
            assertThat(r.message()).contains("voting members demo-a, demo-b are gone with their data",
                    "Recovering from survivor demo-c's claim (policy FromSurvivor)", "member " + r.member(),
                    "not yet applied");
        });
        // within the grace period it waits
        assertRecoveryReason(plan(f.quorumLoss(new QuorumLoss(QuorumLoss.FROM_SURVIVOR, GRACE, NOW.minusSeconds(1),
                null, UID, false, null, null, VOTERS))), QuorumRecoveryPlanner.GRACE_PERIOD);
        // Manual: the steps, then an approval of this cluster's uid, given once asked, starts it
        Step manual = plan(f.quorumLoss(new QuorumLoss(QuorumLoss.MANUAL, GRACE, LONG_AGO, null, UID, false, null,
                null, VOTERS)));
        assertRecoveryReason(manual, QuorumRecoveryPlanner.WAITING_FOR_PERSON);
        assertThat(((QuorumLost) manual).recoveryMessage()).contains("demo-c's claim",
                "etcd.database.coreos.com/recover-quorum=$(kubectl -n prod get etcdcluster demo", "EtcdRestore");
        assertThat(plan(f.quorumLoss(new QuorumLoss(QuorumLoss.MANUAL, GRACE, LONG_AGO, UID, UID, true, null, null,
                VOTERS)))).isInstanceOfSatisfying(RecordQuorumRecovery.class, r -> {
                    assertThat(r.approved()).isTrue();
                    assertThat(r.fromClaim()).isTrue();
                });
        assertRecoveryReason(plan(f.quorumLoss(new QuorumLoss(QuorumLoss.MANUAL, GRACE, LONG_AGO, "other", UID, true,
                null, null, VOTERS))), QuorumRecoveryPlanner.APPROVAL_REFUSED);
        // its claim gone too: nothing to read
        Step claimGone = plan(twoOfThreeLostOnClaimsNoneAnswering().withoutClaim("demo-c").podStopped("demo-c")
                .quorumLoss(new QuorumLoss(QuorumLoss.FROM_SURVIVOR, GRACE, LONG_AGO, null, UID, false, null, null,
                        VOTERS)));
        assertThat(claimGone).isNotInstanceOf(RecordQuorumRecovery.class);
        // two survivors of five, none answering: which is newer is not known
        ClusterFixture ofFive = running(5, V).persistent().podGone("demo-a").podGone("demo-b").podGone("demo-c")
                .withoutClaim("demo-a").withoutClaim("demo-b").withoutClaim("demo-c").noAnswer();
        Step two = plan(ofFive.quorumLoss(new QuorumLoss(QuorumLoss.FROM_SURVIVOR, GRACE, LONG_AGO, null, UID, false,
                null, null, ofFive.memberNames())));
        assertRecoveryReason(two, QuorumRecoveryPlanner.NO_MEMBER_ANSWERS);
        assertThat(((QuorumLost) two).recoveryMessage()).contains("demo-d, demo-e", "newest data cannot be known");
    }

    /**
     * From the survivor's claim: its pod goes first (its etcd must have stopped, and its claim be free), then the
     * member copies the database and starts alone; once it answers, the old claims go and the cluster grows back.
     */
    @Test
    void fromTheSurvivorsClaimItsPodGoesFirstThenTheMemberCopiesThenTheOldClaimsGo() {
        String member = "demo-r000000000";
        QuorumLoss.Recovery recovery = QuorumLoss.Recovery.fromClaim("demo-c", member);
        ClusterFixture f = twoOfThreeLostOnClaimsNoneAnswering().quorumLoss(new QuorumLoss(QuorumLoss.FROM_SURVIVOR,
                GRACE, LONG_AGO, null, UID, false, recovery, null, VOTERS));
        assertThat(plan(f)).isEqualTo(new StopSurvivor("demo-c", member, List.of("demo-c")));
        f.podTerminating("demo-c");
        assertThat(plan(f)).isInstanceOfSatisfying(Wait.class,
                w -> assertThat(w.reason()).isEqualTo(Wait.POD_TERMINATING));
        f.podGone("demo-c");
        assertThat(plan(f)).isEqualTo(new CreateRecoveryMember(member, NAMING.peerUrl(member), "demo-c", V, true));
        f.claim(member).podOnlyBeforeEtcd(member, false);
        assertThat(plan(f)).isInstanceOfSatisfying(Wait.class, w -> {
            assertThat(w.reason()).isEqualTo(Wait.RECOVERY_MEMBER_STARTING);
            assertThat(w.message()).contains("demo-c's claim");
        });
        f.podOnlyBeforeEtcd(member, true);
        assertThat(plan(f)).as("its copy failed").isEqualTo(new DeletePod(member, DeletePod.RECOVERY_MEMBER_FAILED));
        f.podOnly(member, true, false).survivorClaimMounted(member);
        assertThat(plan(f)).as("not answered yet: the survivor's claim stays").isInstanceOfSatisfying(Wait.class,
                w -> assertThat(w.reason()).isEqualTo(Wait.RECOVERY_MEMBER_STARTING));
        f.oneMemberCluster(member).survivorClaimMounted(member);
        assertThat(QuorumRecoveryPlanner.recovered(f.observe())).as("claims left").isFalse();
        f.quorumLoss(new QuorumLoss(QuorumLoss.FROM_SURVIVOR, GRACE, LONG_AGO, null, UID, false,
                recovery.answeredAt(12), null, VOTERS));
        assertThat(plan(f)).isEqualTo(new RetireSurvivor("demo-c", member, List.of("demo-c")));
        // the survivor's claim, deleted, goes once the member's pod no longer mounts it: made again on its own claim
        f.withoutClaim("demo-c");
        assertThat(QuorumRecoveryPlanner.recovered(f.observe())).isFalse();
        assertThat(plan(f)).isEqualTo(new DeletePod(member, DeletePod.RECOVERY_MEMBER_RELEASES_CLAIM));
        f.podTerminating(member);
        assertThat(plan(f)).isInstanceOfSatisfying(Wait.class,
                w -> assertThat(w.reason()).isEqualTo(Wait.POD_TERMINATING));
        f.podGone(member);
        assertThat(plan(f)).isEqualTo(new Step.CreateMemberPod(member, NAMING.peerUrl(member), Step.STATE_EXISTING, V,
                Step.CreateMemberPod.RECREATING_IN_PLACE));
        f.oneMemberCluster(member);
        assertThat(QuorumRecoveryPlanner.recovered(f.observe())).isTrue();
        assertThat(plan(f)).isInstanceOf(AddMember.class);
    }

    /**
     * From a claim, the member's data is on its own claim: a pod of it that ended, its etcd started or not, goes, its
     * claim kept, and it is made again (from the survivor's claim while that is there, keeping the data directory it
     * finds; on its own claim once the survivor's is gone). With both claims gone, nothing is left, and that is said.
     */
    @Test
    void fromTheSurvivorsClaimAMemberPodThatEndsIsMadeAgainOnItsClaimAndClaimsGoneAreSaid() {
        String member = "demo-r000000000";
        QuorumLoss.Recovery recovery = QuorumLoss.Recovery.fromClaim("demo-c", member);
        ClusterFixture ended = twoOfThreeLostOnClaimsNoneAnswering().podGone("demo-c").claim(member)
                .podOnly(member, false, true).quorumLoss(new QuorumLoss(QuorumLoss.FROM_SURVIVOR, GRACE, LONG_AGO,
                        null, UID, false, recovery, null, VOTERS));
        assertThat(plan(ended)).isEqualTo(new DeletePod(member, DeletePod.POD_STOPPED));
        ended.podGone(member);
        assertThat(plan(ended)).isEqualTo(new CreateRecoveryMember(member, NAMING.peerUrl(member), "demo-c", V, true));
        ended.withoutClaim("demo-c");
        assertThat(plan(ended)).isEqualTo(new Step.CreateMemberPod(member, NAMING.peerUrl(member),
                Step.STATE_EXISTING, V, Step.CreateMemberPod.RECREATING_IN_PLACE));

        ClusterFixture claimsGone = twoOfThreeLostOnClaimsNoneAnswering().podGone("demo-c").withoutClaim("demo-c")
                .quorumLoss(new QuorumLoss(QuorumLoss.FROM_SURVIVOR, GRACE, LONG_AGO, null, UID, false, recovery,
                        null, VOTERS));
        Step nothing = plan(claimsGone);
        assertRecoveryReason(nothing, QuorumRecoveryPlanner.SURVIVOR_LOST);
        assertThat(((QuorumLost) nothing).message()).contains("claims of survivor demo-c and of member " + member);
        // the member made again on a claim of its own that holds nothing (the survivor's claim deleted by hand)
        assertRecoveryReason(plan(claimsGone.claim(member).podOnlyBeforeEtcd(member, false)
                .podDataMissingOnly(member)), QuorumRecoveryPlanner.SURVIVOR_LOST);
    }

    /** A member whose copy keeps failing is made again five times, then the operator stops and says what to do. */
    @Test
    void aRecoveryMemberWhoseCopyKeepsFailingIsMadeAgainFiveTimesThenItIsSaid() {
        String member = "demo-r000000000";
        for (boolean fromClaim : new boolean[] {false, true}) {
            QuorumLoss.Recovery recovery = fromClaim ? QuorumLoss.Recovery.fromClaim("demo-c", member)
                    : new QuorumLoss.Recovery("demo-c", member, 480, 950, null);
            ClusterFixture f = (fromClaim ? twoOfThreeLostOnClaimsNoneAnswering().podGone("demo-c").claim(member)
                    : twoOfThreeLost()).podOnlyBeforeEtcd(member, true);
            f.quorumLoss(new QuorumLoss(QuorumLoss.FROM_SURVIVOR, GRACE, LONG_AGO, null, UID, false,
                    recovery.withFailedCopies(4), null, VOTERS));
            assertThat(plan(f)).isEqualTo(new DeletePod(member, DeletePod.RECOVERY_MEMBER_FAILED));
            f.quorumLoss(new QuorumLoss(QuorumLoss.FROM_SURVIVOR, GRACE, LONG_AGO, null, UID, false,
                    recovery.withFailedCopies(5), null, VOTERS));
            Step stopped = plan(f);
            assertRecoveryReason(stopped, QuorumRecoveryPlanner.RECOVERY_COPY_FAILING);
            assertThat(((QuorumLost) stopped).recoveryMessage()).contains("after 5 earlier pods did",
                    "kubectl logs " + member + " -c " + (fromClaim ? "copy-survivor-database" : "copy-survivor-snapshot"),
                    "delete pod " + member + " to try once more");
            // deleted by a person: made once more
            f.podGone(member);
            assertThat(plan(f)).isInstanceOf(CreateRecoveryMember.class);
        }
    }

    /** Only the claims of the old cluster's members go: a claim no recorded voter names is left alone. */
    @Test
    void fromTheSurvivorsClaimOnlyTheOldMembersClaimsAreRetired() {
        String member = "demo-r000000000";
        ClusterFixture f = twoOfThreeLostOnClaimsNoneAnswering().podGone("demo-c").claim("demo-b").claim("demo-x")
                .claim(member).oneMemberCluster(member).survivorClaimMounted(member)
                .quorumLoss(new QuorumLoss(QuorumLoss.FROM_SURVIVOR, GRACE, LONG_AGO, null, UID, false,
                        QuorumLoss.Recovery.fromClaim("demo-c", member).answeredAt(3), null, VOTERS));
        assertThat(plan(f)).isEqualTo(new RetireSurvivor("demo-c", member, List.of("demo-b", "demo-c")));
        f.withoutClaim("demo-b").withoutClaim("demo-c");
        assertThat(plan(f)).isEqualTo(new DeletePod(member, DeletePod.RECOVERY_MEMBER_RELEASES_CLAIM));
    }

    /** On claims, demo-a and demo-b gone with their claims; demo-c's pod runs, its etcd started again, serving nothing. */
    private static ClusterFixture twoOfThreeLostOnClaimsNoneAnswering() {
        return running(3, V).persistent().podGone("demo-a").podGone("demo-b").withoutClaim("demo-a")
                .withoutClaim("demo-b").noAnswer();
    }

    /** As {@link #twoOfThreeLost()}, but the survivor's etcd started again and answers nothing. */
    private static ClusterFixture twoOfThreeLostNoneAnswering() {
        return running(3, V).podStopped("demo-a").podStopped("demo-b").noAnswer();
    }

    private static QuorumLoss fromBackup(Instant since, QuorumLoss.Backup backup, List<String> voters) {
        return new QuorumLoss(QuorumLoss.FROM_BACKUP, GRACE, since, null, UID, false, null, backup, voters);
    }
}
