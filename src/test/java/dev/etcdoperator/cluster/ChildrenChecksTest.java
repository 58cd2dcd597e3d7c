package dev.etcdoperator.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;

import org.junit.jupiter.api.Test;

class ChildrenChecksTest {
    private static final String KEY = "prod/demo";
    private Instant now = Instant.parse("2026-12-01T04:00:00Z");
    private final ChildrenChecks checks = new ChildrenChecks(new Clock() {
        @Override
        public ZoneOffset getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    });

    @Test
    void aClusterNeverCheckedIsDue() {
        assertThat(checks.due(KEY, "uid-1", 3)).isTrue();
    }

    @Test
    void onceCheckedItIsNotDueAgainUntilTheRecheckHasPassed() {
        checks.checked(KEY, "uid-1", 3);
        now = now.plus(ChildrenChecks.RECHECK).minusMillis(1);
        assertThat(checks.due(KEY, "uid-1", 3)).isFalse();
        now = now.plusMillis(1);
        assertThat(checks.due(KEY, "uid-1", 3)).isTrue();
    }

    @Test
    void aNewSizeIsDueAtOnceForItsDisruptionBudget() {
        checks.checked(KEY, "uid-1", 3);
        assertThat(checks.due(KEY, "uid-1", 5)).isTrue();
    }

    @Test
    void aClusterCreatedAgainUnderTheNameIsDueAtOnce() {
        checks.checked(KEY, "uid-1", 3);
        assertThat(checks.due(KEY, "uid-2", 3)).isTrue();
    }

    @Test
    void aForgottenClusterIsDueAndOtherClustersAreNotTouched() {
        checks.checked(KEY, "uid-1", 3);
        checks.checked("prod/other", "uid-9", 1);
        checks.forget(KEY);
        now = now.plus(Duration.ofSeconds(1));
        assertThat(checks.due(KEY, "uid-1", 3)).isTrue();
        assertThat(checks.due("prod/other", "uid-9", 1)).isFalse();
    }
}
