package dev.etcdoperator.core.restore;

import java.util.Objects;

/**
 * Picks the next action of a restore from its recorded phase and what is seen of the cluster. The rules that
 * keep data safe: nothing is deleted unless the preflight passed and was recorded (phase {@link RestorePhase#Deleting}
 * with the template's uid saved); only the cluster with exactly that uid is ever deleted; a cluster of that name
 * that is neither the template nor this restore's own stops the restore; a restore does not start while another
 * one holds the template.
 */
public final class RestorePlanner {
    public static final String REASON_OTHER_RESTORE = "RestoreInProgress";
    public static final String REASON_CLUSTER_REPLACED = "ClusterReplacedMeanwhile";
    public static final String REASON_SEED_FAILED = "SeedRestoreFailed";
    public static final String REASON_SEED_STARTED_EMPTY = "SeedStartedEmpty";
    /**
     * How many times a seed whose download failed is started again with a fresh link before the restore fails: an
     * operator restart or a leader change refuses the link the seed had (links live in the operator's memory), and
     * the first retry cures that; a download that fails again and again has another cause.
     */
    public static final int SEED_RETRIES = 3;

    private RestorePlanner() {
    }

    /**
     * @param restore     this EtcdRestore's name
     * @param phase       the recorded phase (null: not started)
     * @param templateUid the uid of the template recorded when the preflight passed, or null
     */
    /**
     * @param createdUid the uid of the cluster this restore created ({@code status.restoredClusterUid}), or null
     *                   before it recorded one
     */
    public static RestoreAction next(String restore, RestorePhase phase, String templateUid, String createdUid,
            ClusterSeen cluster) {
        return next(restore, phase, templateUid, createdUid, cluster, 0);
    }

    /** @param seedRetries how many times the seed was started again after its download failed */
    public static RestoreAction next(String restore, RestorePhase phase, String templateUid, String createdUid,
            ClusterSeen cluster, int seedRetries) {
        if (phase == null || phase == RestorePhase.Preflight) {
            if (cluster.exists() && cluster.restoringBy() != null && !cluster.restoringBy().equals(restore)) {
                return new RestoreAction.Fail(REASON_OTHER_RESTORE, "EtcdRestore " + cluster.restoringBy()
                        + " is already restoring this cluster; nothing was changed");
            }
            return new RestoreAction.RunPreflight();
        }
        return switch (phase) {
            case Deleting -> deleting(restore, templateUid, createdUid, cluster);
            case Restoring -> restoring(restore, createdUid, cluster, seedRetries);
            case Growing -> growing(restore, createdUid, cluster);
            case Done, Failed -> new RestoreAction.Nothing();
            default -> throw new IllegalStateException("unknown phase " + phase);
        };
    }

    private static RestoreAction deleting(String restore, String templateUid, String createdUid, ClusterSeen cluster) {
        if (!cluster.exists()) {
            return cluster.podsLeft() > 0
                    ? new RestoreAction.Wait("waiting for " + cluster.podsLeft() + " pod(s) of the deleted cluster to go"
                            + (cluster.stuckPods() == null ? "" : ". " + cluster.stuckPods()))
                    : new RestoreAction.CreateCluster();
        }
        if (createdUid != null && createdUid.equals(cluster.uid())) {
            return new RestoreAction.Advance(RestorePhase.Restoring, "the restored cluster exists");
        }
        if (Objects.equals(cluster.uid(), templateUid)) {
            // the template, even when it names this restore as its maker: a cluster an earlier EtcdRestore of the
            // same name restored, restored again
            return cluster.deleting() ? new RestoreAction.Wait("waiting for the template cluster to be deleted")
                    : new RestoreAction.DeleteTemplate();
        }
        if (createdUid == null && restore.equals(cluster.restoredBy())) {
            // created before an operator restart, or by someone copying the annotation: creating again takes it
            // only if it is exactly what this restore creates
            return new RestoreAction.CreateCluster();
        }
        return new RestoreAction.Fail(REASON_CLUSTER_REPLACED, "another EtcdCluster of this name (uid " + cluster.uid()
                + ") appeared while the template was being deleted; it was left alone");
    }

