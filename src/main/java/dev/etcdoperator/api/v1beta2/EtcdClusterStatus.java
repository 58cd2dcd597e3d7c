package dev.etcdoperator.api.v1beta2;

import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.kubernetes.model.annotation.StatusReplicas;

@JsonInclude(JsonInclude.Include.NON_NULL)
public class EtcdClusterStatus implements ConditionedStatus {

    @JsonPropertyDescription("Creating, Running or Failed.")
    private String phase;

    @JsonPropertyDescription("Why the phase is Failed: InvalidSpec, QuorumLost, AllMembersLost, TLSSecretMissing, TLSSecretInvalid or TLSChangeUnsafe.")
    private String reason;

    @JsonPropertyDescription("True while spec.paused stops the operator from changing the cluster.")
    private Boolean controlPaused;

    /** Not written while empty, for the same reason as the resource's missing status (see initStatus). */
    @JsonInclude(JsonInclude.Include.NON_EMPTY)
    @JsonPropertyDescription("Available, Recovering, Scaling, Upgrading, Valid, the summary Ready, and TLSSecretsReady or RestoreSnapshot when they apply.")
    private List<Condition> conditions = new ArrayList<>();

    @StatusReplicas
    @JsonPropertyDescription("Current number of etcd members.")
    private Integer size;

    @JsonPropertyDescription("Number of members that are ready.")
    private Integer readyMembers;

    @JsonPropertyDescription("Ready members over spec.size, as kubectl get shows it: 3/3.")
    private String ready;

    @JsonPropertyDescription("The client Service: <cluster>-client.")
    private String serviceName;

    @JsonPropertyDescription("The client port, 2379.")
    private Integer clientPort;

    @JsonPropertyDescription("Member (pod) names by readiness.")
    private MembersStatus members;

    @JsonPropertyDescription("Per-member detail as the operator last observed it.")
    private List<MemberDetail> memberDetails;

    @JsonPropertyDescription("etcd version the members run.")
    private String currentVersion;

    @JsonPropertyDescription("The version an upgrade stopped at: a member's etcd crash-looped on it before it was ever"
            + " healthy on it, and the member was taken back to the version the others run. It is not tried again while"
            + " spec.version names it; set spec.version to another version (the running one, say) to clear it.")
    private String failedUpgradeVersion;

    @JsonPropertyDescription("The cluster's seed member, recorded before its pod is created: the only seed the operator"
            + " creates. A cluster that ran and lost every member is not seeded again unless a person asks for it.")
    private String seedMember;

    @JsonPropertyDescription("The first members of a cluster that started them all together (a new, empty cluster of"
            + " three members or more), recorded before their pods are created, until they first have a quorum: the"
            + " only first members the operator creates (seedMember then names the first of them). Empty for a cluster"
            + " that started from one seed.")
    private List<String> initialMembers;

    @JsonPropertyDescription("When the operator first saw fewer than a majority of the voting members healthy, in "
            + "this loss of quorum (RFC 3339); the grace period of spec.quorumLossRecovery counts from it. Cleared once "
            + "a majority is healthy.")
    private String quorumLostSince;

    @JsonPropertyDescription("The voting members of the cluster as the operator last saw them listed while quorum was "
            + "lost: kept while no member answers (a member whose etcd started again without a majority serves "
            + "nothing), so that which of them are lost for good is still known. Cleared with quorumLostSince.")
    private List<String> quorumLostVoters;

    @JsonPropertyDescription("The recovery from a lost quorum in progress: the survivor and the member restarted from "
            + "its data, or the EtcdRestore created. Cleared once the cluster has a healthy majority again.")
    private QuorumRecoveryStatus quorumRecovery;

    @JsonPropertyDescription("When the last recovery from a survivor began (RFC 3339): it made the cluster a new etcd "
            + "cluster (another cluster ID) on the survivor's data, and the EtcdBackups of this cluster go on backing it "
            + "up. Cleared when the cluster is seeded again empty.")
    private String lastSurvivorRecoveryDate;

    @JsonPropertyDescription("Additive, with spec.etcd.defragmentation.schedule: the next scheduled defragmentation "
            + "round, the one in progress and the last one completed.")
    private DefragmentationStatus defragmentation;

    @JsonPropertyDescription("Version being upgraded to; set only while upgrading.")
    private String targetVersion;

