package dev.etcdoperator.helm;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import com.marcnuri.helm.Helm;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;

/** The chart rendered by Helm's own template engine (helm-java), parsed into Kubernetes objects. */
final class RenderedChart {
    static final Path CHART = Path.of("helm", "etcd-operator");
    static final String RELEASE = "etcd";
    static final String NAMESPACE = "etcd-system";
    private static final KubernetesSerialization YAML = new KubernetesSerialization();

    final List<HasMetadata> objects;

    private RenderedChart(List<HasMetadata> objects) {
        this.objects = objects;
    }

    /** Renders with the chart's values.yaml overridden by {@code values} (YAML); empty for the defaults. */
    static RenderedChart render(String values) throws IOException {
        return render(CHART, values);
    }

    static RenderedChart render(Path chart, String values) throws IOException {
        Path file = Files.createTempFile("values", ".yaml");
        try {
            Files.writeString(file, values);
            String out = new Helm(chart).template().withName(RELEASE).withNamespace(NAMESPACE)
                    .withValuesFile(file).call();
            return new RenderedChart(Arrays.stream(out.split("(?m)^---\\s*$"))
                    .filter(doc -> doc.lines().anyMatch(l -> l.startsWith("kind:")))
                    .map(doc -> (HasMetadata) YAML.unmarshal(doc))
                    .toList());
        } finally {
            Files.deleteIfExists(file);
        }
    }

    <T extends HasMetadata> List<T> all(Class<T> type) {
        return objects.stream().filter(type::isInstance).map(type::cast).toList();
    }

    List<HasMetadata> ofKind(String kind) {
        return objects.stream().filter(o -> kind.equals(o.getKind())).toList();
    }

    <T extends HasMetadata> T one(Class<T> type) {
        List<T> found = all(type);
        if (found.size() != 1) {
            throw new AssertionError("expected one " + type.getSimpleName() + ", rendered " + found.size());
        }
        return found.get(0);
    }

    Deployment deployment() {
        return one(Deployment.class);
    }

    Map<String, String> env() {
        return deployment().getSpec().getTemplate().getSpec().getContainers().get(0).getEnv().stream()
                .filter(e -> e.getValue() != null)
                .collect(java.util.stream.Collectors.toMap(e -> e.getName(), e -> e.getValue()));
    }

    Optional<String> fieldRef(String envName) {
        return deployment().getSpec().getTemplate().getSpec().getContainers().get(0).getEnv().stream()
                .filter(e -> envName.equals(e.getName()) && e.getValueFrom() != null)
                .map(e -> e.getValueFrom().getFieldRef().getFieldPath()).findFirst();
    }
}
