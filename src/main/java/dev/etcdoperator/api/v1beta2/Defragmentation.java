package dev.etcdoperator.api.v1beta2;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Size;

/**
 * Additive: defragment members whose database file holds much free space, or every member on a schedule, one member
 * at a time, followers first and the leader last. Present means on. With only a schedule, members are defragmented
 * on the schedule alone; otherwise also when past the thresholds, each threshold left out taking its default.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class Defragmentation {
    public static final long DEFAULT_MIN_FRAGMENTED_BYTES = 100L << 20;
    public static final int DEFAULT_MIN_FRAGMENTED_PERCENT = 50;

    @Min(InputRules.MIN_FRAGMENTED_BYTES)
    @Max(InputRules.MAX_FRAGMENTED_BYTES)
    @JsonPropertyDescription("A member is defragmented once the free space in its database file (its size less the "
            + "bytes in use) reaches this many bytes, and minFragmentedPercent of the file: 1048576 (1 MiB) to "
            + "8589934592 (8 GiB). Default 104857600 (100 MiB).")
    private Long minFragmentedBytes;

    @Min(InputRules.MIN_FRAGMENTED_PERCENT)
    @Max(InputRules.MAX_FRAGMENTED_PERCENT)
    @JsonPropertyDescription("A member is defragmented once the free space in its database file reaches this share "
            + "of the file, in percent (1 to 100), and minFragmentedBytes. Default 50.")
    private Integer minFragmentedPercent;

    @Pattern(InputRules.SCHEDULE)
    @Size(max = InputRules.SCHEDULE_MAX_LENGTH)
    @JsonPropertyDescription("Defragment every member in a round at these times: five cron fields (minute, hour, day "
            + "of month, month, day of week) read in UTC, as in a CronJob (\"0 3 * * 0\": Sundays at 03:00), or "
            + "@hourly, @daily, @weekly, @monthly, @yearly. A round starts within one reconcile interval of its time "
            + "and waits while anything else is in progress; a round missed while the cluster could not be "
            + "defragmented runs once when it can. With a schedule and no threshold set, the thresholds are off.")
    private String schedule;

    public Long getMinFragmentedBytes() {
        return minFragmentedBytes;
    }

    public void setMinFragmentedBytes(Long minFragmentedBytes) {
        this.minFragmentedBytes = minFragmentedBytes;
    }

    public Integer getMinFragmentedPercent() {
        return minFragmentedPercent;
    }

    public void setMinFragmentedPercent(Integer minFragmentedPercent) {
        this.minFragmentedPercent = minFragmentedPercent;
    }

    public String getSchedule() {
        return schedule;
    }

    public void setSchedule(String schedule) {
        this.schedule = schedule;
    }

    /** Whether members are defragmented when past the thresholds: unless only a schedule is set. */
    public boolean thresholdsOn() {
        return schedule == null || minFragmentedBytes != null || minFragmentedPercent != null;
    }

    public long minFragmentedBytesOrDefault() {
        return minFragmentedBytes == null ? DEFAULT_MIN_FRAGMENTED_BYTES : minFragmentedBytes;
    }

    public int minFragmentedPercentOrDefault() {
        return minFragmentedPercent == null ? DEFAULT_MIN_FRAGMENTED_PERCENT : minFragmentedPercent;
    }
}
