package dev.etcdoperator.api.v1beta2;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;

/**
 * A status condition: the original's fields (type, status, lastUpdateTime, lastTransitionTime, reason,
 * message, times as RFC 3339 strings) plus {@code observedGeneration}.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class Condition {
    @JsonPropertyDescription("Condition type, for example Ready, Available or Valid.")
    private String type;

    @JsonPropertyDescription("True, False or Unknown.")
    private String status;

    @JsonPropertyDescription("RFC 3339 time the status, reason or message last changed.")
    private String lastUpdateTime;

    @JsonPropertyDescription("RFC 3339 time the status last flipped.")
    private String lastTransitionTime;

    @JsonPropertyDescription("Why, in one CamelCase word.")
    private String reason;

    @JsonPropertyDescription("What a person needs to know, and what to do about it.")
    private String message;

    @JsonPropertyDescription("The metadata.generation this condition was set for.")
    private Long observedGeneration;

    public Condition() {
    }

    public Condition(String type, String status, String reason, String message) {
        this.type = type;
        this.status = status;
        this.reason = reason;
        this.message = message;
    }

    public String getType() {
        return type;
    }

    public void setType(String type) {
        this.type = type;
    }

    public String getStatus() {
        return status;
    }

    public void setStatus(String status) {
        this.status = status;
    }

    public String getLastUpdateTime() {
        return lastUpdateTime;
    }

    public void setLastUpdateTime(String lastUpdateTime) {
        this.lastUpdateTime = lastUpdateTime;
    }

    public String getLastTransitionTime() {
        return lastTransitionTime;
    }

    public void setLastTransitionTime(String lastTransitionTime) {
        this.lastTransitionTime = lastTransitionTime;
    }

    public String getReason() {
        return reason;
    }

    public void setReason(String reason) {
        this.reason = reason;
    }

    public String getMessage() {
        return message;
    }

    public void setMessage(String message) {
        this.message = message;
    }

    public Long getObservedGeneration() {
        return observedGeneration;
    }

    public void setObservedGeneration(Long observedGeneration) {
        this.observedGeneration = observedGeneration;
    }
}
