package dev.etcdoperator.sandbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

import dev.etcdoperator.api.v1beta2.EtcdCluster;
import dev.etcdoperator.api.v1beta2.EtcdClusterStatus;
import dev.etcdoperator.sandbox.controlplane.Parts;
import dev.etcdoperator.sandbox.support.SandboxClusters;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.Test;

/**
 * Measures, in the sandbox, how long the packaged operator takes to bring a 3-member cluster to Available and
 * to heal a member killed with SIGKILL (a follower, as the baseline does, then the leader: the kubelet starts it again
 * in its pod, on its data), beside {@code bench/baseline-cluster.sh} doing the same by hand with etcd and etcdctl, in
 * the same run: a seed and two learner joins, the replacement of a killed member, and three members started
 * together. Not a test: it reports
 * figures (target/benchmarks/cluster.txt) and only fails when something does not converge at all. Run with
 * {@code ./mvnw -B verify -Pbenchmarks}.
 */
class ClusterBenchmark {
    static final int RUNS = Integer.getInteger("benchmark.runs", 3);
    static final Duration LIMIT = Duration.ofMinutes(3);
    /**
     * {@code -Dbenchmark.timeline=true}: the operator logs at DEBUG, and every change of the member pods (phase,
     * container state, readiness, deletion) is written with the time it was seen, beside the kill and the moments
     * the cluster was healthy, to target/benchmarks/cluster-timeline.txt: where the time of a run goes.
     */
    static final boolean TIMELINE = Boolean.getBoolean("benchmark.timeline");

    @Test
    void createAndHealBesideTheBaseline() throws Exception {
        Map<String, List<Double>> figures = new TreeMap<>();
        Sandbox.Options options = Sandbox.options().stateDir(Path.of("target", "sandbox-benchmark"));
        if (TIMELINE) {
            options.operatorProperty("quarkus.log.category.\"dev.etcdoperator\".level", "DEBUG");
        }
        Timeline timeline = new Timeline();
        try (Sandbox sandbox = Sandbox.start(options);
                Watch watch = TIMELINE ? sandbox.client().pods().inNamespace("default").withLabel("app", "etcd")
                        .watch(timeline) : null) {
            for (int run = 0; run < RUNS; run++) {
                String name = "bench" + run;
                long t0 = System.nanoTime();
                sandbox.client().resource(Serialization.unmarshal("""
                        apiVersion: etcd.database.coreos.com/v1beta2
                        kind: EtcdCluster
                        metadata: {name: %s, namespace: default}
                        spec: {size: 3, version: 3.5.35}
                        """.formatted(name), EtcdCluster.class)).create();
                timeline.mark("create " + name);
                awaitHealthy(sandbox, name, null);
                add(figures, "operator create (s)", t0);
                timeline.mark("healthy " + name);

                // a follower, as the baseline kills, once every member has been running for longer than etcd's 5 s
                // reconfiguration guard: the first members start together, and etcd refuses any new member until
                // every voter has been connected for 5 s (by hand as well: the baseline's survivors have been)
                await().atMost(LIMIT).pollInterval(Duration.ofMillis(100)).until(() -> settled(sandbox, name));
                Pod follower = pods(sandbox, name).stream().filter(p -> status(sandbox, name).getMemberDetails()
                        .stream().anyMatch(m -> m.getName().equals(p.getMetadata().getName())
                                && !Boolean.TRUE.equals(m.getLeader())))
                        .max(Comparator.comparing(p -> p.getMetadata().getName())).orElseThrow();
                long t1 = System.nanoTime();
                kill(timeline, follower);
                awaitHealthy(sandbox, name, follower);
                add(figures, "operator heal after kill -9 of a follower (s)", t1);
                timeline.mark("healed " + name);

                // the leader, once every member has been running for longer than etcd's guard (a member joined
                // less than 5 s ago makes etcd refuse any new member until then, by hand as well): the others
                // elect a new leader first
                await().atMost(LIMIT).pollInterval(Duration.ofMillis(100)).until(() -> settled(sandbox, name));
                String leader = status(sandbox, name).getMemberDetails().stream()
                        .filter(m -> Boolean.TRUE.equals(m.getLeader())).findFirst().orElseThrow().getName();
                Pod leaderPod = pods(sandbox, name).stream().filter(p -> p.getMetadata().getName().equals(leader))
                        .findFirst().orElseThrow();
                long t2 = System.nanoTime();
                kill(timeline, leaderPod);
                awaitHealthy(sandbox, name, leaderPod);
                add(figures, "operator heal after kill -9 of the leader (s)", t2);
                timeline.mark("healed " + name);
                sandbox.client().resources(EtcdCluster.class).inNamespace("default").withName(name).delete();

                Map<String, Double> baseline = baseline(run);
                figures.computeIfAbsent("baseline create (s)", k -> new ArrayList<>()).add(baseline.get("create"));
                figures.computeIfAbsent("baseline create together (s)", k -> new ArrayList<>())
                        .add(baseline.get("bootstrap"));
                figures.computeIfAbsent("baseline heal after kill -9 (s)", k -> new ArrayList<>())
                        .add(baseline.get("replace"));
            }
        }
        StringBuilder report = new StringBuilder("cluster benchmark, " + RUNS + " runs, reconcile interval 8s\n");
        figures.forEach((k, v) -> report.append(String.format(Locale.ROOT, "%-36s median %6.2f   runs %s%n", k,
                median(v), v.stream().map(d -> String.format(Locale.ROOT, "%.2f", d)).toList())));
        Files.createDirectories(Path.of("target", "benchmarks"));
        Files.writeString(Path.of("target", "benchmarks", "cluster.txt"), report);
        System.out.println(report);
        if (TIMELINE) {
            Files.writeString(Path.of("target", "benchmarks", "cluster-timeline.txt"), timeline.text());
        }
    }

