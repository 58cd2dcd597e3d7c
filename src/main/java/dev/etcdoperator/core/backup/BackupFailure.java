package dev.etcdoperator.core.backup;

/**
 * Why a backup (or a restore's read of one) failed: a stable reason for the status, the Event and the docs, a
 * message for people, and whether trying again later can help without anyone changing the spec.
 */
public class BackupFailure extends RuntimeException {
    public static final String INVALID_PATH = "InvalidS3Path";
    public static final String AWS_SECRET_NOT_FOUND = "AWSSecretNotFound";
    public static final String AWS_SECRET_INVALID = "AWSSecretInvalid";
    public static final String AWS_CREDENTIALS_UNAVAILABLE = "AWSCredentialsUnavailable";
    public static final String CLIENT_TLS_SECRET_NOT_FOUND = "ClientTLSSecretNotFound";
    public static final String CLIENT_TLS_SECRET_INVALID = "ClientTLSSecretInvalid";
    public static final String CLUSTER_NOT_FOUND = "EtcdClusterNotFound";
    public static final String ETCD_UNREACHABLE = "EtcdUnreachable";
    public static final String SNAPSHOT_FAILED = "SnapshotFailed";
    public static final String S3_ACCESS_DENIED = "S3AccessDenied";
    public static final String S3_BUCKET_NOT_FOUND = "S3BucketNotFound";
    public static final String S3_OBJECT_NOT_FOUND = "S3ObjectNotFound";
    public static final String S3_UNREACHABLE = "S3Unreachable";
    public static final String UPLOAD_FAILED = "UploadFailed";
    public static final String VERIFICATION_FAILED = "VerificationFailed";
    /** The store did not encrypt the object as {@code s3.serverSideEncryption} asked. */
    public static final String NOT_ENCRYPTED = "S3ObjectNotEncrypted";
    public static final String TIMEOUT = "BackupTimeout";
    /** The Secret {@code s3.clientSideEncryption} names does not exist. */
    public static final String ENCRYPTION_KEY_NOT_FOUND = "EncryptionKeySecretNotFound";
    /** The key in that Secret is missing or not 32 bytes (raw, or base64). */
    public static final String ENCRYPTION_KEY_INVALID = "EncryptionKeyInvalid";
    /**
     * A client-side encrypted backup cannot be read with the key given (another key, none, or a key for an object
     * that is not encrypted), or its ciphertext is damaged.
     */
    public static final String DECRYPTION_FAILED = "DecryptionFailed";
    /** The source's revision is lower than the last backup's: the cluster lost data, or it is another cluster. */
    public static final String REVISION_WENT_BACK = "RevisionWentBack";
    /** The cluster is not the one the last backup came from (its etcd cluster ID or its EtcdCluster uid changed). */
    public static final String CLUSTER_CHANGED = "ClusterChanged";
    /** The key (or periodic prefix) holds what another EtcdBackup, or someone else, wrote there. */
    public static final String PATH_IN_USE = "S3PathInUse";

    private final String reason;
    private final boolean retryable;

    public BackupFailure(String reason, String message, boolean retryable) {
        this(reason, message, retryable, null);
    }

    public BackupFailure(String reason, String message, boolean retryable, Throwable cause) {
        super(message, cause);
        this.reason = reason;
        this.retryable = retryable;
    }

    public String reason() {
        return reason;
    }

    public boolean retryable() {
        return retryable;
    }
}
