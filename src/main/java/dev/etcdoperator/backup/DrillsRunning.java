package dev.etcdoperator.backup;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The backup each EtcdBackup's restore drill is restoring now, by the EtcdBackup's uid: retention keeps it until the
 * drill has ended, whatever backups were taken meanwhile (a drill waits for a worker, and may run for an hour).
 */
final class DrillsRunning {
    private final Map<String, String> paths = new ConcurrentHashMap<>();

    void started(String uid, String path) {
        paths.put(uid, path);
    }

    void ended(String uid, String path) {
        paths.remove(uid, path);
    }

    /** The path of the backup being drilled for that EtcdBackup, or null. */
    String path(String uid) {
        return paths.get(uid);
    }
}
