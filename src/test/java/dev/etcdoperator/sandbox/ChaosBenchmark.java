package dev.etcdoperator.sandbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

import dev.etcdoperator.api.v1beta2.EtcdBackup;
import dev.etcdoperator.api.v1beta2.EtcdBackupStatus;
import dev.etcdoperator.api.v1beta2.EtcdCluster;
import dev.etcdoperator.sandbox.support.ContinuousWriter;
import dev.etcdoperator.sandbox.support.Etcdctl;
import dev.etcdoperator.sandbox.support.HandRunEtcd;
import dev.etcdoperator.sandbox.support.Kubectl;
import dev.etcdoperator.sandbox.support.SandboxClusters;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.Test;

/**
 * A 3-member cluster on claims, under a continuous writer and a periodic backup, through random faults: a member's
 * etcd killed with SIGKILL, a member pod deleted, every member pod deleted (the claims stay), the operator killed
 * with SIGKILL, the S3 store down while a backup runs, kube-apiserver killed and restarted. After each fault: the
 * cluster is back to three healthy voters with ready pods, and every write etcd acknowledged so far is there. The
 * longest write stall of each fault is reported beside etcd's own stall when its leader is killed, measured by hand
 * on three etcd processes of the same release in the same run. Fails when a write is lost or the cluster does not
 * come back; reports to target/benchmarks/chaos.txt. {@code -Dchaos.faults} (default 50), {@code -Dchaos.seed}.
 */
class ChaosBenchmark {
    static final int FAULTS = Integer.getInteger("chaos.faults", 50);
    static final long SEED = Long.getLong("chaos.seed", System.currentTimeMillis());
    static final int LEADER_KILLS = Integer.getInteger("chaos.leaderKills", 5);
    static final String NS = "default";
    static final String CLUSTER = "chaos";
    static final String VERSION = "3.5.35";
    static final Duration RECOVER = Duration.ofMinutes(5);
    static final Path STATE = Path.of("target", "sandbox-chaos-benchmark").toAbsolutePath();

    enum Fault { MEMBER_SIGKILL, POD_DELETE, ALL_PODS_DELETED, OPERATOR_SIGKILL, S3_OUTAGE_DURING_BACKUP,
        API_SERVER_RESTART }

    record Outcome(int index, Fault fault, String detail, double recoverSeconds, double stallSeconds) {
    }

    @Test
    void faultsUnderAWriterLoseNothing() throws Exception {
        List<String> report = new ArrayList<>();
        report.add(String.format(Locale.ROOT, "chaos benchmark: %d faults, seed %d, etcd %s, load at start %s",
                FAULTS, SEED, VERSION, Files.readString(Path.of("/proc/loadavg")).strip()));

        List<Double> byHand = leaderLossStallsByHand();
        report.add(String.format(Locale.ROOT, "etcd by hand, leader killed with SIGKILL (%d times): longest write "
                + "stall median %.2f s, max %.2f s (runs: %s)", byHand.size(), median(byHand),
                Collections.max(byHand), seconds(byHand)));

        List<Outcome> outcomes = new ArrayList<>();
        try (Sandbox sandbox = Sandbox.start(Sandbox.options().stateDir(STATE).withS3())) {
            SandboxClusters clusters = new SandboxClusters(sandbox.client(), NS);
            sandbox.client().resource(Serialization.unmarshal("""
                    apiVersion: etcd.database.coreos.com/v1beta2
                    kind: EtcdCluster
                    metadata: {name: %s, namespace: %s}
                    spec:
                      size: 3
                      version: %s
                      pod:
                        persistentVolumeClaimSpec:
                          accessModes: [ReadWriteOnce]
                          resources: {requests: {storage: 1Gi}}
                    """.formatted(CLUSTER, NS, VERSION), EtcdCluster.class)).create();
            clusters.awaitConverged(CLUSTER, 3);
            sandbox.client().resource(Serialization.unmarshal("""
                    apiVersion: etcd.database.coreos.com/v1beta2
                    kind: EtcdBackup
                    metadata: {name: chaos-backups, namespace: %s}
                    spec:
                      etcdCluster: {name: %s}
                      storageType: S3
                      backupPolicy: {backupIntervalInSecond: 20, maxBackups: 3, timeoutInSecond: 60}
                      s3: {path: %s/chaos, awsSecret: aws, endpoint: "%s", forcePathStyle: true}
                    """.formatted(NS, CLUSTER, Sandbox.S3_BUCKET, sandbox.s3().endpoint()), EtcdBackup.class))
                    .create();

            Random random = new Random(SEED);
            try (KnownEndpoints endpoints = new KnownEndpoints(() -> clusters.endpointList(CLUSTER));
                    ContinuousWriter writer = new ContinuousWriter("chaos-", endpoints)) {
                await().atMost(RECOVER).until(() -> writer.acknowledgedCount() > 20);
                for (int i = 1; i <= FAULTS; i++) {
                    Fault fault = Fault.values()[random.nextInt(Fault.values().length)];
                    writer.takeLongestStall();
                    long start = System.nanoTime();
                    String detail = inject(sandbox, clusters, fault, random);
                    clusters.awaitConverged(CLUSTER, 3);
                    double recovered = (System.nanoTime() - start) / 1e9;
                    // writes flow again: the stall of this fault has ended
                    int before = writer.acknowledgedCount();
                    await().atMost(RECOVER).until(() -> writer.acknowledgedCount() > before + 3);
                    Outcome outcome = new Outcome(i, fault, detail, recovered,
                            writer.takeLongestStall().toMillis() / 1000.0);
                    outcomes.add(outcome);
                    System.out.printf(Locale.ROOT, "chaos %d/%d %s (%s): back in %.1f s, longest write stall %.2f s%n",
                            i, FAULTS, fault, detail, recovered, outcome.stallSeconds());
                    assertNothingLost(clusters, writer.acknowledged(), outcome);
                }
            }
            // the backups carry on after every outage of the store
            long lastFault = System.currentTimeMillis();
            await().atMost(RECOVER).untilAsserted(() -> {
                EtcdBackupStatus s = backup(sandbox).getStatus();
                assertThat(s).isNotNull();
                assertThat(s.getLastSuccessDate()).isNotNull();
                assertThat(java.time.Instant.parse(s.getLastSuccessDate()).toEpochMilli())
                        .isGreaterThan(lastFault - 1000);
            });
        }
        report.addAll(summary(outcomes, byHand));
        report.add("load at the end: " + Files.readString(Path.of("/proc/loadavg")).strip());
        Path file = Path.of("target", "benchmarks", "chaos.txt");
        Files.createDirectories(file.getParent());
        Files.write(file, report);
        report.forEach(System.out::println);
        assertThat(outcomes).hasSize(FAULTS);
    }

