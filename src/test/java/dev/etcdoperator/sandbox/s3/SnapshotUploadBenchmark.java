package dev.etcdoperator.sandbox.s3;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;

import dev.etcdoperator.core.backup.S3Location;
import dev.etcdoperator.sandbox.support.BenchmarkData;
import dev.etcdoperator.storage.BackupCipher;
import dev.etcdoperator.storage.BackupKey;
import dev.etcdoperator.storage.BackupStore;
import dev.etcdoperator.storage.S3Settings;
import dev.etcdoperator.storage.ServerSideEncryption;
import dev.etcdoperator.storage.SnapshotUpload;
import dev.etcdoperator.storage.Uploaded;
import dev.etcdoperator.storage.VerifiedBackup;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttribute;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.interceptor.SdkExecutionAttribute;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * The operator's upload path alone ({@link SnapshotUpload}, fed from a file shaped as an etcd snapshot: random
 * bytes and their SHA-256 trailer) beside plain uploads of the same file to the same sandbox S3 server, with the
 * server's store on disk and on tmpfs ({@code /dev/shm}), so that the store's own cost and the operator's show
 * apart from etcd. The time of each S3 operation is summed by an interceptor, the CPU time of MinIO and of this
 * JVM (the uploader) is read from /proc, and how the first part was signed is printed. Not a
 * test: it reports figures (target/benchmarks/snapshot-upload.txt). Run with
 * {@code ./mvnw -B verify -Pbenchmarks -Dit.test=SnapshotUploadBenchmark}.
 *
 * <p>System properties: {@code benchmark.runs} (1), {@code benchmark.uploadMiB} (1024), {@code benchmark.stores}
 * ({@code disk,tmpfs}), {@code benchmark.variants} (part-size x parallel-parts pairs, {@code 8388608x2}),
 * {@code benchmark.chunkedEncoding} (false, as in the operator's client; true for the SDK's default aws-chunked bodies),
 * {@code benchmark.encryption} (true: client-side encryption beside the same path without it).
 */
class SnapshotUploadBenchmark {
    static final int RUNS = Integer.getInteger("benchmark.runs", 1);
    static final int MIB = Integer.getInteger("benchmark.uploadMiB", 1024);
    static final String STORES = System.getProperty("benchmark.stores", "disk,tmpfs");
    static final String VARIANTS = System.getProperty("benchmark.variants", "8388608x2");
    static final boolean CHUNKED = Boolean.parseBoolean(System.getProperty("benchmark.chunkedEncoding", "false"));
    static final boolean ENCRYPTION = Boolean.parseBoolean(System.getProperty("benchmark.encryption", "true"));
    static final String BUCKET = "bench";
    static final int RAW_PART = 8 * 1024 * 1024;
    static final Path WORK = Path.of("target", "snapshot-upload-benchmark").toAbsolutePath();

    private final Map<String, List<Double>> figures = new LinkedHashMap<>();
    private final Map<String, Double> operationSeconds = new ConcurrentHashMap<>();
    private final Map<String, String> signing = new ConcurrentHashMap<>();

    @Test
    void operatorUploadBesideRawUploads() throws Exception {
        Files.createDirectories(WORK);
        Path file = WORK.resolve("snapshot.db");
        long size = writeSnapshotShaped(file, (long) MIB * 1024 * 1024);
        try {
            for (String store : STORES.split(",")) {
                Path dir = store.equals("tmpfs") ? Path.of("/dev/shm", "snapshot-upload-benchmark")
                        : WORK.resolve("server");
                BenchmarkData.deleteTree(dir);
                try (S3Server server = S3Server.start(S3Server.Settings.in(dir).withBuckets(BUCKET));
                        S3Client s3 = client(server.endpoint())) {
                    for (int run = 0; run < RUNS; run++) {
                        measure(store, run, server, s3, file, size);
                    }
                } finally {
                    BenchmarkData.deleteTree(dir);
                }
            }
        } finally {
            Files.deleteIfExists(file);
            report(size);
        }
    }

    private static dev.etcdoperator.sandbox.support.CpuTimes cpu(S3Server server) {
        return dev.etcdoperator.sandbox.support.CpuTimes.sample(Map.of("minio", server.pid(),
                "this JVM (uploader)", ProcessHandle.current().pid()));
    }

