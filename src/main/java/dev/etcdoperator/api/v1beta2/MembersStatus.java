package dev.etcdoperator.api.v1beta2;

import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.annotation.JsonInclude;

/** Member names (pod names), split by readiness, as the original reported them. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class MembersStatus {
    private List<String> ready = new ArrayList<>();
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
