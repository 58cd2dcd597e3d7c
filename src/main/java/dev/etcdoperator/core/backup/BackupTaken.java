package dev.etcdoperator.core.backup;

import java.time.Duration;
import java.util.List;

/**
 * A verified backup.
 *
 * @param member           the client URL of the member it came from
 * @param etcdClusterId    etcd's cluster ID (hex) of that member, or null when unknown
 * @param clusterUid       the uid of the EtcdCluster the backup names, or null
 * @param deleted          {@code <bucket>/<key>} of the backups retention removed afterwards
 * @param retentionProblem why retention could not be applied, or null
 * @param keyspace         what the member said about its keyspace at {@code revision}, or null when it could not
 *                         be read (a restore drill then compares the revision only)
 * @param encrypted        what client-side encryption recorded, or null when the backup is not encrypted ({@code size}
 *                         and {@code sha256} are then the snapshot's; with it, the stored ciphertext's)
 */
public record BackupTaken(String path, long size, String sha256, long revision, String etcdVersion, String member,
        String etcdClusterId, String clusterUid, Duration took, List<String> deleted, String retentionProblem,
        KeyspaceFingerprint keyspace, Encrypted encrypted, String deferred) {

    /** The snapshot before client-side encryption, and the fingerprint of the key that encrypted it. */
    public record Encrypted(long snapshotSize, String snapshotSha256, String keyFingerprint) {
    }

    public BackupTaken {
        deleted = List.copyOf(deleted);
    }

    /**
     * @param deferred the backup ({@code bucket/key}) retention would have deleted, but which the status names until
     *                 it names this one: it goes once this one is recorded; null when there is none
     */
    public BackupTaken(String path, long size, String sha256, long revision, String etcdVersion, String member,
            String etcdClusterId, String clusterUid, Duration took, List<String> deleted, String retentionProblem,
            KeyspaceFingerprint keyspace, Encrypted encrypted) {
        this(path, size, sha256, revision, etcdVersion, member, etcdClusterId, clusterUid, took, deleted,
                retentionProblem, keyspace, encrypted, null);
    }

    public BackupTaken(String path, long size, String sha256, long revision, String etcdVersion, String member,
            String etcdClusterId, String clusterUid, Duration took, List<String> deleted, String retentionProblem,
            KeyspaceFingerprint keyspace) {
        this(path, size, sha256, revision, etcdVersion, member, etcdClusterId, clusterUid, took, deleted,
                retentionProblem, keyspace, null);
    }

    public BackupTaken(String path, long size, String sha256, long revision, String etcdVersion, String member,
            String etcdClusterId, String clusterUid, Duration took, List<String> deleted, String retentionProblem) {
        this(path, size, sha256, revision, etcdVersion, member, etcdClusterId, clusterUid, took, deleted,
                retentionProblem, null);
    }

    public String describe() {
        return "backup of revision " + revision + " from " + member + " stored at " + path + " (" + size
                + " bytes, sha256 " + sha256 + (encrypted == null ? "" : "; encrypted with key "
                + encrypted.keyFingerprint() + ", snapshot sha256 " + encrypted.snapshotSha256()) + ") in " + took.toMillis() + " ms"
                + (deleted.isEmpty() ? "" : "; retention deleted " + String.join(", ", deleted));
    }
}
