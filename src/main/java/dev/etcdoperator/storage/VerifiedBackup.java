package dev.etcdoperator.storage;

/**
 * A backup object read whole and found sound.
 *
 * @param revision the etcd revision recorded at backup time, or null when the object carries none
 * @param version  the etcd version recorded at backup time, or null
 * @param object   which object was read: its ETag and version id
 */
public record VerifiedBackup(long size, String sha256, Long revision, String version, ObjectVersion object) {
}
