package dev.etcdoperator.core.cluster;

import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

import dev.etcdoperator.api.v1beta2.ClusterAnnotations;
import dev.etcdoperator.core.cluster.ClusterPlanner.Seat;
import dev.etcdoperator.core.cluster.Step.CreateRecoveryMember;
import dev.etcdoperator.core.cluster.Step.CreateRestore;
import dev.etcdoperator.core.cluster.Step.DeletePod;
import dev.etcdoperator.core.cluster.Step.QuorumLost;
import dev.etcdoperator.core.cluster.Step.RecordQuorumRecovery;
import dev.etcdoperator.core.cluster.Step.RetireSurvivor;
import dev.etcdoperator.core.cluster.Step.StopSurvivor;
import dev.etcdoperator.core.cluster.Step.Wait;

/**
 * What to do about a lost quorum: wait (the default), or recover, only once a majority of the voting members is
 * <em>lost for good</em> and has been for the grace period. Pure.
 *
 * <p>A voting member is lost for good when it started and its data can never come back: without claims, its pod is
 * gone (not merely terminating) or has ended (an ended pod never runs again, and its emptyDir goes with it); on
 * claims, its pod is gone and so is its claim. A member whose pod runs but does not answer, starts, terminates, or
 * whose claim is still there may come back: the operator then waits, as it always did. The <em>survivors</em> are the
 * voting members that are not lost for good; every one of them must answer etcd's status call (served without a
 * leader) so that the newest is known: the one with the highest raft index, then the highest revision.
 *
 * <p>Recovering from the survivor takes four steps, one per reconcile: {@link RecordQuorumRecovery} (the survivor and
 * a fresh member name go into the status first), {@link CreateRecoveryMember} (a pod whose init containers copy a
 * snapshot of the survivor and restore it as a one-member cluster), {@link RetireSurvivor} once that pod runs (every
 * other pod is of the old cluster and goes; a survivor is never ready without quorum, so only one cluster ever stands
 * behind the client Service), then, once the new member answers alone, the usual
 * planning grows the one-member cluster back to {@code spec.size}, one learner at a time. From a backup:
 * {@link CreateRestore}, and the restore controller takes over.
 */
public final class QuorumRecoveryPlanner {
    /** Some members that do not answer may come back: the operator waits. */
    public static final String MAY_COME_BACK = "LostMembersMayComeBack";
    /** No member answers at all: nothing can be read, the operator waits. */
    public static final String NO_MEMBER_ANSWERS = "NoMemberAnswers";
    /** A majority is lost for good; the grace period runs. */
    public static final String GRACE_PERIOD = "GracePeriod";
    /** A survivor does not answer its status call: the newest data is not known. */
    public static final String SURVIVOR_NOT_ANSWERING = "SurvivorNotAnswering";
    /** Every voting member is lost for good. */
    public static final String NO_SURVIVOR = "NoSurvivor";
    /** Manual policy: the status says what a person can do. */
    public static final String WAITING_FOR_PERSON = "WaitingForPerson";
    /** The recover-quorum annotation names another uid. */
    public static final String APPROVAL_REFUSED = "ApprovalRefused";
    /** FromBackup and no successful backup of this cluster. */
    public static final String NO_BACKUP = "NoVerifiedBackup";
    /** The survivor's pod stopped before its data was copied. */
    public static final String SURVIVOR_LOST = "SurvivorLost";
    /** In progress (True). */
    public static final String RECOVERING_FROM_SURVIVOR = "RecoveringFromSurvivor";
    public static final String RESTORING_FROM_BACKUP = "RestoringFromBackup";
    /** The EtcdRestore a recovery from a backup made failed: a person fixes the cause and deletes it. */
    public static final String RESTORE_FAILED = "RestoreFromBackupFailed";
    /** Done (False). */
    public static final String RECOVERED = "QuorumRecovered";
    /** Pods of the recovery's member keep ending before their etcd starts: the operator stops making it again. */
    public static final String RECOVERY_COPY_FAILING = "RecoveryCopyFailing";
    /** Pods of the recovery's member that may end before their etcd started, each made again, before it stops. */
    static final int MAX_FAILED_COPIES = 5;
    /** The recovery's member ended after the survivor was retired: its data is the only copy, and is kept. */
    public static final String RECOVERY_MEMBER_ENDED = "RecoveryMemberEnded";

    private QuorumRecoveryPlanner() {
    }

