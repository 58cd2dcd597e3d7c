package dev.etcdoperator.core.restore;

import java.util.List;
import java.util.Objects;

/**
 * Whether an EtcdCluster's {@code restore-snapshot-secret} annotation is honoured: its seed member gets the Secret
 * (a URL to the backup and its checksum) only when the operator itself made that cluster for a restore. Anyone who
 * may create an EtcdCluster can write annotations, so the annotation proves nothing by itself; what proves it is
 * what only the operator writes:
 * <ul>
 * <li>the EtcdRestore named by {@code restored-by} exists in the namespace and its <em>status</em> (written only
 * through the status subresource, by the operator) records the uid of the cluster it created, which must be this
 * cluster's uid (assigned by the API server, so no one can give a new cluster an old one's uid);</li>
 * <li>that status names the annotated Secret as the one it created;</li>
 * <li>the Secret is owned by that EtcdRestore, by uid.</li>
 * </ul>
 * Once the restore of this very cluster succeeded, its Secret is gone and a seed made later starts empty, with
 * nothing to refuse. While the restore has created the cluster but not yet recorded it (the status is written just after the create),
 * the seed must wait rather than start empty: that is {@link Pending}.
 */
public final class SeedSnapshotClaim {
    public static final String KIND_RESTORE = "EtcdRestore";

    private SeedSnapshotClaim() {
    }

    /** An owner reference, as read from the Secret. */
    public record Owner(String kind, String name, String uid) {
    }

    /**
     * What the EtcdRestore named by {@code restored-by} says in its status.
     *
     * @param uid                its own uid
     * @param phase              {@code status.phase}, or null
     * @param restoredClusterUid {@code status.restoredClusterUid}, or null
     * @param snapshotSecret     {@code status.snapshotSecret}, or null
     */
    public record RestoreFacts(String uid, String phase, String restoredClusterUid, String snapshotSecret) {
    }

    /**
     * Everything the decision reads.
     *
     * @param clusterUid   the EtcdCluster's uid
     * @param restoredBy   its {@code restored-by} annotation, or null
     * @param secret       its {@code restore-snapshot-secret} annotation, or null
     * @param restore      the EtcdRestore {@code restoredBy} names, or null when there is none
     * @param secretOwners the Secret's owner references, or null when the Secret does not exist
     * @param restoresSeed the seed to be made is the one the restore named ({@code restore-seed-member}), not one of
     *                     a reseed a person asked for later
     */
    public record Facts(String clusterUid, String restoredBy, String secret, RestoreFacts restore,
            List<Owner> secretOwners, boolean restoresSeed) {
        public Facts(String clusterUid, String restoredBy, String secret, RestoreFacts restore,
                List<Owner> secretOwners) {
            this(clusterUid, restoredBy, secret, restore, secretOwners, true);
        }
    }

    public sealed interface Decision permits NotRestored, Confirmed, Pending, Held, Refused {
    }

    /**
     * The EtcdRestore that created the cluster is gone before its seed was made (deleted midway): the snapshot can
     * no longer be proven, and an empty seed would stand for the restored data. No seed is made until a person
     * decides (restore again, or remove the annotation to start empty).
     */
    public record Held(String reason, String message) implements Decision {
    }

    /** {@link Held}: the EtcdRestore is gone. */
    public static final String HELD_RESTORE_GONE = "RestoreGone";
    /** {@link Held}: the EtcdRestore failed without recording a cluster. */
    public static final String HELD_RESTORE_FAILED = "RestoreFailedUnrecorded";

    /** No snapshot annotation: an ordinary cluster. */
    public record NotRestored() implements Decision {
    }

    /** The operator made this cluster for a restore: the seed member gets {@code secret}. */
    public record Confirmed(String secret) implements Decision {
    }

    /** The restore created a cluster and has not recorded which yet: create no seed member yet. */
    public record Pending(String message) implements Decision {
    }

    /** The annotation is not the operator's: nothing is mounted, and the cluster starts empty. */
    public record Refused(String message) implements Decision {
    }

