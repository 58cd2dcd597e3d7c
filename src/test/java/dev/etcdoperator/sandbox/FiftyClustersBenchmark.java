package dev.etcdoperator.sandbox;

import static org.awaitility.Awaitility.await;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.stream.Collectors;

import dev.etcdoperator.api.v1beta2.EtcdCluster;
import dev.etcdoperator.api.v1beta2.EtcdClusterStatus;
import dev.etcdoperator.sandbox.support.PodMoments;
import dev.etcdoperator.sandbox.support.ProcessFigures;
import dev.etcdoperator.sandbox.support.PrometheusText;
import dev.etcdoperator.sandbox.support.SandboxClusters;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.Watch;
import org.junit.jupiter.api.Test;

/**
 * One operator and up to fifty EtcdClusters, in the sandbox: one cluster of 3 members ("heal") and one-member
 * clusters beside it, ramped to 10, 25 and 50 clusters. At each step, once every cluster is Available and the
 * operator has been left alone for a while, the operator process is read from {@code /proc}: resident memory, CPU
 * time over a fixed window, threads (by name), established TCP connections to etcd's client port; and the reconciles
 * it started meanwhile. The 3-member cluster's heal after its newest member is lost (its pod deleted at once: a killed
 * etcd would start again in its pod, with nothing for the operator to do) is timed alone, beside the 49 others, and
 * alone again once they are deleted. Not a test: it reports figures (target/benchmarks/fifty-clusters.txt) and only
 * fails when something does not converge at all. Run with
 * {@code ./mvnw -B verify -Pbenchmarks -Dit.test=FiftyClustersBenchmark}.
 */
class FiftyClustersBenchmark {
    static final int RUNS = Integer.getInteger("benchmark.runs", 5);
    static final List<Integer> STEPS = List.of(1, 10, 25, 50);
    static final String VERSION = "3.5.35";
    static final String HEAL = "heal";
    /** How long every cluster must stay Available before the window opens. */
    static final Duration SETTLE = Duration.ofSeconds(Long.getLong("benchmark.settle-seconds", 10));
    /** The window CPU time and reconciles are counted over: four of the shipped 8 s reconcile intervals. */
    static final Duration WINDOW = Duration.ofSeconds(Long.getLong("benchmark.window-seconds", 32));
    static final Duration CONVERGE = Duration.ofMinutes(10);
    static final Duration HEAL_LIMIT = Duration.ofMinutes(3);
    static final int ETCD_CLIENT_PORT = 2379;

    record Sample(String what, int clusters, int members, double rssMiB, double cpuPercent, double reconcilesPerSecond,
            double reconcileMillis, double apiRequestsPerSecond, double childLookupsPerSecond, int threads, ProcessFigures.Connections connections, Map<String, Integer> threadsByName,
            int unsettledPolls, String load) {
    }

    /**
     * Seconds after the loss: the old pod's container reported ended (by the node agent; NaN when the pod was gone
     * first), the old pod marked for deletion, the new one created (by the operator), running, ready, and the cluster
     * healthy.
     */
    record Heal(double ended, double deleting, double created, double running, double ready, double healthy) {
    }

    private final Map<String, Integer> sizes = new LinkedHashMap<>();
    private final PodMoments moments = new PodMoments();
    private final List<String> notes = new ArrayList<>();