    /**
     * The next step of a recovery from the survivor the status records, until its member answers and the survivor's
     * pod is gone; empty when none is in progress (or it is done: the usual planning takes over).
     */
    static Optional<Step> inProgress(ClusterObservation o) {
        QuorumLoss.Recovery r = o.quorumLoss().recovery();
        if (r == null) {
            return Optional.empty();
        }
        if (r.member() == null) {
            if (r.restore() == null || ClusterHealth.of(o).quorum()) {
                return Optional.empty();
            }
            boolean ended = r.restoreSeen().gone() || r.restoreSeen().failure() != null;
            if (ended && !QuorumLoss.FROM_BACKUP.equals(o.quorumLoss().policy())) {
                // the policy changed since: the usual planning follows the new one
                return Optional.empty();
            }
            if (r.restoreSeen().gone()) {
                // deleted before it restored the cluster: made again (under the same name), as a person fixing the
                // cause of a failed one does by deleting it
                return Optional.of(fromBackup(o, r.restore(), "EtcdRestore " + r.restore() + ", made to restore this"
                        + " cluster from a backup, is gone."));
            }
            if (r.restoreSeen().failure() != null) {
                String m = "EtcdRestore " + r.restore() + ", made to restore this cluster from its newest backup,"
                        + " failed: " + r.restoreSeen().failure() + " Quorum is still lost. Fix the cause, then delete"
                        + " EtcdRestore " + r.restore() + ": the operator makes it again (kubectl describe etcdrestore "
                        + r.restore() + ").";
                return Optional.of(new QuorumLost(m, RESTORE_FAILED, m));
            }
            String m = "EtcdRestore " + r.restore() + " restores this cluster from a backup; the restore controller"
                    + " deletes and recreates it (kubectl describe etcdrestore " + r.restore() + ").";
            return Optional.of(new QuorumLost(m, RESTORING_FROM_BACKUP, m));
        }
        if (r.fromClaim()) {
            return fromClaimInProgress(o, r);
        }
        Optional<MemberPod> member = o.livePod(r.member());
        boolean survivorLive = o.livePod(r.survivor()).isPresent();
        if (!member.map(MemberPod::running).orElse(false)) {
            // once its etcd started the member may have served writes (ready, behind the client Service) that the
            // survivor lacks, whether or not the operator saw it answer
            boolean mayHoldWrites = member.isPresent() && (member.get().etcdStarted() || r.memberProven());
            if (member.isPresent() && member.get().stopped() && mayHoldWrites) {
                String why = survivorLive ? "after its etcd started (it may hold writes that survivor " + r.survivor()
                        + " lacks)" : "while survivor " + r.survivor() + " is retired or going (the member's data is"
                        + " the only copy left)";
                String m = "Member " + r.member() + ", which runs on the copy of survivor " + r.survivor() + "'s data,"
                        + " has ended " + why + ". The operator deletes nothing: read its logs (kubectl logs "
                        + r.member() + " -c etcd); if its data is lost, restore the cluster from a backup.";
                return Optional.of(new QuorumLost(m, RECOVERY_MEMBER_ENDED, m));
            }
            if (member.isPresent() && !mayHoldWrites && member.get().stopped()) {
                // ended with nothing of its own: its copy failed (the survivor went while it copied, say)
                return Optional.of(copyFailed(r, "copy-survivor-snapshot"));
            }
            if (member.isPresent()) {
                return Optional.of(new Wait(Wait.RECOVERY_MEMBER_STARTING, "Member " + r.member() + " copies a"
                        + " snapshot of survivor " + r.survivor() + " (revision " + r.revision() + ") and starts from"
                        + " it."));
            }
            if (o.terminatingPod(r.member())) {
                return Optional.of(new Wait(Wait.POD_TERMINATING, "Waiting for the old pod " + r.member()
                        + " to finish terminating before creating it again."));
            }
            Optional<MemberPod> survivor = o.livePod(r.survivor());
            if (survivor.isPresent() && survivor.get().stopped() && o.persistent()
                    && o.claims().contains(r.survivor())) {
                // its pod ended (evicted: the pod stays, Failed) but its data is on its claim: made anew there
                return Optional.of(new DeletePod(r.survivor(), DeletePod.POD_STOPPED));
            }
            if (survivor.isEmpty() && !o.terminatingPod(r.survivor()) && o.persistent()
                    && o.claims().contains(r.survivor())) {
                // its pod went (evicted, drained) but its data is on its claim: it comes back there first
                return Optional.of(new Step.CreateMemberPod(r.survivor(), o.naming().peerUrl(r.survivor()),
                        Step.STATE_EXISTING, ClusterPlanner.runningVersion(o), Step.CreateMemberPod.RECREATING_IN_PLACE));
            }
            if (!o.terminatingPod(r.survivor()) && (survivor.isEmpty() || survivor.get().stopped()
                    || survivor.get().dataMissing())) {
                // lost for good before its data was copied: the usual planning chooses among the survivors left
                return Optional.empty();
            }
            if (survivor.isEmpty() || !survivor.get().running()) {
                String m = "The pod of survivor " + r.survivor() + " does not run, and its data was not copied yet."
                        + " The operator waits for it; if it is lost too, restore the cluster from a backup.";
                return Optional.of(new QuorumLost(m, SURVIVOR_LOST, m));
            }
            return Optional.of(new CreateRecoveryMember(r.member(), o.naming().peerUrl(r.member()), r.survivor(),
                    ClusterPlanner.runningVersion(o)));
        }
        // the member runs on the copy: every other pod is of the old cluster (the survivor, other survivors, the
        // ended pods of the lost members), and must go before the member list is read again
        List<String> old = o.livePods().stream().map(MemberPod::name).filter(n -> !n.equals(r.member())).sorted()
                .toList();
        if (!old.isEmpty() && !r.memberProven()) {
            // the survivor's data is the only sure copy until the member serves what it copied
            return Optional.of(new Wait(Wait.RECOVERY_MEMBER_STARTING, "Member " + r.member() + " runs on a copy of"
                    + " survivor " + r.survivor() + "'s data; the survivor is kept until the member answers as a"
                    + " healthy one-member cluster with its writes (revision " + r.revision() + " or later)."));
        }
        Optional<Step> retiring = retireOldCluster(o, r, old, "a copy of survivor " + r.survivor() + "'s data");
        if (retiring.isPresent()) {
            return retiring;
        }
        if (recovered(o)) {
            return Optional.empty();
        }
        return Optional.of(new Wait(Wait.RECOVERY_MEMBER_STARTING, "Waiting for member " + r.member()
                + ", a one-member cluster on survivor " + r.survivor() + "'s data, to answer."));
    }

