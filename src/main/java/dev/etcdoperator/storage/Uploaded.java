package dev.etcdoperator.storage;

/**
 * A backup object that is complete and verified: where it is, its size and its SHA-256 (hex).
 *
 * @param encryption what client-side encryption recorded, or null when the object is not encrypted
 */
public record Uploaded(String bucket, String key, long size, String sha256, Encryption encryption) {

    /** The snapshot before encryption: its size and SHA-256, and the fingerprint of the key. */
    public record Encryption(long snapshotSize, String snapshotSha256, String keyFingerprint) {
    }

    public Uploaded(String bucket, String key, long size, String sha256) {
        this(bucket, key, size, sha256, null);
    }

    public String path() {
        return bucket + "/" + key;
    }
}
