package dev.etcdoperator.api.v1beta2;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;

/**
 * A recovery from a lost quorum the operator started: recorded before it acts, so that it carries on with the same
 * survivor and member after a restart.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class QuorumRecoveryStatus {
    @JsonPropertyDescription("The surviving member whose data the cluster restarts from (FromSurvivor).")
    private String survivor;

    @JsonPropertyDescription("The member that starts a one-member cluster from the survivor's data (FromSurvivor).")
    private String member;

    @JsonPropertyDescription("The survivor's store revision when it was chosen: every write up to it is kept.")
    private Long revision;

    @JsonPropertyDescription("The survivor's raft index when it was chosen.")
    private Long raftIndex;

    @JsonPropertyDescription("True when no survivor's etcd served (started again without a majority, it serves nothing):"
            + " the survivor's pod is deleted, and the member copies the database from the survivor's data claim"
            + " (FromSurvivor).")
    private Boolean fromClaim;

    @JsonPropertyDescription("Pods of the member that ended before their etcd started (their copy or restore failed),"
            + " each deleted and made again; after 5 the operator stops and says so (FromSurvivor).")
    private Integer failedCopies;

    @JsonPropertyDescription("The EtcdRestore the operator created (FromBackup).")
    private String restore;

    @JsonPropertyDescription("When the recovery started (RFC 3339).")
    private String startedAt;

    public String getSurvivor() {
        return survivor;
    }

    public void setSurvivor(String survivor) {
        this.survivor = survivor;
    }

    public String getMember() {
        return member;
    }

    public void setMember(String member) {
        this.member = member;
    }

    public Long getRevision() {
        return revision;
    }

    public void setRevision(Long revision) {
        this.revision = revision;
    }

    public Long getRaftIndex() {
        return raftIndex;
    }

    public void setRaftIndex(Long raftIndex) {
        this.raftIndex = raftIndex;
    }

    public Boolean getFromClaim() {
        return fromClaim;
    }

    public void setFromClaim(Boolean fromClaim) {
        this.fromClaim = fromClaim;
    }

    public Integer getFailedCopies() {
        return failedCopies;
    }

    public void setFailedCopies(Integer failedCopies) {
        this.failedCopies = failedCopies;
    }

    public String getRestore() {
        return restore;
    }

    public void setRestore(String restore) {
        this.restore = restore;
    }

    public String getStartedAt() {
        return startedAt;
    }

    public void setStartedAt(String startedAt) {
        this.startedAt = startedAt;
    }
}
