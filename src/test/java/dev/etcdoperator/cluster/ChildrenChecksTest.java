package dev.etcdoperator.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;

import dev.etcdoperator.support.MovingClock;
import org.junit.jupiter.api.Test;

class ChildrenChecksTest {
    private static final String KEY = "prod/demo";
    private final MovingClock clock = new MovingClock(Instant.parse("2026-12-01T04:00:00Z"));
    private final ChildrenChecks checks = new ChildrenChecks(clock);

    @Test
    void aClusterNeverCheckedIsDue() {
        assertThat(checks.due(KEY, "uid-1", 3)).isTrue();
    }

    @Test
    void onceCheckedItIsNotDueAgainUntilTheRecheckHasPassed() {
        checks.checked(KEY, "uid-1", 3);
        clock.advance(ChildrenChecks.RECHECK.minusMillis(1));
        assertThat(checks.due(KEY, "uid-1", 3)).isFalse();
        clock.advance(Duration.ofMillis(1));
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
        clock.advance(Duration.ofSeconds(1));
        assertThat(checks.due(KEY, "uid-1", 3)).isTrue();
        assertThat(checks.due("prod/other", "uid-9", 1)).isFalse();
    }
}
