package dev.etcdoperator.sandbox.admission;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;

import dev.cel.bundle.Cel;
import dev.cel.bundle.CelFactory;
import dev.cel.common.CelValidationException;
import dev.cel.common.types.SimpleType;
import dev.cel.parser.CelStandardMacro;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelRuntime;

/**
 * Runs the {@code x-kubernetes-validations} rules of a schema at every level of a value, with {@code self} bound to
 * the value there and, for transition rules, {@code oldSelf} bound to the old value at the same path. Kubernetes'
 * own CEL libraries (quantity, url, ip, semver, format, ...) are not available to the rules.
 */
final class CelRuleValidator {
    private static final Pattern MENTIONS_OLD_SELF = Pattern.compile("\\boldSelf\\b");
    private static final Cel CEL = CelFactory.standardCelBuilder()
            .setStandardMacros(CelStandardMacro.STANDARD_MACROS)
            .addVar("self", SimpleType.DYN)
            .addVar("oldSelf", SimpleType.DYN)
            .build();

    private final Map<String, CelRuntime.Program> programs = new HashMap<>();

    /** Compiles every rule and messageExpression of the given CRD up front: a rule that does not compile fails here. */
    void compileRulesOf(JsonNode crd) {
        for (JsonNode rules : crd.findValues("x-kubernetes-validations")) {
            for (JsonNode rule : rules) {
                compile(rule.path("rule").asText());
                if (rule.hasNonNull("messageExpression")) {
                    compile(rule.get("messageExpression").asText());
                }
            }
        }
    }

    private void compile(String expression) {
        if (programs.containsKey(expression)) {
            return;
        }
        try {
            programs.put(expression, CEL.createProgram(CEL.compile(expression).getAst()));
        } catch (CelValidationException | CelEvaluationException e) {
            throw new IllegalArgumentException("x-kubernetes-validations: cannot compile " + expression + ": "
                    + e.getMessage(), e);
        }
    }

    /** @param oldValue the value at the same path in the old object, or null when there is none */
    void validate(JsonNode value, JsonNode oldValue, StructuralSchema schema, String path, List<Cause> causes) {
        if (value.isNull()) {
            return;
        }
        for (JsonNode rule : schema.rules()) {
            boolean transition = MENTIONS_OLD_SELF.matcher(rule.path("rule").asText()).find();
            if (!transition || oldValue != null) {
                check(rule, value, transition ? oldValue : null, schema, path, causes);
            }
        }
        if (value.isObject()) {
            value.fields().forEachRemaining(field -> schema.property(field.getKey()).ifPresent(child -> {
                JsonNode oldChild = oldValue != null && oldValue.isObject() ? oldValue.get(field.getKey()) : null;
                validate(field.getValue(), oldChild, child, FieldPaths.child(path, field.getKey()), causes);
            }));
        } else if (value.isArray()) {
            for (int i = 0; i < value.size(); i++) {
                validate(value.get(i), null, schema.items(), FieldPaths.index(path, i), causes);
            }
        }
    }

    private void check(JsonNode rule, JsonNode value, JsonNode oldValue, StructuralSchema schema, String path,
            List<Cause> causes) {
        String expression = rule.path("rule").asText();
        Map<String, Object> variables = new HashMap<>();
        variables.put("self", CelValues.of(value));
        if (oldValue != null) {
            variables.put("oldSelf", CelValues.of(oldValue));
        }
        String field = path + rule.path("fieldPath").asText("");
        if (field.startsWith(".")) {
            field = field.substring(1);
        }
        String shownType = Cause.quote(schema.type().orElse(OpenApiSchemaValidator.typeOf(value)));
        Object result;
        try {
            result = programs.get(expression).eval(variables);
        } catch (CelEvaluationException e) {
            causes.add(Cause.invalid(field, shownType, e.getMessage() + " evaluating rule: " + expression));
            return;
        }
        if (Boolean.TRUE.equals(result)) {
            return;
        }
        String message = message(rule, variables);
        switch (rule.path("reason").asText(Cause.INVALID)) {
            case Cause.REQUIRED -> causes.add(Cause.required(field, message));
            case Cause.FORBIDDEN -> causes.add(Cause.forbidden(field, message));
            default -> causes.add(Cause.invalid(field, shownType, message));
        }
    }

    private String message(JsonNode rule, Map<String, Object> variables) {
        if (rule.hasNonNull("messageExpression")) {
            try {
                Object message = programs.get(rule.get("messageExpression").asText()).eval(variables);
                if (message instanceof String text && !text.isBlank()) {
                    return text;
                }
            } catch (CelEvaluationException e) {
                // the API server falls back to message, then to the rule, as we do below
            }
        }
        if (rule.hasNonNull("message")) {
            return rule.get("message").asText();
        }
        return "failed rule: " + rule.path("rule").asText();
    }
}
