package dev.etcdoperator.etcd;

import java.util.List;

/**
 * What one member says about itself (etcd's Maintenance.Status).
 *
 * @param endpoint         the client URL that was asked
 * @param memberId         the ID of the member that answered
 * @param version          the etcd server version, e.g. {@code 3.4.23}
 * @param leaderId         the member it believes is the leader; 0 when it knows none
 * @param raftIndex        its raft index
 * @param raftTerm         its raft term
 * @param raftAppliedIndex its applied index (0 when the server does not report it)
 * @param dbSize           the size of its backend database in bytes
 * @param dbSizeInUse      the bytes in use in that database (0 when the server does not report it)
 * @param learner          whether it is a learner (reported by etcd 3.4 and later)
 * @param errors           the alarms/errors it reports, e.g. {@code NOSPACE}; empty when all is well
 * @param clusterId        etcd's cluster ID, from the header of its answer (0 when unknown)
 * @param revision         the store revision, from the header of its answer (0 when unknown)
 * @param storageVersion   the format its data is written in, e.g. {@code 3.6.0} (etcd 3.6 and later); empty when the
 *                         server does not report it
 * @param downgradeTarget  the version a downgrade enabled on the cluster goes to, e.g. {@code 3.5.0} (etcd 3.6 and
 *                         later report it); empty when none is enabled or the server does not say
 */
public record MemberStatus(String endpoint, long memberId, String version, long leaderId, long raftIndex,
        long raftTerm, long raftAppliedIndex, long dbSize, long dbSizeInUse, boolean learner, List<String> errors,
        long clusterId, long revision, String storageVersion, String downgradeTarget) {

    public MemberStatus {
        errors = List.copyOf(errors);
        storageVersion = storageVersion == null ? "" : storageVersion;
        downgradeTarget = downgradeTarget == null ? "" : downgradeTarget;
    }

    /** A status without storage version or downgrade (etcd before 3.6). */
    public MemberStatus(String endpoint, long memberId, String version, long leaderId, long raftIndex,
            long raftTerm, long raftAppliedIndex, long dbSize, long dbSizeInUse, boolean learner, List<String> errors,
            long clusterId, long revision) {
        this(endpoint, memberId, version, leaderId, raftIndex, raftTerm, raftAppliedIndex, dbSize, dbSizeInUse, learner,
                errors, clusterId, revision, "", "");
    }

    /** A status whose revision is not known. */
    public MemberStatus(String endpoint, long memberId, String version, long leaderId, long raftIndex,
            long raftTerm, long raftAppliedIndex, long dbSize, long dbSizeInUse, boolean learner, List<String> errors,
            long clusterId) {
        this(endpoint, memberId, version, leaderId, raftIndex, raftTerm, raftAppliedIndex, dbSize, dbSizeInUse, learner,
                errors, clusterId, 0);
    }

    /** A status whose cluster ID is not known. */
    public MemberStatus(String endpoint, long memberId, String version, long leaderId, long raftIndex,
            long raftTerm, long raftAppliedIndex, long dbSize, long dbSizeInUse, boolean learner, List<String> errors) {
        this(endpoint, memberId, version, leaderId, raftIndex, raftTerm, raftAppliedIndex, dbSize, dbSizeInUse, learner,
                errors, 0, 0);
    }

    public boolean isLeader() {
        return memberId != 0 && memberId == leaderId;
    }

    public boolean hasLeader() {
        return leaderId != 0;
    }
}
