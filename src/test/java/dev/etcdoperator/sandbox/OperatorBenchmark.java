package dev.etcdoperator.sandbox;

import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;

import dev.etcdoperator.api.v1beta2.EtcdClusterStatus;
import dev.etcdoperator.sandbox.support.PrometheusText;
import dev.etcdoperator.sandbox.support.SandboxClusters;
import io.fabric8.kubernetes.api.model.Pod;
import org.junit.jupiter.api.Test;

/**
 * The packaged operator's own footprint, in the sandbox: start-up time (launch to {@code /q/health/ready} answering
 * UP, and Quarkus' "started in" line), resident memory ({@code VmRSS}, {@code VmHWM}) and heap used (from
 * {@code /q/metrics}) when idle, and while it manages {@code benchmark.clusters} EtcdClusters of
 * {@code benchmark.members} members. Not a test: it reports figures (target/benchmarks/operator.txt) and only fails
 * when something does not converge at all. Run with {@code ./mvnw -B verify -Pbenchmarks -Dit.test=OperatorBenchmark}
 * after {@code ./mvnw -B -q -DskipTests package}.
 */
class OperatorBenchmark {
    static final int RUNS = Integer.getInteger("benchmark.runs", 3);
    static final int CLUSTERS = Integer.getInteger("benchmark.clusters", 10);
    static final int MEMBERS = Integer.getInteger("benchmark.members", 3);
    /** How long the operator is left alone after it is ready before the idle figures are taken. */
    static final Duration SETTLE = Duration.ofSeconds(Long.getLong("benchmark.settle-seconds", 20));
    /** The shipped reconcile interval; the operator runs with it. */
    static final Duration INTERVAL = Duration.ofSeconds(8);
    static final int INTERVALS = Integer.getInteger("benchmark.intervals", 5);
    static final Duration CONVERGE = Duration.ofMinutes(10);
    static final Pattern STARTED_IN = Pattern.compile("started in ([0-9.]+)s");
    /** java.cls.loadedClasses, java.cls.sharedLoadedClasses and their unloaded counterparts. */
    static final Pattern CLASS_COUNTER = Pattern.compile(
            "java\\.cls\\.(?:shared)?([uU]nloaded|[lL]oaded)Classes=(\\d+)");

    /** Whether to run the baseline, {@link FootprintFloor}, beside the operator. */
    static final boolean FLOOR = Boolean.parseBoolean(System.getProperty("benchmark.floor", "true"));

    record Start(String app, double readySeconds, double quarkusSeconds, double cpuAtReady, double idleCpu,
            String load) {
    }

    record Sample(String what, long rssKiB, long hwmKiB, int threads, long classes, double heapUsed,
            double heapCommitted, double nonHeapUsed, double heapAfterGc, String load) {
    }

