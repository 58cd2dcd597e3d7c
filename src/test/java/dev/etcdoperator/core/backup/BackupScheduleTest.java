package dev.etcdoperator.core.backup;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;

import dev.etcdoperator.core.backup.BackupSchedule.Decision;
import dev.etcdoperator.core.backup.BackupSchedule.Due;
import dev.etcdoperator.core.backup.BackupSchedule.Finished;
import dev.etcdoperator.core.backup.BackupSchedule.History;
import dev.etcdoperator.core.backup.BackupSchedule.Wait;
import org.junit.jupiter.api.Test;

class BackupScheduleTest {
    static final Instant T0 = Instant.parse("2026-11-30T10:00:00Z");
    static final Duration ONE_SHOT = Duration.ZERO;
    static final Duration MINUTE = Duration.ofMinutes(1);

    @Test
    void a_new_one_shot_backup_is_due_now() {
        assertThat(BackupSchedule.decide(ONE_SHOT, History.none(), T0)).isEqualTo(new Due(T0, 0));
    }

    @Test
    void a_one_shot_backup_that_succeeded_is_finished() {
        assertThat(BackupSchedule.decide(ONE_SHOT, new History(T0, T0, 0), T0.plusSeconds(3600)))
                .isInstanceOf(Finished.class);
    }

    @Test
    void a_failed_one_shot_backup_is_retried_with_growing_backoff() {
        assertThat(BackupSchedule.decide(ONE_SHOT, new History(null, T0, 1), T0.plusSeconds(2)))
                .isEqualTo(new Wait(T0.plusSeconds(5)));
        assertThat(BackupSchedule.decide(ONE_SHOT, new History(null, T0, 1), T0.plusSeconds(5)))
                .isEqualTo(new Due(T0.plusSeconds(5), 0));
        assertThat(BackupSchedule.decide(ONE_SHOT, new History(null, T0, 3), T0.plusSeconds(5)))
                .isEqualTo(new Wait(T0.plusSeconds(20)));
    }

    @Test
    void backoff_doubles_up_to_five_minutes() {
        assertThat(BackupSchedule.backoff(0)).isEqualTo(Duration.ZERO);
        assertThat(BackupSchedule.backoff(1)).isEqualTo(Duration.ofSeconds(5));
        assertThat(BackupSchedule.backoff(2)).isEqualTo(Duration.ofSeconds(10));
        assertThat(BackupSchedule.backoff(7)).isEqualTo(Duration.ofMinutes(5));
        assertThat(BackupSchedule.backoff(1000)).isEqualTo(Duration.ofMinutes(5));
    }

    @Test
    void a_new_periodic_backup_is_due_now() {
        assertThat(BackupSchedule.decide(MINUTE, History.none(), T0)).isEqualTo(new Due(T0, 0));
    }

    @Test
    void a_periodic_backup_waits_one_interval_after_a_success() {
        assertThat(BackupSchedule.decide(MINUTE, new History(T0, T0, 0), T0.plusSeconds(10)))
                .isEqualTo(new Wait(T0.plusSeconds(60)));
        assertThat(BackupSchedule.decide(MINUTE, new History(T0, T0, 0), T0.plusSeconds(61)))
                .isEqualTo(new Due(T0.plusSeconds(60), 0));
    }

    @Test
    void after_a_long_outage_one_backup_is_due_and_the_missed_intervals_are_counted() {
        Decision d = BackupSchedule.decide(MINUTE, new History(T0, T0, 0), T0.plus(Duration.ofMinutes(10)).plusSeconds(5));
        assertThat(d).isEqualTo(new Due(T0.plusSeconds(60), 9));
        // once it is taken, the next is one interval later: no catch-up burst
        Instant taken = T0.plus(Duration.ofMinutes(10)).plusSeconds(6);
        assertThat(BackupSchedule.decide(MINUTE, new History(taken, taken, 0), taken.plusSeconds(1)))
                .isEqualTo(new Wait(taken.plus(MINUTE)));
    }

    /** The clock went back a day: a backup is due now, not a day and an interval later. */
    @Test
    void a_last_backup_recorded_in_the_future_makes_one_due_now() {
        Duration hour = Duration.ofHours(1);
        Instant tomorrow = T0.plus(Duration.ofDays(1));
        assertThat(BackupSchedule.decide(hour, new History(tomorrow, tomorrow, 0), T0)).isEqualTo(new Due(T0, 0));
        assertThat(BackupSchedule.decide(hour, new History(T0.minus(hour), tomorrow, 3), T0))
                .isEqualTo(new Due(T0, 0));
        // after failures the last attempt counts, not an old success recorded ahead: the backoff still holds
        assertThat(BackupSchedule.decide(hour, new History(tomorrow, T0, 2), T0.plusSeconds(1)))
                .isEqualTo(new Wait(T0.plus(BackupSchedule.backoff(2))));
        // replicas' clocks a little apart are no jump
        Instant soon = T0.plusSeconds(30);
        assertThat(BackupSchedule.decide(hour, new History(soon, soon, 0), T0)).isEqualTo(new Wait(soon.plus(hour)));
        // once taken, the schedule runs from the new record
        assertThat(BackupSchedule.decide(hour, new History(T0, T0, 0), T0.plusSeconds(1)))
                .isEqualTo(new Wait(T0.plus(hour)));
    }

    @Test
    void a_failed_periodic_backup_is_retried_no_later_than_one_interval() {
        Duration tenSeconds = Duration.ofSeconds(10);
        assertThat(BackupSchedule.decide(tenSeconds, new History(T0, T0.plusSeconds(10), 1), T0.plusSeconds(11)))
                .isEqualTo(new Wait(T0.plusSeconds(15)));
        assertThat(BackupSchedule.decide(tenSeconds, new History(T0, T0.plusSeconds(10), 6), T0.plusSeconds(11)))
                .isEqualTo(new Wait(T0.plusSeconds(20)));
    }

    /** Numbers beyond the API's maxima (which the validators refuse) still never overflow into an exception. */
    @Test
    void huge_intervals_and_failure_counts_never_throw() {
        for (Duration interval : new Duration[] { Duration.ofSeconds(31_622_400), Duration.ofSeconds(Long.MAX_VALUE / 1000),
                Duration.ofSeconds(Long.MAX_VALUE), Duration.ofSeconds(Long.MAX_VALUE, 999_999_999) }) {
            assertThat(BackupSchedule.decide(interval, new History(T0, T0, 0), T0.plusSeconds(60)))
                    .as("%s after a success", interval).isInstanceOf(Wait.class);
            assertThat(BackupSchedule.decide(interval, new History(T0.minusSeconds(10), T0, Integer.MAX_VALUE),
                    T0.plusSeconds(600))).as("%s after failures", interval).isInstanceOf(Due.class);
            assertThat(BackupSchedule.decide(interval, History.none(), Instant.MAX)).isEqualTo(new Due(Instant.MAX, 0));
        }
        assertThat(BackupSchedule.decide(Duration.ofMillis(1), new History(Instant.MIN, Instant.MIN, 0), Instant.MAX))
                .isInstanceOf(Due.class);
    }
}