    /** The cluster made its seed without the snapshot: it runs empty, and is no restore of the backup. */
    private static RestoreAction startedEmpty(ClusterSeen cluster) {
        return cluster.seedStartedEmpty() == null ? null : new RestoreAction.Fail(REASON_SEED_STARTED_EMPTY,
                "the restored cluster made its seed member without the snapshot (" + cluster.seedStartedEmpty()
                        + "). It was left as it is, empty: delete it and restore again from the backup");
    }

    private static RestoreAction restoring(String restore, String createdUid, ClusterSeen cluster, int seedRetries) {
        RestoreAction lost = lost(restore, createdUid, cluster);
        if (lost != null) {
            return lost;
        }
        RestoreAction empty = startedEmpty(cluster);
        if (empty != null) {
            return empty;
        }
        if (cluster.seedFailure() != null) {
            if (cluster.seedDownloadFailed() != null && seedRetries < SEED_RETRIES) {
                return new RestoreAction.RetrySeed(cluster.seedDownloadFailed(), "the seed member did not get the"
                        + " snapshot (" + cluster.seedFailure() + "); it starts again with a fresh link (retry "
                        + (seedRetries + 1) + " of " + SEED_RETRIES + ")");
            }
            return new RestoreAction.Fail(REASON_SEED_FAILED, "the seed member could not restore the snapshot: "
                    + cluster.seedFailure() + (seedRetries > 0 ? " (it was started again " + seedRetries
                            + " time(s) with a fresh link after its download failed)" : ""));
        }
        if (cluster.everyMemberLost() != null) {
            return new RestoreAction.Fail(REASON_SEED_FAILED, "the restored cluster's seed member ran, then it was"
                    + " lost with its data (" + cluster.everyMemberLost() + "). Restore it again from the backup");
        }
        if (cluster.healthyMembers() >= 1) {
            return new RestoreAction.Advance(RestorePhase.Growing, "the seed member runs on the restored data");
        }
        return new RestoreAction.Wait("waiting for the seed member to fetch and restore the snapshot and start"
                + unplaced(cluster));
    }

    private static RestoreAction growing(String restore, String createdUid, ClusterSeen cluster) {
        RestoreAction lost = lost(restore, createdUid, cluster);
        if (lost != null) {
            return lost;
        }
        RestoreAction empty = startedEmpty(cluster);
        if (empty != null) {
            return empty;
        }
        if (cluster.available() && cluster.readyMembers() >= cluster.size() && cluster.healthyMembers() >= cluster.size()) {
            return new RestoreAction.Advance(RestorePhase.Done, "the restored cluster is available with "
                    + cluster.size() + " members");
        }
        if (cluster.everyMemberLost() != null) {
            // the seed ran, then it and its data went (its pod deleted, its node lost): nothing brings them back
            return new RestoreAction.Fail(REASON_SEED_FAILED, "the restored cluster lost every member before it"
                    + " grew (" + cluster.everyMemberLost() + "). Restore it again from the backup");
        }
        if (cluster.seedFailure() != null && cluster.healthyMembers() == 0 && cluster.readyMembers() == 0) {
            // the seed runs once: nothing would bring it back, and a restore that never ends holds the cluster
            return new RestoreAction.Fail(REASON_SEED_FAILED, "the seed member failed before the cluster grew ("
                    + cluster.seedFailure() + ") and no member is healthy or ready: the restored data may be gone"
                    + " with it. The restored cluster is left as it is; if it does not recover, restore it again");
        }
        return new RestoreAction.Wait("the restored cluster has " + cluster.healthyMembers() + " of " + cluster.size()
                + " members healthy" + unplaced(cluster));
    }

    private static String unplaced(ClusterSeen cluster) {
        return cluster.unplaced() == null ? "" : "; the cluster says: " + cluster.unplaced();
    }

    private static RestoreAction lost(String restore, String createdUid, ClusterSeen cluster) {
        if (!cluster.exists() || !restore.equals(cluster.restoredBy())
                || (createdUid != null && !createdUid.equals(cluster.uid()))) {
            return new RestoreAction.Fail(REASON_CLUSTER_REPLACED, "the restored cluster was deleted or replaced"
                    + " before the restore finished");
        }
        return null;
    }
}