    @Test
    void footprint() throws Exception {
        List<Start> starts = new ArrayList<>();
        List<Sample> samples = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        String jvmOptions;
        Sandbox.Options options = Sandbox.options().stateDir(Path.of("target", "sandbox-operator-benchmark"))
                .withoutOperator();
        // options to try beside the chart's, e.g. -Dbenchmark.operatorJvmOptions="-XX:TieredStopAtLevel=1"
        for (String option : System.getProperty("benchmark.operatorJvmOptions", "").split(" ")) {
            if (!option.isBlank()) {
                options.operatorJvmOption(option);
            }
        }
        Path floorJar = FLOOR ? FootprintFloor.build() : null;
        try (Sandbox sandbox = Sandbox.start(options)) {
            OperatorProcess operator = null;
            Path floorLog = sandbox.stateDir().resolve("floor.log").toAbsolutePath();
            for (int run = 1; run <= RUNS; run++) {
                if (operator != null) {
                    sandbox.stopOperator();
                }
                if (floorJar != null) {
                    // the baseline first, alone, the same way
                    try (OperatorProcess floor = sandbox.application(floorJar, floorLog.getFileName().toString())) {
                        timedStart("floor", floorLog, () -> floor.start(Duration.ofSeconds(90)), starts);
                        samples.add(sample("floor idle, start " + run + " (+" + SETTLE.toSeconds() + " s)", floor,
                                true));
                    }
                }
                operator = timedStart("operator", sandbox.stateDir().resolve("operator.log").toAbsolutePath(),
                        sandbox::startOperator, starts);
                // a forced GC shrinks the heap and with it RSS: only where nothing is measured after it
                samples.add(sample("idle, start " + run + " (+" + SETTLE.toSeconds() + " s)", operator,
                        run < RUNS));
            }
            jvmOptions = jvmOptions(operator.pid());

            SandboxClusters clusters = new SandboxClusters(sandbox.client(), "default");
            String loadBefore = load();
            Duration cpu0 = cpu(operator.pid());
            long t0 = System.nanoTime();
            for (int i = 0; i < CLUSTERS; i++) {
                clusters.create("fp" + i, MEMBERS, "3.5.35");
            }
            await().atMost(CONVERGE).pollInterval(Duration.ofSeconds(1)).until(() -> IntStream.range(0, CLUSTERS)
                    .allMatch(i -> converged(clusters, "fp" + i)));
            double converge = (System.nanoTime() - t0) / 1e9;
            Duration cpu1 = cpu(operator.pid());
            notes.add(String.format(Locale.ROOT, "%d clusters of %d members created at once; all Available with %d"
                    + " healthy voting members and ready pods after %.1f s (load before: %s); operator CPU time"
                    + " meanwhile %.1f s", CLUSTERS, MEMBERS, MEMBERS, converge, loadBefore,
                    seconds(cpu1.minus(cpu0))));
            samples.add(sample(CLUSTERS + "x" + MEMBERS + " Available", operator, false));

            Duration cpu2 = cpu(operator.pid());
            long t1 = System.nanoTime();
            Thread.sleep(INTERVAL.multipliedBy(INTERVALS).toMillis());
            double window = (System.nanoTime() - t1) / 1e9;
            Duration cpu3 = cpu(operator.pid());
            long stillConverged = IntStream.range(0, CLUSTERS).filter(i -> converged(clusters, "fp" + i)).count();
            samples.add(sample(CLUSTERS + "x" + MEMBERS + " +" + INTERVALS + " intervals (" + INTERVALS
                    * INTERVAL.toSeconds() + " s)", operator, true));
            notes.add(String.format(Locale.ROOT, "steady state: operator CPU time %.2f s in %.0f s (%.1f %% of one"
                    + " core); %d of %d clusters still converged at the end", seconds(cpu3.minus(cpu2)), window,
                    100 * seconds(cpu3.minus(cpu2)) / window, stillConverged, CLUSTERS));
            notes.add(etcdMembers(clusters));
            if (floorJar != null) {
                // the baseline again, beside the running operator, caching the same member pods
                try (OperatorProcess floor = sandbox.application(floorJar, floorLog.getFileName().toString())) {
                    floor.start(Duration.ofSeconds(90));
                    Thread.sleep(SETTLE.toMillis());
                    samples.add(sample("floor beside " + CLUSTERS + "x" + MEMBERS + " (+" + SETTLE.toSeconds()
                            + " s)", floor, true));
                }
            }
        }

        String report = report(starts, samples, notes, jvmOptions);
        Files.createDirectories(Path.of("target", "benchmarks"));
        Files.writeString(Path.of("target", "benchmarks", "operator.txt"), report);
        System.out.println(report);
    }

    /**
     * Starts a process with {@code starter}, which returns once it is ready, and leaves it alone for {@link #SETTLE};
     * records how long it took to be ready, Quarkus' "started in" from {@code log}, and its CPU time.
     */
    private static OperatorProcess timedStart(String app, Path log, Supplier<OperatorProcess> starter,
            List<Start> starts) throws IOException, InterruptedException {
        long logOffset = Files.exists(log) ? Files.size(log) : 0;
        String load = load();
        long t0 = System.nanoTime();
        OperatorProcess process = starter.get();
        double ready = (System.nanoTime() - t0) / 1e9;
        Duration cpuAtReady = cpu(process.pid());
        Thread.sleep(SETTLE.toMillis());
        starts.add(new Start(app, ready, startedIn(log, logOffset), seconds(cpuAtReady),
                seconds(cpu(process.pid()).minus(cpuAtReady)), load));
        return process;
    }

    private static boolean converged(SandboxClusters clusters, String name) {
        EtcdClusterStatus s = clusters.status(name);
        return s.getConditions() != null
                && s.getConditions().stream().anyMatch(c -> c.getType().equals("Available")
                        && c.getStatus().equals("True"))
                && s.getMemberDetails() != null && s.getMemberDetails().size() == MEMBERS
                && s.getMemberDetails().stream().allMatch(m -> m.getHealthy() && !m.getLearner())
                && Integer.valueOf(MEMBERS).equals(s.getReadyMembers())
                && clusters.pods(name).size() == MEMBERS;
    }

