package dev.etcdoperator.api.v1beta2;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.ValidationRule;

@JsonInclude(JsonInclude.Include.NON_NULL)
@ValidationRule(value = "self.backupStorageType != 'S3' || has(self.s3)", message = "backupStorageType S3 requires s3")
public class EtcdRestoreSpec {

    @Required
    @JsonPropertyDescription("The EtcdCluster (same namespace) whose metadata and spec are the template of the restored cluster.")
    private EtcdClusterRef etcdCluster;

    @Required
    @ValidationRule(value = "self in ['S3', 'ABS', 'GCS', 'OSS']",
            message = "backupStorageType must be one of S3, ABS, GCS, OSS")
    @JsonPropertyDescription("S3 (ABS, GCS and OSS are accepted for compatibility and reported as not supported).")
    private String backupStorageType;

    @JsonPropertyDescription("Where the backup is, when backupStorageType is S3.")
    private S3Source s3;

    @JsonPropertyDescription("Azure Blob Storage settings of the original API; accepted, not supported.")
    private OtherStorageSource abs;

    @JsonPropertyDescription("Google Cloud Storage settings of the original API; accepted, not supported.")
    private OtherStorageSource gcs;

    @JsonPropertyDescription("Alibaba Cloud OSS settings of the original API; accepted, not supported.")
    private OtherStorageSource oss;

    public EtcdClusterRef getEtcdCluster() {
        return etcdCluster;
    }

    public void setEtcdCluster(EtcdClusterRef etcdCluster) {
        this.etcdCluster = etcdCluster;
    }

    public String getBackupStorageType() {
        return backupStorageType;
    }

    public void setBackupStorageType(String backupStorageType) {
        this.backupStorageType = backupStorageType;
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
}
