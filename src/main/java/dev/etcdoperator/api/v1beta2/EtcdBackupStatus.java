package dev.etcdoperator.api.v1beta2;

import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;

@JsonInclude(JsonInclude.Include.NON_NULL)
public class EtcdBackupStatus implements ConditionedStatus {
    @JsonPropertyDescription("Whether the last attempt succeeded.")
    private Boolean succeeded;

    @JsonProperty("Reason")
    @JsonPropertyDescription("Empty after a success; <Reason>: <what happened> after a failure.")
    private String reason;

    @JsonPropertyDescription("etcd version of the member the last successful backup came from.")
    private String etcdVersion;

    @JsonPropertyDescription("etcd revision of the last successful backup.")
    private Long etcdRevision;

    @JsonPropertyDescription("etcd's cluster ID (hex) of the cluster the last successful backup came from; a backup"
            + " of another cluster is refused (ClusterChanged).")
    @JsonProperty("etcdClusterID")
    private String etcdClusterID;

    @JsonPropertyDescription("metadata.uid of the EtcdCluster (spec.etcdCluster) the last successful backup came"
            + " from; a backup of a re-created cluster is refused (ClusterChanged).")
    @JsonProperty("clusterUID")
    private String clusterUID;

    @JsonPropertyDescription("RFC 3339 time of the last successful backup.")
    private String lastSuccessDate;

    @JsonPropertyDescription("<bucket>/<key> of the last successful backup.")
    private String backupPath;

    @JsonPropertyDescription("Bytes of the last successful backup.")
    private Long backupSize;

    @JsonPropertyDescription("Hex SHA-256 of the last successful backup.")
    private String backupSha256;

    @JsonPropertyDescription("With client-side encryption: hex SHA-256 of the snapshot before it was encrypted "
            + "(backupSha256 is then the stored ciphertext's); what a restore checks the decrypted snapshot against.")
    private String snapshotSha256;

    @JsonPropertyDescription("With client-side encryption: bytes of the snapshot before it was encrypted.")
    private Long snapshotSize;

    @JsonPropertyDescription("With client-side encryption: the fingerprint of the key the last successful backup was "
            + "encrypted with (never the key); a restore needs the Secret holding the key of this fingerprint.")
    private String encryptionKeyFingerprint;

    @JsonPropertyDescription("RFC 3339 time the last attempt ended, successful or not.")
    private String lastAttemptDate;

    @JsonPropertyDescription("Failed attempts since the last success; retries back off from 5 s to 5 min.")
    private Integer consecutiveFailures;

    @JsonPropertyDescription("RFC 3339 time of the next backup or retry; absent once a one-shot backup succeeded.")
    private String nextBackupDate;

    @JsonPropertyDescription("The source's HashKV and key count at the revision of the last successful backup, which"
            + " a restore drill compares.")
    private BackupKeyspace backupKeyspace;

    @JsonPropertyDescription("Successful backups since the last restore drill.")
    private Integer backupsSinceDrill;

    @JsonPropertyDescription("<bucket>/<key> of the last backup a restore drill ran on, whatever its outcome.")
    private String lastDrilledBackupPath;

    @JsonPropertyDescription("The spec.restoreDrill.schedule that nextDrillDate follows.")
    private String drillSchedule;

    @JsonPropertyDescription("RFC 3339 time the next scheduled restore drill is due (spec.restoreDrill.schedule); "
            + "while that drill waits or runs, the time it was due.")
    private String nextDrillDate;

    @JsonPropertyDescription("RFC 3339 time a restore drill last verified a backup.")
    private String lastVerifiedDate;

    @JsonPropertyDescription("<bucket>/<key> of the last backup a restore drill verified; retention keeps it.")
    private String lastVerifiedBackupPath;

    /** Not written while empty, for the same reason as the resource's missing status (see initStatus). */
    @JsonInclude(JsonInclude.Include.NON_EMPTY)
    @JsonPropertyDescription("Valid, BackupSucceeded, BackupVerified (with restoreDrill) and the summary Ready.")
    private List<Condition> conditions = new ArrayList<>();

    @JsonPropertyDescription("The metadata.generation this status reflects.")
    private Long observedGeneration;

    public String getDrillSchedule() {
        return drillSchedule;
    }

    public void setDrillSchedule(String drillSchedule) {
        this.drillSchedule = drillSchedule;
    }

    public String getNextDrillDate() {
        return nextDrillDate;
    }

    public void setNextDrillDate(String nextDrillDate) {
        this.nextDrillDate = nextDrillDate;
    }

    public Boolean getSucceeded() {
        return succeeded;
    }