    @Test
    void fiftyClustersOneOperator() throws Exception {
        List<Sample> samples = new ArrayList<>();
        Map<String, List<Heal>> heals = new LinkedHashMap<>();
        try (Sandbox sandbox = Sandbox.start(Sandbox.options().stateDir(Path.of("target", "sandbox-fifty-benchmark")));
                Watch watch = sandbox.client().pods().inNamespace("default").withLabel("etcd_cluster", HEAL)
                        .watch(moments)) {
            SandboxClusters clusters = new SandboxClusters(sandbox.client(), "default");
            OperatorProcess operator = sandbox.operator();
            ProcessFigures process = new ProcessFigures(operator.pid());
            samples.add(sample("no cluster", sandbox, operator, process));

            clusters.create(HEAL, 3, VERSION);
            sizes.put(HEAL, 3);
            awaitConverged(sandbox, "1 cluster of 3 members");
            samples.add(sample("1 cluster", sandbox, operator, process));
            heals.put("heal alone (s)", heal(sandbox, clusters));

            for (int step : STEPS.subList(1, STEPS.size())) {
                String load = OperatorBenchmark.load();
                int from = sizes.size();
                for (int i = from; i < step; i++) {
                    String name = String.format(Locale.ROOT, "one-%02d", i);
                    clusters.create(name, 1, VERSION);
                    sizes.put(name, 1);
                }
                awaitConverged(sandbox, (step - from) + " one-member clusters created at once (load " + load + ")");
                samples.add(sample(step + " clusters", sandbox, operator, process));
            }
            heals.put("heal beside " + (sizes.size() - 1) + " one-member clusters (s)", heal(sandbox, clusters));

            List<String> ones = sizes.keySet().stream().filter(n -> !n.equals(HEAL)).toList();
            ones.forEach(n -> sandbox.client().resources(EtcdCluster.class).inNamespace("default").withName(n).delete());
            ones.forEach(sizes::remove);
            await().atMost(CONVERGE).pollInterval(Duration.ofSeconds(1)).until(() -> sandbox.client().pods()
                    .inNamespace("default").withLabel("app", "etcd").list().getItems().size() == 3);
            awaitConverged(sandbox, "the one-member clusters deleted");
            samples.add(sample("1 cluster, the others deleted", sandbox, operator, process));
            heals.put("heal alone again, after (s)", heal(sandbox, clusters));
        }
        String report = report(samples, heals);
        Files.createDirectories(Path.of("target", "benchmarks"));
        Files.writeString(Path.of("target", "benchmarks", "fifty-clusters.txt"), report);
        System.out.println(report);
    }

    /**
     * Deletes the pod of the newest member of the 3-member cluster {@link #RUNS} times, each time once every member
     * has been running for longer than etcd's 5 s reconfiguration guard; each figure is from the deletion until 3
     * healthy voters with ready pods and Available again.
     */
    private List<Heal> heal(Sandbox sandbox, SandboxClusters clusters) {
        List<Heal> heals = new ArrayList<>();
        for (int run = 0; run < RUNS; run++) {
            await().atMost(HEAL_LIMIT).pollInterval(Duration.ofMillis(200))
                    .until(() -> converged(clusters.status(HEAL), 3) && settled(clusters.pods(HEAL)));
            Pod newest = clusters.pods(HEAL).stream()
                    .max(Comparator.comparing(p -> p.getMetadata().getCreationTimestamp())).orElseThrow();
            long t0 = System.nanoTime();
            clusters.loseForGood(newest);
            await().atMost(HEAL_LIMIT).pollInterval(Duration.ofMillis(100)).until(() -> sandbox.client().pods()
                    .inNamespace("default").withName(newest.getMetadata().getName()).get() == null);
            await().atMost(HEAL_LIMIT).pollInterval(Duration.ofMillis(100))
                    .until(() -> converged(clusters.status(HEAL), 3) && clusters.pods(HEAL).size() == 3);
            double healthy = (System.nanoTime() - t0) / 1e9;
            String old = newest.getMetadata().getName();
            String fresh = moments.createdAfter(t0, old).orElse("");
            heals.add(new Heal(since(t0, old, PodMoments.Moment.ENDED), since(t0, old, PodMoments.Moment.DELETING), since(t0, fresh, PodMoments.Moment.CREATED),
                    since(t0, fresh, PodMoments.Moment.RUNNING), since(t0, fresh, PodMoments.Moment.READY), healthy));
        }
        return heals;
    }

    private double since(long t0, String pod, PodMoments.Moment moment) {
        return moments.of(pod, moment).map(t -> (t - t0) / 1e9).orElse(Double.NaN);
    }

