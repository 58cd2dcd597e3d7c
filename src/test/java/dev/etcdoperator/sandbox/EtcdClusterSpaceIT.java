package dev.etcdoperator.sandbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import dev.etcdoperator.api.v1beta2.Condition;
import dev.etcdoperator.api.v1beta2.EtcdCluster;
import dev.etcdoperator.api.v1beta2.EtcdClusterStatus;
import dev.etcdoperator.api.v1beta2.MemberDetail;
import dev.etcdoperator.sandbox.support.PrometheusText;
import dev.etcdoperator.sandbox.support.SandboxClusters;
import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Database space on the sandbox with real etcd: a 3-member cluster with a 4 MiB quota is filled until etcd refuses
 * writes with its NOSPACE alarm; the operator shows it, compacts, defragments each member and disarms the alarm,
 * and the cluster takes writes again.
 */
class EtcdClusterSpaceIT {
    static final String NS = "default";
    static final String NAME = "space";
    static final long QUOTA = 4L << 20;
    static Sandbox sandbox;
    static SandboxClusters clusters;

    @BeforeAll
    static void start() {
        sandbox = Sandbox.start(Sandbox.options().stateDir(Path.of("target", "sandbox-space-it")).withoutS3()
                .operatorProperty("etcd-operator.cluster.reconcile-interval", "4s"));
        clusters = new SandboxClusters(sandbox.client(), NS);
    }

    @AfterAll
    static void stop() {
        if (sandbox != null) {
            sandbox.close();
        }
    }

    @Test
    void aFullClusterIsCompactedDefragmentedAndDisarmedAndTakesWritesAgain() throws Exception {
        sandbox.client().resource(Serialization.unmarshal("""
                apiVersion: etcd.database.coreos.com/v1beta2
                kind: EtcdCluster
                metadata: {name: %s, namespace: %s}
                spec: {size: 3, version: 3.5.35, etcd: {quotaBackendBytes: %d}}
                """.formatted(NAME, NS, QUOTA), EtcdCluster.class)).create();
        clusters.awaitConverged(NAME, 3);
        assertThat(clusters.pods(NAME)).allSatisfy(p -> assertThat(p.getSpec().getContainers().get(0).getCommand())
                .contains("--quota-backend-bytes=" + QUOTA));

        try (Client etcd = Client.builder().endpoints(clusters.endpointList(NAME).toArray(String[]::new)).build()) {
            byte[] value = new byte[256 * 1024];
            boolean refused = false;
            for (int i = 0; i < 64 && !refused; i++) {
                value[0] = (byte) i;
                try {
                    put(etcd, value);
                } catch (Exception e) {
                    assertThat(e).hasStackTraceContaining("database space exceeded");
                    refused = true;
                }
            }
            assertThat(refused).as("etcd refused a write for space").isTrue();

            await().atMost(SandboxClusters.CONVERGE).pollInterval(Duration.ofMillis(500)).untilAsserted(() -> {
                Condition space = condition(clusters.status(NAME), "OutOfSpace");
                assertThat(space.getStatus()).as(space.getMessage()).isEqualTo("False");
                assertThat(space.getReason()).isEqualTo("NoSpaceAlarmDisarmed");
            });
            put(etcd, value);
        }

        EtcdClusterStatus status = clusters.awaitConverged(NAME, 3);
        assertThat(condition(status, "OutOfSpace").getMessage()).contains("below the quota of " + QUOTA);
        assertThat(condition(status, "Ready").getStatus()).isEqualTo("True");
        List<Event> events = clusters.events(NAME);
        assertThat(events).filteredOn(e -> e.getReason().equals("NoSpaceAlarm")).singleElement()
                .satisfies(e -> {
                    assertThat(e.getType()).isEqualTo("Warning");
                    assertThat(e.getMessage()).contains("NOSPACE alarm is raised", "refuses writes");
                });
        assertThat(events).extracting(Event::getReason).contains("KeyspaceCompacted", "NoSpaceAlarmDisarmed");
        List<Event> defragmented = events.stream().filter(e -> e.getReason().equals("MemberDefragmented")).toList();
        List<String> members = status.getMemberDetails().stream().map(MemberDetail::getName).toList();
        assertThat(defragmented).hasSizeGreaterThanOrEqualTo(3);
        for (String member : members) {
            assertThat(defragmented).as(member).anyMatch(e -> e.getMessage().contains(" " + member + ": "));
        }
        assertThat(defragmented).anyMatch(e -> e.getMessage().contains("the leader "));

        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            PrometheusText m = scrape();
            for (String member : members) {
                String[] labels = { "namespace", NS, "etcd_cluster", NAME, "member", member };
                assertThat(m.value("etcd_operator_cluster_member_db_size_bytes", labels)).as(member)
                        .isPositive().isLessThan(QUOTA);
                assertThat(m.value("etcd_operator_cluster_member_db_size_in_use_bytes", labels)).isPositive();
                assertThat(m.value("etcd_operator_cluster_member_db_fragmented_bytes", labels)).isNotNegative();
                assertThat(m.value("etcd_operator_cluster_member_raft_index", labels)).isPositive();
                assertThat(m.value("etcd_operator_cluster_member_alarm", "namespace", NS, "etcd_cluster", NAME,
                        "member", member, "alarm", "NOSPACE")).isZero();
            }
            assertThat(m.value("etcd_operator_cluster_quota_backend_bytes", "namespace", NS, "etcd_cluster", NAME))
                    .isEqualTo(QUOTA);
            assertThat(m.value("etcd_operator_cluster_compactions_total", "namespace", NS, "etcd_cluster", NAME))
                    .isGreaterThanOrEqualTo(1);
            assertThat(m.value("etcd_operator_cluster_member_defragmentations_total", "namespace", NS,
                    "etcd_cluster", NAME, "reason", "NoSpace")).isGreaterThanOrEqualTo(3);
            assertThat(m.value("etcd_operator_cluster_member_defragmentations_total", "namespace", NS,
                    "etcd_cluster", NAME, "reason", "Fragmented")).isZero();
            assertThat(m.value("etcd_operator_cluster_alarm_disarms_total", "namespace", NS, "etcd_cluster", NAME))
                    .isEqualTo(1);
        });
    }

    private static void put(Client etcd, byte[] value) throws Exception {
        etcd.getKVClient().put(ByteSequence.from("filler", StandardCharsets.UTF_8), ByteSequence.from(value))
                .get(10, TimeUnit.SECONDS);
    }

    private static Condition condition(EtcdClusterStatus status, String type) {
        return status.getConditions().stream().filter(c -> c.getType().equals(type)).findFirst()
                .orElseThrow(() -> new AssertionError("no condition " + type + " in " + status.getConditions()));
    }

    private static PrometheusText scrape() throws Exception {
        var response = sandbox.operator().get("/q/metrics");
        assertThat(response.statusCode()).isEqualTo(200);
        Files.writeString(sandbox.stateDir().resolve("last-scrape.txt"), response.body());
        return PrometheusText.parse(response.body());
    }
}
