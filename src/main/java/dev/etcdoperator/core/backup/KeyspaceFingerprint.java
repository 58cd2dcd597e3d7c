package dev.etcdoperator.core.backup;

/**
 * What one etcd member says about its keyspace at one revision: etcd's {@code HashKV} at that revision (with the
 * compaction revision the hash starts after) and the number of keys there.
 *
 * @param revision        the revision asked about
 * @param hash            {@code HashKV} at {@code revision}, or null when etcd no longer has it (compacted)
 * @param compactRevision the compaction revision {@code HashKV} reported; the hash covers only the history after
 *                        it, so two hashes compare only when it is the same; null with the hash
 * @param keyCount        the keys at {@code revision}, or null when that revision is compacted
 */
public record KeyspaceFingerprint(long revision, Long hash, Long compactRevision, Long keyCount) {

    public String describe() {
        return "revision " + revision + (hash == null ? "" : ", hash " + Long.toUnsignedString(hash)
                + " (compacted at " + compactRevision + ")") + (keyCount == null ? "" : ", " + keyCount + " keys");
    }
}
