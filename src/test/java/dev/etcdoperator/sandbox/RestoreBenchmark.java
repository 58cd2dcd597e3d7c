package dev.etcdoperator.sandbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import dev.etcdoperator.api.v1beta2.Condition;
import dev.etcdoperator.api.v1beta2.EtcdRestore;
import dev.etcdoperator.api.v1beta2.EtcdRestoreStatus;
import dev.etcdoperator.sandbox.support.BenchmarkData;
import dev.etcdoperator.sandbox.support.Etcdctl;
import dev.etcdoperator.sandbox.support.Kubectl;
import dev.etcdoperator.sandbox.support.RestoredEtcd;
import dev.etcdoperator.sandbox.support.SandboxBackups;
import dev.etcdoperator.sandbox.support.SandboxClusters;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * Restore of a large backup (about 1.1 GiB of values) by the operator, from applying the EtcdRestore to a restored
 * one-member cluster that is Available, beside what an administrator does by hand on the same machine in the same
 * run: {@code etcdctl snapshot restore} of the downloaded file and starting etcd on it until it is healthy. Reports
 * to target/benchmarks/restore.txt; asserts nothing about time.
 */
class RestoreBenchmark {
    static final int MIB = Integer.getInteger("benchmark.largeMiB", 1100);
    static final int RUNS = Integer.getInteger("benchmark.runs", 3);
    static final String NS = "default";
    static final String CLUSTER = "rs";
    static final Duration LIMIT = Duration.ofMinutes(15);
    static final Path STATE = Path.of("target", "sandbox-restore-benchmark").toAbsolutePath();

    @Test
    void restoreBesideEtcdctlRestoreAndStart() throws Exception {
        List<String> lines = new ArrayList<>();
        try (Sandbox sandbox = Sandbox.start(Sandbox.options().stateDir(STATE).withS3());
                S3Client s3 = sandbox.s3().client()) {
            SandboxClusters clusters = new SandboxClusters(sandbox.client(), NS);
            SandboxBackups backups = new SandboxBackups(sandbox.client(), NS, LIMIT);
            sandbox.client().resource(BenchmarkData.largeQuotaCluster(CLUSTER, NS)).create();
            clusters.awaitConverged(CLUSTER, 1);
            BenchmarkData.fill(clusters.endpointList(CLUSTER).get(0), 0, MIB);

            backups.apply("large", """
                    etcdCluster: {name: %s}
                    backupPolicy: {timeoutInSecond: 900}
                    s3: {path: %s/large.db, awsSecret: aws, endpoint: "%s", forcePathStyle: true}
                    """.formatted(CLUSTER, Sandbox.S3_BUCKET, sandbox.s3().endpoint()));
            long size = backups.awaitSucceeded("large").getBackupSize();
            lines.add(String.format(Locale.ROOT, "backup: %d bytes (%.2f GB)", size, size / 1e9));

            List<Double> manualTimes = new ArrayList<>();
            List<Double> writeOuts = new ArrayList<>();
            List<Double> operatorTimes = new ArrayList<>();
            for (int run = 1; run <= RUNS; run++) {
                lines.add("run " + run + " (load before: " + load() + ")");
                double[] manualRun = byHand(s3, lines);
                manualTimes.add(manualRun[0]);
                writeOuts.add(manualRun[1]);
                operatorTimes.add(byOperator(sandbox, clusters, "again-" + run, lines));
            }
            double manual = median(manualTimes);
            double operator = median(operatorTimes);
            lines.add(String.format(Locale.ROOT, "median of %d runs: by hand %.1f s, operator %.1f s: %.2fx (runs: by"
                    + " hand %s, operator %s)", RUNS, manual, operator, operator / manual, seconds(manualTimes),
                    seconds(operatorTimes)));
            List<Double> withWriteOut = new ArrayList<>();
            for (int i = 0; i < manualTimes.size(); i++) {
                withWriteOut.add(manualTimes.get(i) + writeOuts.get(i));
            }
            // the seed's restore tool waits for its download's write-out in its fsync; a person's would too
            lines.add(String.format(Locale.ROOT, "by hand with the download's write-out counted: median %.1f s,"
                    + " operator %.2fx (runs: %s)", median(withWriteOut), operator / median(withWriteOut),
                    seconds(withWriteOut)));
            lines.add("operator restarts during the benchmark (it exits when it loses its lease): "
                    + sandbox.operator().restarts());
        }
        lines.add("load: " + Files.readString(Path.of("/proc/loadavg")).strip());
        Path report = Path.of("target", "benchmarks", "restore.txt");
        Files.createDirectories(report.getParent());
        Files.write(report, lines);
        lines.forEach(System.out::println);
    }

