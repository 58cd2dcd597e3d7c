package dev.etcdoperator.crd;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.etcdoperator.api.v1beta2.EtcdBackup;
import dev.etcdoperator.api.v1beta2.EtcdCluster;
import dev.etcdoperator.api.v1beta2.EtcdRestore;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaProps;
import io.fabric8.kubernetes.client.utils.Serialization;

/**
 * Every value a committed CRD's schema admits at any field, at its edges (the largest and smallest integer, the
 * empty string, a string of the pattern's own making), is read by the operator: the API server stores whatever the
 * schema admits, and one stored object the operator cannot deserialize stops its watch of the whole kind. Each
 * value is tried alone, in an otherwise empty resource, and read as the informers read it.
 */
class CrdAdmitsOnlyReadableValuesTest {
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
    private static final Map<String, Class<? extends HasMetadata>> KINDS = Map.of(
            "etcdclusters", EtcdCluster.class, "etcdbackups", EtcdBackup.class, "etcdrestores", EtcdRestore.class);
    /** Strings a pattern may admit, tried against each pattern; the ones it admits are tried as values. */
    private static final List<String> PATTERN_PROBES = List.of("", "0", "1", "-1", "+1", ".5", "5.", "1e3", "1E3",
            "1e-3", "1.5Gi", "100m", "1k", "1Ki", "9999999999999999999999", "1Pi", "1Ei", "1E", "1m", "3.5.0",
            "a", "a-b", "a.b", "example", "0 3 * * *", "@daily", "S3", "ABS", "http://a:1", "a/b");

    record Sample(String path, JsonNode value) {
    }

    @Test
    void everyValueTheSchemasAdmitIsReadByTheOperator() throws IOException {
        List<String> unreadable = new ArrayList<>();
        int tried = 0;
        for (Map.Entry<String, Class<? extends HasMetadata>> kind : KINDS.entrySet()) {
            CustomResourceDefinition crd = Serialization.unmarshal(Files.readString(
                    Path.of("crds", kind.getKey() + ".etcd.database.coreos.com-v1.yml")), CustomResourceDefinition.class);
            JSONSchemaProps root = crd.getSpec().getVersions().get(0).getSchema().getOpenAPIV3Schema();
            for (String top : List.of("spec", "status")) {
                List<Sample> samples = new ArrayList<>();
                samples(root.getProperties().get(top), top, samples);
                for (Sample sample : samples) {
                    tried++;
                    ObjectNode resource = JSON.objectNode().put("apiVersion", "etcd.database.coreos.com/v1beta2")
                            .put("kind", crd.getSpec().getNames().getKind());
                    resource.putObject("metadata").put("name", "x").put("namespace", "ns");
                    place(resource, sample.path(), sample.value());
                    try {
                        Serialization.unmarshal(new ObjectMapper().writeValueAsString(resource), kind.getValue());
                    } catch (RuntimeException e) {
                        unreadable.add(kind.getKey() + " " + sample.path() + " = " + sample.value() + ": "
                                + rootCause(e));
                    }
                }
            }
        }
        assertThat(tried).as("values tried").isGreaterThan(300);
        assertThat(unreadable).as("values the API server would store and the operator could not read").isEmpty();
    }

    @Test
    void theQuantityPatternAdmitsWhatKubernetesWritesAndNothingEmpty() throws IOException {
        String crd = Files.readString(Path.of("crds", "etcdclusters.etcd.database.coreos.com-v1.yml"));
        JSONSchemaProps limits = Serialization.unmarshal(crd, CustomResourceDefinition.class).getSpec().getVersions()
                .get(0).getSchema().getOpenAPIV3Schema().getProperties().get("spec").getProperties().get("pod")
                .getProperties().get("resources").getProperties().get("limits").getAdditionalProperties().getSchema();
        Pattern quantity = Pattern.compile(limits.getPattern());
        for (String good : List.of("1", "100m", "1.5", "2Gi", "512Mi", "1e3", "0", ".5", "+1", "8E")) {
            assertThat(quantity.matcher(good).find()).as(good).isTrue();
        }
        for (String bad : List.of("", " ", "abc", "1 Gi", "1GB", "1..2", "Gi")) {
            assertThat(quantity.matcher(bad).find()).as(bad).isFalse();
        }
    }

