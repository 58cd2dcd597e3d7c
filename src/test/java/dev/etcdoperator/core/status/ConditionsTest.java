package dev.etcdoperator.core.status;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;

import dev.etcdoperator.api.v1beta2.Condition;
import dev.etcdoperator.api.v1beta2.EtcdClusterStatus;
import dev.etcdoperator.core.validation.FieldError;
import dev.etcdoperator.core.validation.Validation;
import org.junit.jupiter.api.Test;

class ConditionsTest {
    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    private static Conditions at(Instant t) {
        return new Conditions(Clock.fixed(t, ZoneOffset.UTC));
    }

    @Test
    void aNewConditionGetsBothTimesAndTheGeneration() {
        List<Condition> set = at(T0).set(List.of(), new Condition("Available", "True", "Ready", "all good"), 3L);
        assertThat(set).singleElement().satisfies(c -> {
            assertThat(c.getLastTransitionTime()).isEqualTo("2026-01-01T00:00:00Z");
            assertThat(c.getLastUpdateTime()).isEqualTo("2026-01-01T00:00:00Z");
            assertThat(c.getObservedGeneration()).isEqualTo(3L);
        });
    }

    @Test
    void anUnchangedConditionIsKeptAsItWas() {
        List<Condition> first = at(T0).set(List.of(), new Condition("Available", "True", "Ready", "m"), 1L);
        List<Condition> again = at(T0.plusSeconds(60)).set(first, new Condition("Available", "True", "Ready", "m"), 1L);
        assertThat(again.get(0)).isSameAs(first.get(0));
    }

    @Test
    void aNewMessageMovesTheUpdateTimeButNotTheTransitionTime() {
        List<Condition> first = at(T0).set(List.of(), new Condition("Scaling", "True", "Adding", "1 of 3"), 1L);
        List<Condition> later = at(T0.plusSeconds(60)).set(first, new Condition("Scaling", "True", "Adding", "2 of 3"),
                1L);
        assertThat(later.get(0).getLastTransitionTime()).isEqualTo("2026-01-01T00:00:00Z");
        assertThat(later.get(0).getLastUpdateTime()).isEqualTo("2026-01-01T00:01:00Z");
    }

    @Test
    void aFlipMovesTheTransitionTimeAndLeavesOtherTypesAlone() {
        List<Condition> first = at(T0).set(List.of(new Condition("Other", "True", "X", "y")),
                new Condition("Available", "True", "Ready", "m"), 1L);
        List<Condition> flipped = at(T0.plusSeconds(5)).set(first, new Condition("Available", "False", "Lost", "m"),
                2L);
        assertThat(flipped).hasSize(2);
        assertThat(flipped.get(0).getType()).isEqualTo("Other");
        assertThat(flipped.get(1).getLastTransitionTime()).isEqualTo("2026-01-01T00:00:05Z");
        assertThat(flipped.get(1).getObservedGeneration()).isEqualTo(2L);
        assertThat(Conditions.has(flipped, "Available", "False", "Lost")).isTrue();
        assertThat(Conditions.has(flipped, "Available", "True", "Lost")).isFalse();
    }

    @Test
    void specValidityTellsNewsOnlyOncePerProblem() {
        SpecValidity validity = new SpecValidity(at(T0));
        EtcdClusterStatus status = new EtcdClusterStatus();
        Validation bad = new Validation(List.of(new FieldError("spec.size", "must be between 1 and 7, got 0")));
        assertThat(validity.record(status, bad, 1L)).isTrue();
        assertThat(validity.record(status, bad, 1L)).isFalse();
        assertThat(Conditions.has(status.getConditions(), "Valid", "False", "InvalidSpec")).isTrue();
        assertThat(status.getConditions().get(0).getMessage()).contains("spec.size: must be between 1 and 7, got 0");
        assertThat(Conditions.has(status.getConditions(), "Ready", "False", "InvalidSpec"))
                .as("an invalid spec is not ready").isTrue();

        Validation other = new Validation(List.of(new FieldError("spec.version", "bad")));
        assertThat(validity.record(status, other, 2L)).isTrue();
        assertThat(validity.record(status, new Validation(List.of()), 3L)).isFalse();
        assertThat(Conditions.has(status.getConditions(), "Valid", "True", "SpecAccepted")).isTrue();
        assertThat(status.getObservedGeneration()).isEqualTo(3L);
    }
}
