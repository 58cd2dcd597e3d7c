package dev.etcdoperator.sandbox.admission;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;

/**
 * One field error, as the API server lists it in {@code Status.details.causes}: {@code message} is the text after
 * "{@code <field>: }" in the error line, for example {@code Invalid value: 0: spec.size in body should be ...}.
 */
public record Cause(String field, String reason, String message) {

    public static final String INVALID = "FieldValueInvalid";
    public static final String REQUIRED = "FieldValueRequired";
    public static final String NOT_SUPPORTED = "FieldValueNotSupported";
    public static final String TYPE_INVALID = "FieldValueTypeInvalid";
    public static final String FORBIDDEN = "FieldValueForbidden";

    static Cause invalid(String field, String shownValue, String detail) {
        return new Cause(field, INVALID, "Invalid value: " + shownValue + ": " + detail);
    }

    static Cause required(String field, String detail) {
        return new Cause(field, REQUIRED, detail.isEmpty() ? "Required value" : "Required value: " + detail);
    }

    static Cause forbidden(String field, String detail) {
        return new Cause(field, FORBIDDEN, "Forbidden: " + detail);
    }

    static Cause notSupported(String field, JsonNode value, JsonNode supported) {
        StringBuilder values = new StringBuilder();
        supported.forEach(v -> values.append(values.length() == 0 ? "" : ", ").append(show(v)));
        return new Cause(field, NOT_SUPPORTED, "Unsupported value: " + show(value) + ": supported values: " + values);
    }

    static Cause typeInvalid(String field, String actualType, String detail) {
        return new Cause(field, TYPE_INVALID, "Invalid value: " + quote(actualType) + ": " + detail);
    }

    /** A value as the API server prints it after "Invalid value:": strings quoted, numbers and booleans bare. */
    static String show(JsonNode value) {
        return value.toString();
    }

    static String quote(String text) {
        return TextNode.valueOf(text).toString();
    }

    /** Blocking errors make the API server skip the x-kubernetes-validations rules. */
    boolean blocksRules() {
        return reason.equals(REQUIRED) || reason.equals(NOT_SUPPORTED) || reason.equals(TYPE_INVALID);
    }

    @Override
    public String toString() {
        return field + ": " + message;
    }
}