    /** Injects the fault and returns what it hit; returns once the fault has happened (and, for outages, ended). */
    private static String inject(Sandbox sandbox, SandboxClusters clusters, Fault fault, Random random) {
        List<Pod> pods = clusters.pods(CLUSTER);
        Pod pod = pods.get(random.nextInt(pods.size()));
        String name = pod.getMetadata().getName();
        switch (fault) {
            case MEMBER_SIGKILL -> {
                ProcessHandle.of(SandboxClusters.pid(pod)).ifPresent(ProcessHandle::destroyForcibly);
                await().atMost(RECOVER).pollInterval(Duration.ofMillis(100))
                        .until(() -> clusters.startedAgainOrGone(pod));
                return name;
            }
            case POD_DELETE -> {
                sandbox.client().pods().inNamespace(NS).withName(name).delete();
                awaitGone(clusters, pod);
                return name;
            }
            case ALL_PODS_DELETED -> {
                sandbox.client().pods().inNamespace(NS).withLabel("etcd_cluster", CLUSTER).delete();
                await().atMost(RECOVER).until(() -> clusters.pods(CLUSTER).stream()
                        .noneMatch(p -> pods.stream().anyMatch(old -> old.getMetadata().getUid()
                                .equals(p.getMetadata().getUid()))));
                return "all " + pods.size();
            }
            case OPERATOR_SIGKILL -> {
                sandbox.operator().kill();
                sandbox.startOperator();
                return "pid " + sandbox.operator().pid();
            }
            case S3_OUTAGE_DURING_BACKUP -> {
                int failuresBefore = failures(sandbox);
                sandbox.s3().kill();
                try {
                    // the store stays down until a backup has run into the outage
                    await().atMost(RECOVER).until(() -> failures(sandbox) > failuresBefore);
                } finally {
                    sandbox.s3().start();
                }
                return "a backup failed during it";
            }
            case API_SERVER_RESTART -> {
                sandbox.api().restartApiServer();
                return "kube-apiserver";
            }
            default -> throw new IllegalStateException(fault.name());
        }
    }

    /** Until the operator has dealt with the member's pod: the pod is gone (replaced, or deleted to be replaced). */
    private static void awaitGone(SandboxClusters clusters, Pod pod) {
        String uid = pod.getMetadata().getUid();
        await().atMost(RECOVER).pollInterval(Duration.ofMillis(100)).until(() -> clusters.pods(CLUSTER).stream()
                .noneMatch(p -> uid.equals(p.getMetadata().getUid())));
    }

