package dev.etcdoperator.sandbox.admission;

import java.util.Iterator;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;

/** Drops the fields a structural schema does not declare, in place, as the API server does when it decodes. */
final class SchemaPruner {
    private SchemaPruner() {
    }

    static void prune(JsonNode value, StructuralSchema schema) {
        if (value.isObject()) {
            Iterator<Map.Entry<String, JsonNode>> fields = value.fields();
            while (fields.hasNext()) {
                Map.Entry<String, JsonNode> field = fields.next();
                schema.property(field.getKey()).ifPresentOrElse(
                        child -> prune(field.getValue(), child),
                        fields::remove);
            }
        } else if (value.isArray()) {
            value.forEach(item -> prune(item, schema.items()));
        }
    }
}