    /**
     * A recovery from the survivor's claim: the old cluster's pods go first (the survivor's etcd must have stopped
     * before its database is copied, and its claim be free to mount), then the member is created on the copy; once
     * it answers as a healthy one-member cluster, the old claims go, and its pod is made again on its own claim alone
     * (the survivor's claim goes only once no pod mounts it).
     */
    private static Optional<Step> fromClaimInProgress(ClusterObservation o, QuorumLoss.Recovery r) {
        Optional<MemberPod> member = o.livePod(r.member());
        List<String> old = o.livePods().stream().map(MemberPod::name).filter(n -> !n.equals(r.member())).sorted()
                .toList();
        boolean survivorClaim = o.claims().contains(r.survivor());
        String source = survivorClaim ? "the database on survivor " + r.survivor() + "'s claim"
                : "its own claim (the survivor's claim is gone)";
        if (member.isEmpty() || !member.get().running()) {
            if (member.isPresent() && member.get().stopped()) {
                // what its etcd wrote is on its own claim, which stays: its next pod keeps a data directory it finds
                return Optional.of(member.get().etcdStarted() ? new DeletePod(r.member(), DeletePod.POD_STOPPED)
                        : copyFailed(r, "copy-survivor-database"));
            }
            if (member.isPresent() && member.get().dataMissing()) {
                String m = "Member " + r.member() + " was made again on its claim, which holds none of its data, and"
                        + " the claim of survivor " + r.survivor() + " is gone: nothing is left to recover from. Restore"
                        + " the cluster from a backup with an EtcdRestore naming it.";
                return Optional.of(new QuorumLost(m, SURVIVOR_LOST, m));
            }
            if (member.isPresent()) {
                return Optional.of(new Wait(Wait.RECOVERY_MEMBER_STARTING, "Member " + r.member() + " starts from "
                        + source + " (kubectl describe pod " + r.member() + ")."));
            }
            if (!old.isEmpty()) {
                return Optional.of(new StopSurvivor(r.survivor(), r.member(), old));
            }
            if (!o.pods().isEmpty()) {
                return Optional.of(new Wait(Wait.POD_TERMINATING, "Waiting for pods " + String.join(", ", o.pods()
                        .stream().map(MemberPod::name).sorted().toList()) + " to finish terminating before member "
                        + r.member() + " starts from " + source + "."));
            }
            if (!survivorClaim && o.claims().contains(r.member())) {
                // the survivor's claim goes only once the member answered on the copy: made again on its own data
                return Optional.of(new Step.CreateMemberPod(r.member(), o.naming().peerUrl(r.member()),
                        Step.STATE_EXISTING, ClusterPlanner.runningVersion(o),
                        Step.CreateMemberPod.RECREATING_IN_PLACE));
            }
            if (!survivorClaim) {
                String m = "The claims of survivor " + r.survivor() + " and of member " + r.member() + " are gone:"
                        + " nothing is left to recover from. Restore the cluster from a backup with an EtcdRestore"
                        + " naming it.";
                return Optional.of(new QuorumLost(m, SURVIVOR_LOST, m));
            }
            return Optional.of(new CreateRecoveryMember(r.member(), o.naming().peerUrl(r.member()), r.survivor(),
                    ClusterPlanner.runningVersion(o), true));
        }
        if (!r.memberProven()) {
            return Optional.of(new Wait(Wait.RECOVERY_MEMBER_STARTING, "Waiting for member " + r.member() + ", a"
                    + " one-member cluster started from " + source + ", to answer"
                    + (survivorClaim ? "; that claim is kept until it does." : ".")));
        }
        // the claims of the old cluster's members: the recorded voters, the survivor, pods of the old cluster
        List<String> leftOver = java.util.stream.Stream.concat(old.stream(), o.claims().stream()
                .filter(c -> c.equals(r.survivor()) || o.quorumLoss().votersAtLoss().contains(c)))
                .filter(n -> !n.equals(r.member())).distinct().sorted().toList();
        Optional<Step> retiring = retireOldCluster(o, r, leftOver, "the copy of survivor " + r.survivor()
                + "'s database");
        if (retiring.isPresent()) {
            return retiring;
        }
        if (member.get().mountsSurvivorClaim()) {
            // the survivor's claim, deleted, goes only once no pod mounts it
            return Optional.of(new DeletePod(r.member(), DeletePod.RECOVERY_MEMBER_RELEASES_CLAIM));
        }
        if (recovered(o)) {
            return Optional.empty();
        }
        return Optional.of(new Wait(Wait.RECOVERY_MEMBER_STARTING, "Waiting for member " + r.member() + ", a"
                + " one-member cluster on the copy of survivor " + r.survivor() + "'s database, to answer alone."));
    }

