package dev.etcdoperator.core.status;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;

import dev.etcdoperator.api.v1beta2.Condition;
import dev.etcdoperator.api.v1beta2.EtcdBackupStatus;
import org.junit.jupiter.api.Test;

class ReadinessTest {
    static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    static Readiness at(Instant t) {
        return new Readiness(new Conditions(Clock.fixed(t, ZoneOffset.UTC)));
    }

    static Condition ready(EtcdBackupStatus status) {
        return Conditions.find(status.getConditions(), "Ready").orElseThrow();
    }

    @Test
    void theTransitionTimeMovesOnlyWhenReadyFlips() {
        EtcdBackupStatus status = new EtcdBackupStatus();
        at(T0).notReady(status, "Waiting", "first", 1L);
        at(T0.plusSeconds(5)).notReady(status, "StillWaiting", "second", 1L);
        assertThat(ready(status).getLastTransitionTime()).isEqualTo("2026-01-01T00:00:00Z");
        assertThat(ready(status).getReason()).isEqualTo("StillWaiting");

        at(T0.plusSeconds(10)).ready(status, "Done", "done", 1L);
        at(T0.plusSeconds(15)).ready(status, "Done", "done again", 2L);
        assertThat(ready(status).getStatus()).isEqualTo("True");
        assertThat(ready(status).getLastTransitionTime()).isEqualTo("2026-01-01T00:00:10Z");
        assertThat(ready(status).getObservedGeneration()).isEqualTo(2L);
        assertThat(status.getConditions()).hasSize(1);
    }
}
