package dev.etcdoperator.sandbox.admission;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Checks a value against the OpenAPI v3 keywords of a structural schema, with the API server's field paths and
 * wording. Not checked: {@code format}, and {@code x-kubernetes-list-type} / {@code x-kubernetes-map-type}.
 */
final class OpenApiSchemaValidator {
    private static final Map<String, Pattern> PATTERNS = new ConcurrentHashMap<>();

    private OpenApiSchemaValidator() {
    }

    static void validate(JsonNode value, StructuralSchema schema, String path, List<Cause> causes) {
        if (!hasValidType(value, schema, path, causes)) {
            return;
        }
        if (value.isNull()) {
            return;
        }
        JsonNode allowed = schema.get("enum");
        if (allowed != null && allowed.isArray() && !contains(allowed, value)) {
            causes.add(Cause.notSupported(path, value, allowed));
        }
        if (value.isNumber()) {
            numberBounds(value, schema, path, causes);
        } else if (value.isTextual()) {
            stringBounds(value.asText(), schema, path, causes);
        } else if (value.isArray()) {
            array(value, schema, path, causes);
        } else if (value.isObject()) {
            object(value, schema, path, causes);
        }
        combinators(value, schema, path, causes);
    }

    /** The type check; when it fails, the API server reports nothing else about the value. */
    private static boolean hasValidType(JsonNode value, StructuralSchema schema, String path, List<Cause> causes) {
        String actual = typeOf(value);
        if (value.isNull()) {
            if (schema.nullable() || (schema.type().isEmpty() && !schema.intOrString())) {
                return true;
            }
            String expected = schema.intOrString() ? "integer,string" : schema.type().get();
            causes.add(typeError(path, actual, expected));
            return false;
        }
        if (schema.intOrString()) {
            if (value.isIntegralNumber() || value.isTextual()) {
                return true;
            }
            causes.add(typeError(path, actual, "integer,string"));
            return false;
        }
        String expected = schema.type().orElse(null);
        if (expected == null || expected.equals(actual) || (expected.equals("number") && value.isNumber())) {
            return true;
        }
        causes.add(typeError(path, actual, expected));
        return false;
    }

    private static Cause typeError(String path, String actual, String expected) {
        return Cause.typeInvalid(path, actual,
                path + " in body must be of type " + expected + ": " + Cause.quote(actual));
    }

    static String typeOf(JsonNode value) {
        if (value.isIntegralNumber()) {
            return "integer";
        }
        return switch (value.getNodeType()) {
            case NUMBER -> "number";
            case STRING -> "string";
            case BOOLEAN -> "boolean";
            case ARRAY -> "array";
            case OBJECT -> "object";
            default -> "null";
        };
    }

    private static boolean contains(JsonNode allowed, JsonNode value) {
        for (JsonNode candidate : allowed) {
            if (candidate.equals(value)
                    || (candidate.isNumber() && value.isNumber()
                            && candidate.decimalValue().compareTo(value.decimalValue()) == 0)) {
                return true;
            }
        }
        return false;
    }

    private static void numberBounds(JsonNode value, StructuralSchema schema, String path, List<Cause> causes) {
        BigDecimal number = value.decimalValue();
        JsonNode minimum = schema.get("minimum");
        if (minimum != null) {
            boolean exclusive = schema.node().path("exclusiveMinimum").asBoolean(false);
            int comparison = number.compareTo(minimum.decimalValue());
            if (comparison < 0 || (exclusive && comparison == 0)) {
                causes.add(Cause.invalid(path, Cause.show(value), path + " in body should be greater than "
                        + (exclusive ? "" : "or equal to ") + plain(minimum)));
            }
        }
        JsonNode maximum = schema.get("maximum");
        if (maximum != null) {
            boolean exclusive = schema.node().path("exclusiveMaximum").asBoolean(false);
            int comparison = number.compareTo(maximum.decimalValue());
            if (comparison > 0 || (exclusive && comparison == 0)) {
                causes.add(Cause.invalid(path, Cause.show(value), path + " in body should be less than "
                        + (exclusive ? "" : "or equal to ") + plain(maximum)));
            }
        }
        JsonNode multipleOf = schema.get("multipleOf");
        if (multipleOf != null && multipleOf.decimalValue().signum() > 0
                && number.remainder(multipleOf.decimalValue()).signum() != 0) {
            causes.add(Cause.invalid(path, Cause.show(value),
                    path + " in body should be a multiple of " + plain(multipleOf)));
        }
    }

    /** 1.0 as 1, as Go prints a whole float64. */
    private static String plain(JsonNode number) {
        return number.decimalValue().stripTrailingZeros().toPlainString();
    }