    private static void assertNothingLost(SandboxClusters clusters, Set<String> acknowledged, Outcome outcome) {
        Kubectl.Result keys = new Etcdctl(clusters.endpoints(CLUSTER)).run("get", "chaos-", "--prefix",
                "--keys-only");
        assertThat(keys.ok()).as(keys.output()).isTrue();
        Set<String> stored = new HashSet<>(keys.output().lines().filter(l -> !l.isBlank()).toList());
        Set<String> lost = new HashSet<>(acknowledged);
        lost.removeAll(stored);
        assertThat(lost).as("acknowledged writes missing after fault %d (%s)", outcome.index(), outcome.fault())
                .isEmpty();
    }

    private static EtcdBackup backup(Sandbox sandbox) {
        return sandbox.client().resources(EtcdBackup.class).inNamespace(NS).withName("chaos-backups").get();
    }

    private static int failures(Sandbox sandbox) {
        EtcdBackup b = backup(sandbox);
        Integer n = b == null || b.getStatus() == null ? null : b.getStatus().getConsecutiveFailures();
        return n == null ? 0 : n;
    }

    /**
     * The members' endpoints as last read from the API, refreshed in the background: the writer never waits for the
     * API server, so a restart of it does not show as a write stall of its own making.
     */
    static final class KnownEndpoints implements Supplier<List<String>>, AutoCloseable {
        private final AtomicReference<List<String>> last = new AtomicReference<>(List.of());
        private final ScheduledExecutorService refresher = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "chaos-endpoints");
            t.setDaemon(true);
            return t;
        });

        KnownEndpoints(Supplier<List<String>> endpoints) {
            refresher.scheduleWithFixedDelay(() -> {
                try {
                    List<String> now = endpoints.get();
                    if (!now.isEmpty()) {
                        last.set(now);
                    }
                } catch (RuntimeException e) {
                    // the API server is away; the members are not
                }
            }, 0, 200, TimeUnit.MILLISECONDS);
        }

        @Override
        public List<String> get() {
            return last.get();
        }

        @Override
        public void close() {
            refresher.shutdownNow();
        }
    }

    /** etcd's own stall: three members by hand, the leader killed with SIGKILL, started again on its data. */
    private static List<Double> leaderLossStallsByHand() throws IOException {
        List<Double> stalls = new ArrayList<>();
        try (HandRunEtcd etcd = HandRunEtcd.start(STATE.resolve("by-hand"), "127.230.0", 3);
                ContinuousWriter writer = new ContinuousWriter("by-hand-", etcd::endpoints)) {
            await().atMost(RECOVER).until(() -> writer.acknowledgedCount() > 20);
            for (int i = 0; i < LEADER_KILLS; i++) {
                writer.takeLongestStall();
                int leader = etcd.leader();
                etcd.kill(leader);
                int before = writer.acknowledgedCount();
                await().atMost(RECOVER).until(() -> writer.acknowledgedCount() > before + 3);
                stalls.add(writer.takeLongestStall().toMillis() / 1000.0);
                etcd.restart(leader);
                etcd.awaitHealthy();
            }
        }
        return stalls;
    }

    private static List<String> summary(List<Outcome> outcomes, List<Double> byHand) {
        List<String> lines = new ArrayList<>();
        Map<Fault, List<Outcome>> byFault = new EnumMap<>(Fault.class);
        outcomes.forEach(o -> byFault.computeIfAbsent(o.fault(), f -> new ArrayList<>()).add(o));
        lines.add("fault | count | back to Available: median / max s | longest write stall: median / max s");
        byFault.forEach((fault, list) -> {
            List<Double> recover = list.stream().map(Outcome::recoverSeconds).toList();
            List<Double> stall = list.stream().map(Outcome::stallSeconds).toList();
            lines.add(String.format(Locale.ROOT, "%s | %d | %.1f / %.1f | %.2f / %.2f", fault, list.size(),
                    median(recover), Collections.max(recover), median(stall), Collections.max(stall)));
        });
        Outcome worst = outcomes.stream().max((a, b) -> Double.compare(a.stallSeconds(), b.stallSeconds()))
                .orElseThrow();
        lines.add(String.format(Locale.ROOT, "longest write stall of the run: %.2f s (fault %d, %s, %s); etcd's "
                + "own leader-loss stall by hand: median %.2f s, max %.2f s", worst.stallSeconds(), worst.index(),
                worst.fault(), worst.detail(), median(byHand), Collections.max(byHand)));
        lines.add("acknowledged writes lost: 0 (checked after every fault)");
        lines.add("every fault:");
        outcomes.forEach(o -> lines.add(String.format(Locale.ROOT, "  %2d %-24s %-28s back %.1f s, stall %.2f s",
                o.index(), o.fault(), o.detail(), o.recoverSeconds(), o.stallSeconds())));
        return lines;
    }

    private static double median(List<Double> values) {
        List<Double> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }

    private static String seconds(List<Double> values) {
        return String.join(", ", values.stream().map(v -> String.format(Locale.ROOT, "%.2f", v)).toList());
    }
}
