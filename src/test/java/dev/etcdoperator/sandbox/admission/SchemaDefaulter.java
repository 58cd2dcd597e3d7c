package dev.etcdoperator.sandbox.admission;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Applies a structural schema's {@code default}s in place. As in the API server, a null in a field that is not
 * {@code nullable} is replaced by the field's default, or removed when it has none.
 */
final class SchemaDefaulter {
    private SchemaDefaulter() {
    }

    static void applyDefaults(JsonNode value, StructuralSchema schema) {
        if (value.isObject()) {
            ObjectNode object = (ObjectNode) value;
            replaceNulls(object, schema);
            schema.properties().fields().forEachRemaining(property -> {
                JsonNode defaultValue = property.getValue().get("default");
                if (defaultValue != null && !object.has(property.getKey())) {
                    object.set(property.getKey(), defaultValue.deepCopy());
                }
            });
            object.fields().forEachRemaining(field -> schema.property(field.getKey())
                    .ifPresent(child -> applyDefaults(field.getValue(), child)));
        } else if (value.isArray()) {
            value.forEach(item -> applyDefaults(item, schema.items()));
        }
    }

    private static void replaceNulls(ObjectNode object, StructuralSchema schema) {
        List<String> nullFields = new ArrayList<>();
        object.fields().forEachRemaining(field -> {
            if (field.getValue().isNull()) {
                nullFields.add(field.getKey());
            }
        });
        for (String name : nullFields) {
            Optional<StructuralSchema> child = schema.property(name);
            if (child.isEmpty() || child.get().nullable()) {
                continue;
            }
            child.get().defaultValue().ifPresentOrElse(
                    defaultValue -> object.set(name, defaultValue.deepCopy()),
                    () -> object.remove(name));
        }
    }
}
