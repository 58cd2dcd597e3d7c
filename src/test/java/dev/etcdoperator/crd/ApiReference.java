package dev.etcdoperator.crd;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionVersion;
import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaProps;
import io.fabric8.kubernetes.client.utils.Serialization;

/**
 * Renders docs/api-reference.md from the committed CRDs: every field of the three kinds with its type, bounds and
 * description, as the API server serves them to {@code kubectl explain}.
 */
final class ApiReference {
    static final Path CRDS = Path.of("crds");
    static final Path PAGE = Path.of("docs", "api-reference.md");
    static final List<String> ORDER = List.of("etcdclusters", "etcdbackups", "etcdrestores");

    private ApiReference() {
    }

    static String render() throws IOException {
        StringBuilder out = new StringBuilder("""
                # API reference

                Generated from the CRDs in `crds/` by `ApiReferenceTest` (regenerate with
                `./mvnw -B -o test -Dtest=ApiReferenceTest -Dapi.reference.write=true`); the guide to the API, with what
                is added to the CoreOS one, is [api.md](api.md). Fields of Kubernetes' own types (pod affinity,
                tolerations, resources, claims, security contexts) are listed down to their first level.
                """);
        for (String plural : ORDER) {
            CustomResourceDefinition crd = Serialization.unmarshal(
                    Files.readString(CRDS.resolve(plural + ".etcd.database.coreos.com-v1.yml")),
                    CustomResourceDefinition.class);
            for (CustomResourceDefinitionVersion version : crd.getSpec().getVersions()) {
                out.append("\n## ").append(crd.getSpec().getNames().getKind()).append(" (")
                        .append(crd.getSpec().getGroup()).append('/').append(version.getName()).append(")\n\n")
                        .append("| field | type | bounds | description |\n|-------|------|--------|-------------|\n");
                JSONSchemaProps root = version.getSchema().getOpenAPIV3Schema();
                for (String top : List.of("spec", "status")) {
                    JSONSchemaProps p = root.getProperties().get(top);
                    if (p != null) {
                        rows(top, p, root.getRequired() != null && root.getRequired().contains(top), 0, out);
                    }
                }
            }
        }
        return out.toString();
    }

    private static void rows(String path, JSONSchemaProps p, boolean required, int kubernetesDepth, StringBuilder out) {
        out.append("| `").append(path).append("`").append(required ? " (required)" : "").append(" | ")
                .append(type(p)).append(" | ").append(bounds(p)).append(" | ")
                .append(cell(p.getDescription())).append(" |\n");
        boolean kubernetesType = path.endsWith(".affinity") || path.endsWith(".tolerations")
                || path.endsWith(".resources") || path.endsWith(".persistentVolumeClaimSpec")
                || path.endsWith(".securityContext") || path.endsWith(".etcdEnv") || path.endsWith(".clusterSpec");
        if (kubernetesType) {
            return;
        }
        Map<String, JSONSchemaProps> children = p.getProperties();
        if ((children == null || children.isEmpty()) && p.getItems() != null && p.getItems().getSchema() != null) {
            children = p.getItems().getSchema().getProperties();
            path = path + "[]";
            required = false;
        }
        if (children == null) {
            return;
        }
        List<String> req = p.getRequired() != null ? p.getRequired()
                : p.getItems() != null && p.getItems().getSchema() != null && p.getItems().getSchema().getRequired() != null
                        ? p.getItems().getSchema().getRequired() : List.of();
        for (Map.Entry<String, JSONSchemaProps> c : new TreeMap<>(children).entrySet()) {
            rows(path + "." + c.getKey(), c.getValue(), req.contains(c.getKey()), kubernetesDepth, out);
        }
    }

    private static String type(JSONSchemaProps p) {
        String t = p.getType() == null ? (Boolean.TRUE.equals(p.getXKubernetesIntOrString()) ? "int or string" : "any")
                : p.getType();
        if ("array".equals(t) && p.getItems() != null && p.getItems().getSchema() != null
                && p.getItems().getSchema().getType() != null) {
            t = "array of " + p.getItems().getSchema().getType();
        }
        return t;
    }

    private static String bounds(JSONSchemaProps p) {
        List<String> b = new ArrayList<>();
        if (p.getMinimum() != null) {
            b.add(">= " + number(p.getMinimum()));
        }
        if (p.getMaximum() != null) {
            b.add("<= " + number(p.getMaximum()));
        }
        if (p.getMaxLength() != null) {
            b.add("length <= " + p.getMaxLength());
        }
        if (p.getMaxItems() != null) {
            b.add("items <= " + p.getMaxItems());
        }
        if (p.getEnum() != null && !p.getEnum().isEmpty()) {
            b.add("one of " + String.join(", ", p.getEnum().stream().map(e -> e.toString().replace("\"", "")).toList()));
        }
        if (p.getPattern() != null) {
            b.add("pattern");
        }
        return String.join("; ", b);
    }

    private static String number(Double d) {
        return d == Math.rint(d) ? Long.toString(d.longValue()) : d.toString();
    }

    private static String cell(String text) {
        return text == null ? "" : text.replace("|", "\\|").replace("\n", " ");
    }
}
