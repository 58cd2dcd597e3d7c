package dev.etcdoperator.core.backup;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Optional;

import dev.etcdoperator.api.v1beta2.EtcdBackupStatus;
import dev.etcdoperator.core.schedule.CronSchedule;

/**
 * When a scheduled restore drill is due ({@code spec.restoreDrill.schedule}), as {@code status.drillSchedule} and
 * {@code status.nextDrillDate} record it. The first drill is at the schedule's first time after it was set; after a
 * drill the next is the schedule's first time after the drill ended, so times missed meanwhile make one drill, not
 * several. A time recorded later than the schedule's next one (by a clock that ran ahead) is recorded again. Pure.
 */
public final class DrillSchedule {
    private DrillSchedule() {
    }

    /**
     * Records the schedule's next time when it is not recorded for this schedule yet; clears both fields without a
     * schedule.
     *
     * @return whether the status changed
     */
    public static boolean record(EtcdBackupStatus status, CronSchedule schedule, Instant now) {
        if (schedule == null) {
            boolean had = status.getDrillSchedule() != null || status.getNextDrillDate() != null;
            status.setDrillSchedule(null);
            status.setNextDrillDate(null);
            return had;
        }
        Optional<Instant> next = schedule.next(now);
        Optional<Instant> recorded = recorded(status);
        // a recorded time later than the schedule's next one from now (beyond the replicas' clock skew) was
        // recorded by a clock that ran ahead: the schedule's next time stands
        boolean fromAClockAhead = recorded.isPresent() && next.isPresent()
                && recorded.get().isAfter(BackupSchedule.plus(next.get(), BackupSchedule.CLOCK_SKEW));
        if (schedule.text().equals(status.getDrillSchedule()) && recorded.isPresent() && !fromAClockAhead) {
            return false;
        }
        status.setDrillSchedule(schedule.text());
        status.setNextDrillDate(next.map(Instant::toString).orElse(null));
        return true;
    }

    /** A scheduled drill is due at {@code now}. */
    public static boolean due(EtcdBackupStatus status, CronSchedule schedule, Instant now) {
        return schedule != null && schedule.text().equals(status.getDrillSchedule())
                && recorded(status).map(t -> !now.isBefore(t)).orElse(false);
    }

    /**
     * After a drill that began at {@code started} and ended at {@code done}: when the scheduled one was due as it
     * began, the next is the schedule's first time after it ended.
     */
    public static void drilled(EtcdBackupStatus status, CronSchedule schedule, Instant started, Instant done) {
        if (due(status, schedule, started)) {
            status.setNextDrillDate(schedule.next(done).map(Instant::toString).orElse(null));
        }
    }

    /** The recorded time of the next scheduled drill, if any. */
    public static Optional<Instant> recorded(EtcdBackupStatus status) {
        if (status.getNextDrillDate() == null) {
            return Optional.empty();
        }
        try {
            return Optional.of(Instant.parse(status.getNextDrillDate()));
        } catch (DateTimeParseException e) {
            return Optional.empty();
        }
    }
}
