package dev.etcdoperator.crd;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceColumnDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionVersion;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceSubresourceScale;
import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaProps;
import io.fabric8.kubernetes.client.utils.Serialization;

/**
 * The rules an API server applies to a CRD's scale subresource and printer columns, checked on every committed CRD
 * (crds/ and the chart's copies) without a server, so a CRD that a cluster would refuse fails here first. The
 * sandbox tests apply the same files to a real API server.
 */
class CrdStructureTest {

    static Stream<Path> committedCrds() throws IOException {
        List<Path> all = new ArrayList<>();
        for (Path dir : List.of(Path.of("crds"), CommittedCrdsTest.CHART_CRDS)) {
            try (Stream<Path> files = Files.list(dir)) {
                files.filter(f -> f.getFileName().toString().endsWith(".yml")).sorted().forEach(all::add);
            }
        }
        return all.stream();
    }

    @ParameterizedTest
    @MethodSource("committedCrds")
    void scaleSubresourcePathsAreWhereAnApiServerWantsThem(Path file) throws IOException {
        for (CustomResourceDefinitionVersion version : read(file).getSpec().getVersions()) {
            if (version.getSubresources() == null || version.getSubresources().getScale() == null) {
                continue;
            }
            CustomResourceSubresourceScale scale = version.getSubresources().getScale();
            JSONSchemaProps root = version.getSchema().getOpenAPIV3Schema();
            assertThat(scale.getSpecReplicasPath()).as(file + ": specReplicasPath must be under .spec")
                    .startsWith(".spec.");
            assertThat(scale.getStatusReplicasPath()).as(file + ": statusReplicasPath is required, under .status")
                    .isNotNull().startsWith(".status.");
            assertThat(schemaAt(root, scale.getSpecReplicasPath())).as(file + ": " + scale.getSpecReplicasPath())
                    .isNotNull();
            assertThat(schemaAt(root, scale.getStatusReplicasPath())).as(file + ": " + scale.getStatusReplicasPath())
                    .isNotNull();
            if (scale.getLabelSelectorPath() != null) {
                assertThat(scale.getLabelSelectorPath()).startsWith(".status.");
            }
        }
    }

    @ParameterizedTest
    @MethodSource("committedCrds")
    void printerColumnsPointAtFieldsOfTheirOwnResource(Path file) throws IOException {
        for (CustomResourceDefinitionVersion version : read(file).getSpec().getVersions()) {
            JSONSchemaProps root = version.getSchema().getOpenAPIV3Schema();
            List<CustomResourceColumnDefinition> columns = version.getAdditionalPrinterColumns() == null ? List.of()
                    : version.getAdditionalPrinterColumns();
            for (CustomResourceColumnDefinition column : columns) {
                if (column.getJsonPath().startsWith(".metadata.")) {
                    continue;
                }
                JSONSchemaProps field = schemaAt(root, column.getJsonPath());
                assertThat(field).as(file + ": column " + column.getName() + " at " + column.getJsonPath()
                        + " names no field of the schema").isNotNull();
                assertThat(field.getType()).as(file + ": column " + column.getName() + " type")
                        .isEqualTo("date".equals(column.getType()) ? "string" : column.getType());
            }
            assertThat(columns).as(file + ": column names are unique").extracting(CustomResourceColumnDefinition::getName)
                    .doesNotHaveDuplicates();
        }
    }

    @Test
    void printerColumnsAreInTheOrderDeclaredWithAgeLast() throws IOException {
        assertThat(columns("etcdclusters")).containsExactly("Size", "Version", "Phase", "Ready", "Available", "Age");
        assertThat(columns("etcdbackups")).containsExactly("Succeeded", "Last Success", "Path", "Size", "Age");
        assertThat(columns("etcdrestores")).containsExactly("Phase", "Cluster", "Succeeded", "Age");
    }

    private static List<String> columns(String plural) throws IOException {
        return read(Path.of("crds", plural + ".etcd.database.coreos.com-v1.yml")).getSpec().getVersions().get(0)
                .getAdditionalPrinterColumns().stream().map(CustomResourceColumnDefinition::getName).toList();
    }

    private static CustomResourceDefinition read(Path file) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            return Serialization.unmarshal(in, CustomResourceDefinition.class);
        }
    }

    /** The schema at a column's path; an array subscript or filter ({@code [0]}, {@code [?(@.type=="X")]}) is an item. */
    static JSONSchemaProps schemaAt(JSONSchemaProps root, String jsonPath) {
        JSONSchemaProps node = root;
        for (String step : jsonPath.substring(1).replaceAll("\\[[^]]*]", ".[]").split("\\.")) {
            if (node == null) {
                return null;
            }
            if (step.equals("[]")) {
                node = node.getItems() == null ? null : node.getItems().getSchema();
                continue;
            }
            node = node.getProperties() == null ? null : node.getProperties().get(step);
        }
        return node;
    }
}
