package dev.etcdoperator.core.backup;

import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Which periodic backups go when only the newest {@code maxBackups} are kept. Whatever the count, the newest backup
 * of the highest revision stays: backups of an emptied or replaced cluster (lower revisions) can never push out the
 * last backup that held the most data. Nor does the last backup a restore drill verified go
 * ({@link RestoreDrills}): it is the newest one known to restore.
 */
public final class Retention {
    private static final Comparator<BackupNames.Periodic> NEWEST_FIRST = Comparator
            .comparing(BackupNames.Periodic::time).thenComparingLong(BackupNames.Periodic::revision).reversed();
    private static final Comparator<BackupNames.Periodic> HIGHEST_REVISION_FIRST = Comparator
            .comparingLong(BackupNames.Periodic::revision).reversed().thenComparing(NEWEST_FIRST);
    /**
     * Backups of one etcd cluster, whose revision only grows: newest by revision, then by the time in the name, which
     * is the clock of whichever operator took them (one hours ahead names backups that would otherwise push out
     * every later one until the clock catches up).
     */
    private static final Comparator<BackupNames.Periodic> OF_ONE_CLUSTER_NEWEST_FIRST = Comparator
            .comparingLong(BackupNames.Periodic::revision).thenComparing(BackupNames.Periodic::time).reversed();

    private Retention() {
    }

    /**
     * @param mine       the backups this EtcdBackup made under its prefix (nothing else may be passed in)
     * @param maxBackups how many to keep; 0 or less keeps all
     * @return the ones to delete, oldest last; never the newest backup of the highest revision
     */
    public static List<BackupNames.Periodic> toDelete(List<BackupNames.Periodic> mine, int maxBackups) {
        return toDelete(mine, maxBackups, Set.of());
    }

    /**
     * @param keep keys that stay whatever the count: the last verified backup, the one a drill is restoring
     * @return the ones to delete, oldest last; never one of {@code keep}, never the newest backup of the highest
     *         revision
     */
    public static List<BackupNames.Periodic> toDelete(List<BackupNames.Periodic> mine, int maxBackups,
            Set<String> keep) {
        return toDelete(mine, maxBackups, keep, false);
    }

    /**
     * @param oneCluster every backup in {@code mine} records the same etcd cluster ID: they are ordered by revision
     *                   first, not by the time in their names
     */
    public static List<BackupNames.Periodic> toDelete(List<BackupNames.Periodic> mine, int maxBackups,
            Set<String> keep, boolean oneCluster) {
        if (maxBackups <= 0 || mine.size() <= maxBackups) {
            return List.of();
        }
        Optional<BackupNames.Periodic> highest = protectedBackup(mine);
        return mine.stream().sorted(oneCluster ? OF_ONE_CLUSTER_NEWEST_FIRST : NEWEST_FIRST).skip(maxBackups)
                .filter(b -> highest.map(h -> !h.equals(b)).orElse(true))
                .filter(b -> !keep.contains(b.key()))
                .toList();
    }

    /** The backup retention never deletes: the newest of those with the highest revision. */
    public static Optional<BackupNames.Periodic> protectedBackup(List<BackupNames.Periodic> mine) {
        return mine.stream().min(HIGHEST_REVISION_FIRST);
    }
}
