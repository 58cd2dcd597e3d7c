package dev.etcdoperator.cluster;

import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

import dev.etcdoperator.api.v1beta2.ClusterAnnotations;
import dev.etcdoperator.api.v1beta2.EtcdBackup;
import dev.etcdoperator.api.v1beta2.EtcdBackupStatus;
import dev.etcdoperator.api.v1beta2.EtcdCluster;
import dev.etcdoperator.api.v1beta2.EtcdClusterStatus;
import dev.etcdoperator.api.v1beta2.QuorumLossRecovery;
import dev.etcdoperator.api.v1beta2.QuorumRecoveryStatus;
import dev.etcdoperator.core.cluster.ClusterStatusBuilder;
import dev.etcdoperator.core.cluster.QuorumLoss;
import dev.etcdoperator.core.cluster.QuorumRecoveryPlanner;
import dev.etcdoperator.core.status.Conditions;

/** What an EtcdCluster (spec, status, annotations) and its backups say about a lost quorum, for the planner. */
final class QuorumLossView {
    private QuorumLossView() {
    }

    static QuorumLoss of(EtcdCluster cluster, List<EtcdBackup> backups) {
        QuorumLossRecovery spec = cluster.getSpec().getQuorumLossRecovery();
        String policy = spec == null ? QuorumLossRecovery.MANUAL : spec.policyOrDefault();
        Duration grace = Duration.ofSeconds(spec == null ? QuorumLossRecovery.DEFAULT_GRACE_PERIOD_SECONDS
                : spec.gracePeriodSecondsOrDefault());
        EtcdClusterStatus status = cluster.getStatus();
        Map<String, String> annotations = cluster.getMetadata().getAnnotations();
        String approval = annotations == null ? null : annotations.get(ClusterAnnotations.RECOVER_QUORUM);
        boolean awaiting = status != null && Conditions.find(status.getConditions(),
                ClusterStatusBuilder.QUORUM_RECOVERY).map(c -> QuorumRecoveryPlanner.WAITING_FOR_PERSON
                        .equals(c.getReason()) || QuorumRecoveryPlanner.APPROVAL_REFUSED.equals(c.getReason()))
                .orElse(false);
        return new QuorumLoss(policy, grace, status == null ? null : instant(status.getQuorumLostSince()), approval,
                cluster.getMetadata().getUid(), awaiting, status == null ? null : recovery(status.getQuorumRecovery(),
                        ClusterResources.naming(cluster)),
                QuorumLossRecovery.FROM_BACKUP.equals(policy) ? newestBackup(cluster, backups) : null,
                status == null ? null : status.getQuorumLostVoters());
    }

    /** A survivor's claim is mounted only under a member's name of this cluster, whatever the status says. */
    private static QuorumLoss.Recovery recovery(QuorumRecoveryStatus r, dev.etcdoperator.core.cluster.MemberNaming naming) {
        if (r == null || (r.getSurvivor() == null || r.getMember() == null) && r.getRestore() == null) {
            return null;
        }
        return new QuorumLoss.Recovery(r.getSurvivor(), r.getMember(), r.getRevision() == null ? 0 : r.getRevision(),
                r.getRaftIndex() == null ? 0 : r.getRaftIndex(), r.getRestore(), -1, QuorumLoss.RestoreSeen.RUNNING,
                Boolean.TRUE.equals(r.getFromClaim()) && r.getMember() != null && naming.isMemberName(r.getSurvivor()),
                r.getFailedCopies() == null ? 0 : Math.max(0, r.getFailedCopies()));
    }

    /**
     * The newest backup taken of this very cluster (its uid), or of the one it was restored in place of (until a
     * backup of its own is newer), that succeeded and whose checksum was recorded; the restore's preflight checks it
     * again before anything is deleted.
     */
    static QuorumLoss.Backup newestBackup(EtcdCluster cluster, List<EtcdBackup> backups) {
        String uid = cluster.getMetadata().getUid();
        List<String> restoredFrom = RestoredFrom.uids(cluster);
        String name = cluster.getMetadata().getName();
        return backups.stream()
                .filter(b -> b.getSpec() != null && b.getSpec().getS3() != null && b.getStatus() != null)
                .filter(b -> b.getStatus().getClusterUID() != null)
                .filter(b -> b.getStatus().getClusterUID().equals(uid)
                        || restoredFrom.contains(b.getStatus().getClusterUID()) && b.getSpec().getEtcdCluster() != null
                                && name.equals(b.getSpec().getEtcdCluster().getName()))
                .filter(b -> b.getStatus().getBackupPath() != null && b.getStatus().getBackupSha256() != null
                        && instant(b.getStatus().getLastSuccessDate()) != null)
                .max(Comparator.comparing((EtcdBackup b) -> instant(b.getStatus().getLastSuccessDate())))
                .map(b -> {
                    EtcdBackupStatus s = b.getStatus();
                    return new QuorumLoss.Backup(b.getMetadata().getName(), s.getBackupPath(), s.getLastSuccessDate());
                })
                .orElse(null);
    }

    private static Instant instant(String time) {
        if (time == null) {
            return null;
        }
        try {
            return Instant.parse(time);
        } catch (DateTimeParseException e) {
            return null;
        }
    }
}
