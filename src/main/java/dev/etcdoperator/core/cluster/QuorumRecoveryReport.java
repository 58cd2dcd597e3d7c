package dev.etcdoperator.core.cluster;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import dev.etcdoperator.api.v1beta2.Condition;
import dev.etcdoperator.api.v1beta2.EtcdClusterStatus;
import dev.etcdoperator.api.v1beta2.QuorumRecoveryStatus;
import dev.etcdoperator.core.cluster.Step.CreateRecoveryMember;
import dev.etcdoperator.core.cluster.Step.CreateRestore;
import dev.etcdoperator.core.cluster.Step.DeletePod;
import dev.etcdoperator.core.cluster.Step.QuorumLost;
import dev.etcdoperator.core.cluster.Step.RecordQuorumRecovery;
import dev.etcdoperator.core.cluster.Step.RetireSurvivor;
import dev.etcdoperator.core.cluster.Step.Wait;
import dev.etcdoperator.core.status.Conditions;

/**
 * The status of a lost quorum: since when it is lost ({@code status.quorumLostSince}, which the grace period counts
 * from, across operator restarts), the recovery in progress ({@code status.quorumRecovery}), and the
 * {@code QuorumRecovery} condition, which appears with the first loss of quorum and then stays.
 */
final class QuorumRecoveryReport {
    static final String CONDITION = "QuorumRecovery";
    static final String REASON_QUORUM_HEALTHY = "QuorumHealthy";

    private QuorumRecoveryReport() {
    }

    /** The condition to set, if any; updates the status fields first. */
    static Optional<Condition> apply(EtcdClusterStatus status, ClusterObservation o, Step step, Instant now,
            boolean quorum) {
        Optional<Condition> before = Conditions.find(status.getConditions(), CONDITION);
        if (step instanceof QuorumLost || step instanceof RecordQuorumRecovery || step instanceof CreateRestore
                || step instanceof Step.AllMembersLost a && a.recoveryReason() != null) {
            if (status.getQuorumLostSince() == null && now != null) {
                status.setQuorumLostSince(now.toString());
            }
            List<String> voters = o.members().orElse(List.of()).stream().filter(m -> !m.learner())
                    .map(EtcdMember::name).filter(n -> !n.isEmpty()).sorted().toList();
            if (!voters.isEmpty()) {
                status.setQuorumLostVoters(new ArrayList<>(voters));
            }
        } else if (quorum && status.getQuorumRecovery() == null) {
            endLoss(status);
        }
        if (step instanceof RecordQuorumRecovery r) {
            QuorumRecoveryStatus record = new QuorumRecoveryStatus();
            record.setSurvivor(r.survivor());
            record.setMember(r.member());
            record.setRevision(r.revision());
            record.setRaftIndex(r.raftIndex());
            record.setFromClaim(r.fromClaim() ? Boolean.TRUE : null);
            record.setStartedAt(now == null ? null : now.toString());
            status.setQuorumRecovery(record);
            // the recovery member starts a new etcd cluster: the cluster's backups take it for the same one
            status.setLastSurvivorRecoveryDate(now == null ? null : now.toString());
            return Optional.of(condition(true, QuorumRecoveryPlanner.RECOVERING_FROM_SURVIVOR, r.message()));
        }
        if (step instanceof CreateRestore r) {
            QuorumRecoveryStatus record = new QuorumRecoveryStatus();
            record.setRestore(r.restore());
            record.setStartedAt(now == null ? null : now.toString());
            status.setQuorumRecovery(record);
            return Optional.of(condition(true, QuorumRecoveryPlanner.RESTORING_FROM_BACKUP, r.message()));
        }
        QuorumLoss.Recovery r = o.quorumLoss().recovery();
        if (r != null && r.member() != null && QuorumRecoveryPlanner.recovered(o)) {
            status.setQuorumRecovery(null);
            endLoss(status);
            return Optional.of(condition(false, QuorumRecoveryPlanner.RECOVERED, "Recovered from "
                    + (r.fromClaim() ? "the database on survivor " + r.survivor() + "'s claim" : "survivor "
                            + r.survivor() + " (revision " + r.revision() + ", raft index " + r.raftIndex() + ")")
                    + ": member "
                    + r.member() + " runs on its data as a new cluster, which grows back to " + o.desiredSize()
                    + " members. Writes that only the lost members had are lost."));
        }
        if (r != null && r.restore() != null && quorum) {
            status.setQuorumRecovery(null);
            endLoss(status);
            return Optional.of(condition(false, QuorumRecoveryPlanner.RECOVERED, "A majority is healthy again;"
                    + " EtcdRestore " + r.restore() + " was created to restore the cluster from a backup."));
        }
        if (step instanceof Step.AllMembersLost a && a.recoveryReason() != null) {
            return Optional.of(condition(false, a.recoveryReason(), a.recoveryMessage()));
        }
        if (step instanceof Step.AllMembersLost lost && before.isPresent()
                && !ClusterStatusBuilder.REASON_ALL_MEMBERS_LOST.equals(before.get().getReason())) {
            // what it said of the members that might come back, or of a survivor to recover from, holds no more
            return Optional.of(condition(false, ClusterStatusBuilder.REASON_ALL_MEMBERS_LOST, "No member is left to"
                    + " recover quorum from: every member is lost (see the Available condition)."));
        }
        if (step instanceof QuorumLost q && q.recoveryReason() != null) {
            boolean inProgress = QuorumRecoveryPlanner.RESTORING_FROM_BACKUP.equals(q.recoveryReason());
            return Optional.of(condition(inProgress, q.recoveryReason(), q.recoveryMessage()));
        }
        if (r != null && r.member() != null && (step instanceof CreateRecoveryMember || step instanceof RetireSurvivor
                || step instanceof Step.StopSurvivor || step instanceof Step.CreateMemberPod || step instanceof Wait
                || step instanceof DeletePod)) {
            return Optional.of(condition(true, QuorumRecoveryPlanner.RECOVERING_FROM_SURVIVOR, step.describe()));
        }
        if (quorum && before.isPresent() && !QuorumRecoveryPlanner.RECOVERED.equals(before.get().getReason())
                && !REASON_QUORUM_HEALTHY.equals(before.get().getReason())) {
            return Optional.of(condition(false, REASON_QUORUM_HEALTHY, "A majority of the voting members is healthy:"
                    + " nothing to recover."));
        }
        return Optional.empty();
    }

    /** A pod of the recovery's member that ended before its etcd started was deleted: counted. */
    static void countFailedCopy(EtcdClusterStatus status, Step step) {
        QuorumRecoveryStatus record = status.getQuorumRecovery();
        if (record != null && step instanceof DeletePod d && DeletePod.RECOVERY_MEMBER_FAILED.equals(d.reason())
                && d.name().equals(record.getMember())) {
            record.setFailedCopies(record.getFailedCopies() == null ? 1 : record.getFailedCopies() + 1);
        }
    }

    private static void endLoss(EtcdClusterStatus status) {
        status.setQuorumLostSince(null);
        status.setQuorumLostVoters(null);
    }

    private static Condition condition(boolean value, String reason, String message) {
        return new Condition(CONDITION, value ? Conditions.TRUE : Conditions.FALSE, reason, message);
    }
}
