package dev.etcdoperator.core.status;

import java.util.Objects;

import dev.etcdoperator.api.v1beta2.Condition;
import dev.etcdoperator.api.v1beta2.ConditionedStatus;
import dev.etcdoperator.core.validation.Validation;

/**
 * Records the outcome of a spec check as the {@code Valid} condition of a status; an invalid spec also makes the
 * resource not {@link Readiness Ready}.
 */
public final class SpecValidity {
    public static final String CONDITION = "Valid";
    public static final String REASON_INVALID = "InvalidSpec";
    public static final String REASON_VALID = "SpecAccepted";

    private final Conditions conditions;

    public SpecValidity(Conditions conditions) {
        this.conditions = conditions;
    }

    /**
     * Sets the condition on {@code status}. Returns true when the spec is invalid and this is news (it was
     * valid before, or invalid for another reason): the caller then records an Event once.
     */
    public boolean record(ConditionedStatus status, Validation validation, Long generation) {
        Condition before = Conditions.find(status.getConditions(), CONDITION).orElse(null);
        Condition wanted = validation.valid()
                ? new Condition(CONDITION, Conditions.TRUE, REASON_VALID, "The spec is valid.")
                : new Condition(CONDITION, Conditions.FALSE, REASON_INVALID,
                        "The operator changes nothing until the spec is fixed: " + validation.message());
        status.setConditions(conditions.set(status.getConditions(), wanted, generation));
        if (!validation.valid()) {
            new Readiness(conditions).notReady(status, REASON_INVALID, wanted.getMessage(), generation);
        }
        status.setObservedGeneration(generation);
        return !validation.valid()
                && (before == null || !Objects.equals(before.getStatus(), Conditions.FALSE)
                        || !Objects.equals(before.getMessage(), wanted.getMessage()));
    }
}
