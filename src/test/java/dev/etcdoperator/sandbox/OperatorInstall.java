package dev.etcdoperator.sandbox;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;

/**
 * What the Helm chart gives the operator on a cluster, rendered by Helm's own code (helm-java) and applied to the
 * sandbox's API server: its namespace, ServiceAccount, (Cluster)Roles and bindings. The operator then runs as that
 * ServiceAccount with the environment of the chart's Deployment, so a permission the chart lacks fails in the
 * sandbox as it would on a cluster, and with the JVM options the image's launcher derives from that environment and
 * the container's memory limit ({@link ImageJavaOptions}), so it is sized as in the pod. The Deployment itself is
 * not applied: the operator runs as a local process.
 */
record OperatorInstall(String namespace, String serviceAccount, String podName, Map<String, String> env,
        List<String> jvmOptions) {
    static final Path CHART = Path.of("helm", "etcd-operator");
    static final String RELEASE = "etcd";
    static final String NAMESPACE = "etcd-operator";
    /** The kinds of the chart that set up identity and permissions. */
    private static final Set<String> APPLIED = Set.of("ServiceAccount", "ClusterRole", "ClusterRoleBinding", "Role",
            "RoleBinding");
    private static final KubernetesSerialization YAML = new KubernetesSerialization();

    /** Renders the chart with {@code values} (YAML) and applies its RBAC objects. */
    static OperatorInstall apply(KubernetesClient admin, String values) {
        List<HasMetadata> objects = render(values);
        admin.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(NAMESPACE).endMetadata().build())
                .createOr(existing -> existing.update());
        for (HasMetadata object : objects) {
            if (APPLIED.contains(object.getKind())) {
                if (object.getMetadata().getNamespace() == null && !object.getKind().startsWith("Cluster")) {
                    object.getMetadata().setNamespace(NAMESPACE);
                }
                admin.resource(object).createOr(existing -> existing.update());
            }
        }
        String serviceAccount = objects.stream().filter(ServiceAccount.class::isInstance).findFirst()
                .orElseThrow(() -> new IllegalStateException("the chart renders no ServiceAccount"))
                .getMetadata().getName();
        Deployment deployment = objects.stream().filter(Deployment.class::isInstance).map(Deployment.class::cast)
                .findFirst().orElseThrow(() -> new IllegalStateException("the chart renders no Deployment"));
        String podName = deployment.getMetadata().getName() + "-sandbox";
        Map<String, String> env = new LinkedHashMap<>();
        Container container = deployment.getSpec().getTemplate().getSpec().getContainers().get(0);
        for (EnvVar var : container.getEnv()) {
            if (var.getValue() != null) {
                env.put(var.getName(), var.getValue());
            } else if (var.getValueFrom() != null && var.getValueFrom().getFieldRef() != null) {
                String field = var.getValueFrom().getFieldRef().getFieldPath();
                env.put(var.getName(), switch (field) {
                    case "metadata.namespace" -> NAMESPACE;
                    case "metadata.name" -> podName;
                    // the operator process runs on the host, which every sandbox pod reaches at 127.0.0.1
                    case "status.podIP" -> "127.0.0.1";
                    default -> throw new IllegalStateException("the chart's Deployment reads " + field
                            + ", which the sandbox does not provide to the operator process");
                });
            }
        }
        Quantity memoryLimit = Optional.ofNullable(container.getResources()).map(ResourceRequirements::getLimits)
                .map(limits -> limits.get("memory")).orElse(null);
        long limitBytes = memoryLimit == null ? 0 : Quantity.getAmountInBytes(memoryLimit).longValueExact();
        return new OperatorInstall(NAMESPACE, serviceAccount, podName, env,
                ImageJavaOptions.of(ImageJavaOptions.environment(env), limitBytes));
    }

    private static List<HasMetadata> render(String values) {
        String out = ChartTemplate.render(CHART, RELEASE, NAMESPACE, values);
        return Arrays.stream(out.split("(?m)^---\\s*$"))
                .filter(doc -> doc.lines().anyMatch(l -> l.startsWith("kind:")))
                .map(doc -> (HasMetadata) YAML.unmarshal(doc))
                .toList();
    }
}
