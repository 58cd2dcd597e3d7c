package dev.etcdoperator.sandbox.admission;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;

import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;

/**
 * The sandbox's admission of custom resources, done from their CRDs as a kube-apiserver does it: unknown fields
 * pruned, defaults applied, the openAPIV3Schema checked, then the {@code x-kubernetes-validations} rules.
 * {@code status} (written through the status subresource) is neither pruned nor checked; of {@code metadata} only
 * the presence of a name or generateName is checked.
 */
public final class CrdAdmission {
    public static final String CREATE = "CREATE";
    public static final String UPDATE = "UPDATE";

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String RULES_SKIPPED = "some validation rules were not checked because the object was"
            + " invalid; correct the existing errors to complete validation";

    private final Map<String, JsonNode> crdsByGroupAndPlural = new HashMap<>();
    private final CelRuleValidator rules = new CelRuleValidator();

    private CrdAdmission(Collection<? extends JsonNode> crds) {
        for (JsonNode crd : crds) {
            JsonNode spec = crd.path("spec");
            crdsByGroupAndPlural.put(key(spec.path("group").asText(), spec.path("names").path("plural").asText()), crd);
            rules.compileRulesOf(crd);
        }
    }

    /** Every {@code *.yml} and {@code *.yaml} file of {@code directory}, each holding one or more CRDs. */
    public static CrdAdmission fromDirectory(Path directory) throws IOException {
        List<JsonNode> crds = new ArrayList<>();
        try (Stream<Path> files = Files.list(directory)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".yml") || f.toString().endsWith(".yaml"))
                    .sorted().toList()) {
                crds.addAll(readYaml(file));
            }
        }
        return fromCrds(crds);
    }

    public static CrdAdmission fromCrds(Collection<? extends JsonNode> crds) {
        List<JsonNode> definitions = crds.stream().map(JsonNode.class::cast)
                .filter(crd -> "CustomResourceDefinition".equals(crd.path("kind").asText()))
                .toList();
        return new CrdAdmission(definitions);
    }

    public static CrdAdmission fromDefinitions(Collection<CustomResourceDefinition> crds) {
        return fromCrds(crds.stream().map(crd -> (JsonNode) JSON.valueToTree(crd)).toList());
    }

    /**
     * @param operation {@link #CREATE} or {@link #UPDATE}
     * @param oldObject the stored object on UPDATE, null on CREATE
     */
    public AdmissionResult admit(String group, String plural, String operation, JsonNode object, JsonNode oldObject) {
        if (!CREATE.equals(operation) && !UPDATE.equals(operation)) {
            throw new IllegalArgumentException("operation must be CREATE or UPDATE, not " + operation);
        }
        JsonNode crd = crdsByGroupAndPlural.get(key(group, plural));
        if (crd == null) {
            return AdmissionResult.allowed(object);
        }
        if (!object.isObject()) {
            throw new IllegalArgumentException("a custom resource is a JSON object, not " + object.getNodeType());
        }
        String kind = crd.path("spec").path("names").path("kind").asText();
        String name = object.path("metadata").path("name").asText("");
        List<Cause> causes = new ArrayList<>();

        JsonNode schemaNode = servedSchema(crd, group, object.path("apiVersion").asText());
        if (schemaNode == null) {
            causes.add(Cause.notSupported("apiVersion", object.path("apiVersion"), servedApiVersions(crd, group)));
            return AdmissionResult.refused(object, causes, group, kind, name);
        }
        StructuralSchema schema = new StructuralSchema(schemaNode);

        ObjectNode body = object.deepCopy();
        JsonNode apiVersion = body.remove("apiVersion");
        JsonNode kindNode = body.remove("kind");
        JsonNode metadata = body.remove("metadata");
        JsonNode status = body.remove("status");

        SchemaPruner.prune(body, schema);
        SchemaDefaulter.applyDefaults(body, schema);

        if (isBlank(metadata, "name") && isBlank(metadata, "generateName")) {
            causes.add(Cause.required("metadata.name", "name or generateName is required"));
        }
        OpenApiSchemaValidator.validate(body, schema, "", causes);
        if (causes.stream().anyMatch(Cause::blocksRules)) {
            causes.add(Cause.invalid("<nil>", "\"null\"", RULES_SKIPPED));
        } else {
            JsonNode oldBody = null;
            if (UPDATE.equals(operation) && oldObject != null && oldObject.isObject()) {
                ObjectNode copy = oldObject.deepCopy();
                copy.remove(List.of("apiVersion", "kind", "metadata", "status"));
                oldBody = copy;
            }
            rules.validate(body, oldBody, schema, "", causes);
        }

        ObjectNode stored = JsonNodeFactory.instance.objectNode();
        putIfPresent(stored, "apiVersion", apiVersion);
        putIfPresent(stored, "kind", kindNode);
        putIfPresent(stored, "metadata", metadata);
        stored.setAll(body);
        putIfPresent(stored, "status", status);
        return causes.isEmpty()
                ? AdmissionResult.allowed(stored)
                : AdmissionResult.refused(stored, causes, group, kind, name);
    }

    private static JsonNode servedSchema(JsonNode crd, String group, String apiVersion) {
        for (JsonNode version : crd.path("spec").path("versions")) {
            if (version.path("served").asBoolean(false)
                    && apiVersion.equals(group + "/" + version.path("name").asText())) {
                return version.path("schema").path("openAPIV3Schema");
            }
        }
        return null;
    }

    private static JsonNode servedApiVersions(JsonNode crd, String group) {
        List<JsonNode> served = new ArrayList<>();
        crd.path("spec").path("versions").forEach(version -> {
            if (version.path("served").asBoolean(false)) {
                served.add(JsonNodeFactory.instance.textNode(group + "/" + version.path("name").asText()));
            }
        });
        return JsonNodeFactory.instance.arrayNode().addAll(served);
    }

    private static boolean isBlank(JsonNode metadata, String field) {
        return metadata == null || metadata.path(field).asText("").isBlank();
    }

    private static void putIfPresent(ObjectNode object, String field, JsonNode value) {
        if (value != null) {
            object.set(field, value);
        }
    }

    private static String key(String group, String plural) {
        return group + "/" + plural;
    }

    static List<JsonNode> readYaml(Path file) throws IOException {
        try (var parser = YAML.createParser(file.toFile())) {
            List<JsonNode> documents = new ArrayList<>();
            YAML.readValues(parser, JsonNode.class).forEachRemaining(document -> {
                if (document != null && !document.isNull() && !document.isMissingNode()) {
                    documents.add(document);
                }
            });
            return documents;
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }
}
