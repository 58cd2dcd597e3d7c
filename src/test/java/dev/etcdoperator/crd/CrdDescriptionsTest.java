package dev.etcdoperator.crd;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionVersion;
import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaProps;
import io.fabric8.kubernetes.client.utils.Serialization;

/**
 * {@code kubectl explain} shows a field's description: every property of every committed CRD has one, ours and those
 * of the embedded Kubernetes types alike.
 */
class CrdDescriptionsTest {

    static Stream<Path> committedCrds() throws IOException {
        try (Stream<Path> files = Files.list(Path.of("crds"))) {
            return files.filter(f -> f.getFileName().toString().endsWith(".yml")).sorted().toList().stream();
        }
    }

    @ParameterizedTest
    @MethodSource("committedCrds")
    void everyFieldHasADescription(Path file) throws IOException {
        CustomResourceDefinition crd;
        try (InputStream in = Files.newInputStream(file)) {
            crd = Serialization.unmarshal(in, CustomResourceDefinition.class);
        }
        for (CustomResourceDefinitionVersion version : crd.getSpec().getVersions()) {
            List<String> fields = new ArrayList<>();
            List<String> missing = new ArrayList<>();
            walk(version.getSchema().getOpenAPIV3Schema(), "", fields, missing);
            assertThat(fields).as(file + ": the walk found the schema's fields").hasSizeGreaterThan(10);
            assertThat(missing).as(file + ": " + missing.size() + " of " + fields.size()
                    + " fields have no description").isEmpty();
        }
    }

    private static void walk(JSONSchemaProps node, String path, List<String> fields, List<String> missing) {
        if (node == null) {
            return;
        }
        for (Map.Entry<String, JSONSchemaProps> property : node.getProperties() == null
                ? List.<Map.Entry<String, JSONSchemaProps>>of() : node.getProperties().entrySet()) {
            String at = path + "." + property.getKey();
            fields.add(at);
            String description = property.getValue().getDescription();
            if (description == null || description.isBlank()) {
                missing.add(at);
            }
            walk(property.getValue(), at, fields, missing);
        }
        if (node.getItems() != null) {
            walk(node.getItems().getSchema(), path + "[]", fields, missing);
        }
        if (node.getAdditionalProperties() != null) {
            walk(node.getAdditionalProperties().getSchema(), path + "{}", fields, missing);
        }
    }
}
