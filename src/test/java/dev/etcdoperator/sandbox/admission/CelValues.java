package dev.etcdoperator.sandbox.admission;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;

/** JSON as CEL wants it: Long, Double, String, Boolean, List, Map and null (Jackson's Integer is not a CEL int). */
final class CelValues {
    private CelValues() {
    }

    static Object of(JsonNode node) {
        if (node.isIntegralNumber() && node.canConvertToLong()) {
            return node.longValue();
        }
        if (node.isNumber()) {
            return node.doubleValue();
        }
        if (node.isTextual()) {
            return node.textValue();
        }
        if (node.isBoolean()) {
            return node.booleanValue();
        }
        if (node.isArray()) {
            List<Object> list = new ArrayList<>(node.size());
            node.forEach(item -> list.add(of(item)));
            return list;
        }
        if (node.isObject()) {
            Map<String, Object> map = new LinkedHashMap<>();
            node.fields().forEachRemaining(field -> map.put(field.getKey(), of(field.getValue())));
            return map;
        }
        return com.google.protobuf.NullValue.NULL_VALUE;
    }
}
