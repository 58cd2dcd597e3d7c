package dev.etcdoperator.core.backup;

import java.util.Optional;

/**
 * When a restore drill is due: the last successful backup is drilled once {@code every} backups were taken since
 * the last drill, and never twice. Switching drills on for an EtcdBackup whose last backup was never drilled drills
 * that backup. A drill that failed is not repeated on the same object: the next backup gets its own. A scheduled drill
 * ({@link DrillSchedule}) takes the last backup whatever came before: it proves the object still restores.
 */
public final class RestoreDrills {
    public static final int DEFAULT_EVERY = 1;

    private RestoreDrills() {
    }

    /**
     * @param every             drill every that many backups; null or less than 1: drills are off
     * @param lastBackup        {@code <bucket>/<key>} of the last successful backup, or null
     * @param lastDrilled       {@code <bucket>/<key>} of the last backup drilled (whatever the outcome), or null
     * @param backupsSinceDrill successful backups since the last drill
     * @return the backup to drill, or empty
     */
    public static Optional<String> due(Integer every, String lastBackup, String lastDrilled, int backupsSinceDrill) {
        return due(every, lastBackup, lastDrilled, backupsSinceDrill, false);
    }

    /**
     * As {@link #due(Integer, String, String, int)}, and with {@code scheduled} (a drill of
     * {@code spec.restoreDrill.schedule} is due) the last successful backup whether it was drilled before or not.
     */
    public static Optional<String> due(Integer every, String lastBackup, String lastDrilled, int backupsSinceDrill,
            boolean scheduled) {
        if (lastBackup == null) {
            return Optional.empty();
        }
        if (scheduled) {
            return Optional.of(lastBackup);
        }
        if (every == null || every < 1 || lastBackup.equals(lastDrilled)) {
            return Optional.empty();
        }
        return backupsSinceDrill >= every || lastDrilled == null ? Optional.of(lastBackup) : Optional.empty();
    }
}
