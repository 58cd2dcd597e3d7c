package dev.etcdoperator.core.cluster;

/**
 * What one member answered about itself (status and health endpoints).
 *
 * @param id        the member id
 * @param healthy   the member answered and reports itself healthy
 * @param leader    the member is the raft leader
 * @param version   the server version it reports, without a leading {@code v}; may be null
 * @param raftIndex its raft index (applied progress), used to tell whether a learner has caught up
 */
public record MemberHealth(long id, boolean healthy, boolean leader, String version, long raftIndex) {
    public MemberHealth {
        version = Version.strip(version);
    }
}
