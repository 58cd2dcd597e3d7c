package dev.etcdoperator.etcd;

import java.util.List;

import dev.etcdoperator.core.backup.KeyspaceFingerprint;

/**
 * The etcd administration calls the cluster and backup controllers need, for ONE etcd cluster. Every call is
 * bounded by a per-call timeout; reconfiguration calls retry while etcd says "not now" up to an overall
 * deadline. Every failure is an {@link EtcdAdminException}. No jetcd type appears here, so a controller can be
 * tested with a fake.
 */
public interface EtcdAdmin extends AutoCloseable {

    /** The member list, as any reachable member sees it. */
    List<Member> members();

    /**
     * The member list and the id of the member that answered it (0 when not known): a member answers from what it has
     * applied, which a member cut off from the leader may not have.
     */
    default Members memberList() {
        return new Members(0, members());
    }

    /** The member list as the member at {@code clientUrl} sees it (asked directly). */
    default List<Member> members(String clientUrl) {
        return members();
    }

    /** @param answeredBy the id of the member that answered, or 0 */
    record Members(long answeredBy, List<Member> members) {
    }

    /** The status of the one member at {@code clientUrl} (asked directly, not through the cluster). */
    MemberStatus status(String clientUrl);

    /** Whether the member at {@code clientUrl} is healthy. Never throws for a failed check: says why instead. */
    MemberHealth health(String clientUrl);

    /**
     * Adds a member with the given peer URL (as a learner when asked), retrying with backoff while etcd refuses
     * because the cluster is not ready for a reconfiguration ("unhealthy cluster", "too many learner members").
     *
     * @return the new member (not started: no name, no client URLs)
     */
    Member addMember(String peerUrl, boolean asLearner);

    /**
     * Promotes the learner {@code memberId} to a voter, retrying while it has not caught up with the leader.
     * Promoting a member that is already a voter succeeds without doing anything.
     */
    void promote(long memberId);

    /** Removes the member. Removing a member that is not (or no longer) in the list succeeds without doing anything. */
    void removeMember(long memberId);

    /** The store revision as the member at {@code clientUrl} sees it (header of a serializable get). */
    long revision(String clientUrl);

    /**
     * What the member at {@code clientUrl} says about its keyspace at {@code revision}: etcd's {@code HashKV} there
     * and the number of keys (a count-only range). A part that etcd no longer has (compacted) is null.
     */
    KeyspaceFingerprint keyspace(String clientUrl, long revision);

    /** The alarms the cluster holds (any member answers for all). */
    List<Alarm> alarms();

    /** Disarms one alarm; disarming an alarm that is not raised succeeds without doing anything. */
    void disarm(Alarm alarm);

    /**
     * Compacts the keyspace up to {@code revision} and waits until the member that served the call has removed the
     * old revisions from its database. A revision that is compacted already counts as done.
     */
    void compact(long revision);

    /**
     * Defragments the database of the member at {@code clientUrl}, giving the space compactions freed back to the
     * file system. The member serves nothing meanwhile; bounded by the reconfiguration deadline, not the call timeout.
     */
    void defragment(String clientUrl);

    /**
     * Hands the leadership to the voting member {@code targetId}; asked of the leader at {@code leaderClientUrl}
     * (another member refuses: etcd answers "not leader"). Returns once the target leads; bounded by the call timeout.
     */
    void moveLeader(String leaderClientUrl, long targetId);

    /**
     * Enables etcd's downgrade of the cluster to {@code targetVersion} ({@code major.minor.0}, one minor below the
     * cluster's; etcd 3.6 and later): the cluster version drops to it at once, and each member then rewrites its data
     * in that version's format, after which its binary can be replaced by the older one. Answers the cluster version
     * etcd reports. Enabling the same downgrade twice is refused by etcd ("has a downgrade job in progress").
     */
    String enableDowngrade(String targetVersion);

    /** Releases the connections. */
    @Override
    void close();
}
