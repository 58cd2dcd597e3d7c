package dev.etcdoperator.api.v1beta2;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;

/**
 * Additive: settings of etcd itself that the operator passes to every member as command-line flags (each one left
 * out keeps etcd's default), and when the operator defragments members.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@ValidationRule(value = "!has(self.autoCompactionMode) || self.autoCompactionMode != 'revision'"
        + " || !has(self.autoCompactionRetention) || self.autoCompactionRetention.matches('" + InputRules.REVISION_RETENTION
        + "')", message = InputRules.REVISION_RETENTION_MESSAGE)
public class EtcdSettings {
    public static final String PERIODIC = "periodic";
    public static final String REVISION = "revision";

    @Min(InputRules.MIN_QUOTA_BACKEND_BYTES)
    @Max(InputRules.MAX_QUOTA_BACKEND_BYTES)
    @JsonPropertyDescription("etcd's --quota-backend-bytes: the size its database may reach before etcd raises the "
            + "NOSPACE alarm and refuses writes, 1048576 (1 MiB) to 8589934592 (8 GiB). Default: etcd's own, 2 GiB. "
            + "The operator compacts and defragments the members and disarms the alarm when it is raised.")
    private Long quotaBackendBytes;

    @Pattern("^(periodic|revision)$")
    @JsonPropertyDescription("etcd's --auto-compaction-mode: periodic (keep the history of the retention period) or "
            + "revision (keep the last retention revisions). Default: etcd's own, periodic.")
    private String autoCompactionMode;

    @Pattern(InputRules.COMPACTION_RETENTION)
    @Size(max = InputRules.COMPACTION_RETENTION_MAX_LENGTH)
    @JsonPropertyDescription("etcd's --auto-compaction-retention: for periodic, a duration (1h, 30m, 1h30m) or a "
            + "number of hours; for revision, a number of revisions. 0 turns auto-compaction off (etcd's default).")
    private String autoCompactionRetention;

    @JsonPropertyDescription("Not an etcd flag: the operator defragments a member whose database file holds much free "
            + "space (both thresholds passed), one member at a time, followers first and the leader last, only while "
            + "every member is healthy and the others are a majority, and never during a NOSPACE recovery, a scaling, "
            + "an upgrade or a member replacement. A member serves nothing while it is defragmented. Absent: off.")
    private Defragmentation defragmentation;

    public Long getQuotaBackendBytes() {
        return quotaBackendBytes;
    }

    public void setQuotaBackendBytes(Long quotaBackendBytes) {
        this.quotaBackendBytes = quotaBackendBytes;
    }

    public String getAutoCompactionMode() {
        return autoCompactionMode;
    }

    public void setAutoCompactionMode(String autoCompactionMode) {
        this.autoCompactionMode = autoCompactionMode;
    }

    public Defragmentation getDefragmentation() {
        return defragmentation;
    }

    public void setDefragmentation(Defragmentation defragmentation) {
        this.defragmentation = defragmentation;
    }

    public String getAutoCompactionRetention() {
        return autoCompactionRetention;
    }

    public void setAutoCompactionRetention(String autoCompactionRetention) {
        this.autoCompactionRetention = autoCompactionRetention;
    }
}
