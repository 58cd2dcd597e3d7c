package dev.etcdoperator.sandbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.etcdoperator.api.v1beta2.Condition;
import dev.etcdoperator.api.v1beta2.EtcdBackup;
import dev.etcdoperator.api.v1beta2.EtcdBackupStatus;
import dev.etcdoperator.etcd.SnapshotStream;
import dev.etcdoperator.sandbox.support.BenchmarkData;
import dev.etcdoperator.sandbox.support.CpuTimes;
import dev.etcdoperator.sandbox.support.Kubectl;
import dev.etcdoperator.sandbox.support.SandboxClusters;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.MetadataDirective;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * Measures, in the sandbox, a one-shot backup by the packaged operator (heap capped at {@code -Xmx128m}) of a
 * 1-member cluster holding about 64 MiB and then about 1.1 GiB, beside, in the same run on the same data,
 * {@code etcdctl snapshot save} to a local file and plain uploads of that file to the same S3 server with the AWS
 * SDK (one PutObject stream; a multipart upload of 8 MiB parts, one at a time), and etcd's snapshot streamed
 * straight into one PutObject (the alternative design a backup could have). It also reports the operator's heap
 * during each backup (scraped from /q/metrics every second, and from its GC log) and where the backup's time goes
 * (from the AWS SDK's request log). Not a test: it reports figures (target/benchmarks/backup.txt) and only fails
 * when a backup does not succeed at all (after writing the report). Run with
 * {@code ./mvnw -B verify -Pbenchmarks -Dit.test=BackupBenchmark}.
 *
 * <p>System properties: {@code benchmark.runs} (3), {@code benchmark.smallMiB} (64), {@code benchmark.largeMiB}
 * (1100), {@code benchmark.operatorHeap} (128m), {@code benchmark.partSize} and {@code benchmark.parallelParts}
 * (the operator's properties; its defaults when absent), {@code benchmark.operatorJvmOptions} (more options
 * for the operator's JVM, separated by spaces, e.g. a flight recording), {@code benchmark.variants} (e.g.
 * {@code 16777216x2,8388608x4}: one more large operator backup per part-size x parallel-parts pair, the operator
 * restarted with them).
 */
class BackupBenchmark {
    static final int RUNS = Integer.getInteger("benchmark.runs", 3);
    static final int SMALL_MIB = Integer.getInteger("benchmark.smallMiB", 64);
    static final int LARGE_MIB = Integer.getInteger("benchmark.largeMiB", 1100);
    static final String HEAP = System.getProperty("benchmark.operatorHeap", "128m");
    static final String PART_SIZE = System.getProperty("benchmark.partSize", "");
    static final String PARALLEL_PARTS = System.getProperty("benchmark.parallelParts", "");
    static final String VARIANTS = System.getProperty("benchmark.variants", "");
    static final String NS = "default";
    static final String CLUSTER = "bk";
    static final String BUCKET = Sandbox.S3_BUCKET;
    static final int RAW_PART = 8 * 1024 * 1024;
    static final Duration BACKUP_LIMIT = Duration.ofMinutes(10);
    static final Path STATE = Path.of("target", "sandbox-backup-benchmark").toAbsolutePath();
    static final Path GC_LOG = STATE.resolve("operator-gc.log");

    private final Map<String, Map<String, List<Double>>> figures = new LinkedHashMap<>();
    private final List<String> notes = new ArrayList<>();
    private final List<String> failures = new ArrayList<>();
    private final HttpClient http = HttpClient.newHttpClient();
    private Sandbox sandbox;
    private S3Client s3;
    private String endpoint;
    private int backups;

    @Test
    void backupBesideEtcdctlAndARawUpload() throws Exception {
        Sandbox.Options options = Sandbox.options().stateDir(STATE).withS3()
                .operatorJvmOption("-Xmx" + HEAP)
                .operatorJvmOption("-Xlog:gc:file=" + GC_LOG)
                // one line per S3 request sent and answered, with the time: where the backup's time goes
                .operatorProperty("quarkus.log.category.\"software.amazon.awssdk.request\".level", "DEBUG");
        for (String option : System.getProperty("benchmark.operatorJvmOptions", "").split(" ")) {
            if (!option.isBlank()) {
                options.operatorJvmOption(option);
            }
        }
        if (!PART_SIZE.isEmpty()) {
            options.operatorProperty("etcd-operator.backup.part-size", PART_SIZE);
        }
        if (!PARALLEL_PARTS.isEmpty()) {
            options.operatorProperty("etcd-operator.backup.parallel-parts", PARALLEL_PARTS);
        }
        long started = System.nanoTime();
        try {
            run(options);
        } finally {
            report(Duration.ofNanos(System.nanoTime() - started));
        }
        assertThat(failures).as("operator backups that failed (see target/benchmarks/backup.txt)").isEmpty();
    }

    private void run(Sandbox.Options options) throws Exception {
        try (Sandbox sb = Sandbox.start(options); S3Client client = sb.s3().client()) {
            sandbox = sb;
            s3 = client;
            SandboxClusters clusters = new SandboxClusters(sandbox.client(), NS);
            sandbox.client().resource(BenchmarkData.largeQuotaCluster(CLUSTER, NS)).create();
            clusters.awaitConverged(CLUSTER, 1);
            endpoint = clusters.endpointList(CLUSTER).get(0);

            fill(0, SMALL_MIB);
            for (int run = 0; run < RUNS; run++) {
                measure("small", run, true);
            }
            fill(SMALL_MIB, LARGE_MIB);
            for (int run = 0; run < RUNS; run++) {
                measure("large", run, true);
            }
            for (String variant : VARIANTS.split(",")) {
                if (variant.isBlank()) {
                    continue;
                }
                String[] v = variant.trim().split("x");
                sandbox.stopOperator();
                options.operatorProperty("etcd-operator.backup.part-size", v[0]);
                options.operatorProperty("etcd-operator.backup.parallel-parts", v[1]);
                sandbox.startOperator();
                measure("large, part-size " + v[0] + ", parallel-parts " + v[1], 0, false);
            }
        }
    }

    /** One run on the current data: etcdctl, the raw uploads (when {@code baselines}), then the operator. */
    private void measure(String size, int run, boolean baselines) throws Exception {
        Map<String, List<Double>> f = figures.computeIfAbsent(size, k -> new LinkedHashMap<>());
        Path dir = Files.createDirectories(STATE.resolve("runs"));
        String prefix = "bench-" + size.replaceAll("[^a-z0-9]+", "-") + "-" + run + "/";
        if (baselines) {
            Path file = dir.resolve("etcdctl-" + run + ".db");
            Files.deleteIfExists(file);
            CpuTimes cpu = cpuSample();
            long t0 = System.nanoTime();
            Kubectl.Result saved = etcdctl("--endpoints=" + endpoint, "snapshot", "save", file.toString());
            double etcdctl = seconds(t0);
            cpu(f, "etcdctl snapshot save", cpu, etcdctl);
            assertThat(saved.ok()).as(saved.output()).isTrue();
            long bytes = Files.size(file);
            add(f, "snapshot size (MB)", bytes / 1e6);
            add(f, "etcdctl snapshot save (MB/s)", bytes / 1e6 / etcdctl);

            cpu = cpuSample();
            t0 = System.nanoTime();
            s3.putObject(b -> b.bucket(BUCKET).key(prefix + "put.db"), RequestBody.fromFile(file));
            double put = seconds(t0);
            add(f, "raw S3 PutObject of that file (MB/s)", bytes / 1e6 / put);
            cpu(f, "raw PutObject", cpu, put);

            cpu = cpuSample();
            t0 = System.nanoTime();
            double complete = BenchmarkData.rawMultipart(s3, BUCKET, prefix + "multipart.db", file, RAW_PART);
            double multipart = seconds(t0);
            add(f, "raw S3 multipart, 8 MiB parts, 1 at a time (MB/s)", bytes / 1e6 / multipart);
            cpu(f, "raw multipart", cpu, multipart);
            add(f, "  its CompleteMultipartUpload (s)", complete);

            t0 = System.nanoTime();
            s3.copyObject(b -> b.sourceBucket(BUCKET).sourceKey(prefix + "put.db").destinationBucket(BUCKET)
                    .destinationKey(prefix + "copy.db").metadataDirective(MetadataDirective.REPLACE)
                    .metadata(Map.of("etcd-backup-sha256", "x")));
            add(f, "raw S3 CopyObject of that object (s)", seconds(t0));

            cpu = cpuSample();
            t0 = System.nanoTime();
            long streamed = 0;
            try (InputStream in = SnapshotStream.open(endpoint, null, Instant.now().plus(BACKUP_LIMIT))) {
                byte[] buffer = new byte[1 << 16];
                for (int n; (n = in.read(buffer)) >= 0; ) {
                    streamed += n;
                }
            }
            double stream = seconds(t0);
            add(f, "snapshot stream alone, Java gRPC (MB/s)", streamed / 1e6 / stream);
            cpu(f, "snapshot stream alone", cpu, stream);
            streamedPut(f, prefix, streamed);
            Files.delete(file);
        }
        operatorBackup(f, prefix);
        for (S3Object o : s3.listObjectsV2(b -> b.bucket(BUCKET).prefix(prefix)).contents()) {
            s3.deleteObject(b -> b.bucket(BUCKET).key(o.key()));
        }
    }

    /**
     * What a backup through one PutObject could do here: etcd's snapshot stream sent straight into a single
     * PutObject of its known length (SDK defaults), nothing checked, nothing kept in memory. Not the operator's
     * design (which uploads in parts); a measure of the alternative.
     */
    private void streamedPut(Map<String, List<Double>> f, String prefix, long length) {
        CpuTimes cpu = cpuSample();
        long t0 = System.nanoTime();
        try (InputStream in = SnapshotStream.open(endpoint, null, Instant.now().plus(BACKUP_LIMIT))) {
            s3.putObject(b -> b.bucket(BUCKET).key(prefix + "streamed.db"),
                    RequestBody.fromContentProvider(() -> in, length, "application/octet-stream"));
        } catch (Exception e) {
            notes.add("the snapshot streamed into one PutObject failed: " + e);
            return;
        }
        double seconds = seconds(t0);
        long stored = s3.headObject(b -> b.bucket(BUCKET).key(prefix + "streamed.db")).contentLength();
        if (stored != length) {
            notes.add("the snapshot streamed into one PutObject stored " + stored + " bytes of " + length);
            return;
        }
        add(f, "snapshot streamed from etcd into one PutObject (MB/s)", length / 1e6 / seconds);
        cpu(f, "streamed PutObject", cpu, seconds);
    }

    private void operatorBackup(Map<String, List<Double>> f, String prefix) throws Exception {
        String name = "bench-" + (backups++);
        long logOffset = size(sandbox.operator().logFile());
        long gcOffset = size(GC_LOG);
        AtomicLong peak = new AtomicLong();
        AtomicInteger scrapes = new AtomicInteger();
        long idle = heapUsed();
        java.util.concurrent.ScheduledExecutorService scraper = java.util.concurrent.Executors.newSingleThreadScheduledExecutor();
        scraper.scheduleAtFixedRate(() -> {
            long used = heapUsed();
            if (used > 0) {
                peak.accumulateAndGet(used, Math::max);
                scrapes.incrementAndGet();
            }
        }, 0, 1, TimeUnit.SECONDS);
        Instant applied = Instant.now();
        CpuTimes cpu = cpuSample();
        long t0 = System.nanoTime();
        sandbox.client().resource(Serialization.unmarshal("""
                apiVersion: etcd.database.coreos.com/v1beta2
                kind: EtcdBackup
                metadata: {name: %s, namespace: %s}
                spec:
                  storageType: S3
                  etcdCluster: {name: %s}
                  backupPolicy: {timeoutInSecond: 900}
                  s3: {path: %s/%ssnapshot.db, awsSecret: aws, endpoint: "%s", forcePathStyle: true}
                """.formatted(name, NS, CLUSTER, BUCKET, prefix, sandbox.s3().endpoint()), EtcdBackup.class)).create();
        EtcdBackupStatus status;
        try {
            await().atMost(BACKUP_LIMIT).pollInterval(Duration.ofMillis(50)).until(() -> status(name).getSucceeded() != null);
            status = status(name);
        } finally {
            scraper.shutdownNow();
            scraper.awaitTermination(5, TimeUnit.SECONDS);
        }
        double total = seconds(t0);
        cpu(f, "operator backup", cpu, total);
        if (Boolean.TRUE.equals(status.getSucceeded())) {
            long bytes = status.getBackupSize();
            add(f, "operator: apply to succeeded (MB/s)", bytes / 1e6 / total);
            Matcher took = Pattern.compile(" in (\\d+) ms").matcher(condition(status).getMessage());
            assertThat(took.find()).as(condition(status).getMessage()).isTrue();
            add(f, "operator: its own duration (MB/s)", bytes / 1e6 / (Long.parseLong(took.group(1)) / 1e3));
            add(f, "operator: apply to succeeded (s)", total);
        } else {
            // deleted at once, so that its retry does not run into the next measurement
            sandbox.client().resources(EtcdBackup.class).inNamespace(NS).withName(name).delete();
            add(f, "operator: FAILED, apply to failure (s)", total);
            String failure = String.format(Locale.ROOT, "%s (%s): the operator's backup FAILED after %.1f s: %s", name,
                    prefix, total, status.getReason());
            notes.add(failure);
            failures.add(failure);
        }
        add(f, "operator heap: idle before (MiB)", idle / 1048576.0);
        add(f, "operator heap: peak of scrapes every second (MiB)", peak.get() / 1048576.0);
        gcFigures(f, read(GC_LOG, gcOffset));
        phases(f, read(sandbox.operator().logFile(), logOffset), applied,
                Boolean.TRUE.equals(status.getSucceeded()) ? status.getBackupSize() : 0);
        sandbox.client().resources(EtcdBackup.class).inNamespace(NS).withName(name).delete();
    }

    private CpuTimes cpuSample() {
        Map<String, Long> pids = new LinkedHashMap<>();
        pids.put("operator", sandbox.operator().pid());
        pids.put("minio", sandbox.s3().pid());
        pids.put("etcd", CpuTimes.pidOf("etcd"));
        pids.put("this JVM (clients)", ProcessHandle.current().pid());
        return CpuTimes.sample(pids);
    }

    /** How many cores a step kept busy, and the CPU seconds of each process in it. */
    private void cpu(Map<String, List<Double>> f, String step, CpuTimes before, double wallSeconds) {
        Map<String, Double> used = cpuSample().since(before);
        add(f, "  cpu: " + step + ", cores busy on the machine", used.remove("machine") / wallSeconds);
        used.forEach((process, seconds) -> add(f, "  cpu: " + step + ", " + process + " (s)", seconds));
    }

    private static final Pattern GC = Pattern.compile("(\\d+)([KMG])->(\\d+)([KMG])\\((\\d+)([KMG])\\)");

    /** From {@code -Xlog:gc} lines: the largest heap before a collection, the largest after one, how many. */
    private static void gcFigures(Map<String, List<Double>> f, String log) {
        double before = 0;
        double after = 0;
        int count = 0;
        for (String line : log.split("\n")) {
            Matcher m = GC.matcher(line);
            if (m.find() && line.contains("Pause")) {
                before = Math.max(before, mib(m.group(1), m.group(2)));
                if (line.contains("Pause Young") || line.contains("Pause Full")) {
                    // what survived a collection: the live set, plus whatever the old generation still holds
                    after = Math.max(after, mib(m.group(3), m.group(4)));
                }
                count++;
            }
        }
        add(f, "operator heap: GC log, max before a GC (MiB)", before);
        add(f, "operator heap: GC log, max after a young/full GC (MiB)", after);
        add(f, "operator heap: GC pauses during the backup", (double) count);
    }

    private static double mib(String n, String unit) {
        double v = Double.parseDouble(n);
        return switch (unit) {
            case "K" -> v / 1024;
            case "G" -> v * 1024;
            default -> v;
        };
    }

    private static final Pattern SDK_LINE = Pattern.compile(
            "^(\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d,\\d{3}) DEBUG \\[[^\\]]*\\] \\((.*?)\\) "
                    + "(Sending Request: .*|Received successful response: .*|Received failed response: .*)$");
    private static final DateTimeFormatter LOG_TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss,SSS");

    private record Call(String kind, Instant sent, Instant answered) {
        double seconds() {
            return Duration.between(sent, answered).toMillis() / 1e3;
        }
    }

    /**
     * Where the time went, from the AWS SDK's request log of this backup: before the multipart upload starts
     * (pick-up, bucket check, listings, choosing the member), the parts (while the snapshot is read), then each
     * call after the last part.
     */
    private void phases(Map<String, List<Double>> f, String log, Instant applied, long bytes) {
        List<Call> calls = new ArrayList<>();
        Map<String, List<Instant>> sentBy = new LinkedHashMap<>();
        Map<String, List<String>> kindBy = new LinkedHashMap<>();
        List<Instant> partSent = new ArrayList<>();
        List<Instant> partAnswered = new ArrayList<>();
        for (String line : log.split("\n")) {
            Matcher m = SDK_LINE.matcher(line);
            if (!m.find()) {
                continue;
            }
            Instant at = LocalDateTime.parse(m.group(1), LOG_TIME).atZone(ZoneId.systemDefault()).toInstant();
            String thread = m.group(2);
            String text = m.group(3);
            if (thread.startsWith("backup-upload-")) {
                (text.startsWith("Sending") ? partSent : partAnswered).add(at);
                continue;
            }
            if (text.startsWith("Sending")) {
                sentBy.computeIfAbsent(thread, k -> new ArrayList<>()).add(at);
                kindBy.computeIfAbsent(thread, k -> new ArrayList<>()).add(kind(text));
            } else if (sentBy.containsKey(thread) && !sentBy.get(thread).isEmpty()) {
                calls.add(new Call(kindBy.get(thread).remove(0), sentBy.get(thread).remove(0), at));
            }
        }
        Call create = calls.stream().filter(c -> c.kind().equals("CreateMultipartUpload")).findFirst().orElse(null);
        if (create == null || partAnswered.isEmpty()) {
            notes.add("no S3 request log for one backup: no breakdown");
            return;
        }
        Instant lastPart = partAnswered.stream().max(Instant::compareTo).get();
        add(f, "  phase: apply to CreateMultipartUpload sent (s)", Duration.between(applied, create.sent()).toMillis() / 1e3);
        double partsSeconds = Duration.between(create.answered(), lastPart).toMillis() / 1e3;
        add(f, "  phase: parts (snapshot read and uploaded) (s)", partsSeconds);
        if (bytes > 0) {
            add(f, "  phase: parts (snapshot read and uploaded) (MB/s)", bytes / 1e6 / partsSeconds);
        }
        double partSeconds = (partAnswered.stream().mapToLong(Instant::toEpochMilli).sum()
                - partSent.stream().mapToLong(Instant::toEpochMilli).sum()) / 1e3;
        add(f, "  phase: one UploadPart, average (s)", partSeconds / partAnswered.size());
        Map<String, Double> after = new LinkedHashMap<>();
        for (Call c : calls) {
            if (!c.sent().isBefore(lastPart)) {
                after.merge(c.kind(), c.seconds(), Double::sum);
            }
        }
        after.forEach((kind, s) -> add(f, "  phase: " + kind + " after the parts (s)", s));
        Instant lastCall = calls.stream().map(Call::answered).max(Instant::compareTo).get();
        add(f, "  phase: last S3 answer to the status seen (s)",
                Duration.between(lastCall, Instant.now()).toMillis() / 1e3);
    }

    private static String kind(String sending) {
        String method = field(sending, "httpMethod");
        String query = field(sending, "queryParameters");
        return switch (method) {
            case "HEAD" -> sending.contains("encodedPath=/" + BUCKET + "/") ? "HeadObject" : "HeadBucket";
            case "DELETE" -> query.contains("uploadId") ? "AbortMultipartUpload" : "DeleteObject";
            case "POST" -> query.contains("uploads") && !query.contains("uploadId") ? "CreateMultipartUpload"
                    : "CompleteMultipartUpload";
            case "PUT" -> sending.contains("x-amz-copy-source") ? "CopyObject" : "Put";
            default -> "List";
        };
    }

    private static String field(String text, String name) {
        Matcher m = Pattern.compile(name + "=(\\[[^\\]]*\\]|[^,)]*)").matcher(text);
        return m.find() ? m.group(1) : "";
    }

    /** The operator's heap in use (all heap pools), from /q/metrics; 0 when the scrape fails. */
    private long heapUsed() {
        try {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(sandbox.operator().url() + "/q/metrics"))
                    .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString());
            long sum = 0;
            for (String line : r.body().split("\n")) {
                if (line.startsWith("jvm_memory_used_bytes{") && line.contains("area=\"heap\"")) {
                    sum += (long) Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
                }
            }
            return sum;
        } catch (IOException e) {
            return 0;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 0;
        }
    }

    private void fill(int from, int to) throws Exception {
        long t0 = System.nanoTime();
        BenchmarkData.fill(endpoint, from, to);
        notes.add(String.format(Locale.ROOT, "filled %d values of 1 MiB (keys v-%05d..v-%05d) in %.1f s, 8 puts in flight",
                to - from, from, to - 1, seconds(t0)));
    }

    private EtcdBackupStatus status(String name) {
        EtcdBackup b = sandbox.client().resources(EtcdBackup.class).inNamespace(NS).withName(name).get();
        return b == null || b.getStatus() == null ? new EtcdBackupStatus() : b.getStatus();
    }

    private static Condition condition(EtcdBackupStatus status) {
        return status.getConditions().stream().filter(c -> c.getType().equals("BackupSucceeded")).findFirst()
                .orElseThrow();
    }

    private static Kubectl.Result etcdctl(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(BenchmarkData.bin().resolve("etcdctl").toString()));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().put("ETCDCTL_API", "3");
        Process p = builder.start();
        byte[] out = p.getInputStream().readAllBytes();
        if (!p.waitFor(5, TimeUnit.MINUTES)) {
            p.destroyForcibly();
        }
        return new Kubectl.Result(p.exitValue(), new String(out, StandardCharsets.UTF_8));
    }

    private void report(Duration took) throws IOException {
        StringBuilder r = new StringBuilder();
        r.append(String.format(Locale.ROOT, "backup benchmark, %d runs, operator -Xmx%s, part-size %s, parallel-parts %s,"
                + " took %.0f s, load average at the end: %s%n", RUNS, HEAP, PART_SIZE.isEmpty() ? "default" : PART_SIZE,
                PARALLEL_PARTS.isEmpty() ? "default" : PARALLEL_PARTS, took.toMillis() / 1e3, loadAverage()));
        notes.forEach(n -> r.append(n).append('\n'));
        r.append("MB = 10^6 bytes; MiB = 2^20 bytes\n");
        figures.forEach((size, f) -> {
            r.append('\n').append(size).append('\n');
            f.forEach((k, v) -> r.append(String.format(Locale.ROOT, "%-60s median %8.2f   runs %s%n", k, median(v),
                    v.stream().map(d -> String.format(Locale.ROOT, "%.2f", d)).toList())));
            List<Double> etcdctl = f.get("etcdctl snapshot save (MB/s)");
            List<Double> put = f.get("raw S3 PutObject of that file (MB/s)");
            List<Double> operator = f.get("operator: apply to succeeded (MB/s)");
            List<Double> own = f.get("operator: its own duration (MB/s)");
            if (etcdctl != null && put != null && operator == null) {
                r.append("against the target: no successful operator backup of this size\n");
            }
            if (etcdctl != null && put != null && operator != null) {
                double slower = Math.min(median(etcdctl), median(put));
                r.append(String.format(Locale.ROOT, "against the target (0.8x the slower of etcdctl and PutObject, medians:"
                        + " %.1f MB/s): apply to succeeded %.2fx, own duration %.2fx%n", slower,
                        median(operator) / slower, median(own) / slower));
                List<Double> multipart = f.get("raw S3 multipart, 8 MiB parts, 1 at a time (MB/s)");
                r.append(String.format(Locale.ROOT, "beside the raw multipart upload (the backup's own way of uploading,"
                        + " median %.1f MB/s): apply to succeeded %.2fx%n", median(multipart),
                        median(operator) / median(multipart)));
                bounds(r, f, median(put));
                List<Double> streamedPut = f.get("snapshot streamed from etcd into one PutObject (MB/s)");
                if (streamedPut != null) {
                    r.append(String.format(Locale.ROOT, "the snapshot streamed from etcd into one PutObject (not the"
                            + " operator's design): %.1f MB/s, %.2fx PutObject%n", median(streamedPut),
                            median(streamedPut) / median(put)));
                }
            }
        });
        Files.createDirectories(Path.of("target", "benchmarks"));
        Files.writeString(Path.of("target", "benchmarks", "backup.txt"), r);
        System.out.println(r);
    }

    /**
     * The fastest any backup could be here, from the CPU the baselines used: the snapshot stream and the upload
     * must both run, on this machine's cores, at once; a multipart upload's completion comes after its last part
     * and keeps one core of the store busy alone. Busy cores x seconds of each baseline, summed, spread over every
     * core at 100%.
     */
    private static void bounds(StringBuilder r, Map<String, List<Double>> f, double putMBs) {
        double size = median(f.get("snapshot size (MB)"));
        double cores = Runtime.getRuntime().availableProcessors();
        double stream = work(f, "snapshot stream alone", size / median(f.get("snapshot stream alone, Java gRPC (MB/s)")));
        double multipartSeconds = size / median(f.get("raw S3 multipart, 8 MiB parts, 1 at a time (MB/s)"));
        double multipart = work(f, "raw multipart", multipartSeconds);
        double complete = median(f.get("  its CompleteMultipartUpload (s)"));
        double put = work(f, "raw PutObject", size / putMBs);
        double multipartBound = complete + (stream + multipart - complete) / cores;
        double putBound = (stream + put) / cores;
        r.append(String.format(Locale.ROOT, "CPU bound, %.0f cores: the stream used %.1f core-s, the raw multipart upload"
                + " %.1f (its completion %.1f s), the raw PutObject %.1f; so a backup through a multipart upload takes at"
                + " least %.1f s (%.1f MB/s, %.2fx PutObject), one through a single PutObject at least %.1f s (%.1f MB/s,"
                + " %.2fx)%n", cores, stream, multipart, complete, put, multipartBound, size / multipartBound,
                size / multipartBound / putMBs, putBound, size / putBound, size / putBound / putMBs));
    }

    private static double work(Map<String, List<Double>> f, String step, double seconds) {
        return median(f.get("  cpu: " + step + ", cores busy on the machine")) * seconds;
    }

    private static String loadAverage() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).trim();
        } catch (IOException e) {
            return "unknown";
        }
    }

    private static void add(Map<String, List<Double>> f, String key, double value) {
        f.computeIfAbsent(key, k -> new ArrayList<>()).add(value);
        System.out.printf(Locale.ROOT, "[backup benchmark] %s %s: %.2f%n", LocalDateTime.now().toLocalTime(), key, value);
    }

    private static double seconds(long startNanos) {
        return (System.nanoTime() - startNanos) / 1e9;
    }

    private static long size(Path file) throws IOException {
        return Files.exists(file) ? Files.size(file) : 0;
    }

    /** The file from {@code offset} on (all of it when it was rewritten since). */
    private static String read(Path file, long offset) throws IOException {
        if (!Files.exists(file)) {
            return "";
        }
        byte[] all = Files.readAllBytes(file);
        int from = offset <= all.length ? (int) offset : 0;
        return new String(all, from, all.length - from, StandardCharsets.UTF_8);
    }

    /** The middle value; the mean of the two middle ones for an even count. */
    private static double median(List<Double> values) {
        List<Double> sorted = values.stream().sorted().toList();
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }
}