    private static void stringBounds(String text, StructuralSchema schema, String path, List<Cause> causes) {
        String shown = Cause.quote(text);
        int length = text.codePointCount(0, text.length());
        JsonNode minLength = schema.get("minLength");
        if (minLength != null && length < minLength.asInt()) {
            causes.add(Cause.invalid(path, shown,
                    path + " in body should be at least " + minLength.asInt() + " chars long"));
        }
        JsonNode maxLength = schema.get("maxLength");
        if (maxLength != null && length > maxLength.asInt()) {
            causes.add(new Cause(path, "FieldValueTooLong",
                    "Too long: may not be more than " + maxLength.asInt() + " bytes"));
        }
        JsonNode pattern = schema.get("pattern");
        if (pattern != null && !PATTERNS.computeIfAbsent(pattern.asText(), Pattern::compile).matcher(text).find()) {
            causes.add(Cause.invalid(path, shown, path + " in body should match '" + pattern.asText() + "'"));
        }
    }

    private static void array(JsonNode array, StructuralSchema schema, String path, List<Cause> causes) {
        JsonNode minItems = schema.get("minItems");
        if (minItems != null && array.size() < minItems.asInt()) {
            causes.add(Cause.invalid(path, "\"array\"",
                    path + " in body should have at least " + minItems.asInt() + " items"));
        }
        JsonNode maxItems = schema.get("maxItems");
        if (maxItems != null && array.size() > maxItems.asInt()) {
            causes.add(new Cause(path, "FieldValueTooMany",
                    "Too many: " + array.size() + ": must have at most " + maxItems.asInt() + " items"));
        }
        for (int i = 0; i < array.size(); i++) {
            validate(array.get(i), schema.items(), FieldPaths.index(path, i), causes);
        }
    }

    private static void object(JsonNode object, StructuralSchema schema, String path, List<Cause> causes) {
        schema.node().path("required").forEach(name -> {
            if (!object.has(name.asText())) {
                causes.add(Cause.required(FieldPaths.child(path, name.asText()), ""));
            }
        });
        JsonNode minProperties = schema.get("minProperties");
        if (minProperties != null && object.size() < minProperties.asInt()) {
            causes.add(Cause.invalid(path, "\"object\"",
                    path + " in body should have at least " + minProperties.asInt() + " properties"));
        }
        JsonNode maxProperties = schema.get("maxProperties");
        if (maxProperties != null && object.size() > maxProperties.asInt()) {
            causes.add(new Cause(path, "FieldValueTooMany",
                    "Too many: " + object.size() + ": must have at most " + maxProperties.asInt() + " items"));
        }
        object.fields().forEachRemaining(field -> schema.property(field.getKey())
                .ifPresent(child -> validate(field.getValue(), child, FieldPaths.child(path, field.getKey()), causes)));
    }

    /** allOf, anyOf, oneOf and not, which a structural schema may use for value checks. */
    private static void combinators(JsonNode value, StructuralSchema schema, String path, List<Cause> causes) {
        for (StructuralSchema branch : schema.branches("allOf")) {
            validate(value, branch, path, causes);
        }
        List<StructuralSchema> anyOf = schema.branches("anyOf");
        if (!anyOf.isEmpty()) {
            List<Cause> branchCauses = new ArrayList<>();
            if (anyOf.stream().noneMatch(branch -> passes(value, branch, path, branchCauses))) {
                causes.addAll(branchCauses);
                causes.add(Cause.invalid(path, Cause.quote(typeOf(value)),
                        Cause.quote(path) + " must validate at least one schema (anyOf)"));
            }
        }
        List<StructuralSchema> oneOf = schema.branches("oneOf");
        if (!oneOf.isEmpty() && oneOf.stream().filter(branch -> passes(value, branch, path, new ArrayList<>())).count() != 1) {
            causes.add(Cause.invalid(path, Cause.quote(typeOf(value)),
                    Cause.quote(path) + " must validate one and only one schema (oneOf)"));
        }
        JsonNode not = schema.get("not");
        if (not != null && passes(value, new StructuralSchema(not), path, new ArrayList<>())) {
            causes.add(Cause.invalid(path, Cause.quote(typeOf(value)),
                    Cause.quote(path) + " must not validate the schema (not)"));
        }
    }

    private static boolean passes(JsonNode value, StructuralSchema branch, String path, List<Cause> collected) {
        List<Cause> branchCauses = new ArrayList<>();
        validate(value, branch, path, branchCauses);
        collected.addAll(branchCauses);
        return branchCauses.isEmpty();
    }
}
