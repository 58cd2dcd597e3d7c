package dev.etcdoperator.api.v1beta2;

import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;

/** Member names (pod names), split by readiness, as the original reported them. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class MembersStatus {
    @JsonPropertyDescription("Members whose pods are ready.")
    private List<String> ready = new ArrayList<>();

    @JsonPropertyDescription("Members whose pods are not ready.")
    private List<String> unready = new ArrayList<>();

    public List<String> getReady() {
        return ready;
    }

    public void setReady(List<String> ready) {
        this.ready = ready;
    }

    public List<String> getUnready() {
        return unready;
    }

    public void setUnready(List<String> unready) {
        this.unready = unready;
    }
}