    /**
     * Once the member answers on the copy, the old cluster goes: {@code leftOver}, what of it is left (pods and
     * claims), is retired, then its pods finish terminating; empty once both are done.
     *
     * @param copy what the member runs on, for the message
     */
    private static Optional<Step> retireOldCluster(ClusterObservation o, QuorumLoss.Recovery r, List<String> leftOver,
            String copy) {
        if (!leftOver.isEmpty()) {
            return Optional.of(new RetireSurvivor(r.survivor(), r.member(), leftOver));
        }
        if (o.pods().stream().anyMatch(p -> !p.name().equals(r.member()))) {
            return Optional.of(new Wait(Wait.POD_TERMINATING, "Waiting for the old cluster's pods to finish"
                    + " terminating; member " + r.member() + " runs on " + copy + "."));
        }
        return Optional.empty();
    }

    /**
     * A pod of the recovery's member ended before its etcd started (its copy or its restore failed): deleted to be made
     * again, until {@link #MAX_FAILED_COPIES} were; then the operator stops and says how to try again.
     */
    private static Step copyFailed(QuorumLoss.Recovery r, String copyContainer) {
        if (r.failedCopies() < MAX_FAILED_COPIES) {
            return new DeletePod(r.member(), DeletePod.RECOVERY_MEMBER_FAILED);
        }
        String m = "The pod of member " + r.member() + " ended before its etcd started, after " + r.failedCopies()
                + " earlier pods did: copying survivor " + r.survivor() + "'s data or restoring it fails (kubectl logs "
                + r.member() + " -c " + copyContainer + "; kubectl logs " + r.member() + " -c restore-snapshot). The"
                + " operator stops making it again. Fix the cause, then delete pod " + r.member() + " to try once"
                + " more; or restore the cluster from a backup.";
        return new QuorumLost(m, RECOVERY_COPY_FAILING, m);
    }

