package dev.etcdoperator.api.v1beta2;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;

@JsonInclude(JsonInclude.Include.NON_NULL)
public class BackupPolicy {

    @Min(0)
    @Max(InputRules.MAX_BACKUP_TIMEOUT_SECONDS)
    @JsonPropertyDescription("Upper bound of one whole backup, in seconds, at most 86400. 0 or absent: the default (60 s).")
    private Long timeoutInSecond;

    @Min(0)
    @Max(InputRules.MAX_BACKUP_INTERVAL_SECONDS)
    @JsonPropertyDescription("0 or absent: one backup. Otherwise a backup every that many seconds, at most 31622400 (366 days).")
    private Long backupIntervalInSecond;

    @Min(0)
    @Max(InputRules.MAX_BACKUPS)
    @JsonPropertyDescription("Periodic backups to keep, newest first, at most 10000; 0 keeps all.")
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
