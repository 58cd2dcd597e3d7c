package dev.etcdoperator.core.backup;

/** The user metadata stored with every backup object (S3 lower-cases metadata keys, so these are lower case). */
public final class BackupMetadata {
    public static final String SHA256 = "etcd-backup-sha256";
    public static final String SIZE = "etcd-backup-size";
    public static final String REVISION = "etcd-revision";
    public static final String VERSION = "etcd-version";
    public static final String SOURCE = "etcd-backup-source";
    public static final String OWNER = "etcd-backup-owner";
    /** etcd's cluster ID (hex) of the member the snapshot came from. */
    public static final String CLUSTER_ID = "etcd-cluster-id";
    /** metadata.uid of the EtcdCluster the backup names, when it names one. */
    public static final String CLUSTER_UID = "etcd-cluster-uid";

    /** Client-side encryption: the format ({@code BackupCipher.FORMAT}); absent on an object that is not encrypted. */
    public static final String ENCRYPTION = "etcd-backup-encryption";
    /** The fingerprint of the key that wraps the object's data key (never the key). */
    public static final String ENCRYPTION_KEY = "etcd-backup-encryption-key";
    /** The Secret that key was read from when the backup was taken, {@code <secret>[<entry>]}. */
    public static final String ENCRYPTION_SECRET = "etcd-backup-encryption-secret";
    /** The SHA-256 (hex) of the snapshot before encryption; {@link #SHA256} is the stored object's. */
    public static final String SNAPSHOT_SHA256 = "etcd-snapshot-sha256";
    /** The snapshot's size before encryption; {@link #SIZE} is the stored object's. */
    public static final String SNAPSHOT_SIZE = "etcd-snapshot-size";

    private BackupMetadata() {
    }
}