    public static Decision decide(Facts f) {
        if (f.secret() == null || f.secret().isBlank()) {
            return new NotRestored();
        }
        String subject = "the annotation restore-snapshot-secret=" + f.secret() + " is ignored: ";
        if (f.restoredBy() == null || f.restoredBy().isBlank()) {
            return new Refused(subject + "the cluster has no restored-by annotation naming the EtcdRestore that "
                    + "created it");
        }
        RestoreFacts r = f.restore();
        if (r == null && !f.restoresSeed()) {
            return new Refused(subject + "EtcdRestore " + f.restoredBy() + " (restored-by) does not exist");
        }
        if (r == null) {
            return new Held(HELD_RESTORE_GONE, "EtcdRestore " + f.restoredBy() + " (restored-by), which created this cluster to restore a"
                    + " backup into it, does not exist (deleted before the seed member was made): no seed member is"
                    + " made, since an empty one would stand for the restored data. Create an EtcdRestore naming this"
                    + " cluster to restore it again, or remove the annotation restore-snapshot-secret to start it"
                    + " empty");
        }
        if (r.restoredClusterUid() == null) {
            if (Objects.equals(r.phase(), RestorePhase.Deleting.name())
                    || Objects.equals(r.phase(), RestorePhase.Restoring.name())) {
                return new Pending("waiting for EtcdRestore " + f.restoredBy() + " to record the cluster it created");
            }
            if (Objects.equals(r.phase(), RestorePhase.Failed.name()) && f.restoresSeed()) {
                // it may have failed on its next look after creating this cluster, before recording it (the
                // operator stopped in between): the backup was not restored, and an empty seed would stand for it
                return new Held(HELD_RESTORE_FAILED, "EtcdRestore " + f.restoredBy() + " (restored-by) failed without recording that it"
                        + " created this cluster: no seed member is made, since an empty one would stand for the"
                        + " backup. Delete this cluster and create an EtcdRestore again to restore it, or remove the"
                        + " annotation restore-snapshot-secret to start it empty");
            }
            return new Refused(subject + "EtcdRestore " + f.restoredBy() + " has not created a cluster");
        }
        if (!r.restoredClusterUid().equals(f.clusterUid())) {
            return new Refused(subject + "EtcdRestore " + f.restoredBy() + " created the cluster with uid "
                    + r.restoredClusterUid() + ", not this one (uid " + f.clusterUid() + ")");
        }
        if (!f.secret().equals(r.snapshotSecret())) {
            return new Refused(subject + "EtcdRestore " + f.restoredBy() + " created the Secret " + r.snapshotSecret()
                    + ", not " + f.secret());
        }
        if (f.secretOwners() == null && Objects.equals(r.phase(), RestorePhase.Done.name())) {
            // the restore of this very cluster succeeded and deleted its Secret: a seed made later (a reseed) starts
            // empty. After a failed restore the refusal below stays, so an empty seed is never silent.
            return new NotRestored();
        }
        if (f.secretOwners() == null && Objects.equals(r.phase(), RestorePhase.Restoring.name())) {
            // deleted by hand, or by a foreground deletion of the EtcdRestore (its dependents go first): the restore
            // makes it again while it runs, and an empty seed now (its first, or one it started again after a failed
            // download) would stand for the restored data
            return new Pending("waiting for EtcdRestore " + f.restoredBy() + " to make its snapshot Secret "
                    + f.secret() + " again (it is gone)");
        }
        if (f.secretOwners() == null) {
            return new Refused(subject + "the Secret " + f.secret() + " does not exist");
        }
        boolean owned = f.secretOwners().stream().anyMatch(o -> KIND_RESTORE.equals(o.kind())
                && f.restoredBy().equals(o.name()) && r.uid() != null && r.uid().equals(o.uid()));
        if (!owned) {
            return new Refused(subject + "the Secret " + f.secret() + " is not owned by EtcdRestore " + f.restoredBy()
                    + " (uid " + r.uid() + ")");
        }
        return new Confirmed(f.secret());
    }
}
