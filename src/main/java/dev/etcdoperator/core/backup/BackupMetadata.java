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

    private BackupMetadata() {
    }
}