    /**
     * RSS and peak RSS first, then the heap as /q/metrics shows it, then, if asked, the heap after a full GC
     * (jcmd GC.run): the live heap.
     */
    private static Sample sample(String what, OperatorProcess operator, boolean forceGc) {
        String load = load();
        String status = read(Path.of("/proc", Long.toString(operator.pid()), "status"));
        PrometheusText metrics = PrometheusText.parse(operator.get("/q/metrics").body());
        double heapAfterGc = Double.NaN;
        if (forceGc && jcmd(operator.pid(), "GC.run")) {
            heapAfterGc = sum(PrometheusText.parse(operator.get("/q/metrics").body()), "jvm_memory_used_bytes",
                    "heap");
        }
        return new Sample(what, kib(status, "VmRSS"), kib(status, "VmHWM"), (int) kib(status, "Threads"),
                loadedClasses(operator.pid()), sum(metrics, "jvm_memory_used_bytes", "heap"),
                sum(metrics, "jvm_memory_committed_bytes", "heap"),
                sum(metrics, "jvm_memory_used_bytes", "nonheap"), heapAfterGc, load);
    }

    private static double sum(PrometheusText metrics, String name, String area) {
        return metrics.series(name, "area", area).stream().mapToDouble(PrometheusText.Sample::value).sum();
    }

    private static long kib(String procStatus, String field) {
        return procStatus.lines().filter(l -> l.startsWith(field + ":")).findFirst()
                .map(l -> Long.parseLong(l.substring(field.length() + 1).replace("kB", "").strip()))
                .orElseThrow(() -> new IllegalStateException(field + " missing in /proc/<pid>/status"));
    }

    /** Classes loaded and not unloaded, from the archives and from the jars; -1 when jcmd cannot say. */
    private static long loadedClasses(long pid) {
        String counters = run(List.of(java("jcmd"), Long.toString(pid), "PerfCounter.print"));
        if (counters == null) {
            return -1;
        }
        long n = 0;
        for (String line : counters.lines().toList()) {
            Matcher m = CLASS_COUNTER.matcher(line);
            if (m.matches()) {
                n += (m.group(1).toLowerCase(Locale.ROOT).startsWith("un") ? -1 : 1) * Long.parseLong(m.group(2));
            }
        }
        return n;
    }

    private static double startedIn(Path log, long offset) throws IOException {
        byte[] all = Files.readAllBytes(log);
        String text = new String(Arrays.copyOfRange(all, (int) Math.min(offset, all.length), all.length),
                StandardCharsets.UTF_8);
        Matcher m = STARTED_IN.matcher(text);
        return m.find() ? Double.parseDouble(m.group(1)) : Double.NaN;
    }

    private static Duration cpu(long pid) {
        return ProcessHandle.of(pid).flatMap(p -> p.info().totalCpuDuration()).orElse(Duration.ZERO);
    }

    private static double seconds(Duration d) {
        return d.toNanos() / 1e9;
    }

    /** The -X and -XX options on the operator's command line. */
    private static String jvmOptions(long pid) {
        String cmdline = read(Path.of("/proc", Long.toString(pid), "cmdline"));
        return String.join(" ", Arrays.stream(cmdline.split("\0")).filter(a -> a.startsWith("-X")).toList());
    }

    /** For scale: the members' own etcd processes and their resident memory. */
    private static String etcdMembers(SandboxClusters clusters) {
        long count = 0;
        long rssKiB = 0;
        for (int i = 0; i < CLUSTERS; i++) {
            for (Pod pod : clusters.pods("fp" + i)) {
                Path status = Path.of("/proc", Long.toString(SandboxClusters.pid(pod)), "status");
                if (Files.exists(status)) {
                    count++;
                    rssKiB += kib(read(status), "VmRSS");
                }
            }
        }
        return String.format(Locale.ROOT, "for scale: %d etcd member processes, %.0f MiB RSS together", count,
                rssKiB / 1024.0);
    }

    /** The load averages (1, 5, 15 min), as {@code uptime} prints them. */
    static String load() {
        String[] f = read(Path.of("/proc/loadavg")).split(" ");
        return f[0] + " " + f[1] + " " + f[2];
    }