    public void setSucceeded(Boolean succeeded) {
        this.succeeded = succeeded;
    }

    @JsonProperty("Reason")
    public String getReason() {
        return reason;
    }

    @JsonProperty("Reason")
    public void setReason(String reason) {
        this.reason = reason;
    }

    public String getEtcdVersion() {
        return etcdVersion;
    }

    public void setEtcdVersion(String etcdVersion) {
        this.etcdVersion = etcdVersion;
    }

    public Long getEtcdRevision() {
        return etcdRevision;
    }

    public void setEtcdRevision(Long etcdRevision) {
        this.etcdRevision = etcdRevision;
    }

    @JsonProperty("etcdClusterID")
    public String getEtcdClusterID() {
        return etcdClusterID;
    }

    @JsonProperty("etcdClusterID")
    public void setEtcdClusterID(String etcdClusterID) {
        this.etcdClusterID = etcdClusterID;
    }

    @JsonProperty("clusterUID")
    public String getClusterUID() {
        return clusterUID;
    }

    @JsonProperty("clusterUID")
    public void setClusterUID(String clusterUID) {
        this.clusterUID = clusterUID;
    }

    public String getLastSuccessDate() {
        return lastSuccessDate;
    }

    public void setLastSuccessDate(String lastSuccessDate) {
        this.lastSuccessDate = lastSuccessDate;
    }

    public String getBackupPath() {
        return backupPath;
    }

    public void setBackupPath(String backupPath) {
        this.backupPath = backupPath;
    }

    public Long getBackupSize() {
        return backupSize;
    }

    public void setBackupSize(Long backupSize) {
        this.backupSize = backupSize;
    }

    public String getBackupSha256() {
        return backupSha256;
    }

    public void setBackupSha256(String backupSha256) {
        this.backupSha256 = backupSha256;
    }

    public String getLastAttemptDate() {
        return lastAttemptDate;
    }

    public void setLastAttemptDate(String lastAttemptDate) {
        this.lastAttemptDate = lastAttemptDate;
    }

    public Integer getConsecutiveFailures() {
        return consecutiveFailures;
    }

    public void setConsecutiveFailures(Integer consecutiveFailures) {
        this.consecutiveFailures = consecutiveFailures;
    }

    public String getNextBackupDate() {
        return nextBackupDate;
    }

    public void setNextBackupDate(String nextBackupDate) {
        this.nextBackupDate = nextBackupDate;
    }

    public BackupKeyspace getBackupKeyspace() {
        return backupKeyspace;
    }

    public void setBackupKeyspace(BackupKeyspace backupKeyspace) {
        this.backupKeyspace = backupKeyspace;
    }

    public Integer getBackupsSinceDrill() {
        return backupsSinceDrill;
    }

    public void setBackupsSinceDrill(Integer backupsSinceDrill) {
        this.backupsSinceDrill = backupsSinceDrill;
    }

    public String getLastDrilledBackupPath() {
        return lastDrilledBackupPath;
    }

    public void setLastDrilledBackupPath(String lastDrilledBackupPath) {
        this.lastDrilledBackupPath = lastDrilledBackupPath;
    }

    public String getLastVerifiedDate() {
        return lastVerifiedDate;
    }

    public void setLastVerifiedDate(String lastVerifiedDate) {
        this.lastVerifiedDate = lastVerifiedDate;
    }

    public String getLastVerifiedBackupPath() {
        return lastVerifiedBackupPath;
    }

    public void setLastVerifiedBackupPath(String lastVerifiedBackupPath) {
        this.lastVerifiedBackupPath = lastVerifiedBackupPath;
    }

    @Override
    public List<Condition> getConditions() {
        return conditions;
    }

    @Override
    public void setConditions(List<Condition> conditions) {
        this.conditions = conditions;
    }

    @Override
    public Long getObservedGeneration() {
        return observedGeneration;
    }

    @Override
    public void setObservedGeneration(Long observedGeneration) {
        this.observedGeneration = observedGeneration;
    }

    public String getSnapshotSha256() {
        return snapshotSha256;
    }

    public void setSnapshotSha256(String snapshotSha256) {
        this.snapshotSha256 = snapshotSha256;
    }

    public Long getSnapshotSize() {
        return snapshotSize;
    }

    public void setSnapshotSize(Long snapshotSize) {
        this.snapshotSize = snapshotSize;
    }

    public String getEncryptionKeyFingerprint() {
        return encryptionKeyFingerprint;
    }

    public void setEncryptionKeyFingerprint(String encryptionKeyFingerprint) {
        this.encryptionKeyFingerprint = encryptionKeyFingerprint;
    }
}