    /**
     * Download, {@code etcdutl snapshot restore}, etcd started until healthy: the whole by-hand path, in seconds;
     * and, second, how long writing out the download took, which the path does not count.
     */
    private static double[] byHand(S3Client s3, List<String> lines) throws Exception {
        Path file = STATE.resolve("large.db");
        Files.deleteIfExists(file);
        flushDirtyPages();
        long t0 = System.nanoTime();
        s3.getObject(b -> b.bucket(Sandbox.S3_BUCKET).key("large.db"), file);
        double download = seconds(t0);
        Path byHand = STATE.resolve("by-hand");
        BenchmarkData.deleteTree(byHand);
        // not counted: the downloaded file is written out before the restore, so the restore's fsync does not wait
        // for it (favours the by-hand path)
        long flushStarted = System.nanoTime();
        flushDirtyPages();
        double flush = seconds(flushStarted);
        t0 = System.nanoTime();
        double manual;
        double restoreTool;
        try (RestoredEtcd restored = RestoredEtcd.restore(file, byHand, BenchmarkData.bin())) {
            manual = seconds(t0);
            restoreTool = restored.restoreTook().toNanos() / 1e9;
            Kubectl.Result count = new Etcdctl(restored.endpoint(), BenchmarkData.bin().resolve("etcdctl").toString())
                    .run("get", "v-", "--prefix", "--count-only", "--write-out=fields");
            assertThat(count.output()).as("the restored member holds every value").contains("\"Count\" : " + MIB);
        }
        lines.add(String.format(Locale.ROOT, "  by hand: download %.1f s; (written out, not counted: %.1f s);"
                + " etcdutl snapshot restore + etcd start until healthy %.1f s (the restore tool %.1f s); together"
                + " %.1f s", download, flush, manual, restoreTool, download + manual));
        BenchmarkData.deleteTree(byHand);
        Files.deleteIfExists(file);
        return new double[] {download + manual, flush};
    }