    /** Every member's etcd has been running for longer than etcd's 5 s reconfiguration guard. */
    private static boolean settled(List<Pod> pods) {
        Instant guardOpen = Instant.now().minusSeconds(7);
        return pods.stream().allMatch(p -> p.getStatus().getContainerStatuses().stream()
                .allMatch(c -> c.getState().getRunning() != null
                        && Instant.parse(c.getState().getRunning().getStartedAt()).isBefore(guardOpen)));
    }

    private void awaitConverged(Sandbox sandbox, String what) {
        long t0 = System.nanoTime();
        await().atMost(CONVERGE).pollInterval(Duration.ofSeconds(1)).until(() -> unconverged(sandbox) == 0);
        notes.add(String.format(Locale.ROOT, "%s: all %d clusters Available after %.1f s", what, sizes.size(),
                (System.nanoTime() - t0) / 1e9));
    }

    /** How many clusters are not Available with all members healthy voters on ready pods (two list calls). */
    private long unconverged(Sandbox sandbox) {
        Map<String, EtcdCluster> byName = sandbox.client().resources(EtcdCluster.class).inNamespace("default").list()
                .getItems().stream().collect(Collectors.toMap(c -> c.getMetadata().getName(), Function.identity()));
        Map<String, Long> pods = sandbox.client().pods().inNamespace("default").withLabel("app", "etcd").list()
                .getItems().stream().filter(p -> p.getMetadata().getDeletionTimestamp() == null)
                .collect(Collectors.groupingBy(p -> p.getMetadata().getLabels().getOrDefault("etcd_cluster", ""),
                        Collectors.counting()));
        return sizes.entrySet().stream().filter(e -> {
            EtcdCluster c = byName.get(e.getKey());
            return c == null || !converged(c.getStatus(), e.getValue())
                    || pods.getOrDefault(e.getKey(), 0L) != e.getValue().longValue();
        }).count();
    }

    private static boolean converged(EtcdClusterStatus s, int size) {
        return s != null && s.getConditions() != null
                && s.getConditions().stream().anyMatch(c -> c.getType().equals("Available")
                        && c.getStatus().equals("True"))
                && s.getMemberDetails() != null && s.getMemberDetails().size() == size
                && s.getMemberDetails().stream().allMatch(m -> m.getHealthy() && !m.getLearner())
                && Integer.valueOf(size).equals(s.getReadyMembers());
    }

    /**
     * Leaves the operator alone for {@link #SETTLE}, then counts its CPU time and reconciles over {@link #WINDOW}
     * (the clusters are looked at every 2 s meanwhile, and every look that found one not Available is counted), then
     * reads memory, threads and connections.
     */
    private Sample sample(String what, Sandbox sandbox, OperatorProcess operator, ProcessFigures process) {
        AtomicInteger unsettled = new AtomicInteger();
        idle(sandbox, SETTLE, unsettled);
        String load = OperatorBenchmark.load();
        Duration cpu0 = process.cpu();
        double reconciles0 = reconciles(operator, "reconciliations_started_total");
        double busy0 = reconciles(operator, "reconciliations_execution_duration_seconds_sum");
        double done0 = reconciles(operator, "reconciliations_execution_duration_seconds_count");
        ApiRequests api0 = apiRequests(sandbox);
        long t0 = System.nanoTime();
        idle(sandbox, WINDOW, unsettled);
        double window = (System.nanoTime() - t0) / 1e9;
        ApiRequests api = apiRequests(sandbox).minus(api0);
        double cpu = (process.cpu().minus(cpu0)).toNanos() / 1e9;
        double reconciles = reconciles(operator, "reconciliations_started_total") - reconciles0;
        double busy = reconciles(operator, "reconciliations_execution_duration_seconds_sum") - busy0;
        double done = reconciles(operator, "reconciliations_execution_duration_seconds_count") - done0;
        Map<String, Integer> threads = process.threadsByName();
        return new Sample(what, sizes.size(), sizes.values().stream().mapToInt(Integer::intValue).sum(),
                process.rssKiB() / 1024.0, 100 * cpu / window, reconciles / window, done == 0 ? 0 : 1000 * busy / done,
                api.all() / window, api.childLookups() / window, threads.values().stream().mapToInt(Integer::intValue).sum(), process.connections(ETCD_CLIENT_PORT),
                threads, unsettled.get(), load);
    }