    private static String read(Path file) {
        try {
            return Files.readString(file, StandardCharsets.ISO_8859_1);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String java(String tool) {
        return Path.of(System.getProperty("java.home"), "bin", tool).toString();
    }

    private static boolean jcmd(long pid, String command) {
        return run(List.of(java("jcmd"), Long.toString(pid), command)) != null;
    }

    /** The command's output, or null when it failed or took more than a minute. */
    private static String run(List<String> command) {
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            byte[] out = p.getInputStream().readAllBytes();
            if (!p.waitFor(1, TimeUnit.MINUTES)) {
                p.destroyForcibly();
                return null;
            }
            return p.exitValue() == 0 ? new String(out, StandardCharsets.UTF_8) : null;
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    /** MaxHeapSize in MiB as the JVM that runs the operator works it out with these options. */
    private static String maxHeap(String... options) {
        List<String> command = new ArrayList<>(List.of(java("java")));
        command.addAll(List.of(options));
        command.addAll(List.of("-XX:+PrintFlagsFinal", "-version"));
        String out = run(command);
        if (out == null) {
            return "?";
        }
        String gc = out.lines().filter(l -> l.matches(".*bool Use(G1|Parallel|Serial|Z|Shenandoah)GC\\s+= true.*"))
                .findFirst().map(l -> l.replaceAll(".*bool (\\S+).*", "$1")).orElse("?");
        return out.lines().filter(l -> l.matches(".*size_t MaxHeapSize\\s+.*")).findFirst()
                .map(l -> String.format(Locale.ROOT, "%.0f MiB", Long.parseLong(l.replaceAll(".*=\\s*(\\d+).*",
                        "$1")) / 1048576.0) + (options.length == 0 ? " (" + gc + ")" : ""))
                .orElse("?");
    }

    private static String report(List<Start> starts, List<Sample> samples, List<String> notes, String jvmOptions) {
        StringBuilder r = new StringBuilder();
        r.append("operator footprint benchmark, ").append(Instant.now()).append(", ")
                .append(Runtime.getRuntime().availableProcessors()).append(" cores, java ")
                .append(System.getProperty("java.version")).append('\n');
        r.append("operator JVM options (the chart's, as the image's launcher passes them): ").append(jvmOptions)
                .append('\n');
        r.append("reconcile interval ").append(INTERVAL.toSeconds()).append(" s (shipped default)\n\n");

        r.append("start-up, launch to /q/health/ready UP (polled every 250 ms), Quarkus' \"started in\", the\n"
                + "process's CPU time (user+system) at ready, and its CPU time in the " + SETTLE.toSeconds()
                + " s idle after; load at launch.\nfloor: " + FootprintFloor.PROJECT + ", the stack alone (a"
                + " reconciler of Pods that does nothing), started the same way before each start of the operator\n");
        for (String app : List.of("floor", "operator")) {
            List<Start> of = starts.stream().filter(s -> s.app().equals(app)).toList();
            for (int i = 0; i < of.size(); i++) {
                Start s = of.get(i);
                r.append(String.format(Locale.ROOT, "  %-8s start %d: ready %5.2f s   started in %5.2f s   CPU %5.2f s"
                        + "   idle CPU %4.2f s   load %s%n", app, i + 1, s.readySeconds(), s.quarkusSeconds(),
                        s.cpuAtReady(), s.idleCpu(), s.load()));
            }
            if (!of.isEmpty()) {
                r.append(String.format(Locale.ROOT, "  %-8s median:  ready %5.2f s   started in %5.2f s%n", app,
                        median(of.stream().map(Start::readySeconds).toList()),
                        median(of.stream().map(Start::quarkusSeconds).toList())));
            }
        }
        r.append('\n');

        r.append("memory (MiB); RSS and peak from /proc/<pid>/status, heap used and committed, non-heap used from\n"
                + "/q/metrics (sums over pools); heap-gc: heap used after jcmd GC.run (the live heap), taken after the\n"
                + "other figures and only where nothing is measured later in the same process\n");
        r.append(String.format(Locale.ROOT, "  %-34s %7s %7s %8s %9s %8s %8s %7s %7s  %s%n", "when", "VmRSS",
                "VmHWM", "heap", "heap-com", "nonheap", "heap-gc", "thrds", "classes", "load"));
        for (Sample s : samples) {
            r.append(String.format(Locale.ROOT, "  %-34s %7.1f %7.1f %8.1f %9.1f %8.1f %8s %7d %7d  %s%n", s.what(),
                    s.rssKiB() / 1024.0, s.hwmKiB() / 1024.0, mib(s.heapUsed()), mib(s.heapCommitted()),
                    mib(s.nonHeapUsed()), Double.isNaN(s.heapAfterGc()) ? "-"
                            : String.format(Locale.ROOT, "%.1f", mib(s.heapAfterGc())), s.threads(), s.classes(),
                    s.load()));
        }
        r.append('\n');
        notes.forEach(n -> r.append(n).append('\n'));
        r.append('\n');
        r.append("max heap as the JVM works it out:\n");
        r.append("  this machine, no options:                      ").append(maxHeap()).append('\n');
        r.append("  with the operator's options above:             ").append(maxHeap(jvmOptions.split(" ")))
                .append('\n');
        r.append("load at the end: ").append(load()).append('\n');
        return r.toString();
    }

    private static double mib(double bytes) {
        return bytes / 1048576.0;
    }

    private static double median(List<Double> values) {
        List<Double> sorted = values.stream().sorted().toList();
        return sorted.get(sorted.size() / 2);
    }
}
