package dev.etcdoperator.core.backup;

import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The decisions of one backup, made on what was observed before anything is written. A backup never trades good
 * data for bad:
 * <ul>
 * <li>the source must be the cluster the last backup came from: the same etcd cluster ID and, when the backup names
 * an EtcdCluster, the same uid ({@link BackupFailure#CLUSTER_CHANGED}); and its revision may not be lower than the
 * last backup's ({@link BackupFailure#REVISION_WENT_BACK}). A refused backup is not stored, so it never counts
 * toward {@code maxBackups};</li>
 * <li>a key, or a periodic prefix, belongs to one EtcdBackup: an object there that another EtcdBackup (or anyone
 * else) wrote is never replaced ({@link BackupFailure#PATH_IN_USE});</li>
 * <li>a one-shot backup replaces its own earlier object at the key only with one of the same cluster, no older;</li>
 * <li>when the status that remembers the last one is lost, the revision check holds against the periodic backups this
 * EtcdBackup already took of the same etcd cluster under its prefix;</li>
 * <li>retention deletes only this EtcdBackup's periodic backups of the cluster it just backed up, never the newest
 * of the highest revision, and never the last one a restore drill verified.</li>
 * </ul>
 */
public final class BackupPlanner {

    private BackupPlanner() {
    }

    /**
     * What the EtcdBackup's status remembers of its last successful backup.
     *
     * @param revision      null before the first one
     * @param etcdClusterId hex, null when unknown (e.g. recorded by an older operator)
     * @param clusterUid    the EtcdCluster's uid, null when the backup names endpoints or it is unknown
     */
    /** @param date when it was taken (RFC 3339), or null */
    /** @param path the backup the status names ({@code bucket/key}), or null */
    public record LastBackup(Long revision, String etcdClusterId, String clusterUid, String date, String path) {
        public LastBackup(Long revision, String etcdClusterId, String clusterUid, String date) {
            this(revision, etcdClusterId, clusterUid, date, null);
        }

        public LastBackup(Long revision, String etcdClusterId, String clusterUid) {
            this(revision, etcdClusterId, clusterUid, null);
        }

        public static LastBackup none() {
            return new LastBackup(null, null, null);
        }

        boolean isNone() {
            return revision == null && etcdClusterId == null && clusterUid == null;
        }

        /** Taken before {@code time}; false when either is unknown. */
        boolean before(Instant time) {
            if (date == null || time == null) {
                return false;
            }
            try {
                return Instant.parse(date).isBefore(time);
            } catch (java.time.format.DateTimeParseException e) {
                return false;
            }
        }
    }

    /** Why nothing is written. */
    public record Refusal(String reason, String message) {
        public BackupFailure failure() {
            return new BackupFailure(reason, message, true);
        }
    }

    /**
     * Checks the chosen source against the last backup.
     *
     * @param answered   every member that answered (they must all be of one etcd cluster)
     * @param clusterUid the uid of the EtcdCluster the backup names now, or null
     */
    public static Optional<Refusal> checkSource(LastBackup last, List<SourceChoice.Candidate> answered,
            SourceChoice.Candidate source, String clusterUid) {
        return checkSource(last, answered, source, clusterUid, null);
    }

    /**
     * @param survivorRecovery when the EtcdCluster last began a recovery from a survivor (its
     *                         {@code status.lastSurvivorRecoveryDate}), plus the backup timeout (a backup that ended
     *                         that late may have begun before it), or null: the recovery made it a new etcd cluster
     *                         on the survivor's data, whose ID a backup taken before it does not have
     */
    public static Optional<Refusal> checkSource(LastBackup last, List<SourceChoice.Candidate> answered,
            SourceChoice.Candidate source, String clusterUid, Instant survivorRecovery) {
        return checkSource(last, answered, source, clusterUid, survivorRecovery, List.of());
    }

    /**
     * @param restoredFrom the uids of the EtcdClusters this one was restored in place of (by hand, or as a recovery
     *                     from a backup), newest first, when its seed restored the snapshot: a last backup of one of
     *                     them is followed by backups of this one, a new etcd cluster whose revision is the restored
     *                     backup's
     */
    public static Optional<Refusal> checkSource(LastBackup last, List<SourceChoice.Candidate> answered,
            SourceChoice.Candidate source, String clusterUid, Instant survivorRecovery, List<String> restoredFrom) {
        List<String> ids = answered.stream().map(SourceChoice.Candidate::clusterIdHex).filter(Objects::nonNull)
                .distinct().sorted().toList();
        if (ids.size() > 1) {
            return Optional.of(new Refusal(BackupFailure.CLUSTER_CHANGED, "the endpoints reach members of "
                    + ids.size() + " different etcd clusters (cluster IDs " + String.join(", ", ids)
                    + "): list the members of one cluster only"));
        }
        boolean restoredSince = clusterUid != null && last.clusterUid() != null && !clusterUid.equals(last.clusterUid())
                && restoredFrom.contains(last.clusterUid());
        if (last.clusterUid() != null && clusterUid != null && !last.clusterUid().equals(clusterUid) && !restoredSince) {
            return Optional.of(new Refusal(BackupFailure.CLUSTER_CHANGED, "the EtcdCluster is not the one backed up"
                    + " last (its uid is " + clusterUid + ", the last backup's was " + last.clusterUid()
                    + "): it was deleted and created again; the earlier backups are kept. To back up the new cluster,"
                    + " create a new EtcdBackup (or re-create this one) with its own s3.path"));
        }
        String id = source.clusterIdHex();
        boolean recoveredSince = clusterUid != null && clusterUid.equals(last.clusterUid())
                && last.before(survivorRecovery);
        if (last.etcdClusterId() != null && id != null && !last.etcdClusterId().equalsIgnoreCase(id)
                && !recoveredSince && !restoredSince) {
            return Optional.of(new Refusal(BackupFailure.CLUSTER_CHANGED, "member " + source.clientUrl()
                    + " belongs to etcd cluster " + id + ", the last backup came from etcd cluster "
                    + last.etcdClusterId() + ": it is another cluster (or one restored or re-created); the earlier"
                    + " backups are kept. To back up this cluster, create a new EtcdBackup (or re-create this one)"
                    + " with its own s3.path"));
        }
        if (last.revision() != null && source.revision() < last.revision() && !restoredSince) {
            return Optional.of(new Refusal(BackupFailure.REVISION_WENT_BACK, "the newest revision any member has is "
                    + source.revision() + " (" + source.clientUrl() + "), lower than the last backup's "
                    + last.revision() + ": the cluster lost data or was replaced; the earlier backups are kept."
                    + " To back it up as it is now, create a new EtcdBackup (or re-create this one) with its own"
                    + " s3.path"));
        }
        return Optional.empty();
    }

    /**
     * Checks the object already at a one-shot backup's key, if any, before it is replaced.
     *
     * @param existing the object at the key, or null when there is none
     */
    public static Optional<Refusal> checkOneShotKey(StoredBackup existing, String owner, SourceChoice.Candidate source,
            String location) {
        if (existing == null) {
            return Optional.empty();
        }
        if (!owner.equals(existing.owner())) {
            return Optional.of(inUse(location, existing));
        }
        LastBackup before = new LastBackup(existing.revision(), existing.clusterId(), null);
        return checkSource(before, List.of(source), source, null).map(r -> new Refusal(r.reason(),
                location + " holds an earlier backup that would be replaced: " + r.message()));
    }

    /**
     * A periodic prefix belongs to one EtcdBackup: refuses when it holds periodic backups another one wrote. Backups
     * that record no owner (taken under the same naming by the CoreOS operator, before a migration) are no refusal:
     * retention neither counts nor deletes them.
     */
    public static Optional<Refusal> checkPrefix(List<StoredBackup> underPrefix, String owner, String location) {
        List<StoredBackup> others = underPrefix.stream().filter(b -> b.owner() != null && !owner.equals(b.owner()))
                .toList();
        if (others.isEmpty()) {
            return Optional.empty();
        }
        String owners = others.stream().map(StoredBackup::owner).distinct().sorted()
                .collect(Collectors.joining(", "));
        return Optional.of(new Refusal(BackupFailure.PATH_IN_USE, "the prefix " + location + " holds "
                + others.size() + " periodic backup(s) written by " + owners + " (e.g. " + others.get(0).key()
                + "): two EtcdBackups must not share a path; give this one its own s3.path"));
    }

    /**
     * When the status remembers no backup (the EtcdBackup was deleted and made again under the same name), checks this
     * owner's periodic backups already under the prefix that came from the same etcd cluster as the source: a lower
     * revision than theirs means the cluster lost data. Backups of other clusters (one restored since, say) are no
     * refusal: retention neither counts nor deletes them.
     */
    public static Optional<Refusal> checkOwnBackups(LastBackup last, List<StoredBackup> underPrefix, String owner,
            SourceChoice.Candidate source, String location) {
        String id = source.clusterIdHex();
        if (!last.isNone() || id == null) {
            return Optional.empty();
        }
        Optional<StoredBackup> newest = underPrefix.stream().filter(b -> owner.equals(b.owner()))
                .filter(b -> b.revision() != null && id.equalsIgnoreCase(b.clusterId()))
                .max(java.util.Comparator.comparingLong(StoredBackup::revision));
        if (newest.isPresent() && newest.get().revision() > source.revision()) {
            return Optional.of(new Refusal(BackupFailure.REVISION_WENT_BACK, "the newest revision any member has is "
                    + source.revision() + " (" + source.clientUrl() + "), lower than that of the backup "
                    + newest.get().key() + " this EtcdBackup took of the same etcd cluster under " + location + " ("
                    + newest.get().revision() + "): the cluster lost data; the earlier backups are kept. To back it up"
                    + " as it is now, give this EtcdBackup its own s3.path"));
        }
        return Optional.empty();
    }

    /**
     * The periodic backups under the prefix that retention deletes (see {@link Retention}); only this owner's,
     * read from their names, and none that a restore is using.
     *
     * @param inUse keys that restores which have not ended are reading or about to read
     */
    public static List<BackupNames.Periodic> retention(String prefix, List<StoredBackup> underPrefix, String owner,
            int maxBackups, Set<String> inUse) {
        return retention(prefix, underPrefix, owner, maxBackups, inUse, Set.of(), null);
    }

    /**
     * @param keep      keys retention keeps whatever the count (the last verified backup, the one being drilled)
     * @param clusterId the etcd cluster ID (hex) of the backup just taken, or null: backups that record another
     *                  are neither counted nor deleted
     */
    public static List<BackupNames.Periodic> retention(String prefix, List<StoredBackup> underPrefix, String owner,
            int maxBackups, Set<String> inUse, Set<String> keep, String clusterId) {
        List<StoredBackup> counted = underPrefix.stream().filter(b -> owner.equals(b.owner()))
                .filter(b -> clusterId == null || b.clusterId() == null || b.clusterId().equalsIgnoreCase(clusterId))
                .filter(b -> BackupNames.parsePeriodic(prefix, b.key()).isPresent()).toList();
        boolean oneCluster = clusterId != null && counted.stream().allMatch(b -> b.clusterId() != null);
        List<BackupNames.Periodic> mine = counted.stream()
                .flatMap(b -> BackupNames.parsePeriodic(prefix, b.key()).stream()).toList();
        return Retention.toDelete(mine, maxBackups, keep, oneCluster).stream().filter(b -> !inUse.contains(b.key()))
                .toList();
    }

    static Refusal inUse(String location, StoredBackup existing) {
        return new Refusal(BackupFailure.PATH_IN_USE, location + " already holds an object "
                + (existing.owner() == null ? "that no EtcdBackup wrote" : "written by EtcdBackup " + existing.owner())
                + "; it is left as it is. Two EtcdBackups must not write one key: give this one its own s3.path"
                + " (or remove that object)");
    }
}