    private void idle(Sandbox sandbox, Duration duration, AtomicInteger unsettled) {
        long end = System.nanoTime() + duration.toNanos();
        await().atMost(duration.plusMinutes(1)).pollInterval(Duration.ofSeconds(2)).until(() -> {
            if (unconverged(sandbox) > 0) {
                unsettled.incrementAndGet();
            }
            return System.nanoTime() >= end;
        });
    }

    /** Requests the API server served: all, and the GETs of Services and PodDisruptionBudgets (the operator's only). */
    record ApiRequests(double all, double childLookups) {
        ApiRequests minus(ApiRequests other) {
            return new ApiRequests(all - other.all, childLookups - other.childLookups);
        }
    }

    private static ApiRequests apiRequests(Sandbox sandbox) {
        double all = 0;
        double childLookups = 0;
        // the API server's own text, with histograms whose +Inf buckets PrometheusText does not read: only this counter
        for (String line : sandbox.client().raw("/metrics").lines().filter(l -> l.startsWith("apiserver_request_total{"))
                .toList()) {
            double value = Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            all += value;
            if (line.contains("verb=\"GET\"") && (line.contains("resource=\"services\"")
                    || line.contains("resource=\"poddisruptionbudgets\""))) {
                childLookups += value;
            }
        }
        return new ApiRequests(all, childLookups);
    }

    /** One of JOSDK's reconcile metrics of the cluster controller so far, summed over its series. */
    private static double reconciles(OperatorProcess operator, String metric) {
        return PrometheusText.parse(operator.get("/q/metrics").body())
                .series(metric, "controller_name", "etcdcluster").stream()
                .mapToDouble(PrometheusText.Sample::value).sum();
    }