    /** An EtcdRestore of the cluster from the same object, applied until it succeeded and the cluster is Available. */
    private static double byOperator(Sandbox sandbox, SandboxClusters clusters, String name, List<String> lines)
            throws Exception {
        flushDirtyPages();
        Instant applied = Instant.now();
        long t0 = System.nanoTime();
        sandbox.client().resource(Serialization.unmarshal("""
                apiVersion: etcd.database.coreos.com/v1beta2
                kind: EtcdRestore
                metadata: {name: %s, namespace: %s}
                spec:
                  etcdCluster: {name: %s}
                  backupStorageType: S3
                  s3: {path: "%s/large.db", awsSecret: aws, endpoint: "%s", forcePathStyle: true}
                """.formatted(name, NS, CLUSTER, Sandbox.S3_BUCKET, sandbox.s3().endpoint()), EtcdRestore.class))
                .create();
        await().atMost(LIMIT).pollInterval(Duration.ofMillis(100)).until(() -> {
            EtcdRestoreStatus s = status(sandbox, name);
            assertThat(s.getPhase()).as(s.getReason()).isNotEqualTo("Failed");
            return Boolean.TRUE.equals(s.getSucceeded());
        });
        double operator = seconds(t0);
        List<String> seed = seedSteps(sandbox, applied);
        lines.add(String.format(Locale.ROOT, "  operator: EtcdRestore applied to succeeded (cluster Available) %.1f s",
                operator));
        for (Condition c : status(sandbox, name).getConditions()) {
            if (c.getLastTransitionTime() != null
                    && List.of("Preflight", "Deleting", "Restoring", "Growing", "Done").contains(c.getType())) {
                lines.add(String.format(Locale.ROOT, "    %-9s done %.1f s after apply (%s)", c.getType(),
                        Duration.between(applied, Instant.parse(c.getLastTransitionTime())).toMillis() / 1000.0,
                        c.getMessage()));
            }
        }
        String staged = status(sandbox, name).getStagedSeed();
        lines.add("    the seed " + (staged == null ? "was made after the template was gone"
                : staged + " started beside the template, with the preflight"));
        lines.addAll(seed);
        // not counted: the seed, whose pod runs once, is replaced by a member whose pod restarts in place; the next
        // run starts once that is done
        long settling = System.nanoTime();
        await().atMost(LIMIT).untilAsserted(() -> assertThat(clusters.pods(CLUSTER)).singleElement()
                .satisfies(p -> assertThat(p.getSpec().getRestartPolicy()).isEqualTo("Always")));
        clusters.awaitConverged(CLUSTER, 1);
        lines.add(String.format(Locale.ROOT, "    (not counted: the seed replaced by a member whose pod restarts in"
                + " place %.1f s later)", seconds(settling)));
        return operator;
    }

    /** When each init container of the restored cluster's seed ran, from its pod's status (second precision). */
    private static List<String> seedSteps(Sandbox sandbox, Instant applied) {
        List<String> steps = new java.util.ArrayList<>();
        for (io.fabric8.kubernetes.api.model.Pod pod : sandbox.client().pods().inNamespace(NS)
                .withLabel("etcd_cluster", CLUSTER).list().getItems()) {
            for (io.fabric8.kubernetes.api.model.ContainerStatus c : pod.getStatus().getInitContainerStatuses()) {
                if (c.getState() != null && c.getState().getTerminated() != null) {
                    var t = c.getState().getTerminated();
                    steps.add(String.format(Locale.ROOT, "    seed %s: init container %s ran from %d s to %d s after"
                            + " apply", pod.getMetadata().getName(), c.getName(),
                            Duration.between(applied, Instant.parse(t.getStartedAt())).toSeconds(),
                            Duration.between(applied, Instant.parse(t.getFinishedAt())).toSeconds()));
                }
            }
        }
        return steps;
    }

    /**
     * Both paths write the backup twice (the download, the restored database), and how long the restore tool's fsync
     * takes depends on how much the disk still has to write from before: each path starts after {@code sync}.
     */
    private static void flushDirtyPages() throws Exception {
        Process sync = new ProcessBuilder("sync").inheritIO().start();
        assertThat(sync.waitFor(5, java.util.concurrent.TimeUnit.MINUTES)).as("sync ended").isTrue();
    }

    private static double median(List<Double> values) {
        List<Double> sorted = values.stream().sorted().toList();
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }

    private static String seconds(List<Double> values) {
        return values.stream().map(v -> String.format(Locale.ROOT, "%.1f", v))
                .collect(java.util.stream.Collectors.joining(", "));
    }

    private static String load() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).strip();
        } catch (java.io.IOException e) {
            return "?";
        }
    }

    private static EtcdRestoreStatus status(Sandbox sandbox, String name) {
        EtcdRestore r = sandbox.client().resources(EtcdRestore.class).inNamespace(NS).withName(name).get();
        return r == null || r.getStatus() == null ? new EtcdRestoreStatus() : r.getStatus();
    }

    private static double seconds(long startNanos) {
        return (System.nanoTime() - startNanos) / 1e9;
    }
}
