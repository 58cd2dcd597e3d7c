package dev.etcdoperator.api.v1beta2;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;

@JsonInclude(JsonInclude.Include.NON_NULL)
@ValidationRule(value = "(has(self.etcdEndpoints) && size(self.etcdEndpoints) > 0) || has(self.etcdCluster)",
        message = "set etcdEndpoints or etcdCluster")
@ValidationRule(value = "self.storageType != 'S3' || has(self.s3)", message = "storageType S3 requires s3")
public class EtcdBackupSpec {

    @Size(max = InputRules.ETCD_ENDPOINTS_MAX_ITEMS)
    @JsonPropertyDescription("Client URLs of the cluster to back up (scheme, host, port; no path, query or user info); the member with the newest revision is used.")
    private List<@Pattern(InputRules.ETCD_ENDPOINT) @Size(max = InputRules.S3_ENDPOINT_MAX_LENGTH) String> etcdEndpoints;

    @JsonPropertyDescription("Additive: an EtcdCluster in this namespace to back up, instead of etcdEndpoints.")
    private EtcdClusterRef etcdCluster;

    @Required
    @ValidationRule(value = "self in ['S3', 'ABS', 'GCS', 'OSS']", message = "storageType must be one of S3, ABS, GCS, OSS")
    @JsonPropertyDescription("S3 (ABS, GCS and OSS are accepted for compatibility and reported as not supported).")
    private String storageType;

    @JsonPropertyDescription("Timeout, interval and retention; absent: one backup with a 60 s timeout.")
    private BackupPolicy backupPolicy;

    @JsonPropertyDescription("Additive, off when absent: restore backups into a throwaway one-member etcd and compare"
            + " it with the source (revision, HashKV, key count).")
    private RestoreDrillPolicy restoreDrill;

    @JsonPropertyDescription("Where to store the backup when storageType is S3.")
    private S3Source s3;

    @JsonPropertyDescription("Azure Blob Storage settings of the original API; accepted, not supported.")
    private OtherStorageSource abs;

    @JsonPropertyDescription("Google Cloud Storage settings of the original API; accepted, not supported.")
    private OtherStorageSource gcs;

    @JsonPropertyDescription("Alibaba Cloud OSS settings of the original API; accepted, not supported.")
    private OtherStorageSource oss;

    @Pattern(ResourceName.PATTERN)
    @Size(max = InputRules.NAME_MAX_LENGTH)
    @JsonPropertyDescription("Secret with etcd-client.crt, etcd-client.key and etcd-client-ca.crt.")
    private String clientTLSSecret;

    public List<String> getEtcdEndpoints() {
        return etcdEndpoints;
    }

    public void setEtcdEndpoints(List<String> etcdEndpoints) {
        this.etcdEndpoints = etcdEndpoints;
    }

    public EtcdClusterRef getEtcdCluster() {
        return etcdCluster;
    }

    public void setEtcdCluster(EtcdClusterRef etcdCluster) {
        this.etcdCluster = etcdCluster;
    }

    public String getStorageType() {
        return storageType;
    }

    public void setStorageType(String storageType) {
        this.storageType = storageType;
    }

    public BackupPolicy getBackupPolicy() {
        return backupPolicy;
    }

    public void setBackupPolicy(BackupPolicy backupPolicy) {
        this.backupPolicy = backupPolicy;
    }

    public RestoreDrillPolicy getRestoreDrill() {
        return restoreDrill;
    }

    public void setRestoreDrill(RestoreDrillPolicy restoreDrill) {
        this.restoreDrill = restoreDrill;
    }

    public S3Source getS3() {
        return s3;
    }

    public void setS3(S3Source s3) {
        this.s3 = s3;
    }

    public OtherStorageSource getAbs() {
        return abs;
    }

    public void setAbs(OtherStorageSource abs) {
        this.abs = abs;
    }

    public OtherStorageSource getGcs() {
        return gcs;
    }

    public void setGcs(OtherStorageSource gcs) {
        this.gcs = gcs;
    }

    public OtherStorageSource getOss() {
        return oss;
    }

    public void setOss(OtherStorageSource oss) {
        this.oss = oss;
    }

    public String getClientTLSSecret() {
        return clientTLSSecret;
    }

    public void setClientTLSSecret(String clientTLSSecret) {
        this.clientTLSSecret = clientTLSSecret;
    }
}
