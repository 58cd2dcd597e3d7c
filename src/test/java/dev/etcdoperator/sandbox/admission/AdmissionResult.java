package dev.etcdoperator.sandbox.admission;

import java.util.List;
import java.util.stream.Collectors;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

/** What admission decided: the object to store, or the field errors the API server would answer with 422. */
public final class AdmissionResult {
    private final JsonNode object;
    private final List<Cause> causes;
    private final String group;
    private final String kind;
    private final String name;

    private AdmissionResult(JsonNode object, List<Cause> causes, String group, String kind, String name) {
        this.object = object;
        this.causes = List.copyOf(causes);
        this.group = group;
        this.kind = kind;
        this.name = name;
    }

    static AdmissionResult allowed(JsonNode object) {
        return new AdmissionResult(object, List.of(), null, null, null);
    }

    static AdmissionResult refused(JsonNode object, List<Cause> causes, String group, String kind, String name) {
        if (causes.isEmpty()) {
            throw new IllegalArgumentException("a refusal needs at least one cause");
        }
        return new AdmissionResult(object, causes, group, kind, name);
    }

    public boolean allowed() {
        return causes.isEmpty();
    }

    /** The object after pruning and defaulting: what is stored when allowed. */
    public JsonNode object() {
        return object;
    }

    public List<Cause> causes() {
        return causes;
    }

    /** The Status message, for example {@code EtcdCluster.etcd.database.coreos.com "bad" is invalid: spec.size: ...}. */
    public String message() {
        requireRefused();
        String errors = causes.stream().map(Cause::toString).collect(Collectors.joining(", "));
        return kind + "." + group + " " + Cause.quote(name) + " is invalid: "
                + (causes.size() == 1 ? errors : "[" + errors + "]");
    }

    /** The {@code Status} body of the API server's 422 answer. */
    public ObjectNode status() {
        requireRefused();
        JsonNodeFactory json = JsonNodeFactory.instance;
        ObjectNode status = json.objectNode()
                .put("kind", "Status")
                .put("apiVersion", "v1");
        status.putObject("metadata");
        status.put("status", "Failure")
                .put("message", message())
                .put("reason", "Invalid");
        ObjectNode details = status.putObject("details")
                .put("name", name)
                .put("group", group)
                .put("kind", kind);
        ArrayNode causeNodes = details.putArray("causes");
        causes.forEach(cause -> causeNodes.addObject()
                .put("reason", cause.reason())
                .put("message", cause.message())
                .put("field", cause.field()));
        status.put("code", 422);
        return status;
    }

    public String statusJson() {
        return status().toString();
    }

    private void requireRefused() {
        if (allowed()) {
            throw new IllegalStateException("the object was allowed: there is no Status to report");
        }
    }

    @Override
    public String toString() {
        return allowed() ? "allowed" : message();
    }
}
