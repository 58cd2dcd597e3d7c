package dev.etcdoperator.backup;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

class BackupMetricsTest {

    /** After a restart, the last success the status remembers is a series before any backup ran again. */
    @Test
    void theLastSuccessTheStatusRemembersIsShownAndNeverMovesBack() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        BackupMetrics metrics = new BackupMetrics(registry);
        Instant remembered = Instant.parse("2026-12-01T10:00:00Z");
        metrics.remembered("ns", "b", "c", remembered, 2048L);
        assertThat(registry.get(BackupMetrics.LAST_SUCCESS).gauge().value()).isEqualTo(remembered.getEpochSecond());
        assertThat(registry.get(BackupMetrics.SIZE).gauge().value()).isEqualTo(2048);
        Instant taken = remembered.plusSeconds(3600);
        metrics.taken("ns", "b", "c", Duration.ofSeconds(1), 4096, taken);
        metrics.remembered("ns", "b", "c", remembered, 2048L);
        assertThat(registry.get(BackupMetrics.LAST_SUCCESS).gauge().value()).isEqualTo(taken.getEpochSecond());
        assertThat(registry.get(BackupMetrics.SIZE).gauge().value()).isEqualTo(4096);
    }

    /** Each series has its help text ({@code # HELP}), which {@code promtool check metrics} requires. */
    @Test
    void everyBackupMeterSaysWhatItCounts() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        BackupMetrics metrics = new BackupMetrics(registry);
        Instant now = Instant.parse("2026-12-02T10:00:00Z");
        metrics.taken("ns", "b", "c", Duration.ofSeconds(3), 1024, now);
        metrics.failed("ns", "b", "c", "S3Unreachable", Duration.ofSeconds(1));
        metrics.drilled("ns", "b", "c", "Verified", Duration.ofSeconds(9), now);
        metrics.drilled("ns", "b", "c", "KeyspaceDiffers", Duration.ofSeconds(9), null);
        assertThat(registry.getMeters()).extracting(m -> m.getId().getName()).contains(BackupMetrics.BACKUPS,
                BackupMetrics.FAILURES, BackupMetrics.DURATION, BackupMetrics.SIZE, BackupMetrics.LAST_SUCCESS,
                BackupMetrics.DRILLS, BackupMetrics.DRILL_DURATION, BackupMetrics.LAST_VERIFIED);
        assertThat(registry.getMeters()).allSatisfy((Meter m) -> assertThat(m.getId().getDescription())
                .as(m.getId().getName()).isNotBlank());
    }
}