    @JsonPropertyDescription("The metadata.generation this status reflects.")
    private Long observedGeneration;

    @JsonPropertyDescription("Additive, with spec.TLS.static: when each certificate and CA of the TLS Secrets expires.")
    private List<CertificateStatus> certificates;

    public String getPhase() {
        return phase;
    }

    public void setPhase(String phase) {
        this.phase = phase;
    }

    public String getReason() {
        return reason;
    }

    public void setReason(String reason) {
        this.reason = reason;
    }

    public Boolean getControlPaused() {
        return controlPaused;
    }

    public void setControlPaused(Boolean controlPaused) {
        this.controlPaused = controlPaused;
    }

    @Override
    public List<Condition> getConditions() {
        return conditions;
    }

    @Override
    public void setConditions(List<Condition> conditions) {
        this.conditions = conditions;
    }

    public Integer getSize() {
        return size;
    }

    public void setSize(Integer size) {
        this.size = size;
    }

    public Integer getReadyMembers() {
        return readyMembers;
    }

    public void setReadyMembers(Integer readyMembers) {
        this.readyMembers = readyMembers;
    }

    public String getReady() {
        return ready;
    }

    public void setReady(String ready) {
        this.ready = ready;
    }

    public String getServiceName() {
        return serviceName;
    }

    public void setServiceName(String serviceName) {
        this.serviceName = serviceName;
    }

    public Integer getClientPort() {
        return clientPort;
    }

    public void setClientPort(Integer clientPort) {
        this.clientPort = clientPort;
    }

    public MembersStatus getMembers() {
        return members;
    }

    public void setMembers(MembersStatus members) {
        this.members = members;
    }

    public List<MemberDetail> getMemberDetails() {
        return memberDetails;
    }

    public void setMemberDetails(List<MemberDetail> memberDetails) {
        this.memberDetails = memberDetails;
    }

    public String getCurrentVersion() {
        return currentVersion;
    }

    public void setCurrentVersion(String currentVersion) {
        this.currentVersion = currentVersion;
    }

    public String getSeedMember() {
        return seedMember;
    }

    public void setSeedMember(String seedMember) {
        this.seedMember = seedMember;
    }

    public String getFailedUpgradeVersion() {
        return failedUpgradeVersion;
    }

    public void setFailedUpgradeVersion(String failedUpgradeVersion) {
        this.failedUpgradeVersion = failedUpgradeVersion;
    }

    public List<String> getInitialMembers() {
        return initialMembers;
    }

    public void setInitialMembers(List<String> initialMembers) {
        this.initialMembers = initialMembers;
    }

    public List<CertificateStatus> getCertificates() {
        return certificates;
    }

    public void setCertificates(List<CertificateStatus> certificates) {
        this.certificates = certificates;
    }

    public String getLastSurvivorRecoveryDate() {
        return lastSurvivorRecoveryDate;
    }

    public void setLastSurvivorRecoveryDate(String lastSurvivorRecoveryDate) {
        this.lastSurvivorRecoveryDate = lastSurvivorRecoveryDate;
    }

    public List<String> getQuorumLostVoters() {
        return quorumLostVoters;
    }

    public void setQuorumLostVoters(List<String> quorumLostVoters) {
        this.quorumLostVoters = quorumLostVoters;
    }

    public String getQuorumLostSince() {
        return quorumLostSince;
    }

    public void setQuorumLostSince(String quorumLostSince) {
        this.quorumLostSince = quorumLostSince;
    }

    public DefragmentationStatus getDefragmentation() {
        return defragmentation;
    }

    public void setDefragmentation(DefragmentationStatus defragmentation) {
        this.defragmentation = defragmentation;
    }

    public QuorumRecoveryStatus getQuorumRecovery() {
        return quorumRecovery;
    }

    public void setQuorumRecovery(QuorumRecoveryStatus quorumRecovery) {
        this.quorumRecovery = quorumRecovery;
    }

    public String getTargetVersion() {
        return targetVersion;
    }

    public void setTargetVersion(String targetVersion) {
        this.targetVersion = targetVersion;
    }

    @Override
    public Long getObservedGeneration() {
        return observedGeneration;
    }

    @Override
    public void setObservedGeneration(Long observedGeneration) {
        this.observedGeneration = observedGeneration;
    }
}
