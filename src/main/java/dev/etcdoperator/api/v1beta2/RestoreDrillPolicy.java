package dev.etcdoperator.api.v1beta2;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Size;

@JsonInclude(JsonInclude.Include.NON_NULL)
public class RestoreDrillPolicy {

    @Min(1)
    @Max(InputRules.MAX_DRILL_EVERY)
    @JsonPropertyDescription("Drill after every that many successful backups, 1 to 10000; absent: after every backup, "
            + "unless a schedule is set.")
    private Integer every;

    @Pattern(InputRules.SCHEDULE)
    @Size(max = InputRules.SCHEDULE_MAX_LENGTH)
    @JsonPropertyDescription("Also drill the last successful backup at these times, drilled before or not: five cron "
            + "fields (minute, hour, day of month, month, day of week) read in UTC, as in a CronJob, or @hourly, "
            + "@daily, @weekly, @monthly, @yearly. With a schedule and no every, drills follow the schedule alone.")
    private String schedule;

    @Min(0)
    @Max(InputRules.MAX_DRILL_TIMEOUT_SECONDS)
    @JsonPropertyDescription("Upper bound of one drill, in seconds, at most 3600. 0 or absent: the default (300 s).")
    private Long timeoutInSecond;

    public Integer getEvery() {
        return every;
    }

    public void setEvery(Integer every) {
        this.every = every;
    }

    public String getSchedule() {
        return schedule;
    }

    public void setSchedule(String schedule) {
        this.schedule = schedule;
    }

    public Long getTimeoutInSecond() {
        return timeoutInSecond;
    }

    public void setTimeoutInSecond(Long timeoutInSecond) {
        this.timeoutInSecond = timeoutInSecond;
    }
}