    /**
     * The recovery's member answers as a healthy member, and no pod of the old cluster is left (from a claim: nor the
     * survivor's claim, and the member's pod mounts its own claim alone).
     */
    public static boolean recovered(ClusterObservation o) {
        QuorumLoss.Recovery r = o.quorumLoss().recovery();
        if (r == null || r.member() == null || o.pods().stream().anyMatch(p -> !p.name().equals(r.member()))
                || r.fromClaim() && (o.claims().contains(r.survivor())
                        || o.livePod(r.member()).map(MemberPod::mountsSurvivorClaim).orElse(true))) {
            return false;
        }
        return o.members().orElse(List.of()).stream()
                .anyMatch(m -> m.name().equals(r.member()) && o.healthy(m.id()));
    }

    /**
     * What a person can do for survivors whose etcd crash-loops on a release the members that answer do not run (an
     * upgrade that does not start on their data): set spec.version back, and the planner gives them that image.
     */
    private static String crashLoopingOnAnotherVersion(ClusterObservation o, List<Seat> survivors) {
        // the survivors that answer etcd's status call (without quorum none is healthy)
        Optional<String> running = survivors.stream()
                .map(s -> o.healthOf(s.member().id()).map(MemberHealth::version).flatMap(Version::parse))
                .flatMap(Optional::stream)
                .min(Comparator.naturalOrder()).map(Version::toString);
        if (running.isEmpty()) {
            return "";
        }
        List<String> looping = survivors.stream().filter(s -> s.pod().map(MemberPod::crashLooping).orElse(false))
                .filter(s -> !running.get().equals(ClusterPlanner.podVersion(o, s)))
                .map(s -> s.name() + " (etcd " + ClusterPlanner.podVersion(o, s) + ")").toList();
        return looping.isEmpty() ? "" : " The etcd of " + String.join(", ", looping) + " crash-loops on a release the"
                + " other members do not run: if it does not start on their data, set spec.version back to "
                + running.get() + ", and the operator gives them that image in place.";
    }

