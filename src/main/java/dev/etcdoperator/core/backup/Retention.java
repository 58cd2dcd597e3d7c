package dev.etcdoperator.core.backup;

import java.util.Comparator;
import java.util.List;

/** Which periodic backups go when only the newest {@code maxBackups} are kept. */
public final class Retention {
    private static final Comparator<BackupNames.Periodic> NEWEST_FIRST = Comparator
            .comparing(BackupNames.Periodic::time).thenComparingLong(BackupNames.Periodic::revision).reversed();

    private Retention() {
    }

    /**
     * @param mine       the backups this EtcdBackup made under its prefix (nothing else may be passed in)
     * @param maxBackups how many to keep; 0 or less keeps all
     * @return the ones to delete, oldest last
     */
    public static List<BackupNames.Periodic> toDelete(List<BackupNames.Periodic> mine, int maxBackups) {
        if (maxBackups <= 0 || mine.size() <= maxBackups) {
            return List.of();
        }
        return mine.stream().sorted(NEWEST_FIRST).skip(maxBackups).toList();
    }
}
