package dev.etcdoperator.storage;

/**
 * A backup object read whole and found sound.
 *
 * @param size           bytes of the object
 * @param sha256         SHA-256 of the object as stored
 * @param revision       the etcd revision recorded at backup time, or null when the object carries none
 * @param version        the etcd version recorded at backup time, or null
 * @param object         which object was read: its ETag and version id
 * @param snapshotSha256 SHA-256 of the etcd snapshot itself: of the decrypted bytes for a client-side encrypted
 *                       object, else the same as {@code sha256}
 * @param keyFingerprint the fingerprint of the key it was decrypted with, or null when it is not encrypted
 */
public record VerifiedBackup(long size, String sha256, Long revision, String version, ObjectVersion object,
        String snapshotSha256, String keyFingerprint) {

    public VerifiedBackup(long size, String sha256, Long revision, String version, ObjectVersion object) {
        this(size, sha256, revision, version, object, sha256, null);
    }

    public boolean encrypted() {
        return keyFingerprint != null;
    }
}