    /** Quorum is lost and the member list is known: wait, tell a person, or start a recovery. */
    static Step onQuorumLost(ClusterObservation o, List<Seat> seats, String lostMessage, Supplier<String> freshName) {
        List<Seat> voters = seats.stream().filter(s -> !s.learner()).toList();
        List<Seat> lost = voters.stream().filter(s -> lostForGood(o, s)).toList();
        List<Seat> survivors = voters.stream().filter(s -> !lostForGood(o, s)).toList();
        int majority = ClusterPlanner.majority(voters.size());
        QuorumLoss q = o.quorumLoss();
        if (survivors.size() >= majority) {
            List<String> away = survivors.stream().filter(s -> !s.healthy()).map(QuorumRecoveryPlanner::label).toList();
            return new QuorumLost(lostMessage, MAY_COME_BACK, "Quorum is lost, but members " + String.join(", ", away)
                    + " may come back (their pods run, start, start their etcd again or terminate, or their data is on"
                    + " claims): " + survivors.size() + " of " + voters.size() + " voting members are not lost for"
                    + " good, and etcd"
                    + " needs " + majority + ". The operator waits for them and recovers nothing."
                    + crashLoopingOnAnotherVersion(o, survivors));
        }
        String lostNames = String.join(", ", lost.stream().map(QuorumRecoveryPlanner::label).toList());
        String what = "Quorum is lost for good: voting members " + lostNames + " are gone with their data ("
                + (o.persistent() ? "their claims are gone, and their pods gone or ended" : "their pods ended or are gone, and their data"
                        + " was not on claims") + "); " + survivors.size() + " of " + voters.size() + " survive, etcd"
                + " needs " + majority + ".";
        Instant since = q.lostSince();
        Instant now = o.now();
        if (since == null || now == null || now.isBefore(since.plus(q.gracePeriod()))) {
            String until = since == null || now == null ? q.gracePeriod().toSeconds() + " s from now"
                    : since.plus(q.gracePeriod()).toString();
            return new QuorumLost(lostMessage, GRACE_PERIOD, what + " Waiting for the grace period of "
                    + q.gracePeriod().toSeconds() + " s (spec.quorumLossRecovery.gracePeriodSeconds) to end, at "
                    + until + ", before " + (QuorumLoss.MANUAL.equals(q.policy()) ? "saying what a person can do."
                            : "recovering (policy " + q.policy() + ")."));
        }
        if (QuorumLoss.FROM_BACKUP.equals(q.policy())) {
            return fromBackup(o, o.cluster() + "-quorum-" + Long.toString(since.getEpochSecond(), 36), what);
        }
        if (survivors.isEmpty()) {
            return new QuorumLost(lostMessage, NO_SURVIVOR, what + " No member survives to recover from: restore the"
                    + " cluster from a backup with an EtcdRestore naming it (see the restore guide).");
        }
        List<String> silent = survivors.stream().filter(s -> !answered(o, s)).map(QuorumRecoveryPlanner::label)
                .toList();
        if (!silent.isEmpty()) {
            return new QuorumLost(lostMessage, SURVIVOR_NOT_ANSWERING, what + " Survivor" + (silent.size() > 1 ? "s " : " ")
                    + String.join(", ", silent) + " did not answer etcd's status call, so which survivor has the newest"
                    + " data is not known: the operator waits until every survivor answers.");
        }
        Seat newest = survivors.stream().max(Comparator.comparingLong((Seat s) -> s.raftIndex())
                .thenComparingLong(s -> revision(o, s)).thenComparing(Seat::name, Comparator.reverseOrder())).get();
        String choice = "Survivor " + newest.name() + " has the newest data (raft index " + newest.raftIndex()
                + ", revision " + revision(o, newest) + ")" + others(o, survivors, newest) + ".";
        String lossNote = " Writes that only the lost members had (after revision " + revision(o, newest)
                + ") are lost.";
        if (QuorumLoss.FROM_SURVIVOR.equals(q.policy()) || q.approved()) {
            String member = freshName.get();
            return new RecordQuorumRecovery(newest.name(), member, revision(o, newest), newest.raftIndex(),
                    !QuorumLoss.FROM_SURVIVOR.equals(q.policy()), what + " " + choice + " Recovering from it ("
                    + (q.approved() ? "approved by the " + ClusterAnnotations.RECOVER_QUORUM + " annotation"
                            : "policy FromSurvivor") + "): member " + member + " starts as a one-member cluster from a"
                    + " snapshot of " + newest.name() + ", then the cluster grows back to " + o.desiredSize()
                    + " members." + lossNote);
        }
        return awaitingPerson(o, lostMessage, what + " " + choice, lossNote, newest.name());
    }

    /**
     * Every member is lost with its data (no pod runs one, no claim holds one): with policy FromBackup, once the grace
     * period is over, the cluster is restored from its newest backup; empty with any other policy, or when a person
     * asked for a reseed.
     */
    static Optional<Step> onEveryMemberLost(ClusterObservation o, String lostMessage) {
        QuorumLoss q = o.quorumLoss();
        if (!QuorumLoss.FROM_BACKUP.equals(q.policy()) || o.reseedRequested()) {
            return Optional.empty();
        }
        Instant since = q.lostSince();
        Instant now = o.now();
        if (since == null || now == null || now.isBefore(since.plus(q.gracePeriod()))) {
            String until = since == null || now == null ? q.gracePeriod().toSeconds() + " s from now"
                    : since.plus(q.gracePeriod()).toString();
            // reported as every member lost: a reseed may still be asked for, and a restore holding the cluster sees it
            return Optional.of(new Step.AllMembersLost(lostMessage, GRACE_PERIOD, "Every member is lost with its data."
                    + " Waiting for the grace period of " + q.gracePeriod().toSeconds() + " s"
                    + " (spec.quorumLossRecovery.gracePeriodSeconds) to end, at " + until + ", before restoring it"
                    + " from its newest backup (policy FromBackup)."));
        }
        return Optional.of(fromBackup(o, o.cluster() + "-quorum-" + Long.toString(since.getEpochSecond(), 36),
                "Every member is lost with its data."));
    }