    private void measure(String store, int run, S3Server server, S3Client s3, Path file, long size) throws Exception {
        String prefix = store + "-" + run + "/";
        long t0 = System.nanoTime();
        s3.putObject(b -> b.bucket(BUCKET).key(prefix + "put.db"), RequestBody.fromFile(file));
        add(store + ": raw PutObject (MB/s)", size / 1e6 / seconds(t0));

        operationSeconds.clear();
        t0 = System.nanoTime();
        BenchmarkData.rawMultipart(s3, BUCKET, prefix + "multipart.db", file, RAW_PART);
        add(store + ": raw multipart, 8 MiB parts, 1 at a time (MB/s)", size / 1e6 / seconds(t0));
        add(store + ":   its CompleteMultipartUpload (s)", operationSeconds.getOrDefault("CompleteMultipartUpload", 0.0));

        t0 = System.nanoTime();
        s3.copyObject(b -> b.sourceBucket(BUCKET).sourceKey(prefix + "put.db").destinationBucket(BUCKET)
                .destinationKey(prefix + "copy.db"));
        add(store + ": raw CopyObject (s)", seconds(t0));

        for (String variant : VARIANTS.split(",")) {
            String[] v = variant.trim().split("x");
            SnapshotUpload upload = new SnapshotUpload(s3, Integer.parseInt(v[0]), Integer.parseInt(v[1]));
            String label = store + ": operator upload " + v[0] + " x " + v[1];
            operationSeconds.clear();
            t0 = System.nanoTime();
            dev.etcdoperator.sandbox.support.CpuTimes cpu = cpu(server);
            Uploaded uploaded;
            try (InputStream in = new BufferedInputStream(Files.newInputStream(file), 1 << 16)) {
                uploaded = upload.upload(in, new S3Location(BUCKET, prefix + "operator-" + variant + ".db"),
                        Map.of("etcd-revision", "1", "etcd-backup-owner", "bench/upload"), Instant.now().plus(Duration.ofMinutes(10)));
            }
            add(label + " (MB/s)", size / 1e6 / seconds(t0));
            cpu(server).since(cpu).forEach((process, used) -> add(label + ", CPU of " + process + " (s)", used));
            assertThat(uploaded.size()).isEqualTo(size);
            operationSeconds.forEach((op, s) -> add(label + ", " + op + " summed (s)", s));
        }
        if (ENCRYPTION) {
            measureEncryption(store, server, s3, prefix, file, size);
        }
        for (S3Object o : s3.listObjectsV2(b -> b.bucket(BUCKET).prefix(prefix)).contents()) {
            s3.deleteObject(b -> b.bucket(BUCKET).key(o.key()));
        }
    }

    /**
     * Client-side encryption beside the same path without it, in the same run: the upload (8 MiB x 2) of the plain
     * and of the encrypted stream, the read-back verification of each (the restore's preflight: the encrypted one
     * decrypted and both digests checked), and the cipher alone, in memory, with no store.
     */
    private void measureEncryption(String store, S3Server server, S3Client s3, String prefix, Path file, long size)
            throws Exception {
        byte[] keyBytes = new byte[32];
        new Random(5).nextBytes(keyBytes);
        BackupKey key = BackupKey.of(keyBytes, "bench/key[key]");
        S3Settings settings = new S3Settings(S3Server.ACCESS_KEY, S3Server.SECRET_KEY, null, S3Server.REGION,
                URI.create(server.endpoint()), true);
        for (BackupKey k : new BackupKey[] {null, key}) {
            String label = store + ": " + (k == null ? "plain" : "encrypted");
            S3Location target = new S3Location(BUCKET, prefix + (k == null ? "plain.db" : "encrypted.db"));
            SnapshotUpload upload = new SnapshotUpload(s3, 8 * 1024 * 1024, 2, ServerSideEncryption.NONE, k);
            dev.etcdoperator.sandbox.support.CpuTimes cpu = cpu(server);
            long t0 = System.nanoTime();
            try (InputStream in = new BufferedInputStream(Files.newInputStream(file), 1 << 16)) {
                upload.upload(in, target, Map.of("etcd-revision", "1", "etcd-backup-owner", "bench/upload"),
                        Instant.now().plus(Duration.ofMinutes(10)));
            }
            add(label + " upload 8388608 x 2 (MB/s of snapshot)", size / 1e6 / seconds(t0));
            cpu(server).since(cpu).forEach((process, used) -> add(label + " upload, CPU of " + process + " (s)", used));
            BackupStore reader = new BackupStore(s3, k == null ? settings : settings.withClientKey(k), 8 * 1024 * 1024, 2);
            t0 = System.nanoTime();
            VerifiedBackup verified = reader.verify(target);
            add(label + " read and verify (MB/s of snapshot)", size / 1e6 / seconds(t0));
            assertThat(verified.snapshotSha256()).isEqualTo(sha256(file));
        }
        long t0 = System.nanoTime();
        try (InputStream in = new BufferedInputStream(Files.newInputStream(file), 1 << 16);
                InputStream cipher = BackupCipher.encrypt(in, key)) {
            cipher.transferTo(OutputStream.nullOutputStream());
        }
        add(store + ": cipher alone, encrypt from the file (MB/s)", size / 1e6 / seconds(t0));
        t0 = System.nanoTime();
        try (InputStream in = new BufferedInputStream(Files.newInputStream(file), 1 << 16);
                InputStream plain = BackupCipher.decrypt(BackupCipher.encrypt(in, key), key, "bench")) {
            plain.transferTo(OutputStream.nullOutputStream());
        }
        add(store + ": cipher alone, encrypt and decrypt from the file (MB/s)", size / 1e6 / seconds(t0));
    }

