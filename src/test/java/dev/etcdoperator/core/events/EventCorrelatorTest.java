package dev.etcdoperator.core.events;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.Set;

import dev.etcdoperator.core.events.EventCorrelator.Decision;
import dev.etcdoperator.core.events.EventCorrelator.Occurrence;
import dev.etcdoperator.core.events.EventCorrelator.Subject;
import org.junit.jupiter.api.Test;

class EventCorrelatorTest {
    private static final Instant T0 = Instant.parse("2026-11-30T10:00:00Z");
    private static final Subject ALPHA = new Subject("EtcdCluster", "prod", "alpha", "uid-1");

    private final EventCorrelator correlator = new EventCorrelator();
    private int names;

    private Decision observe(Subject subject, String type, String reason, String message, Instant now) {
        return correlator.observe(new Occurrence(subject, type, reason, message), "event-" + (++names), now);
    }

    @Test
    void aStepFailingEverySecondForADayIsOneEventWhoseCountAndLastTimestampGrow() {
        Decision first = observe(ALPHA, "Warning", "StepFailed", "create member failed: forbidden", T0);
        assertThat(first.isNew()).isTrue();
        assertThat(first.count()).isEqualTo(1);
        Decision last = first;
        for (int s = 1; s < 86_400; s++) {
            last = observe(ALPHA, "Warning", "StepFailed", "create member failed: forbidden", T0.plusSeconds(s));
        }
        assertThat(last.isNew()).isFalse();
        assertThat(last.name()).isEqualTo(first.name());
        assertThat(last.count()).isEqualTo(86_400);
        assertThat(last.first()).isEqualTo(T0);
        assertThat(last.last()).isEqualTo(T0.plusSeconds(86_399));
        assertThat(last.message()).isEqualTo("create member failed: forbidden");
    }

    @Test
    void anotherObjectTypeReasonOrMessageIsAnEventOfItsOwn() {
        Decision base = observe(ALPHA, "Warning", "StepFailed", "m", T0);
        Subject sameNameNewUid = new Subject("EtcdCluster", "prod", "alpha", "uid-2");
        Subject otherKind = new Subject("EtcdBackup", "prod", "alpha", "uid-1");
        Set<String> seen = new HashSet<>(Set.of(base.name()));
        for (Decision d : new Decision[] { observe(sameNameNewUid, "Warning", "StepFailed", "m", T0),
                observe(otherKind, "Warning", "StepFailed", "m", T0), observe(ALPHA, "Normal", "StepFailed", "m", T0),
                observe(ALPHA, "Warning", "QuorumLost", "m", T0), observe(ALPHA, "Warning", "StepFailed", "n", T0) }) {
            assertThat(d.isNew()).isTrue();
            assertThat(seen.add(d.name())).isTrue();
        }
        assertThat(observe(ALPHA, "Warning", "StepFailed", "m", T0.plusSeconds(1)).name()).isEqualTo(base.name());
    }

    @Test
    void everNewMessagesForOneReasonAreCombinedIntoOneEventAfterTheTenth() {
        Set<String> own = new HashSet<>();
        for (int i = 0; i < EventCorrelator.DISTINCT_MESSAGES; i++) {
            Decision d = observe(ALPHA, "Warning", "StepFailed", "timed out after " + i + " ms", T0.plusSeconds(i));
            assertThat(d.isNew()).isTrue();
            own.add(d.name());
        }
        Decision combined = observe(ALPHA, "Warning", "StepFailed", "timed out after 10 ms", T0.plusSeconds(10));
        assertThat(combined.isNew()).isTrue();
        assertThat(combined.message()).isEqualTo(EventCorrelator.COMBINED_PREFIX + "timed out after 10 ms");
        Decision again = observe(ALPHA, "Warning", "StepFailed", "timed out after 11 ms", T0.plusSeconds(11));
        assertThat(again.name()).isEqualTo(combined.name());
        assertThat(again.count()).isEqualTo(2);
        assertThat(again.message()).isEqualTo(EventCorrelator.COMBINED_PREFIX + "timed out after 11 ms");
        assertThat(own).doesNotContain(combined.name());

        // a message seen before keeps raising its own Event
        Decision known = observe(ALPHA, "Warning", "StepFailed", "timed out after 3 ms", T0.plusSeconds(12));
        assertThat(own).contains(known.name());
        assertThat(known.count()).isEqualTo(2);
        // other reasons of the same object are not affected
        assertThat(observe(ALPHA, "Warning", "QuorumLost", "x", T0.plusSeconds(13)).message()).isEqualTo("x");
    }

    @Test
    void afterTheReasonWasQuietForTenMinutesNewMessagesGetTheirOwnEventsAgain() {
        for (int i = 0; i <= EventCorrelator.DISTINCT_MESSAGES; i++) {
            observe(ALPHA, "Warning", "StepFailed", "message " + i, T0.plusSeconds(i));
        }
        Instant later = T0.plusSeconds(EventCorrelator.DISTINCT_MESSAGES).plus(EventCorrelator.QUIET_PERIOD)
                .plusSeconds(1);
        Decision fresh = observe(ALPHA, "Warning", "StepFailed", "a new message", later);
        assertThat(fresh.isNew()).isTrue();
        assertThat(fresh.message()).isEqualTo("a new message");
    }

    @Test
    void theMemoryIsBoundedAndAForgottenEventStartsAgainAtOne() {
        EventCorrelator small = new EventCorrelator(2);
        Occurrence a = new Occurrence(ALPHA, "Warning", "A", "a");
        Decision first = small.observe(a, "a-1", T0);
        assertThat(small.observe(a, "a-2", T0).count()).isEqualTo(2);
        small.observe(new Occurrence(ALPHA, "Warning", "B", "b"), "b-1", T0);
        small.observe(new Occurrence(ALPHA, "Warning", "C", "c"), "c-1", T0);
        Decision again = small.observe(a, "a-3", T0.plus(Duration.ofSeconds(1)));
        assertThat(again.isNew()).isTrue();
        assertThat(again.name()).isEqualTo("a-3").isNotEqualTo(first.name());
    }
}