    /**
     * Quorum is lost and no member answers at all. The voters the status recorded while the loss was seen with a
     * member list still tell whether a majority is lost for good (a survivor whose etcd started again serves nothing
     * until a majority is back, which it then never is): if so, under {@code FromBackup} the cluster is restored from
     * its newest backup as it would be with that survivor answering, and under the other policies the message says
     * what a person can do. Without such a record nothing is known to recover from.
     */
    static Step noMemberAnswers(ClusterObservation o, String lostMessage, Supplier<String> freshName) {
        QuorumLoss q = o.quorumLoss();
        List<String> voters = q.votersAtLoss();
        if (voters.isEmpty() || q.lostSince() == null) {
            return noMemberAnswers(lostMessage);
        }
        List<String> lost = voters.stream().filter(n -> lostForGood(o, n)).toList();
        int majority = ClusterPlanner.majority(voters.size());
        if (voters.size() - lost.size() >= majority) {
            return noMemberAnswers(lostMessage);
        }
        String what = "Quorum is lost for good: voting members " + String.join(", ", lost) + " are gone with their"
                + " data, and no member left answers (a member whose etcd started again without a majority serves"
                + " nothing); " + (voters.size() - lost.size()) + " of " + voters.size() + " survive, etcd needs "
                + majority + ".";
        List<String> left = voters.stream().filter(n -> !lost.contains(n)).toList();
        // one survivor only: which of several has the newest data is known from their etcd alone
        boolean onClaim = left.size() == 1 && o.persistent() && o.claims().contains(left.get(0))
                && !o.terminatingPod(left.get(0));
        if (!QuorumLoss.FROM_BACKUP.equals(q.policy()) && !onClaim) {
            String why = left.size() > 1 && o.persistent() ? ", and which of them has the newest data cannot be known"
                    : "";
            return new QuorumLost(lostMessage, NO_MEMBER_ANSWERS, what + " The data of " + String.join(", ", left)
                    + " cannot be read through etcd" + why + ", so the operator recovers nothing (policy "
                    + q.policy() + "): restore the cluster from a backup with an EtcdRestore naming it (see the"
                    + " restore guide), or set spec.quorumLossRecovery.policy to FromBackup to have it restored from"
                    + " its newest backup.");
        }
        Instant now = o.now();
        if (now == null || now.isBefore(q.lostSince().plus(q.gracePeriod()))) {
            return new QuorumLost(lostMessage, GRACE_PERIOD, what + " Waiting for the grace period of "
                    + q.gracePeriod().toSeconds() + " s (spec.quorumLossRecovery.gracePeriodSeconds) to end, at "
                    + q.lostSince().plus(q.gracePeriod()) + ", before " + (QuorumLoss.MANUAL.equals(q.policy())
                            ? "saying what a person can do." : "recovering (policy " + q.policy() + ")."));
        }
        if (QuorumLoss.FROM_BACKUP.equals(q.policy())) {
            return fromBackup(o, o.cluster() + "-quorum-" + Long.toString(q.lostSince().getEpochSecond(), 36), what);
        }
        return fromSurvivorsClaim(o, left.get(0), what, lostMessage, freshName);
    }

    /**
     * The only survivor serves nothing, but its data is on its claim: with policy FromSurvivor or a person's approval,
     * its pod goes and a new member starts from the database on the claim; under Manual, the steps.
     */
    private static Step fromSurvivorsClaim(ClusterObservation o, String survivor, String what, String lostMessage,
            Supplier<String> freshName) {
        QuorumLoss q = o.quorumLoss();
        String lossNote = " Writes that only the lost members had are lost, and so may be the survivor's last writes"
                + " that its etcd had not yet applied.";
        if (QuorumLoss.FROM_SURVIVOR.equals(q.policy()) || q.approved()) {
            String member = freshName.get();
            return new RecordQuorumRecovery(survivor, member, 0, 0, !QuorumLoss.FROM_SURVIVOR.equals(q.policy()),
                    what + " Recovering from survivor " + survivor + "'s claim (" + (q.approved() ? "approved by the "
                            + ClusterAnnotations.RECOVER_QUORUM + " annotation" : "policy FromSurvivor") + "): its pod"
                    + " is deleted, its claim kept, then member " + member + " starts as a one-member cluster from the"
                    + " database on that claim, and the cluster grows back to " + o.desiredSize() + " members."
                    + lossNote, true);
        }
        return awaitingPerson(o, lostMessage, what, lossNote, "the database on " + survivor + "'s claim (its pod is"
                + " deleted first)");
    }

