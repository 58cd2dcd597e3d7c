package dev.etcdoperator.sandbox.apiserver;

import com.fasterxml.jackson.databind.JsonNode;

/** The subset of JSONPath printer columns and field selectors use here: dotted field names from the root. */
final class SimpleJsonPath {
    private SimpleJsonPath() {
    }

    static JsonNode read(JsonNode root, String path) {
        JsonNode node = root;
        for (String part : path.replaceFirst("^\\.", "").split("\\.")) {
            if (part.isEmpty()) {
                continue;
            }
            node = node == null ? null : node.get(part);
        }
        return node;
    }
}
