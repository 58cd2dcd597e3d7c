package dev.etcdoperator.api.v1beta2;

import java.util.List;

/** A status that carries conditions and the generation it reflects. */
public interface ConditionedStatus {
    List<Condition> getConditions();

    void setConditions(List<Condition> conditions);

    Long getObservedGeneration();

    void setObservedGeneration(Long observedGeneration);
}
