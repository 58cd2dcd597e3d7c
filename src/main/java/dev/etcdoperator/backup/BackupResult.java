package dev.etcdoperator.backup;

import java.time.Duration;
import java.util.List;

/**
 * A verified backup.
 *
 * @param deleted keys removed by retention afterwards
 */
record BackupResult(String path, long size, String sha256, long revision, String etcdVersion, String member,
        Duration took, List<String> deleted, String retentionProblem) {
}