    /**
     * A voter known by name, by its pod and claim alone (also when no member answers): its pod is gone or ended, and
     * on claims its claim is gone too, or its claim holds none of its data; never while its pod terminates.
     */
    private static boolean lostForGood(ClusterObservation o, String name) {
        if (o.terminatingPod(name)) {
            return false;
        }
        Optional<MemberPod> pod = o.livePod(name);
        boolean podGone = pod.isEmpty() || pod.get().stopped();
        if (o.persistent()) {
            return pod.map(MemberPod::dataMissing).orElse(false) || podGone && !o.claims().contains(name);
        }
        return podGone;
    }

    /** Quorum is lost and no member answers the member list: nothing is known to recover from. */
    static QuorumLost noMemberAnswers(String lostMessage) {
        return new QuorumLost(lostMessage, NO_MEMBER_ANSWERS, "No member answers, so which members are lost for good"
                + " and which survivor is newest is not known: the operator waits and recovers nothing.");
    }

    /** @param restore named after the loss, so that a reconcile that created it but failed to record it cannot create a second */
    private static Step fromBackup(ClusterObservation o, String restore, String what) {
        QuorumLoss.Backup b = o.quorumLoss().newestBackup();
        if (b == null) {
            return new QuorumLost(what, NO_BACKUP, what + " The policy is FromBackup, but no EtcdBackup of this"
                    + " cluster has succeeded: the operator creates nothing. Take a backup elsewhere and restore it, or"
                    + " choose policy FromSurvivor.");
        }
        return new CreateRestore(restore, b, what + " Restoring it from its newest successful backup, EtcdBackup "
                + b.name() + (b.path() == null ? "" : " (" + b.path() + ")") + (b.takenAt() == null ? ""
                        : ", taken " + b.takenAt()) + ", with EtcdRestore " + restore + ": writes after that backup"
                + " are lost.");
    }

    /**
     * Policy Manual, a recovery possible: what was {@code said}, what is lost, and how a person approves it (or that
     * the approval given names another uid).
     *
     * @param source what the recovery would be made from
     */
    private static QuorumLost awaitingPerson(ClusterObservation o, String lostMessage, String said, String lossNote,
            String source) {
        QuorumLoss q = o.quorumLoss();
        String steps = manualSteps(o, source);
        if (q.approvalForAnotherUid()) {
            return new QuorumLost(lostMessage, APPROVAL_REFUSED, said + " The annotation "
                    + ClusterAnnotations.RECOVER_QUORUM + "=" + q.approval() + " is refused: it must name this"
                    + " cluster's uid, " + q.uid() + "." + lossNote + " " + steps);
        }
        return new QuorumLost(lostMessage, WAITING_FOR_PERSON, said + lossNote + " " + steps);
    }

    private static String manualSteps(ClusterObservation o, String source) {
        String c = o.cluster();
        String ns = o.namespace();
        return "The operator waits for a person (policy Manual). To recover from " + source + ", approve it once:"
                + " kubectl -n " + ns + " annotate etcdcluster " + c + " " + ClusterAnnotations.RECOVER_QUORUM
                + "=$(kubectl -n " + ns + " get etcdcluster " + c + " -o jsonpath='{.metadata.uid}'). Or restore the"
                + " cluster from a backup with an EtcdRestore naming it. Or set spec.quorumLossRecovery.policy to"
                + " FromSurvivor or FromBackup.";
    }

    private static String others(ClusterObservation o, List<Seat> survivors, Seat chosen) {
        List<String> rest = survivors.stream().filter(s -> s != chosen).map(s -> s.name() + " has raft index "
                + s.raftIndex() + ", revision " + revision(o, s)).toList();
        return rest.isEmpty() ? "; it is the only survivor" : "; " + String.join("; ", rest);
    }

    /** A started voting member whose data can never come back (see the class comment). */
    static boolean lostForGood(ClusterObservation o, Seat s) {
        if (!s.started() || s.name().isEmpty() || s.healthy()) {
            return false;
        }
        return lostForGood(o, s.name())
                || o.persistent() && !o.terminatingPod(s.name()) && ClusterPlanner.pendingWithoutClaim(o, s);
    }

    private static boolean answered(ClusterObservation o, Seat s) {
        return s.podRunning() && o.healthOf(s.member().id()).map(h -> h.raftIndex() > 0).orElse(false);
    }

    private static long revision(ClusterObservation o, Seat s) {
        return o.healthOf(s.member().id()).map(MemberHealth::revision).orElse(0L);
    }

    private static String label(Seat s) {
        return s.name().isEmpty() ? s.member().hexId() : s.name();
    }
}