    private String report(List<Sample> samples, Map<String, List<Heal>> heals) {
        StringBuilder r = new StringBuilder();
        r.append("fifty clusters benchmark, ").append(Instant.now()).append(", ")
                .append(Runtime.getRuntime().availableProcessors()).append(" cores; etcd ").append(VERSION)
                .append(", reconcile interval 8 s (shipped); settle ").append(SETTLE.toSeconds()).append(" s, window ")
                .append(WINDOW.toSeconds()).append(" s\n\n");
        r.append(String.format(Locale.ROOT, "%-30s %8s %7s %8s %6s %11s %8s %7s %9s %7s %10s %9s %8s  %s%n", "step",
                "clusters", "members", "RSS MiB", "CPU %", "reconcile/s", "ms each", "API/s", "svc+pdb/s", "threads", "etcd conns", "etcd addr",
                "all tcp",
                "load at window start (unsettled looks)"));
        for (Sample s : samples) {
            r.append(String.format(Locale.ROOT,
                    "%-30s %8d %7d %8.1f %6.1f %11.2f %8.1f %7.1f %9.2f %7d %10d %9d %8d  %s (%d)%n",
                    s.what(), s.clusters(), s.members(), s.rssMiB(), s.cpuPercent(), s.reconcilesPerSecond(),
                    s.reconcileMillis(), s.apiRequestsPerSecond(), s.childLookupsPerSecond(), s.threads(), s.connections().toPort(), s.connections().remoteAddresses(),
                    s.connections().established(), s.load(), s.unsettledPolls()));
        }
        List<Sample> ramp = samples.stream().filter(s -> s.clusters() >= 1).limit(STEPS.size()).toList();
        double[] fit = linearFit(ramp.stream().mapToDouble(Sample::clusters).toArray(),
                ramp.stream().mapToDouble(Sample::rssMiB).toArray());
        r.append(String.format(Locale.ROOT, "%nRSS over the ramp (%s clusters), least squares: %.2f MiB per cluster,"
                + " %.1f MiB at 0%n", ramp.stream().map(s -> Integer.toString(s.clusters())).toList(), fit[1], fit[0]));
        double[] threadFit = linearFit(ramp.stream().mapToDouble(Sample::clusters).toArray(),
                ramp.stream().mapToDouble(Sample::threads).toArray());
        r.append(String.format(Locale.ROOT, "threads over the ramp: %.2f per cluster%n%n", threadFit[1]));

        r.append("threads by name:\n");
        for (Sample s : samples) {
            r.append("  ").append(s.what()).append(": ").append(new TreeMap<>(s.threadsByName()).entrySet().stream()
                    .sorted(Map.Entry.<String, Integer>comparingByValue().reversed())
                    .map(e -> e.getKey() + " " + e.getValue()).collect(Collectors.joining(", "))).append('\n');
        }
        r.append("\nheal of the 3-member cluster after its newest member's pod is deleted at once, to 3 healthy voters"
                + " on ready pods and Available; median, then every run (s):\n");
        double alone = Double.NaN;
        for (Map.Entry<String, List<Heal>> e : heals.entrySet()) {
            List<Double> totals = e.getValue().stream().map(Heal::healthy).toList();
            double median = median(totals);
            if (Double.isNaN(alone)) {
                alone = median;
            }
            r.append(String.format(Locale.ROOT, "  %-48s %6.2f   %s   (%.2fx the first)%n", e.getKey(), median,
                    totals.stream().map(d -> String.format(Locale.ROOT, "%.2f", d)).toList(), median / alone));
        }
        r.append("\nwhere the heal's time went, seconds after the deletion (medians): the old pod's container reported"
                + " ended by the node agent, the old pod marked for deletion, the new pod created by the operator"
                + " (learner added), its container running, its pod ready, the cluster healthy in the status\n");
        for (Map.Entry<String, List<Heal>> e : heals.entrySet()) {
            List<Heal> h = e.getValue();
            r.append(String.format(Locale.ROOT, "  %-48s ended %5.2f  deleting %5.2f  created %5.2f  running %5.2f  ready %5.2f"
                    + "  healthy %5.2f%n", e.getKey(), median(h.stream().map(Heal::ended).toList()),
                    median(h.stream().map(Heal::deleting).toList()),
                    median(h.stream().map(Heal::created).toList()), median(h.stream().map(Heal::running).toList()),
                    median(h.stream().map(Heal::ready).toList()), median(h.stream().map(Heal::healthy).toList())));
            h.forEach(x -> r.append(String.format(Locale.ROOT,
                    "  %-48s       %5.2f           %5.2f          %5.2f          %5.2f        %5.2f          %5.2f%n",
                    "", x.ended(), x.deleting(), x.created(), x.running(), x.ready(), x.healthy())));
        }
        r.append('\n');
        notes.forEach(n -> r.append(n).append('\n'));
        r.append("load at the end: ").append(OperatorBenchmark.load()).append('\n');
        return r.toString();
    }

    /** Intercept and slope of the least-squares line through the points. */
    static double[] linearFit(double[] x, double[] y) {
        double mx = java.util.Arrays.stream(x).average().orElseThrow();
        double my = java.util.Arrays.stream(y).average().orElseThrow();
        double sxy = 0;
        double sxx = 0;
        for (int i = 0; i < x.length; i++) {
            sxy += (x[i] - mx) * (y[i] - my);
            sxx += (x[i] - mx) * (x[i] - mx);
        }
        double slope = sxy / sxx;
        return new double[] { my - slope * mx, slope };
    }

    private static double median(List<Double> values) {
        List<Double> sorted = values.stream().sorted().toList();
        return sorted.get(sorted.size() / 2);
    }
}
