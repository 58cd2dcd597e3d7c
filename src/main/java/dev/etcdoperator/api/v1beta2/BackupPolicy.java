package dev.etcdoperator.api.v1beta2;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Min;

@JsonInclude(JsonInclude.Include.NON_NULL)
public class BackupPolicy {

    @Min(0)
    @JsonPropertyDescription("Upper bound of one whole backup, in seconds. 0 or absent: the default (60 s).")
    private Long timeoutInSecond;

    @Min(0)
    @JsonPropertyDescription("0 or absent: one backup. Otherwise a backup every that many seconds.")
    private Long backupIntervalInSecond;

    @Min(0)
    @JsonPropertyDescription("Periodic backups to keep, newest first; 0 keeps all.")
    private Integer maxBackups;

    public Long getTimeoutInSecond() {
        return timeoutInSecond;
    }

    public void setTimeoutInSecond(Long timeoutInSecond) {
        this.timeoutInSecond = timeoutInSecond;
    }

    public Long getBackupIntervalInSecond() {
        return backupIntervalInSecond;
    }

    public void setBackupIntervalInSecond(Long backupIntervalInSecond) {
        this.backupIntervalInSecond = backupIntervalInSecond;
    }

    public Integer getMaxBackups() {
        return maxBackups;
    }

    public void setMaxBackups(Integer maxBackups) {
        this.maxBackups = maxBackups;
    }
}
