package dev.etcdoperator.sandbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import dev.etcdoperator.api.v1beta2.EtcdCluster;
import dev.etcdoperator.api.v1beta2.EtcdClusterStatus;
import dev.etcdoperator.sandbox.support.PrometheusText;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * The operator's metrics as Prometheus scrapes them from the packaged operator's {@code /q/metrics}, while one
 * cluster is created, scaled, loses a member, outlives an operator restart and is deleted; a second, small
 * cluster shows that each cluster's series are its own.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class MetricsIT {
    static final String NS = "default";
    static final String NAME = "metered";
    static final String OTHER = "solo";
    static final Duration CONVERGE = Duration.ofSeconds(150);
    static final Duration SCRAPE = Duration.ofSeconds(20);
    static Sandbox sandbox;

    @BeforeAll
    static void start() {
        sandbox = Sandbox.start(Sandbox.options().stateDir(Path.of("target", "sandbox-metrics-it"))
                .operatorProperty("etcd-operator.cluster.reconcile-interval", "4s"));
    }

    @AfterAll
    static void stop() {
        if (sandbox != null) {
            sandbox.close();
        }
    }

    @Test
    @Order(1)
    void aNewClusterShowsThreeHealthyMembersQuorumALeaderAndThreeAdditions() {
        create(NAME, 3);
        create(OTHER, 1);
        awaitConverged(NAME, 3);
        awaitConverged(OTHER, 1);
        await().atMost(SCRAPE).untilAsserted(() -> {
            PrometheusText m = scrape();
            assertMembers(m, NAME, 3);
            assertThat(m.value("etcd_operator_cluster_member_additions_total", tags(NAME))).isEqualTo(3);
            assertThat(m.value("etcd_operator_cluster_member_removals_total", tags(NAME))).isZero();
            assertThat(m.value("etcd_operator_cluster_member_replacements_total", tags(NAME))).isZero();
            assertThat(m.value("etcd_operator_cluster_member_upgrades_total", tags(NAME))).isZero();
            assertMembers(m, OTHER, 1);
            assertThat(m.value("etcd_operator_cluster_member_additions_total", tags(OTHER))).isEqualTo(1);
        });
    }

    @Test
    @Order(2)
    void scalingToFiveAndBackCountsTwoMoreAdditionsAndTwoRemovals() {
        setSize(NAME, 5);
        awaitConverged(NAME, 5);
        await().atMost(SCRAPE).untilAsserted(() -> {
            PrometheusText m = scrape();
            assertMembers(m, NAME, 5);
            assertThat(m.value("etcd_operator_cluster_member_additions_total", tags(NAME))).isEqualTo(5);
        });
        setSize(NAME, 3);
        awaitConverged(NAME, 3);
        await().atMost(SCRAPE).untilAsserted(() -> {
            PrometheusText m = scrape();
            assertMembers(m, NAME, 3);
            assertThat(m.value("etcd_operator_cluster_member_removals_total", tags(NAME))).isEqualTo(2);
            assertThat(m.value("etcd_operator_cluster_member_additions_total", tags(NAME))).isEqualTo(5);
        });
    }

    @Test
    @Order(3)
    void aLostMemberIsCountedAsReplacedAndTheClusterIsHealthyAgain() {
        Pod victim = pods(NAME).get(0);
        // its pod gone with its data (a killed etcd would be started again in its pod, and count as nothing)
        client().pods().inNamespace(NS).withName(victim.getMetadata().getName()).withGracePeriod(0).delete();
        await().atMost(CONVERGE).until(() -> pods(NAME).stream()
                .noneMatch(p -> p.getMetadata().getName().equals(victim.getMetadata().getName())));
        awaitConverged(NAME, 3);
        await().atMost(SCRAPE).untilAsserted(() -> {
            PrometheusText m = scrape();
            assertMembers(m, NAME, 3);
            assertThat(m.value("etcd_operator_cluster_member_replacements_total", tags(NAME))).isEqualTo(1);
            assertThat(m.value("etcd_operator_cluster_member_removals_total", tags(NAME))).isEqualTo(2);
            assertThat(m.value("etcd_operator_cluster_member_additions_total", tags(NAME))).isEqualTo(6);
        });
    }

    @Test
    @Order(4)
    void theSdkReconcileMetricsNameTheClusterController() {
        PrometheusText m = scrape();
        String[] controller = { "controller_name", "etcdcluster" };
        assertThat(m.series("reconciliations_started_total", controller))
                .isNotEmpty().allSatisfy(s -> assertThat(s.value()).isPositive());
        assertThat(m.series("reconciliations_success_total", controller))
                .isNotEmpty().allSatisfy(s -> assertThat(s.value()).isPositive());
        assertThat(m.series("reconciliations_execution_duration_seconds_count", controller))
                .isNotEmpty().allSatisfy(s -> assertThat(s.value()).isPositive());
    }

    @Test
    @Order(5)
    void afterAnOperatorRestartEachSeriesIsThereOnceAndCountersStartAgain() {
        sandbox.operator().kill();
        sandbox.startOperator();
        await().atMost(SCRAPE.multipliedBy(2)).untilAsserted(() -> {
            PrometheusText m = scrape();
            assertMembers(m, NAME, 3);
            assertMembers(m, OTHER, 1);
            assertThat(m.value("etcd_operator_cluster_member_additions_total", tags(NAME))).isZero();
        });
    }

    @Test
    @Order(6)
    void deletingAClusterRemovesItsSeriesAndOnlyItsSeries() {
        // no finalizer: deletion never waits for the operator
        assertThat(client().resources(EtcdCluster.class).inNamespace(NS).withName(NAME).get().getMetadata()
                .getFinalizers()).isEmpty();
        client().resources(EtcdCluster.class).inNamespace(NS).withName(NAME).delete();
        await().atMost(CONVERGE).untilAsserted(() -> {
            assertThat(client().resources(EtcdCluster.class).inNamespace(NS).withName(NAME).get()).isNull();
            assertThat(pods(NAME)).isEmpty();
            PrometheusText m = scrape();
            assertThat(m.labelled("namespace", NS, "etcd_cluster", NAME))
                    .filteredOn(s -> s.name().startsWith("etcd_operator_")).isEmpty();
            assertMembers(m, OTHER, 1);
        });
    }

    // ---- helpers ----

    static KubernetesClient client() {
        return sandbox.client();
    }

    static String[] tags(String cluster) {
        return new String[] { "namespace", NS, "etcd_cluster", cluster };
    }

    static String[] tags(String cluster, String key, String value) {
        return new String[] { "namespace", NS, "etcd_cluster", cluster, key, value };
    }

    /** {@code size} healthy voters, no other member, quorum and a leader: each series exactly once. */
    static void assertMembers(PrometheusText m, String cluster, int size) {
        assertThat(m.series("etcd_operator_cluster_members", tags(cluster))).hasSize(3);
        assertThat(m.value("etcd_operator_cluster_members", tags(cluster, "state", "healthy"))).isEqualTo(size);
        assertThat(m.value("etcd_operator_cluster_members", tags(cluster, "state", "unhealthy"))).isZero();
        assertThat(m.value("etcd_operator_cluster_members", tags(cluster, "state", "learner"))).isZero();
        assertThat(m.value("etcd_operator_cluster_desired_members", tags(cluster))).isEqualTo(size);
        assertThat(m.value("etcd_operator_cluster_ready_members", tags(cluster))).isEqualTo(size);
        assertThat(m.value("etcd_operator_cluster_quorum", tags(cluster))).isEqualTo(1);
        assertThat(m.value("etcd_operator_cluster_has_leader", tags(cluster))).isEqualTo(1);
    }

    /** The operator's /q/metrics, parsed; the text of the last scrape is kept next to the operator's log. */
    static PrometheusText scrape() {
        var response = sandbox.operator().get("/q/metrics");
        assertThat(response.statusCode()).isEqualTo(200);
        try {
            Files.writeString(sandbox.stateDir().resolve("last-scrape.txt"), response.body());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return PrometheusText.parse(response.body());
    }

    static void create(String name, int size) {
        client().resource(Serialization.unmarshal("""
                apiVersion: etcd.database.coreos.com/v1beta2
                kind: EtcdCluster
                metadata: {name: %s, namespace: %s}
                spec: {size: %d, version: 3.5.35}
                """.formatted(name, NS, size), EtcdCluster.class)).create();
    }

    static void setSize(String name, int size) {
        Edits.edit(client().resources(EtcdCluster.class).inNamespace(NS).withName(name), c -> {
            c.getSpec().setSize(size);
            return c;
        });
    }

    /** Available, {@code size} voting healthy members, each with a ready pod, and no other pod. */
    static void awaitConverged(String name, int size) {
        await().atMost(CONVERGE).pollInterval(Duration.ofMillis(500)).untilAsserted(() -> {
            EtcdCluster c = client().resources(EtcdCluster.class).inNamespace(NS).withName(name).get();
            EtcdClusterStatus s = c.getStatus() == null ? new EtcdClusterStatus() : c.getStatus();
            assertThat(s.getConditions()).anySatisfy(cond -> {
                assertThat(cond.getType()).isEqualTo("Available");
                assertThat(cond.getStatus()).isEqualTo("True");
            });
            assertThat(s.getMemberDetails()).hasSize(size)
                    .allSatisfy(d -> assertThat(d.getHealthy() && !d.getLearner()).isTrue());
            assertThat(s.getReadyMembers()).isEqualTo(size);
            assertThat(pods(name)).hasSize(size);
        });
    }

    static List<Pod> pods(String name) {
        return client().pods().inNamespace(NS).withLabel("etcd_cluster", name).list().getItems();
    }
}