    private static String sha256(Path file) throws Exception {
        MessageDigest sha = MessageDigest.getInstance("SHA-256");
        try (InputStream in = Files.newInputStream(file)) {
            byte[] b = new byte[1 << 16];
            int n;
            while ((n = in.read(b)) >= 0) {
                sha.update(b, 0, n);
            }
        }
        return java.util.HexFormat.of().formatHex(sha.digest());
    }

    /** Random bytes, a multiple of 512, then their SHA-256: what etcd sends as a snapshot. */
    private static long writeSnapshotShaped(Path file, long contentSize) throws Exception {
        MessageDigest sha = MessageDigest.getInstance("SHA-256");
        byte[] chunk = new byte[1024 * 1024];
        Random random = new Random(11);
        try (OutputStream out = Files.newOutputStream(file)) {
            for (long written = 0; written < contentSize; written += chunk.length) {
                random.nextBytes(chunk);
                sha.update(chunk);
                out.write(chunk);
            }
            out.write(sha.digest());
        }
        return Files.size(file);
    }

    private static final ExecutionAttribute<Long> STARTED = new ExecutionAttribute<>("benchmark-started");

    private S3Client client(String endpoint) {
        ExecutionInterceptor timing = new ExecutionInterceptor() {
            @Override
            public void beforeExecution(Context.BeforeExecution context, ExecutionAttributes attributes) {
                attributes.putAttribute(STARTED, System.nanoTime());
            }

            @Override
            public void beforeTransmission(Context.BeforeTransmission context, ExecutionAttributes attributes) {
                if ("UploadPart".equals(attributes.getAttribute(SdkExecutionAttribute.OPERATION_NAME))
                        && signing.putIfAbsent("UploadPart", "seen") == null) {
                    System.out.println("[snapshot upload benchmark] UploadPart sent with x-amz-content-sha256 "
                            + context.httpRequest().firstMatchingHeader("x-amz-content-sha256").orElse("-")
                            + ", Content-Encoding " + context.httpRequest().firstMatchingHeader("Content-Encoding").orElse("-"));
                }
            }

            @Override
            public void afterExecution(Context.AfterExecution context, ExecutionAttributes attributes) {
                double s = (System.nanoTime() - attributes.getAttribute(STARTED)) / 1e9;
                operationSeconds.merge(attributes.getAttribute(SdkExecutionAttribute.OPERATION_NAME), s, Double::sum);
            }
        };
        return S3Client.builder().endpointOverride(URI.create(endpoint)).forcePathStyle(true)
                .region(Region.of(S3Server.REGION))
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(S3Server.ACCESS_KEY,
                        S3Server.SECRET_KEY)))
                .httpClient(UrlConnectionHttpClient.builder().socketTimeout(Duration.ofMinutes(10)).build())
                .serviceConfiguration(c -> c.chunkedEncodingEnabled(CHUNKED))
                .overrideConfiguration(o -> o.addExecutionInterceptor(timing))
                .build();
    }

    private void add(String key, double value) {
        figures.computeIfAbsent(key, k -> new ArrayList<>()).add(value);
        System.out.printf(Locale.ROOT, "[snapshot upload benchmark] %s: %.2f%n", key, value);
    }

    private static double seconds(long startNanos) {
        return (System.nanoTime() - startNanos) / 1e9;
    }

    private void report(long size) throws IOException {
        StringBuilder r = new StringBuilder(String.format(Locale.ROOT,
                "snapshot upload benchmark: %.2f GB file, %d run(s), %d cores, load average at the end: %s%n",
                size / 1e9, RUNS, Runtime.getRuntime().availableProcessors(),
                Files.readString(Path.of("/proc/loadavg")).trim()));
        figures.forEach((k, v) -> r.append(String.format(Locale.ROOT, "%-75s %s%n", k,
                v.stream().map(d -> String.format(Locale.ROOT, "%.2f", d)).toList())));
        Path out = Path.of("target", "benchmarks", "snapshot-upload.txt");
        Files.createDirectories(out.getParent());
        Files.writeString(out, r, StandardCharsets.UTF_8);
        System.out.print(r);
    }
}
