package dev.etcdoperator.api.crd;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaProps;

/**
 * Descriptions of the Kubernetes types the pod policy embeds (affinity, resources, tolerations, env vars, the claim
 * spec, the pod security context), which the generated schema has without any. They are Kubernetes' own, from its
 * OpenAPI document (see the {@code source} of {@value #RESOURCE}).
 */
final class KubernetesDescriptions {
    static final String RESOURCE = "kubernetes-descriptions.json";
    private static final String CORE = "io.k8s.api.core.v1.";
    /** Fields of the pod policy and the Kubernetes definitions they (or their items) are. */
    private static final Map<String, String> POD_POLICY = Map.of("affinity", CORE + "Affinity",
            "resources", CORE + "ResourceRequirements", "tolerations", CORE + "Toleration",
            "etcdEnv", CORE + "EnvVar", "persistentVolumeClaimSpec", CORE + "PersistentVolumeClaimSpec",
            "securityContext", CORE + "PodSecurityContext");

    private final JsonNode definitions;

    private KubernetesDescriptions(JsonNode definitions) {
        this.definitions = definitions;
    }

    static KubernetesDescriptions load() {
        try (InputStream in = KubernetesDescriptions.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(RESOURCE + " is missing");
            }
            return new KubernetesDescriptions(new ObjectMapper().readTree(in).get("definitions"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Describes what has no description in every pod policy found under {@code node}. */
    void describe(JSONSchemaProps node) {
        if (node == null) {
            return;
        }
        if (node.getProperties() != null && node.getProperties().containsKey("etcdEnv")) {
            POD_POLICY.forEach((field, definition) -> describe(node.getProperties().get(field), definition));
        }
        if (node.getProperties() != null) {
            node.getProperties().values().forEach(this::describe);
        }
        if (node.getItems() != null) {
            describe(node.getItems().getSchema());
        }
    }

    /** {@code node} is (or its items are) of {@code definition}: its fields get the definition's descriptions. */
    private void describe(JSONSchemaProps node, String definition) {
        if (node == null) {
            return;
        }
        JSONSchemaProps typed = node.getItems() != null && node.getItems().getSchema() != null
                ? node.getItems().getSchema() : node;
        JsonNode def = definitions.get(definition);
        if (def == null || typed.getProperties() == null) {
            return;
        }
        typed.getProperties().forEach((name, field) -> {
            JsonNode known = def.path("properties").get(name);
            if (known == null) {
                return;
            }
            if (blank(field.getDescription())) {
                String text = known.path("description").asText("");
                if (text.isBlank() && known.has("type")) {
                    text = definitions.path(known.get("type").asText()).path("description").asText("");
                }
                field.setDescription(text.isBlank() ? null : text);
            }
            if (known.has("type")) {
                describe(field, known.get("type").asText());
            }
        });
    }

    private static boolean blank(String s) {
        return s == null || s.isBlank();
    }
}
