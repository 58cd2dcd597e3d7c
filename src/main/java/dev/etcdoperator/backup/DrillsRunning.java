package dev.etcdoperator.backup;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The backup each EtcdBackup's restore drill is restoring, by the EtcdBackup's uid: retention keeps it while the
 * drill runs, whatever backups were taken meanwhile (a drill waits for a worker, and may run for an hour), and after
 * it ended verified until the status the API server holds names it as the last verified backup (a backup running
 * meanwhile read the status before the drill's verdict was in it).
 */
final class DrillsRunning {
    private record Drill(String path, boolean ended) {
    }

    private final Map<String, Drill> drills = new ConcurrentHashMap<>();

    void started(String uid, String path) {
        drills.put(uid, new Drill(path, false));
    }

    /** @param verified the drill verified the backup (else nothing keeps it for drills any more) */
    void ended(String uid, String path, boolean verified) {
        drills.computeIfPresent(uid, (k, d) -> !d.path().equals(path) ? d : verified ? new Drill(path, true) : null);
    }

    /**
     * Forgets a drill that ended verified once {@code lastVerifiedBackupPath}, as the API server holds it, names its
     * backup: retention keeps that one from then on, reading the status.
     */
    void recorded(String uid, String lastVerifiedBackupPath) {
        drills.computeIfPresent(uid, (k, d) -> d.ended() && d.path().equals(lastVerifiedBackupPath) ? null : d);
    }

    /** The path of the backup being drilled for that EtcdBackup, or drilled and not recorded yet, or null. */
    String path(String uid) {
        Drill d = drills.get(uid);
        return d == null ? null : d.path();
    }
}