    /** Pod changes and marks, each with the wall-clock time it was seen (UTC, milliseconds). */
    static final class Timeline implements Watcher<Pod> {
        private final StringBuilder lines = new StringBuilder();
        private final Map<String, String> last = new HashMap<>();

        synchronized void mark(String what) {
            lines.append(Instant.now()).append("  --- ").append(what).append('\n');
        }

        @Override
        public synchronized void eventReceived(Action action, Pod pod) {
            String name = pod.getMetadata().getName();
            String state = action == Action.DELETED ? "deleted" : describe(pod);
            if (!state.equals(last.put(name, state))) {
                lines.append(Instant.now()).append("  ").append(name).append(": ").append(state).append('\n');
            }
        }

        private static String describe(Pod pod) {
            var status = pod.getStatus();
            StringBuilder b = new StringBuilder(status == null || status.getPhase() == null ? "-" : status.getPhase());
            if (pod.getMetadata().getDeletionTimestamp() != null) {
                b.append(" deleting");
            }
            if (status != null && status.getInitContainerStatuses() != null) {
                status.getInitContainerStatuses().forEach(c -> b.append(" init:").append(state(c)));
            }
            if (status != null && status.getContainerStatuses() != null) {
                status.getContainerStatuses().forEach(c -> b.append(' ').append(c.getName()).append(':')
                        .append(state(c)).append(Boolean.TRUE.equals(c.getReady()) ? ",ready" : ""));
            }
            return b.toString();
        }

        private static String state(ContainerStatus c) {
            var s = c.getState();
            return s == null ? "-" : s.getRunning() != null ? "running" : s.getTerminated() != null ? "terminated"
                    : "waiting";
        }

        @Override
        public void onClose(WatcherException cause) {
        }

        synchronized String text() {
            return lines.toString();
        }
    }

    private static List<Pod> pods(Sandbox sandbox, String cluster) {
        return sandbox.client().pods().inNamespace("default").withLabel("etcd_cluster", cluster).list().getItems();
    }

    private static EtcdClusterStatus status(Sandbox sandbox, String cluster) {
        return sandbox.client().resources(EtcdCluster.class).inNamespace("default").withName(cluster).get().getStatus();
    }

    /** SIGKILL to the member's etcd process. */
    private static void kill(Timeline timeline, Pod pod) {
        long pid = Long.parseLong(pod.getStatus().getContainerStatuses().get(0).getContainerID()
                .replace("sandbox://", ""));
        timeline.mark("kill -9 " + pod.getMetadata().getName());
        ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
    }

