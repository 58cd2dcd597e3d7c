package dev.etcdoperator.backup;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

class BackupMetricsTest {
    private static final Duration HOURLY = Duration.ofHours(1);

    /** After a restart, the last success the status remembers is a series before any backup ran again. */
    @Test
    void theLastSuccessTheStatusRemembersIsShownAndNeverMovesBack() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        BackupMetrics metrics = new BackupMetrics(registry);
        Instant remembered = Instant.parse("2026-12-01T10:00:00Z");
        metrics.remembered("ns", "b", "c", remembered, 2048L, HOURLY);
        assertThat(registry.get(BackupMetrics.LAST_SUCCESS).gauge().value()).isEqualTo(remembered.getEpochSecond());
        assertThat(registry.get(BackupMetrics.SIZE).gauge().value()).isEqualTo(2048);
        Instant taken = remembered.plusSeconds(3600);
        metrics.taken("ns", "b", "c", Duration.ofSeconds(1), 4096, taken, HOURLY);
        metrics.remembered("ns", "b", "c", remembered, 2048L, HOURLY);
        assertThat(registry.get(BackupMetrics.LAST_SUCCESS).gauge().value()).isEqualTo(taken.getEpochSecond());
        assertThat(registry.get(BackupMetrics.SIZE).gauge().value()).isEqualTo(4096);
    }

    /** Each series has its help text ({@code # HELP}), which {@code promtool check metrics} requires. */
    @Test
    void everyBackupMeterSaysWhatItCounts() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        BackupMetrics metrics = new BackupMetrics(registry);
        Instant now = Instant.parse("2026-12-02T10:00:00Z");
        metrics.taken("ns", "b", "c", Duration.ofSeconds(3), 1024, now, HOURLY);
        metrics.failed("ns", "b", "c", "S3Unreachable", Duration.ofSeconds(1));
        metrics.drilled("ns", "b", "c", "Verified", Duration.ofSeconds(9), now);
        metrics.drilled("ns", "b", "c", "KeyspaceDiffers", Duration.ofSeconds(9), null);
        assertThat(registry.getMeters()).extracting(m -> m.getId().getName()).contains(BackupMetrics.BACKUPS,
                BackupMetrics.FAILURES, BackupMetrics.DURATION, BackupMetrics.SIZE, BackupMetrics.LAST_SUCCESS, BackupMetrics.INTERVAL,
                BackupMetrics.DRILLS, BackupMetrics.DRILL_DURATION, BackupMetrics.LAST_VERIFIED);
        assertThat(registry.getMeters()).allSatisfy((Meter m) -> assertThat(m.getId().getDescription())
                .as(m.getId().getName()).isNotBlank());
    }

    /** A one-shot backup's last success only grows old: no age series, or an alert on it would fire for ever. */
    @Test
    void aOneShotBackupHasItsSizeButNoAgeSeries() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        BackupMetrics metrics = new BackupMetrics(registry);
        metrics.taken("ns", "once", "c", Duration.ofSeconds(1), 4096, Instant.parse("2026-12-01T10:00:00Z"),
                Duration.ZERO);

        assertThat(registry.get(BackupMetrics.SIZE).gauge().value()).isEqualTo(4096);
        assertThat(registry.find(BackupMetrics.LAST_SUCCESS).meters()).isEmpty();
        assertThat(registry.find(BackupMetrics.INTERVAL).meters()).isEmpty();
    }

    /** The age series follow the spec: its interval, and gone when it turns one-shot or drops its drills. */
    @Test
    void theAgeSeriesFollowTheSpecAndGoWhenItNoLongerAsksForThem() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        BackupMetrics metrics = new BackupMetrics(registry);
        Instant at = Instant.parse("2026-12-01T10:00:00Z");
        metrics.taken("ns", "b", "c", Duration.ofSeconds(1), 4096, at, HOURLY);
        metrics.taken("ns", "other", "c", Duration.ofSeconds(1), 4096, at, HOURLY);
        metrics.drilled("ns", "b", "c", "Verified", Duration.ofSeconds(9), at);
        assertThat(registry.get(BackupMetrics.INTERVAL).tag("backup", "b").gauge().value()).isEqualTo(3600);

        metrics.spec("ns", "b", Duration.ofMinutes(10), true);
        assertThat(registry.get(BackupMetrics.INTERVAL).tag("backup", "b").gauge().value()).isEqualTo(600);

        metrics.spec("ns", "b", Duration.ofMinutes(10), false);
        assertThat(registry.find(BackupMetrics.LAST_VERIFIED).meters()).isEmpty();
        assertThat(registry.find(BackupMetrics.LAST_SUCCESS).tag("backup", "b").meters()).hasSize(1);

        metrics.spec("ns", "b", Duration.ZERO, false);
        assertThat(registry.find(BackupMetrics.LAST_SUCCESS).tag("backup", "b").meters()).isEmpty();
        assertThat(registry.find(BackupMetrics.INTERVAL).tag("backup", "b").meters()).isEmpty();
        assertThat(registry.find(BackupMetrics.LAST_SUCCESS).tag("backup", "other").meters()).hasSize(1);
        assertThat(registry.get(BackupMetrics.SIZE).tag("backup", "b").gauge().value()).isEqualTo(4096);

        metrics.taken("ns", "b", "c", Duration.ofSeconds(1), 4096, at.plusSeconds(60), HOURLY);
        assertThat(registry.get(BackupMetrics.LAST_SUCCESS).tag("backup", "b").gauge().value())
                .isEqualTo(at.plusSeconds(60).getEpochSecond());
    }
}
