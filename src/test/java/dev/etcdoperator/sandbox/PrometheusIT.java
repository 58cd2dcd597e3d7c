package dev.etcdoperator.sandbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

import com.fasterxml.jackson.databind.JsonNode;
import dev.etcdoperator.api.v1beta2.EtcdCluster;
import dev.etcdoperator.sandbox.support.HostProgram;
import dev.etcdoperator.sandbox.support.PrometheusServer;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * A real Prometheus scrapes the packaged operator on the sandbox, as the chart's ServiceMonitor has it scraped (the
 * target labelled with the operator's namespace, {@code honor_labels}), and evaluates the chart's alert rules
 * against the real series. The clusters live in a namespace that enforces the {@code restricted} Pod Security
 * Standard, so the API server itself checks the member pods; each member serves etcd's own metrics.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class PrometheusIT {
    static final String NS = "restricted";
    static final String NAME = "watched";
    static final Duration CONVERGE = Duration.ofSeconds(150);
    static final Path RULES = Path.of("helm", "etcd-operator", "files", "prometheus-rules.yaml").toAbsolutePath();
    static Sandbox sandbox;
    static PrometheusServer prometheus;

    @BeforeAll
    static void start() throws Exception {
        Optional<HostProgram> program = HostProgram.find("prometheus");
        assumeTrue(program.isPresent(),
                "prometheus is not installed (Debian package prometheus): the scrape and rule evaluation are skipped");
        sandbox = Sandbox.start(Sandbox.options().stateDir(Path.of("target", "sandbox-prometheus-it"))
                .operatorProperty("etcd-operator.cluster.reconcile-interval", "2s"));
        prometheus = PrometheusServer.start(program.get(), sandbox.stateDir().resolve("prometheus"), """
                global:
                  scrape_interval: 1s
                  evaluation_interval: 1s
                  external_labels: {cluster: sandbox}
                rule_files: ["%s"]
                scrape_configs:
                  - job_name: etcd-operator
                    metrics_path: /q/metrics
                    honor_labels: true
                    static_configs:
                      - targets: ["%s"]
                        labels: {namespace: %s}
                """.formatted(RULES, URI.create(sandbox.operator().url()).getAuthority(), sandbox.operatorNamespace()));
        client().namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(NS)
                .addToLabels("pod-security.kubernetes.io/enforce", "restricted")
                .addToLabels("pod-security.kubernetes.io/enforce-version", "latest")
                .endMetadata().build()).create();
    }

    @AfterAll
    static void stop() {
        try {
            if (prometheus != null) {
                prometheus.close();
            }
        } finally {
            if (sandbox != null) {
                sandbox.close();
            }
        }
    }

    @Test
    @Order(1)
    void membersPassTheRestrictedPodSecurityStandardOnTheRealApiServer() {
        // the namespace does enforce it
        assertThatThrownBy(() -> client().pods().inNamespace(NS).resource(new PodBuilder().withNewMetadata()
                .withName("privileged").endMetadata().withNewSpec().addNewContainer().withName("c")
                .withImage("busybox:1.36").withNewSecurityContext().withPrivileged(true).endSecurityContext()
                .endContainer().endSpec().build()).create()).hasMessageContaining("violates PodSecurity");
        create(NAME, 3, "3.5.35");
        create("old", 1, "3.4.23");
        create("new", 1, "3.6.16");
        awaitReady(NAME, 3);
        awaitReady("old", 1);
        awaitReady("new", 1);
        assertThat(pods(NAME)).allSatisfy(pod -> {
            assertThat(pod.getSpec().getSecurityContext().getRunAsNonRoot()).isTrue();
            assertThat(pod.getSpec().getContainers().get(0).getSecurityContext().getCapabilities().getDrop())
                    .containsExactly("ALL");
        });
    }

    @Test
    @Order(2)
    void everyMemberServesEtcdsOwnMetricsOnItsAddress() {
        for (String cluster : List.of(NAME, "old", "new")) {
            for (Pod pod : pods(cluster)) {
                await().atMost(Duration.ofSeconds(30)).ignoreExceptions().untilAsserted(() -> {
                    HttpResponse<String> metrics = HttpClient.newHttpClient().send(
                            HttpRequest.newBuilder(URI.create("http://" + pod.getStatus().getPodIP() + ":2381/metrics"))
                                    .timeout(Duration.ofSeconds(5)).build(),
                            HttpResponse.BodyHandlers.ofString());
                    assertThat(metrics.statusCode()).isEqualTo(200);
                    assertThat(metrics.body()).as(pod.getMetadata().getName()).contains("etcd_server_has_leader 1");
                });
            }
        }
    }

    @Test
    @Order(3)
    void prometheusKeepsTheClustersNamespaceAndEvaluatesEveryRule() {
        await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
            JsonNode quorum = prometheus.query("etcd_operator_cluster_quorum");
            assertThat(quorum).extracting(s -> s.path("metric").path("namespace").asText() + "/"
                    + s.path("metric").path("etcd_cluster").asText())
                    .containsExactlyInAnyOrder(NS + "/" + NAME, NS + "/old", NS + "/new");
            assertThat(quorum).allSatisfy(s -> assertThat(s.path("value").get(1).asText()).isEqualTo("1"));
            assertThat(prometheus.query("count({exported_namespace!=\"\"})")).isEmpty();
        });
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            JsonNode rules = prometheus.api("/api/v1/rules").path("groups").get(0).path("rules");
            assertThat(rules).hasSize(18).allSatisfy(rule -> {
                assertThat(rule.path("health").asText()).as(rule.toString()).isEqualTo("ok");
                assertThat(rule.path("lastEvaluation").asText()).doesNotStartWith("0001");
            });
        });
        assertThat(prometheus.query("ALERTS")).as("alerts of healthy clusters").isEmpty();
    }

    @Test
    @Order(4)
    void aDeadMemberOfAPausedClusterRaisesMemberDownAndQuorumAtRisk() {
        Edits.edit(client().resources(EtcdCluster.class).inNamespace(NS).withName(NAME), c -> {
            c.getSpec().setPaused(true);
            return c;
        });
        Pod victim = pods(NAME).get(0);
        // its pod gone; the cluster is paused, so nothing replaces it (a killed etcd would start again in its pod)
        client().pods().inNamespace(NS).withName(victim.getMetadata().getName()).withGracePeriod(0).delete();
        await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
            JsonNode alerts = prometheus.query("ALERTS{namespace=\"" + NS + "\",etcd_cluster=\"" + NAME + "\"}");
            assertThat(alerts).extracting(a -> a.path("metric").path("alertname").asText())
                    .contains("EtcdMemberDown", "EtcdClusterQuorumAtRisk");
            assertThat(alerts).allSatisfy(a -> assertThat(a.path("metric").path("alertstate").asText())
                    .isEqualTo("pending"));
        });
        assertThat(prometheus.query("ALERTS{etcd_cluster!=\"" + NAME + "\"}")).isEmpty();
    }

    static KubernetesClient client() {
        return sandbox.client();
    }

    static void create(String name, int size, String version) {
        client().resource(Serialization.unmarshal("""
                apiVersion: etcd.database.coreos.com/v1beta2
                kind: EtcdCluster
                metadata: {name: %s, namespace: %s}
                spec: {size: %d, version: %s}
                """.formatted(name, NS, size, version), EtcdCluster.class)).create();
    }

    static void awaitReady(String name, int size) {
        await().atMost(CONVERGE).pollInterval(Duration.ofMillis(500)).untilAsserted(() -> {
            EtcdCluster c = client().resources(EtcdCluster.class).inNamespace(NS).withName(name).get();
            assertThat(c.getStatus()).as(name + " has a status").isNotNull();
            assertThat(c.getStatus().getReadyMembers()).as(name + " ready members").isEqualTo(size);
            assertThat(pods(name)).hasSize(size);
        });
    }

    static List<Pod> pods(String name) {
        return client().pods().inNamespace(NS).withLabel("etcd_cluster", name).list().getItems();
    }
}
