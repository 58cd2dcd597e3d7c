package dev.etcdoperator.core.cluster;

import java.time.Instant;
import java.util.List;
import java.util.Objects;

import dev.etcdoperator.core.schedule.CronSchedule;

/**
 * The rounds of {@code spec.etcd.defragmentation.schedule}, as {@code status.defragmentation} recorded them.
 *
 * @param schedule the schedule
 * @param due      when the next round is due (or the one in progress was); null until recorded for this schedule
 * @param done     the members the round in progress has defragmented
 */
public record DefragmentationRound(CronSchedule schedule, Instant due, List<String> done) {
    public DefragmentationRound {
        Objects.requireNonNull(schedule, "schedule");
        done = List.copyOf(done == null ? List.of() : done);
    }

    /** A round is due or in progress at {@code now}. */
    public boolean dueAt(Instant now) {
        return due != null && now != null && !now.isBefore(due);
    }
}
