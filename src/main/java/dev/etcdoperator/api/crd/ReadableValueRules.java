package dev.etcdoperator.api.crd;

import java.lang.reflect.Field;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.util.Collection;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaProps;

/**
 * Narrows a generated schema to the values the operator's Java types can read. The API server stores whatever the
 * schema admits, and one object the operator cannot deserialize stops its watch of the whole kind: the generator
 * writes {@code type: integer} without bounds for an {@code int} (the API server admits any int64) and an
 * int-or-string without a pattern for a {@link Quantity} (the API server admits {@code ""}, which fabric8 refuses).
 * Here every {@code int} field gets the int32 bounds (tighter bounds already there stay) and every quantity
 * Kubernetes' quantity syntax.
 */
final class ReadableValueRules {
    /** Kubernetes' quantity syntax, as its own CRDs carry it. */
    static final String QUANTITY_PATTERN = "^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?"
            + "(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$";

    private ReadableValueRules() {
    }

    /** Applies the rules to {@code node}, the schema of a value of Java type {@code type}, and all below it. */
    static void apply(JSONSchemaProps node, Type type) {
        if (node == null || type == null) {
            return;
        }
        if (type instanceof ParameterizedType parameterized && parameterized.getRawType() instanceof Class<?> raw) {
            Type[] arguments = parameterized.getActualTypeArguments();
            if (Collection.class.isAssignableFrom(raw) && node.getItems() != null) {
                apply(node.getItems().getSchema(), arguments[0]);
            } else if (Map.class.isAssignableFrom(raw) && node.getAdditionalProperties() != null) {
                apply(node.getAdditionalProperties().getSchema(), arguments[1]);
            } else {
                apply(node, raw);
            }
            return;
        }
        if (!(type instanceof Class<?> clazz)) {
            return;
        }
        if (clazz == Integer.class || clazz == int.class) {
            bound(node);
        } else if (clazz == Quantity.class) {
            if (node.getPattern() == null) {
                node.setPattern(QUANTITY_PATTERN);
            }
        } else if (node.getProperties() != null) {
            node.getProperties().forEach((name, property) -> apply(property, fieldType(clazz, name)));
        }
    }

    private static void bound(JSONSchemaProps node) {
        if (!"integer".equals(node.getType())) {
            return;
        }
        if (node.getMinimum() == null || node.getMinimum() < Integer.MIN_VALUE) {
            node.setMinimum((double) Integer.MIN_VALUE);
        }
        if (node.getMaximum() == null || node.getMaximum() > Integer.MAX_VALUE) {
            node.setMaximum((double) Integer.MAX_VALUE);
        }
    }

    /** The declared type of the field that JSON property {@code name} of {@code clazz} binds to, or null. */
    private static Type fieldType(Class<?> clazz, String name) {
        for (Class<?> c = clazz; c != null && c != Object.class; c = c.getSuperclass()) {
            for (Field field : c.getDeclaredFields()) {
                JsonProperty property = field.getAnnotation(JsonProperty.class);
                String json = property != null && !property.value().isEmpty() ? property.value() : field.getName();
                if (json.equals(name)) {
                    return field.getGenericType();
                }
            }
        }
        return null;
    }
}
