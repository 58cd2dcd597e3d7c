package dev.etcdoperator.backup;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

class BackupMetricsTest {

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
