package dev.etcdoperator.api.v1beta2;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;

import com.fasterxml.jackson.annotation.JsonInclude;

@JsonInclude(JsonInclude.Include.NON_NULL)
public class EtcdRestoreStatus implements ConditionedStatus {
    @JsonPropertyDescription("Whether the restore succeeded; false while it runs or after it failed.")
    private Boolean succeeded;

    @JsonPropertyDescription("Empty unless a step failed: <Reason>: <what happened>.")
    private String reason;

    @JsonPropertyDescription("etcd revision of the restored backup.")
    private Long restoredRevision;

    @JsonPropertyDescription("Preflight, Deleting, Restoring, Growing, Done or Failed.")
    private String phase;

    @JsonPropertyDescription("The uid of the template EtcdCluster, recorded when the preflight passed.")
    private String templateUid;

    @JsonPropertyDescription("The template's metadata.generation when the preflight passed: a template whose spec "
            + "changed since is not deleted (the restore fails, nothing changed).")
    private Long templateGeneration;

    @JsonPropertyDescription("True once this restore went on to delete the template, recorded before it asks for the "
            + "deletion: an EtcdRestore deleted after that finishes the restored cluster first; one deleted before "
            + "(or when someone else deleted the template) stops.")
    private Boolean templateDeletionRequested;

    @JsonPropertyDescription("The template's spec, saved before it is deleted; the restored cluster gets it.")
    private SavedClusterSpec clusterSpec;

    @JsonPropertyDescription("The template cluster's labels, saved before it is deleted; the restored cluster gets them.")
    private Map<String, String> clusterLabels;

    @JsonPropertyDescription("The uid of the EtcdCluster this restore created; only that cluster's seed gets the snapshot.")
    private String restoredClusterUid;

    @JsonPropertyDescription("The Secret with the snapshot's URL that this restore created for the restored cluster.")
    private String snapshotSecret;

    @JsonPropertyDescription("The seed member pod this restore started while the preflight ran: it fetches and restores"
            + " the snapshot beside the template cluster, serves no one until the restored cluster adopts it, and is"
            + " deleted if the restore does not go on with it.")
    private String stagedSeed;

    @JsonPropertyDescription("The template cluster's annotations, saved before it is deleted; the restored cluster gets them.")
    private Map<String, String> clusterAnnotations;

    @JsonPropertyDescription("Hex SHA-256 of the backup, as read and verified by the preflight.")
    private String backupSha256;

    @JsonPropertyDescription("With a client-side encrypted backup: the fingerprint of the key the preflight decrypted it"
            + " with; the restore goes on only while the key Secret holds that key.")
    private String backupKeyFingerprint;

    @JsonPropertyDescription("With a client-side encrypted backup: hex SHA-256 of the decrypted snapshot, as the "
            + "preflight verified it; the seed member checks what it receives against it.")
    private String snapshotSha256;

    @JsonPropertyDescription("Bytes of the backup, as read and verified by the preflight.")
    private Long backupSize;

    @JsonPropertyDescription("The spec the preflight verified; the restore acts on it, whatever the spec says later.")
    private EtcdRestoreSpec verifiedSpec;

    @JsonPropertyDescription("ETag of the backup object the preflight verified; the seed member downloads only that object.")
    private String backupETag;

    @JsonPropertyDescription("Version id of the backup object the preflight verified, when its bucket has versioning.")
    private String backupVersionId;

    @JsonPropertyDescription("When the URL in the snapshot Secret expires; it is signed again well before.")
    private String snapshotUrlExpires;

    @JsonPropertyDescription("Preflight attempts that failed for a reason that may pass (store unreachable, timeout).")
    private Integer consecutiveFailures;

    @JsonPropertyDescription("Times the seed member's download of the snapshot failed (its link refused, e.g. after an "
            + "operator restart, or the download broken off) and the seed was started again with a fresh link; the "
            + "restore fails after 3.")
    private Integer seedRetries;

    @JsonPropertyDescription("RFC 3339 time of the last preflight attempt.")
    private String lastAttemptDate;

    /** Not written while empty, for the same reason as the resource's missing status (see initStatus). */
    @JsonInclude(JsonInclude.Include.NON_EMPTY)
    @JsonPropertyDescription("Valid, one condition per phase (Preflight, Deleting, Restoring, Growing, Done) and the summary Ready.")
    private List<Condition> conditions = new ArrayList<>();

    @JsonPropertyDescription("The metadata.generation this status reflects.")
    private Long observedGeneration;

