package dev.etcdoperator.core.status;

import dev.etcdoperator.api.v1beta2.Condition;
import dev.etcdoperator.api.v1beta2.ConditionedStatus;

/**
 * The summary condition {@code Ready} that every kind carries, for {@code kubectl wait --for=condition=Ready}: True
 * when the resource is what its spec asks for, False with the reason and message of what stands in the way.
 */
public final class Readiness {
    public static final String CONDITION = "Ready";

    private final Conditions conditions;

    public Readiness(Conditions conditions) {
        this.conditions = conditions;
    }

    public void ready(ConditionedStatus status, String reason, String message, Long generation) {
        set(status, true, reason, message, generation);
    }

    public void notReady(ConditionedStatus status, String reason, String message, Long generation) {
        set(status, false, reason, message, generation);
    }

    public void set(ConditionedStatus status, boolean ready, String reason, String message, Long generation) {
        status.setConditions(conditions.set(status.getConditions(), new Condition(CONDITION,
                ready ? Conditions.TRUE : Conditions.FALSE, reason, message), generation));
    }
}
