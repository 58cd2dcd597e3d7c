package dev.etcdoperator.core.backup;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;

import dev.etcdoperator.api.v1beta2.EtcdBackupStatus;
import dev.etcdoperator.core.schedule.CronSchedule;
import org.junit.jupiter.api.Test;

class DrillScheduleTest {
    static final CronSchedule NOON = CronSchedule.parse("0 12 * * *");
    static final Instant MORNING = Instant.parse("2026-12-01T09:30:00Z");

    @Test
    void theFirstDrillIsAtTheScheduledTimeAfterItWasSet() {
        EtcdBackupStatus status = new EtcdBackupStatus();
        assertThat(DrillSchedule.record(status, NOON, MORNING)).isTrue();
        assertThat(status.getDrillSchedule()).isEqualTo("0 12 * * *");
        assertThat(status.getNextDrillDate()).isEqualTo("2026-12-01T12:00:00Z");
        assertThat(DrillSchedule.record(status, NOON, MORNING.plusSeconds(60))).as("recorded already").isFalse();
        assertThat(DrillSchedule.due(status, NOON, Instant.parse("2026-12-01T11:59:59Z"))).isFalse();
        assertThat(DrillSchedule.due(status, NOON, Instant.parse("2026-12-01T12:00:00Z"))).isTrue();
        assertThat(DrillSchedule.due(status, NOON, Instant.parse("2026-12-05T00:00:00Z"))).as("still, days later")
                .isTrue();
    }

    @Test
    void aDrillThatBeganOnceDueMovesTheNextPastItsEndAndMissedTimesMakeOneDrill() {
        EtcdBackupStatus status = new EtcdBackupStatus();
        DrillSchedule.record(status, NOON, MORNING);
        DrillSchedule.drilled(status, NOON, Instant.parse("2026-12-01T11:59:00Z"),
                Instant.parse("2026-12-01T12:01:00Z"));
        assertThat(status.getNextDrillDate()).as("began before the time: not the scheduled drill")
                .isEqualTo("2026-12-01T12:00:00Z");
        DrillSchedule.drilled(status, NOON, Instant.parse("2026-12-04T08:00:00Z"),
                Instant.parse("2026-12-04T08:02:00Z"));
        assertThat(status.getNextDrillDate()).isEqualTo("2026-12-04T12:00:00Z");
        assertThat(DrillSchedule.due(status, NOON, Instant.parse("2026-12-04T08:03:00Z"))).isFalse();
    }

    /** A drill that ended while the clock ran a month ahead: once the clock is right, the next time is the schedule's. */
    @Test
    void aTimeRecordedByAClockAheadIsRecordedAgainOnceTheClockIsRight() {
        EtcdBackupStatus status = new EtcdBackupStatus();
        DrillSchedule.record(status, NOON, MORNING);
        DrillSchedule.drilled(status, NOON, Instant.parse("2026-12-31T12:00:00Z"),
                Instant.parse("2026-12-31T12:05:00Z"));
        assertThat(status.getNextDrillDate()).isEqualTo("2027-01-01T12:00:00Z");

        assertThat(DrillSchedule.record(status, NOON, MORNING)).isTrue();
        assertThat(status.getNextDrillDate()).isEqualTo("2026-12-01T12:00:00Z");
        assertThat(DrillSchedule.due(status, NOON, Instant.parse("2026-12-01T12:00:00Z"))).isTrue();
        // a few minutes ahead (another replica's clock) is no clock gone back
        status.setNextDrillDate("2026-12-01T12:04:00Z");
        assertThat(DrillSchedule.record(status, NOON, MORNING)).isFalse();
    }

    @Test
    void aChangedScheduleStartsOverAndNoScheduleClearsTheRecord() {
        EtcdBackupStatus status = new EtcdBackupStatus();
        DrillSchedule.record(status, NOON, MORNING);
        CronSchedule weekly = CronSchedule.parse("@weekly");
        assertThat(DrillSchedule.due(status, weekly, Instant.parse("2026-12-01T12:00:00Z")))
                .as("recorded for another schedule").isFalse();
        assertThat(DrillSchedule.record(status, weekly, MORNING)).isTrue();
        assertThat(status.getNextDrillDate()).isEqualTo("2026-12-06T00:00:00Z");
        assertThat(DrillSchedule.record(status, null, MORNING)).isTrue();
        assertThat(status.getDrillSchedule()).isNull();
        assertThat(status.getNextDrillDate()).isNull();
        assertThat(DrillSchedule.record(status, null, MORNING)).isFalse();
        assertThat(DrillSchedule.due(status, null, MORNING)).isFalse();
    }

    @Test
    void anUnreadableRecordIsRecordedAgain() {
        EtcdBackupStatus status = new EtcdBackupStatus();
        status.setDrillSchedule("0 12 * * *");
        status.setNextDrillDate("noon");
        assertThat(DrillSchedule.due(status, NOON, MORNING)).isFalse();
        assertThat(DrillSchedule.record(status, NOON, MORNING)).isTrue();
        assertThat(status.getNextDrillDate()).isEqualTo("2026-12-01T12:00:00Z");
    }

    @Test
    void aScheduledDrillTakesTheLastBackupDrilledBeforeOrNot() {
        assertThat(RestoreDrills.due(null, "b/k2", "b/k2", 0, true)).contains("b/k2");
        assertThat(RestoreDrills.due(null, "b/k2", "b/k2", 0, false)).isEmpty();
        assertThat(RestoreDrills.due(null, null, null, 0, true)).as("nothing to drill yet").isEmpty();
        assertThat(RestoreDrills.due(3, "b/k2", "b/k1", 1, true)).contains("b/k2");
    }
}
