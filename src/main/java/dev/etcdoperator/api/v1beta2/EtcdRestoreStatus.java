package dev.etcdoperator.api.v1beta2;

import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.annotation.JsonInclude;

@JsonInclude(JsonInclude.Include.NON_NULL)
public class EtcdRestoreStatus implements ConditionedStatus {
    private Boolean succeeded;
    private String reason;
    private Long restoredRevision;
    private List<Condition> conditions = new ArrayList<>();
    private Long observedGeneration;

    public Boolean getSucceeded() {
        return succeeded;
    }

    public void setSucceeded(Boolean succeeded) {
        this.succeeded = succeeded;
    }

    public String getReason() {
        return reason;
    }

    public void setReason(String reason) {
        this.reason = reason;
    }

    public Long getRestoredRevision() {
        return restoredRevision;
    }

    public void setRestoredRevision(Long restoredRevision) {
        this.restoredRevision = restoredRevision;
    }

    @Override
    public List<Condition> getConditions() {
        return conditions;
    }

    @Override
    public void setConditions(List<Condition> conditions) {
        this.conditions = conditions;
    }

    @Override
    public Long getObservedGeneration() {
        return observedGeneration;
    }

    @Override
    public void setObservedGeneration(Long observedGeneration) {
        this.observedGeneration = observedGeneration;
    }
}
