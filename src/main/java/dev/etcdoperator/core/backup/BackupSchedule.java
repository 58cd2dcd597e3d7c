package dev.etcdoperator.core.backup;

import java.time.Duration;
import java.time.Instant;

/**
 * When the next backup is due. Everything it needs is in the EtcdBackup's status, so an operator restart picks
 * up the same schedule: no burst of catch-up backups (one backup, however many intervals were missed) and no
 * missed interval going unnoticed (the decision says how many were missed). Failures are retried with
 * exponential backoff, from {@link #FIRST_RETRY} up to {@link #MAX_RETRY}, and never later than the next
 * regular backup. A last backup or attempt recorded more than {@link #CLOCK_SKEW} in the future (the clock went back)
 * makes a backup due now, rather than one interval after a time that has not come.
 */
public final class BackupSchedule {
    public static final Duration FIRST_RETRY = Duration.ofSeconds(5);
    public static final Duration MAX_RETRY = Duration.ofMinutes(5);

    private BackupSchedule() {
    }

    /**
     * What the status says about earlier attempts.
     *
     * @param lastSuccess         the end of the last successful backup, or null
     * @param lastAttempt         the end of the last attempt, successful or not, or null
     * @param consecutiveFailures failed attempts since the last success
     */
    public record History(Instant lastSuccess, Instant lastAttempt, int consecutiveFailures) {
        public static History none() {
            return new History(null, null, 0);
        }
    }

    public sealed interface Decision permits Finished, Due, Wait {
    }

    /** A one-shot backup that succeeded: nothing more to do. */
    public record Finished() implements Decision {
    }

    /**
     * Take a backup now.
     *
     * @param dueAt  when it became due
     * @param missed whole intervals that passed after {@code dueAt} without a backup (the operator was down, or
     *               backups kept failing)
     */
    public record Due(Instant dueAt, long missed) implements Decision {
    }

    /** Nothing to do before {@code until}. */
    public record Wait(Instant until) implements Decision {
    }

    /**
     * @param interval zero for a one-shot backup
     */
    public static Decision decide(Duration interval, History history, Instant now) {
        boolean periodic = !interval.isZero() && !interval.isNegative();
        if (!periodic && history.lastSuccess() != null) {
            return new Finished();
        }
        if (history.consecutiveFailures() == 0 && inTheFuture(history.lastSuccess(), now)
                || history.consecutiveFailures() > 0 && inTheFuture(history.lastAttempt(), now)) {
            // the clock went back (or a record came from a clock ahead): waiting for a time computed from it could
            // hold backups back for as long as the clock was off, unseen
            return new Due(now, 0);
        }
        Instant due;
        if (history.consecutiveFailures() > 0 && history.lastAttempt() != null) {
            Duration backoff = backoff(history.consecutiveFailures());
            if (periodic && backoff.compareTo(interval) > 0) {
                backoff = interval;
            }
            due = plus(history.lastAttempt(), backoff);
        } else if (periodic && history.lastSuccess() != null) {
            due = plus(history.lastSuccess(), interval);
        } else {
            due = now;
        }
        if (now.isBefore(due)) {
            return new Wait(due);
        }
        long missed = periodic ? missed(due, now, interval) : 0;
        return new Due(due, missed);
    }

    /** How far a recorded time may be ahead of the clock (operator replicas' clocks differ a little). */
    public static final Duration CLOCK_SKEW = Duration.ofMinutes(5);

    private static boolean inTheFuture(Instant recorded, Instant now) {
        return recorded != null && recorded.isAfter(plus(now, CLOCK_SKEW));
    }

    /** {@code t + d}, or {@link Instant#MAX} when that is beyond the last instant. */
    static Instant plus(Instant t, Duration d) {
        try {
            return t.plus(d);
        } catch (ArithmeticException | java.time.DateTimeException e) {
            return d.isNegative() ? Instant.MIN : Instant.MAX;
        }
    }

    /** Whole intervals from {@code due} to {@code now}, without overflow however far apart they are. */
    private static long missed(Instant due, Instant now, Duration interval) {
        long seconds = now.getEpochSecond() - due.getEpochSecond();
        long intervalSeconds = Math.max(1, interval.getSeconds());
        // seconds are enough precision for a count of missed intervals; sub-second intervals count by millis
        if (interval.getSeconds() == 0) {
            long millis = Math.max(1, interval.toMillis());
            return seconds > Long.MAX_VALUE / 1000 ? Long.MAX_VALUE / millis : Duration.between(due, now).toMillis() / millis;
        }
        return seconds / intervalSeconds;
    }

    /** The wait after the n-th failure in a row: 5 s, 10 s, 20 s, ... up to 5 min. */
    public static Duration backoff(int failures) {
        if (failures <= 0) {
            return Duration.ZERO;
        }
        int doublings = Math.min(failures - 1, 20);
        Duration d = FIRST_RETRY.multipliedBy(1L << doublings);
        return d.compareTo(MAX_RETRY) > 0 ? MAX_RETRY : d;
    }
}
