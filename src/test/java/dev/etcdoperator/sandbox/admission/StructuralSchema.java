package dev.etcdoperator.sandbox.admission;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;

/** Read access to one node of a CRD's openAPIV3Schema. */
record StructuralSchema(JsonNode node) {

    /** The schema of anything at all: no type, no rules, unknown fields kept. */
    static final StructuralSchema ANYTHING = new StructuralSchema(
            JsonNodeFactory.instance.objectNode()
                    .put("x-kubernetes-preserve-unknown-fields", true));

    Optional<String> type() {
        return Optional.ofNullable(node.get("type")).map(JsonNode::asText);
    }

    boolean intOrString() {
        return node.path("x-kubernetes-int-or-string").asBoolean(false);
    }

    boolean nullable() {
        return node.path("nullable").asBoolean(false);
    }

    boolean preservesUnknownFields() {
        return node.path("x-kubernetes-preserve-unknown-fields").asBoolean(false);
    }

    /** The schema of property {@code name} of an object, or empty when the schema does not know it. */
    Optional<StructuralSchema> property(String name) {
        JsonNode declared = node.path("properties").get(name);
        if (declared != null) {
            return Optional.of(new StructuralSchema(declared));
        }
        JsonNode additional = node.get("additionalProperties");
        if (additional != null && additional.isObject()) {
            return Optional.of(new StructuralSchema(additional));
        }
        if ((additional != null && additional.asBoolean(false)) || preservesUnknownFields()) {
            return Optional.of(ANYTHING);
        }
        return Optional.empty();
    }

    JsonNode properties() {
        return node.path("properties");
    }

    StructuralSchema items() {
        JsonNode items = node.get("items");
        return items == null ? ANYTHING : new StructuralSchema(items);
    }

    Optional<JsonNode> defaultValue() {
        return Optional.ofNullable(node.get("default"));
    }

    List<StructuralSchema> branches(String keyword) {
        List<StructuralSchema> branches = new ArrayList<>();
        node.path(keyword).forEach(branch -> branches.add(new StructuralSchema(branch)));
        return branches;
    }

    JsonNode get(String keyword) {
        return node.get(keyword);
    }

    JsonNode rules() {
        return node.path("x-kubernetes-validations");
    }
}