    public Boolean getSucceeded() {
        return succeeded;
    }

    public void setSucceeded(Boolean succeeded) {
        this.succeeded = succeeded;
    }

    public String getReason() {
        return reason;
    }

    public void setReason(String reason) {
        this.reason = reason;
    }

    public Long getRestoredRevision() {
        return restoredRevision;
    }

    public void setRestoredRevision(Long restoredRevision) {
        this.restoredRevision = restoredRevision;
    }

    public String getPhase() {
        return phase;
    }

    public void setPhase(String phase) {
        this.phase = phase;
    }

    public String getTemplateUid() {
        return templateUid;
    }

    public void setTemplateUid(String templateUid) {
        this.templateUid = templateUid;
    }

    public Long getTemplateGeneration() {
        return templateGeneration;
    }

    public void setTemplateGeneration(Long templateGeneration) {
        this.templateGeneration = templateGeneration;
    }

    public Boolean getTemplateDeletionRequested() {
        return templateDeletionRequested;
    }

    public void setTemplateDeletionRequested(Boolean templateDeletionRequested) {
        this.templateDeletionRequested = templateDeletionRequested;
    }

    public SavedClusterSpec getClusterSpec() {
        return clusterSpec;
    }

    public void setClusterSpec(SavedClusterSpec clusterSpec) {
        this.clusterSpec = clusterSpec;
    }

    public Map<String, String> getClusterLabels() {
        return clusterLabels;
    }

    public void setClusterLabels(Map<String, String> clusterLabels) {
        this.clusterLabels = clusterLabels;
    }

    public String getRestoredClusterUid() {
        return restoredClusterUid;
    }

    public void setRestoredClusterUid(String restoredClusterUid) {
        this.restoredClusterUid = restoredClusterUid;
    }

    public String getSnapshotSecret() {
        return snapshotSecret;
    }

    public void setSnapshotSecret(String snapshotSecret) {
        this.snapshotSecret = snapshotSecret;
    }

    public String getStagedSeed() {
        return stagedSeed;
    }

    public void setStagedSeed(String stagedSeed) {
        this.stagedSeed = stagedSeed;
    }

    public Map<String, String> getClusterAnnotations() {
        return clusterAnnotations;
    }

    public void setClusterAnnotations(Map<String, String> clusterAnnotations) {
        this.clusterAnnotations = clusterAnnotations;
    }

    public String getBackupSha256() {
        return backupSha256;
    }

    public void setBackupSha256(String backupSha256) {
        this.backupSha256 = backupSha256;
    }

    public Long getBackupSize() {
        return backupSize;
    }

    public void setBackupSize(Long backupSize) {
        this.backupSize = backupSize;
    }

    public EtcdRestoreSpec getVerifiedSpec() {
        return verifiedSpec;
    }

    public void setVerifiedSpec(EtcdRestoreSpec verifiedSpec) {
        this.verifiedSpec = verifiedSpec;
    }

    public String getBackupETag() {
        return backupETag;
    }

    public void setBackupETag(String backupETag) {
        this.backupETag = backupETag;
    }

    public String getBackupVersionId() {
        return backupVersionId;
    }

    public void setBackupVersionId(String backupVersionId) {
        this.backupVersionId = backupVersionId;
    }

    public String getSnapshotUrlExpires() {
        return snapshotUrlExpires;
    }

    public void setSnapshotUrlExpires(String snapshotUrlExpires) {
        this.snapshotUrlExpires = snapshotUrlExpires;
    }

    public Integer getConsecutiveFailures() {
        return consecutiveFailures;
    }

    public void setConsecutiveFailures(Integer consecutiveFailures) {
        this.consecutiveFailures = consecutiveFailures;
    }

    public Integer getSeedRetries() {
        return seedRetries;
    }

    public void setSeedRetries(Integer seedRetries) {
        this.seedRetries = seedRetries;
    }

    public String getLastAttemptDate() {
        return lastAttemptDate;
    }

    public void setLastAttemptDate(String lastAttemptDate) {
        this.lastAttemptDate = lastAttemptDate;
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

    public String getBackupKeyFingerprint() {
        return backupKeyFingerprint;
    }

    public void setBackupKeyFingerprint(String backupKeyFingerprint) {
        this.backupKeyFingerprint = backupKeyFingerprint;
    }

    public String getSnapshotSha256() {
        return snapshotSha256;
    }

    public void setSnapshotSha256(String snapshotSha256) {
        this.snapshotSha256 = snapshotSha256;
    }
}