    /** Values at the edges of what {@code node} admits, each with its JSON path (segments joined by '/'). */
    private static void samples(JSONSchemaProps node, String path, List<Sample> out) {
        if (node == null) {
            return;
        }
        if (Boolean.TRUE.equals(node.getXKubernetesPreserveUnknownFields())) {
            if (node.getPattern() != null) {
                // a quantity: numbers of any size and form, and the strings of its pattern (objects, lists and
                // booleans are refused by its keywords, tried on the API server in ControlPlaneIT)
                for (double d : new double[] {0.5, 2, -1, 1e-3, 1e18, 1e300, Double.MAX_VALUE}) {
                    out.add(new Sample(path, JSON.numberNode(d)));
                }
                out.add(new Sample(path, JSON.numberNode(Long.MAX_VALUE)));
                out.add(new Sample(path, JSON.numberNode(new BigInteger("99999999999999999999999"))));
                strings(node, path, out);
            }
            return;
        }
        if (node.getEnum() != null && !node.getEnum().isEmpty()) {
            node.getEnum().forEach(v -> out.add(new Sample(path, v)));
            return;
        }
        if (Boolean.TRUE.equals(node.getXKubernetesIntOrString())) {
            integers(node, path, out);
            strings(node, path, out);
            return;
        }
        String type = node.getType() == null ? "" : node.getType();
        switch (type) {
            case "integer" -> integers(node, path, out);
            case "number" -> out.add(new Sample(path, JSON.numberNode(node.getMaximum() == null ? 1e300 : node.getMaximum())));
            case "boolean" -> out.add(new Sample(path, JSON.booleanNode(true)));
            case "string" -> strings(node, path, out);
            case "array" -> {
                if (node.getItems() != null) {
                    samples(node.getItems().getSchema(), path + "/0", out);
                }
            }
            default -> {
                if (node.getProperties() != null) {
                    node.getProperties().forEach((name, property) -> samples(property, path + "/" + name, out));
                }
                if (node.getAdditionalProperties() != null && node.getAdditionalProperties().getSchema() != null) {
                    samples(node.getAdditionalProperties().getSchema(), path + "/k", out);
                }
            }
        }
    }

    private static void integers(JSONSchemaProps node, String path, List<Sample> out) {
        out.add(new Sample(path, JSON.numberNode(node.getMaximum() == null ? Long.MAX_VALUE
                : (long) Math.floor(node.getMaximum()))));
        out.add(new Sample(path, JSON.numberNode(node.getMinimum() == null ? Long.MIN_VALUE
                : (long) Math.ceil(node.getMinimum()))));
    }

    private static void strings(JSONSchemaProps node, String path, List<Sample> out) {
        List<String> candidates = node.getPattern() == null ? List.of("", "x")
                : PATTERN_PROBES.stream().filter(s -> Pattern.compile(node.getPattern()).matcher(s).find()).toList();
        for (String s : candidates) {
            long length = s.codePointCount(0, s.length());
            if ((node.getMinLength() == null || length >= node.getMinLength())
                    && (node.getMaxLength() == null || length <= node.getMaxLength())) {
                out.add(new Sample(path, JSON.textNode(s)));
            }
        }
    }

    /** Sets {@code value} at {@code path} (segments: names, or "0" for an array's first item). */
    private static void place(ObjectNode resource, String path, JsonNode value) {
        String[] segments = path.split("/");
        JsonNode at = resource;
        for (int i = 0; i < segments.length; i++) {
            boolean last = i == segments.length - 1;
            boolean nextIsItem = !last && segments[i + 1].equals("0");
            if (at instanceof ArrayNode array) {
                if (last) {
                    array.add(value);
                } else {
                    at = nextIsItem ? array.addArray() : array.addObject();
                }
            } else if (last) {
                ((ObjectNode) at).set(segments[i], value);
            } else {
                at = nextIsItem ? ((ObjectNode) at).putArray(segments[i]) : ((ObjectNode) at).putObject(segments[i]);
            }
        }
    }

    private static String rootCause(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        return t.getClass().getSimpleName() + ": " + t.getMessage();
    }
}
