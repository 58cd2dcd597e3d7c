package dev.etcdoperator.sandbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import dev.etcdoperator.api.v1beta2.Condition;
import dev.etcdoperator.api.v1beta2.Defragmentation;
import dev.etcdoperator.api.v1beta2.EtcdCluster;
import dev.etcdoperator.api.v1beta2.EtcdClusterStatus;
import dev.etcdoperator.api.v1beta2.EtcdSettings;
import dev.etcdoperator.api.v1beta2.MemberDetail;
import dev.etcdoperator.sandbox.support.ContinuousWriter;
import dev.etcdoperator.sandbox.support.Etcdctl;
import dev.etcdoperator.sandbox.support.PrometheusText;
import dev.etcdoperator.sandbox.support.SandboxClusters;
import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.op.Op;
import io.etcd.jetcd.options.CompactOption;
import io.etcd.jetcd.options.DeleteOption;
import io.etcd.jetcd.options.PutOption;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Routine defragmentation on the sandbox with real etcd: a 3-member cluster is fragmented (many keys written, deleted
 * and compacted away), then {@code spec.etcd.defragmentation} is set with a low threshold while a client keeps
 * writing. Each member is defragmented once, the leader last, its free space is given back, and no acknowledged
 * write is lost. Then a schedule replaces the thresholds: a round defragments every member, the leader last, again
 * under a writer.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class EtcdClusterDefragmentationIT {
    static final String NS = "default";
    static final String NAME = "defrag";
    static final long MIB = 1L << 20;
    static final int BATCHES = 32;
    static final int KEYS_PER_BATCH = 128;
    static Sandbox sandbox;
    static SandboxClusters clusters;

    @BeforeAll
    static void start() {
        sandbox = Sandbox.start(Sandbox.options().stateDir(Path.of("target", "sandbox-defrag-it")).withoutS3()
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
    @Order(1)
    void eachFragmentedMemberIsDefragmentedOnceTheLeaderLastWhileWritesGoOn() throws Exception {
        sandbox.client().resource(Serialization.unmarshal("""
                apiVersion: etcd.database.coreos.com/v1beta2
                kind: EtcdCluster
                metadata: {name: %s, namespace: %s}
                spec: {size: 3, version: 3.5.35}
                """.formatted(NAME, NS), EtcdCluster.class)).create();
        clusters.awaitConverged(NAME, 3);
        fragment();

        List<String> members = clusters.status(NAME).getMemberDetails().stream().map(MemberDetail::getName).toList();
        Map<String, Double> before = new HashMap<>();
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofSeconds(1)).untilAsserted(() -> {
            PrometheusText m = scrape();
            for (String member : members) {
                double fragmented = m.value("etcd_operator_cluster_member_db_fragmented_bytes", "namespace", NS,
                        "etcd_cluster", NAME, "member", member);
                assertThat(fragmented).as(member).isGreaterThan(8.0 * MIB);
                before.put(member, fragmented);
            }
        });
        assertThat(clusters.events(NAME)).as("off by default").noneMatch(e -> e.getReason().equals("MemberDefragmented"));

        Duration stall;
        Set<String> acknowledged;
        try (ContinuousWriter writer = new ContinuousWriter("w-", () -> clusters.endpointList(NAME))) {
            await().atMost(Duration.ofSeconds(30)).until(() -> writer.acknowledgedCount() > 10);
            writer.takeLongestStall();
            Edits.edit(sandbox.client().resources(EtcdCluster.class).inNamespace(NS).withName(NAME), c -> {
                Defragmentation d = new Defragmentation();
                d.setMinFragmentedBytes(MIB);
                d.setMinFragmentedPercent(20);
                if (c.getSpec().getEtcd() == null) {
                    c.getSpec().setEtcd(new EtcdSettings());
                }
                c.getSpec().getEtcd().setDefragmentation(d);
                return c;
            });
            await().atMost(SandboxClusters.CONVERGE).pollInterval(Duration.ofMillis(500)).untilAsserted(() -> {
                assertThat(defragmented()).hasSize(3);
                Condition c = condition(clusters.status(NAME), "Defragmenting");
                assertThat(c.getReason()).as(c.getMessage()).isEqualTo("NoMemberFragmented");
            });
            int ackedBefore = writer.acknowledgedCount();
            await().atMost(Duration.ofSeconds(30)).until(() -> writer.acknowledgedCount() > ackedBefore + 10);
            writer.close();
            stall = writer.takeLongestStall();
            acknowledged = writer.acknowledged();
            System.out.printf("defragmentation of 3 members under a continuous writer: %d writes acknowledged,"
                    + " %d failed, longest stall %d ms%n", acknowledged.size(), writer.failures(), stall.toMillis());
        }

        String keys = new Etcdctl(clusters.endpoints(NAME)).run("get", "w-", "--prefix", "--keys-only").output();
        Set<String> present = Arrays.stream(keys.split("\n")).map(String::strip).filter(k -> !k.isEmpty())
                .collect(Collectors.toSet());
        assertThat(present).as("every acknowledged write").containsAll(acknowledged);

        List<Event> events = defragmented();
        for (String member : members) {
            assertThat(events).as(member).filteredOn(e -> e.getMessage().contains(" " + member + ": ")).singleElement()
                    .satisfies(e -> assertThat(e.getCount()).isIn(null, 1));
        }
        assertThat(events.subList(0, 2)).allSatisfy(e -> assertThat(e.getMessage()).startsWith("Defragmented member "));
        assertThat(events.get(2).getMessage()).as("the leader last").startsWith("Defragmented the leader ");
        assertThat(events).allSatisfy(e -> {
            assertThat(e.getType()).isEqualTo("Normal");
            assertThat(e.getMessage()).contains("went from ", "past spec.etcd.defragmentation's threshold");
        });
        EtcdClusterStatus status = clusters.awaitConverged(NAME, 3);
        assertThat(condition(status, "Ready").getStatus()).isEqualTo("True");

        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            PrometheusText m = scrape();
            for (String member : members) {
                assertThat(m.value("etcd_operator_cluster_member_db_fragmented_bytes", "namespace", NS,
                        "etcd_cluster", NAME, "member", member)).as(member).isLessThan(before.get(member))
                        .isLessThan(MIB);
            }
            assertThat(m.value("etcd_operator_cluster_member_defragmentations_total", "namespace", NS,
                    "etcd_cluster", NAME, "reason", "Fragmented")).isEqualTo(3);
            assertThat(m.value("etcd_operator_cluster_member_defragmentations_total", "namespace", NS,
                    "etcd_cluster", NAME, "reason", "NoSpace")).isZero();
        });
    }

    @Test
    @Order(2)
    void onAScheduleARoundDefragmentsEveryMemberTheLeaderLastWhileWritesGoOn() throws Exception {
        List<String> members = clusters.status(NAME).getMemberDetails().stream().map(MemberDetail::getName).toList();
        Duration stall;
        Set<String> acknowledged;
        EtcdClusterStatus status;
        try (ContinuousWriter writer = new ContinuousWriter("s-", () -> clusters.endpointList(NAME))) {
            await().atMost(Duration.ofSeconds(30)).until(() -> writer.acknowledgedCount() > 10);
            writer.takeLongestStall();
            Edits.edit(sandbox.client().resources(EtcdCluster.class).inNamespace(NS).withName(NAME), c -> {
                Defragmentation d = new Defragmentation();
                d.setSchedule("* * * * *");
                c.getSpec().getEtcd().setDefragmentation(d);
                return c;
            });
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(clusters.status(NAME)
                    .getDefragmentation()).isNotNull().satisfies(d -> {
                        assertThat(d.getSchedule()).isEqualTo("* * * * *");
                        assertThat(d.getNextRoundTime()).isNotNull();
                    }));
            status = await().atMost(Duration.ofSeconds(150)).pollInterval(Duration.ofMillis(500))
                    .until(() -> clusters.status(NAME), s -> s.getDefragmentation().getLastRoundCompletionTime() != null);
            int ackedBefore = writer.acknowledgedCount();
            await().atMost(Duration.ofSeconds(30)).until(() -> writer.acknowledgedCount() > ackedBefore + 10);
            writer.close();
            stall = writer.takeLongestStall();
            acknowledged = writer.acknowledged();
            System.out.printf("a scheduled round over 3 members under a continuous writer: %d writes acknowledged,"
                    + " %d failed, longest stall %d ms%n", acknowledged.size(), writer.failures(), stall.toMillis());
        }
        assertThat(status.getDefragmentation().getLastRoundMembers()).containsExactlyInAnyOrderElementsOf(members);
        List<Event> round = defragmented().stream().filter(e -> e.getMessage().contains("in the round")).toList();
        assertThat(round).hasSizeGreaterThanOrEqualTo(3);
        assertThat(round.subList(0, 3)).extracting(e -> e.getMessage().replaceFirst("(?s)^Defragmented (member|the leader) ([^:]+):.*$", "$2"))
                .containsExactlyElementsOf(status.getDefragmentation().getLastRoundMembers());
        assertThat(round.get(2).getMessage()).as("the leader last").startsWith("Defragmented the leader ");
        assertThat(Instant.parse(status.getDefragmentation().getNextRoundTime()))
                .isAfter(Instant.parse(status.getDefragmentation().getLastRoundCompletionTime()));

        String keys = new Etcdctl(clusters.endpoints(NAME)).run("get", "s-", "--prefix", "--keys-only").output();
        Set<String> present = Arrays.stream(keys.split("\n")).map(String::strip).filter(k -> !k.isEmpty())
                .collect(Collectors.toSet());
        assertThat(present).as("every acknowledged write").containsAll(acknowledged);
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(scrape().value(
                "etcd_operator_cluster_member_defragmentations_total", "namespace", NS, "etcd_cluster", NAME,
                "reason", "Scheduled")).isGreaterThanOrEqualTo(3));
    }

    /** Writes 16 MiB under one prefix, deletes it and compacts: the members' files keep the pages, now free. */
    private static void fragment() throws Exception {
        try (Client etcd = Client.builder().endpoints(clusters.endpointList(NAME).toArray(String[]::new)).build()) {
            ByteSequence value = ByteSequence.from(new byte[4096]);
            for (int b = 0; b < BATCHES; b++) {
                Op[] puts = new Op[KEYS_PER_BATCH];
                for (int i = 0; i < KEYS_PER_BATCH; i++) {
                    puts[i] = Op.put(bytes("filler/" + b + "/" + i), value, PutOption.DEFAULT);
                }
                etcd.getKVClient().txn().Then(puts).commit().get(30, TimeUnit.SECONDS);
            }
            long revision = etcd.getKVClient().delete(bytes("filler/"), DeleteOption.builder().isPrefix(true).build())
                    .get(30, TimeUnit.SECONDS).getHeader().getRevision();
            etcd.getKVClient().compact(revision, CompactOption.builder().withCompactPhysical(true).build())
                    .get(30, TimeUnit.SECONDS);
        }
    }

    /** The routine defragmentation Events, in the order they were recorded. */
    private static List<Event> defragmented() {
        return clusters.events(NAME).stream().filter(e -> e.getReason().equals("MemberDefragmented"))
                .sorted(Comparator.comparingLong(e -> Long.parseLong(e.getMetadata().getResourceVersion())))
                .toList();
    }

    private static ByteSequence bytes(String s) {
        return ByteSequence.from(s, StandardCharsets.UTF_8);
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