    /**
     * The killed member is back: its etcd started again in the same pod (the kubelet's first restart is at once) and
     * the pod ready again, or, had it been replaced, its pod gone and it no member.
     */
    private static boolean back(Sandbox sandbox, EtcdClusterStatus s, Pod killed) {
        Pod now = sandbox.client().pods().inNamespace("default").withName(killed.getMetadata().getName()).get();
        if (now == null || !now.getMetadata().getUid().equals(killed.getMetadata().getUid())) {
            return s.getMemberDetails().stream().noneMatch(m -> m.getName().equals(killed.getMetadata().getName()));
        }
        return SandboxClusters.restarts(now) > SandboxClusters.restarts(killed)
                && now.getStatus().getConditions().stream()
                        .anyMatch(c -> c.getType().equals("Ready") && c.getStatus().equals("True"));
    }


    /** Every member's etcd has been running for longer than etcd's 5 s reconfiguration guard (times in seconds). */
    private static boolean settled(Sandbox sandbox, String cluster) {
        Instant guardOpen = Instant.now().minusSeconds(7);
        return pods(sandbox, cluster).stream().allMatch(p -> p.getStatus().getContainerStatuses().stream()
                .allMatch(c -> c.getState().getRunning() != null
                        && Instant.parse(c.getState().getRunning().getStartedAt()).isBefore(guardOpen)));
    }

    /**
     * 3 healthy voters with ready pods, Available; after a kill, with the killed member back (see {@link #back}): the
     * status may still be the one from before the kill (3 healthy voters), and a benchmark that took that for healed
     * killed the leader of the 2 left.
     */
    private static void awaitHealthy(Sandbox sandbox, String name, Pod killed) {
        await().atMost(LIMIT).pollInterval(Duration.ofMillis(100)).until(() -> {
            EtcdCluster c = sandbox.client().resources(EtcdCluster.class).inNamespace("default").withName(name).get();
            EtcdClusterStatus s = c == null ? null : c.getStatus();
            return s != null && s.getMemberDetails() != null && s.getMemberDetails().size() == 3
                    && (killed == null || back(sandbox, s, killed))
                    && pods(sandbox, name).size() == 3
                    && s.getMemberDetails().stream().allMatch(m -> m.getHealthy() && !m.getLearner())
                    && Integer.valueOf(3).equals(s.getReadyMembers())
                    && s.getConditions().stream().anyMatch(x -> x.getType().equals("Available")
                            && x.getStatus().equals("True"));
        });
    }

    private static Map<String, Double> baseline(int run) throws IOException, InterruptedException {
        Path dir = Files.createTempDirectory("baseline");
        Path log = dir.resolve("baseline.out");
        // the same etcd release as the operator's members (3.5.35, built from its modules), found first on PATH
        ProcessBuilder builder = new ProcessBuilder("bash", "bench/baseline-cluster.sh", dir.toString(),
                "127.20" + run + ".0").redirectErrorStream(true).redirectOutput(log.toFile());
        builder.environment().put("PATH", Parts.bin(Parts.ETCD_35) + ":" + System.getenv("PATH"));
        Process p = builder.start();
        boolean finished = p.waitFor(4, TimeUnit.MINUTES);
        if (!finished) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
        }
        String out = Files.readString(log, StandardCharsets.UTF_8);
        assertThat(finished).as("the baseline finished: " + out).isTrue();
        Map<String, Double> result = new TreeMap<>();
        out.lines().filter(l -> l.matches("(create|replace|bootstrap)_seconds .*")).forEach(l -> {
            String[] kv = l.split(" ");
            result.put(kv[0].replace("_seconds", ""), Double.parseDouble(kv[1]));
        });
        assertThat(result).as(out).containsKeys("create", "replace", "bootstrap");
        return result;
    }

    private static void add(Map<String, List<Double>> figures, String key, long startNanos) {
        figures.computeIfAbsent(key, k -> new ArrayList<>()).add((System.nanoTime() - startNanos) / 1e9);
    }

    private static double median(List<Double> values) {
        List<Double> sorted = values.stream().sorted().toList();
        return sorted.get(sorted.size() / 2);
    }
}
