package dev.etcdoperator.restore;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

class RestoreMetricsTest {

    /** The series has its help text ({@code # HELP}), which {@code promtool check metrics} requires. */
    @Test
    void theRestoreCounterSaysWhatItCounts() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        RestoreMetrics metrics = new RestoreMetrics(registry);
        metrics.finished("ns", "r", "c", true);
        metrics.finished("ns", "r", "c", false);
        assertThat(registry.get(RestoreMetrics.RESTORES).counters()).hasSize(2)
                .allSatisfy(c -> assertThat(c.getId().getDescription()).isNotBlank());
    }
}
