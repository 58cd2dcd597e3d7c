package dev.etcdoperator.core.cluster;

/**
 * What one member answered about itself (status and health endpoints).
 *
 * @param id          the member id
 * @param healthy     the member answered and reports itself healthy (a NOSPACE alarm alone leaves it healthy: it
 *                    still serves reads, and the operator frees the space)
 * @param leader      the member is the raft leader
 * @param version     the server version it reports, without a leading {@code v}; may be null
 * @param raftIndex   its raft index (applied progress), used to tell whether a learner has caught up
 * @param dbSize      the size of its database file in bytes; 0 when it did not answer
 * @param dbSizeInUse the bytes of that file in use (the rest is free pages a defragmentation gives back); 0 when it
 *                    did not answer or does not say
 * @param revision    its store revision; 0 when it did not answer
 * @param storageVersion  the version whose format its data is written in (etcd 3.6 and later say); empty when not
 *                        known
 * @param downgradeTarget the version of a downgrade it reports as enabled on the cluster; empty when none or not
 *                        known
 */
public record MemberHealth(long id, boolean healthy, boolean leader, String version, long raftIndex, long dbSize,
        long dbSizeInUse, long revision, String storageVersion, String downgradeTarget) {
    public MemberHealth {
        version = Version.strip(version);
        storageVersion = storageVersion == null ? "" : Version.strip(storageVersion);
        downgradeTarget = downgradeTarget == null ? "" : Version.strip(downgradeTarget);
    }

    /** Without storage version or downgrade. */
    public MemberHealth(long id, boolean healthy, boolean leader, String version, long raftIndex, long dbSize,
            long dbSizeInUse, long revision) {
        this(id, healthy, leader, version, raftIndex, dbSize, dbSizeInUse, revision, "", "");
    }

    /** Without a revision. */
    public MemberHealth(long id, boolean healthy, boolean leader, String version, long raftIndex, long dbSize,
            long dbSizeInUse, String storageVersion, String downgradeTarget) {
        this(id, healthy, leader, version, raftIndex, dbSize, dbSizeInUse, 0, storageVersion, downgradeTarget);
    }

    /** Without a revision, storage version or downgrade. */
    public MemberHealth(long id, boolean healthy, boolean leader, String version, long raftIndex, long dbSize,
            long dbSizeInUse) {
        this(id, healthy, leader, version, raftIndex, dbSize, dbSizeInUse, 0, "", "");
    }

    /** Without database sizes. */
    public MemberHealth(long id, boolean healthy, boolean leader, String version, long raftIndex) {
        this(id, healthy, leader, version, raftIndex, 0, 0, 0, "", "");
    }

    /** Bytes a defragmentation would give back: the file's size less what is in use. */
    public long fragmentedBytes() {
        return dbSizeInUse > 0 ? Math.max(0, dbSize - dbSizeInUse) : 0;
    }
}
