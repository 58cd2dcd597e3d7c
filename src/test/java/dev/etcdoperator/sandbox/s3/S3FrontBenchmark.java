package dev.etcdoperator.sandbox.s3;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3Configuration;
import software.amazon.awssdk.services.s3.presigner.S3Presigner;

/**
 * What the credential-checking front costs: a 256 MiB object put and got through the endpoint (the front) and
 * straight from s3mock's own port, alternately, with the AWS SDK (as the operator does: signed, checksummed) and
 * with plain HTTP on presigned URLs (no hashing in the client, so the transfer itself shows). Not a test: it
 * reports figures (target/benchmarks/s3-front.txt). Run with {@code ./mvnw -B verify -Pbenchmarks}.
 */
class S3FrontBenchmark {
    static final int RUNS = Integer.getInteger("benchmark.runs", 3);
    static final long SIZE = 256L * 1024 * 1024;
    static final String BUCKET = "bench";

    @Test
    void throughputThroughTheFrontAndStraight() throws Exception {
        Path dir = Path.of("target", "s3-front-benchmark");
        Path blob = dir.resolve("blob.bin");
        Files.createDirectories(dir);
        writeRandom(blob, SIZE);
        Map<String, List<Double>> figures = new TreeMap<>();
        try (S3Server server = S3Server.start(S3Server.Settings.in(dir.resolve("server")).withBuckets(BUCKET))) {
            Map<String, String> endpoints = Map.of("front", server.endpoint(), "s3mock", server.s3mockEndpoint());
            HttpClient http = HttpClient.newBuilder().build();
            for (int run = 0; run < RUNS; run++) {
                List<String> order = run % 2 == 0 ? List.of("front", "s3mock") : List.of("s3mock", "front");
                for (String via : order) {
                    String endpoint = endpoints.get(via);
                    String key = "sdk-" + via + "-" + run;
                    try (S3Client s3 = client(endpoint)) {
                        long t0 = System.nanoTime();
                        s3.putObject(b -> b.bucket(BUCKET).key(key), RequestBody.fromFile(blob));
                        add(figures, "SDK PutObject, " + via, t0);
                        long t1 = System.nanoTime();
                        long read;
                        try (InputStream in = s3.getObject(b -> b.bucket(BUCKET).key(key))) {
                            read = in.transferTo(OutputStream.nullOutputStream());
                        }
                        add(figures, "SDK GetObject, " + via, t1);
                        assertThat(read).isEqualTo(SIZE);
                        s3.deleteObject(b -> b.bucket(BUCKET).key(key));
                    }
                    try (S3Presigner presigner = presigner(endpoint)) {
                        String raw = "raw-" + via + "-" + run;
                        URI put = presigner.presignPutObject(b -> b.signatureDuration(Duration.ofMinutes(10))
                                .putObjectRequest(p -> p.bucket(BUCKET).key(raw))).url().toURI();
                        long t0 = System.nanoTime();
                        HttpResponse<Void> putResponse = http.send(HttpRequest.newBuilder(put)
                                .PUT(HttpRequest.BodyPublishers.ofFile(blob)).build(),
                                HttpResponse.BodyHandlers.discarding());
                        add(figures, "presigned PUT (java.net.http), " + via, t0);
                        assertThat(putResponse.statusCode()).isEqualTo(200);
                        URI get = presigner.presignGetObject(b -> b.signatureDuration(Duration.ofMinutes(10))
                                .getObjectRequest(g -> g.bucket(BUCKET).key(raw))).url().toURI();
                        long t1 = System.nanoTime();
                        HttpResponse<InputStream> getResponse = http.send(HttpRequest.newBuilder(get).build(),
                                HttpResponse.BodyHandlers.ofInputStream());
                        long read;
                        try (InputStream in = getResponse.body()) {
                            read = in.transferTo(OutputStream.nullOutputStream());
                        }
                        add(figures, "presigned GET (java.net.http), " + via, t1);
                        assertThat(getResponse.statusCode()).isEqualTo(200);
                        assertThat(read).isEqualTo(SIZE);
                        try (S3Client s3 = client(endpoint)) {
                            s3.deleteObject(b -> b.bucket(BUCKET).key(raw));
                        }
                    }
                }
            }
        } finally {
            Files.deleteIfExists(blob);
        }
        report(figures);
    }

    private static S3Client client(String endpoint) {
        return S3Client.builder().endpointOverride(URI.create(endpoint)).forcePathStyle(true)
                .region(Region.of(S3Server.REGION))
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(S3Server.ACCESS_KEY,
                        S3Server.SECRET_KEY)))
                .httpClient(UrlConnectionHttpClient.builder().socketTimeout(Duration.ofSeconds(120)).build())
                .build();
    }

    private static S3Presigner presigner(String endpoint) {
        return S3Presigner.builder().endpointOverride(URI.create(endpoint)).region(Region.of(S3Server.REGION))
                .serviceConfiguration(S3Configuration.builder().pathStyleAccessEnabled(true).build())
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(S3Server.ACCESS_KEY,
                        S3Server.SECRET_KEY)))
                .build();
    }

    private static void writeRandom(Path file, long size) throws IOException {
        byte[] chunk = new byte[1024 * 1024];
        Random random = new Random(42);
        try (OutputStream out = Files.newOutputStream(file)) {
            for (long written = 0; written < size; written += chunk.length) {
                random.nextBytes(chunk);
                out.write(chunk);
            }
        }
    }

    private static void add(Map<String, List<Double>> figures, String name, long startNanos) {
        double seconds = (System.nanoTime() - startNanos) / 1e9;
        figures.computeIfAbsent(name, k -> new ArrayList<>()).add(SIZE / 1e6 / seconds);
    }

    private static void report(Map<String, List<Double>> figures) throws IOException {
        StringBuilder out = new StringBuilder(String.format(Locale.ROOT,
                "256 MiB object, MB/s per run (median), front vs s3mock straight, %d runs, %d cores%n", RUNS,
                Runtime.getRuntime().availableProcessors()));
        for (Map.Entry<String, List<Double>> e : figures.entrySet()) {
            List<Double> sorted = e.getValue().stream().sorted().toList();
            out.append(String.format(Locale.ROOT, "%-40s %s (median %.0f)%n", e.getKey(),
                    e.getValue().stream().map(v -> String.format(Locale.ROOT, "%.0f", v)).toList(),
                    sorted.get(sorted.size() / 2)));
        }
        System.out.print(out);
        Path report = Path.of("target", "benchmarks", "s3-front.txt");
        Files.createDirectories(report.getParent());
        Files.writeString(report, out.toString(), StandardCharsets.UTF_8);
    }
}
