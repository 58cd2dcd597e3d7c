package dev.etcdoperator.sandbox.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;

import dev.etcdoperator.api.v1beta2.EtcdCluster;
import dev.etcdoperator.api.v1beta2.EtcdClusterStatus;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;

/** What sandbox tests do with EtcdClusters and their pods, in one namespace. */
public final class SandboxClusters {
    public static final Duration CONVERGE = Duration.ofSeconds(150);

    private final KubernetesClient client;
    private final String namespace;

    public SandboxClusters(KubernetesClient client, String namespace) {
        this.client = client;
        this.namespace = namespace;
    }

    public void create(String name, int size, String version) {
        client.resource(Serialization.unmarshal("""
                apiVersion: etcd.database.coreos.com/v1beta2
                kind: EtcdCluster
                metadata: {name: %s, namespace: %s}
                spec: {size: %d, version: %s}
                """.formatted(name, namespace, size, version), EtcdCluster.class)).create();
    }

    public EtcdClusterStatus status(String name) {
        EtcdCluster c = client.resources(EtcdCluster.class).inNamespace(namespace).withName(name).get();
        return c == null || c.getStatus() == null ? new EtcdClusterStatus() : c.getStatus();
    }

    /** Available, {@code size} voting healthy members, each with a ready pod, and no other pod. */
    public EtcdClusterStatus awaitConverged(String name, int size) {
        await().atMost(CONVERGE).pollInterval(Duration.ofMillis(500)).untilAsserted(() -> {
            EtcdClusterStatus s = status(name);
            assertThat(s.getConditions()).anySatisfy(c -> {
                assertThat(c.getType()).isEqualTo("Available");
                assertThat(c.getStatus()).isEqualTo("True");
            });
            assertThat(s.getMemberDetails()).hasSize(size)
                    .allSatisfy(m -> assertThat(m.getHealthy() && !m.getLearner()).isTrue());
            assertThat(s.getReadyMembers()).isEqualTo(size);
            assertThat(pods(name)).hasSize(size);
        });
        return status(name);
    }

    public List<Pod> pods(String name) {
        return client.pods().inNamespace(namespace).withLabel("etcd_cluster", name).list().getItems();
    }

    /** The client URLs of the ready member pods, by pod IP. */
    public List<String> endpointList(String name) {
        return pods(name).stream().filter(p -> p.getStatus() != null && p.getStatus().getPodIP() != null)
                .filter(p -> p.getStatus().getConditions() != null && p.getStatus().getConditions().stream()
                        .anyMatch(c -> c.getType().equals("Ready") && c.getStatus().equals("True")))
                .map(p -> "http://" + p.getStatus().getPodIP() + ":2379").toList();
    }

    public String endpoints(String name) {
        return String.join(",", endpointList(name));
    }

    /** Events about the object of that name (any kind). */
    public List<Event> events(String name) {
        return client.v1().events().inNamespace(namespace).list().getItems().stream()
                .filter(e -> name.equals(e.getInvolvedObject().getName())).toList();
    }

    /**
     * Loses the member of {@code pod} for good: its pod deleted at once, as when a node is gone and a person forces
     * it; without a claim its data goes with it. (A killed etcd is started again in its pod, on its data.)
     */
    public void loseForGood(Pod pod) {
        client.pods().inNamespace(namespace).withName(pod.getMetadata().getName()).withGracePeriod(0).delete();
    }

    /** How often the pod's containers were started again in it. */
    public static int restarts(Pod pod) {
        return pod.getStatus() == null || pod.getStatus().getContainerStatuses() == null ? 0
                : pod.getStatus().getContainerStatuses().stream().mapToInt(c -> c.getRestartCount()).sum();
    }

    /** The killed member's etcd was started again in its pod, or the pod is gone (replaced). */
    public boolean startedAgainOrGone(Pod killed) {
        Pod now = pods(killed.getMetadata().getLabels().get("etcd_cluster")).stream()
                .filter(p -> p.getMetadata().getUid().equals(killed.getMetadata().getUid())).findFirst().orElse(null);
        return now == null || restarts(now) > restarts(killed);
    }

    /** The host process id of the pod's first container. */
    public static long pid(Pod pod) {
        return Long.parseLong(pod.getStatus().getContainerStatuses().get(0).getContainerID()
                .replace("sandbox://", ""));
    }
}
