package dev.etcdoperator.sandbox.s3;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
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
import java.util.Map;
import java.util.concurrent.TimeUnit;

import dev.etcdoperator.sandbox.controlplane.ParentDeathSignal;
import dev.etcdoperator.sandbox.controlplane.Parts;
import dev.etcdoperator.sandbox.support.FreePorts;
import org.awaitility.Awaitility;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * An S3-compatible server for tests and the sandbox: MinIO, built from its Go module by the project's parts
 * tooling ({@link Parts#MINIO}), run as a child process on one loopback address. MinIO is a real S3
 * implementation: it checks every request's AWS Signature Version 4 (header or presigned URL) against
 * {@link #ACCESS_KEY}/{@link #SECRET_KEY} itself and answers as S3 does ({@code InvalidAccessKeyId},
 * {@code SignatureDoesNotMatch}, {@code AccessDenied}, ...).
 *
 * <p>Ports left at 0 are chosen once and kept: {@link #kill()} then {@link #start()} brings the server back on the
 * same address, port and data.
 */
public final class S3Server implements AutoCloseable {
    public static final String REGION = "us-east-1";
    /** MinIO's root user: at least 3 characters. */
    public static final String ACCESS_KEY = "sandbox-access-key";
    /** MinIO's root password: at least 8 characters. */
    public static final String SECRET_KEY = "sandbox-secret-key";
    /**
     * The name of MinIO's one built-in KMS key, which serves server-side encryption (SSE-S3, and SSE-KMS naming this
     * key); objects are encrypted only when a request asks for it.
     */
    public static final String KMS_KEY = "sandbox-kms-key";
    private static final String KMS_KEY_MATERIAL = "bXktbWluaW8ta21zLWtleS0zMi1ieXRlcy0xMjM0NTY=";

    private static final Duration START_TIMEOUT = Duration.ofSeconds(120);
    /** The addresses MinIO listens on beside the one it is given, on the same port (see {@link #start()}). */
    private static final List<String> HOST_LOOPBACKS = List.of("127.0.0.1", "::1");

    private final Settings settings;
    private final Path minio;
    private final Path dataDir;
    private final Path certsDir;
    private final Path logFile;
    private final int port;
    private final int consolePort;
    private final Thread shutdownHook = new Thread(this::destroyForcibly, "stop-s3-server");
    private boolean hookRegistered;
    private volatile Process process;
    private Duration lastStartup;

    /**
     * How to run the server.
     *
     * @param directory where its data ({@code data/}), certificates directory ({@code certs/}, empty: plain HTTP)
     *                  and log ({@code minio.log}) go
     * @param address the loopback address to listen on
     * @param port the S3 port, 0 for a free one
     * @param buckets buckets created when the server starts (existing ones stay as they are)
     */
    public record Settings(Path directory, String address, int port, List<String> buckets) {
        public Settings {
            buckets = List.copyOf(buckets);
        }

        /** 127.0.0.1, a free port, no bucket. */
        public static Settings in(Path directory) {
            return new Settings(directory, "127.0.0.1", 0, List.of());
        }

        public Settings withAddress(String loopbackAddress) {
            return new Settings(directory, loopbackAddress, port, buckets);
        }

        public Settings withPort(int httpPort) {
            return new Settings(directory, address, httpPort, buckets);
        }

        public Settings withBuckets(String... names) {
            return new Settings(directory, address, port, List.of(names));
        }
    }

    private S3Server(Settings settings) {
        InetAddress inet = parseLoopback(settings.address());
        this.settings = settings;
        this.minio = Parts.program(Parts.MINIO, "minio");
        Path dir = settings.directory().toAbsolutePath();
        this.dataDir = dir.resolve("data");
        this.certsDir = dir.resolve("certs");
        this.logFile = dir.resolve("minio.log");
        // MinIO listens on the S3 port of the host's loopback addresses too
        if (settings.port() != 0) {
            FreePorts.reserve(settings.port());
        }
        this.port = settings.port() != 0 ? settings.port() : FreePorts.on(addressesOf(inet));
        this.consolePort = FreePorts.on(List.of(inet));
    }

    /** Starts a server and waits until it answers and its buckets exist. */
    public static S3Server start(Settings settings) {
        S3Server server = new S3Server(settings);
        try {
            return server.start();
        } catch (RuntimeException e) {
            server.close();
            throw e;
        }
    }

    /**
     * Starts MinIO (again, after {@link #kill()} or {@link #close()}) on the same address, port and data directory,
     * waits until its liveness endpoint answers, then creates the buckets that are missing.
     *
     * <p>MinIO listens on the address it is given and, on the same port, on the host's own loopback interface
     * addresses (127.0.0.1 and ::1), which it always adds for its console; it has no setting against it. So it
     * listens on loopback only, but not on one address only. The console itself is off ({@code MINIO_BROWSER=off}).
     */
    public synchronized S3Server start() {
        if (alive()) {
            throw new IllegalStateException("the S3 server is already running, pid " + process.pid());
        }
        long started = System.nanoTime();
        try {
            Files.createDirectories(dataDir);
            Files.createDirectories(certsDir);
            ProcessBuilder builder = new ProcessBuilder(ParentDeathSignal.wrap(command())).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(logFile.toFile()))
                    .directory(settings.directory().toAbsolutePath().toFile());
            Map<String, String> env = builder.environment();
            env.keySet().removeIf(name -> name.startsWith("MINIO_"));
            env.put("MINIO_ROOT_USER", ACCESS_KEY);
            env.put("MINIO_ROOT_PASSWORD", SECRET_KEY);
            env.put("MINIO_SITE_REGION", REGION);
            env.put("MINIO_UPDATE", "off");
            env.put("MINIO_BROWSER", "off");
            env.put("MINIO_KMS_SECRET_KEY", KMS_KEY + ":" + KMS_KEY_MATERIAL);
            if (!hookRegistered) {
                Runtime.getRuntime().addShutdownHook(shutdownHook);
                hookRegistered = true;
            }
            process = builder.start();
            process.getOutputStream().close();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start the S3 server (" + minio + ")", e);
        }
        Process current = process;
        try {
            awaitLive(current);
            createBuckets(current);
        } catch (RuntimeException e) {
            current.destroyForcibly();
            waitFor(current, Duration.ofSeconds(30));
            throw e;
        }
        lastStartup = Duration.ofNanos(System.nanoTime() - started);
        return this;
    }

    private List<String> command() {
        return new ArrayList<>(List.of(minio.toString(), "server", dataDir.toString(),
                "--address", hostPort(port),
                "--console-address", hostPort(consolePort),
                "--certs-dir", certsDir.toString()));
    }

    private String hostPort(int p) {
        return (settings.address().contains(":") ? "[" + settings.address() + "]" : settings.address()) + ":" + p;
    }

    private void awaitLive(Process current) {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        HttpRequest live = HttpRequest.newBuilder(URI.create(endpoint() + "/minio/health/live"))
                .timeout(Duration.ofSeconds(5)).build();
        Awaitility.await("MinIO to answer on " + endpoint() + " (log: " + logFile + ")")
                .atMost(START_TIMEOUT).pollDelay(Duration.ofMillis(100)).pollInterval(Duration.ofMillis(200))
                .ignoreExceptionsInstanceOf(IOException.class)
                .until(() -> {
                    checkRunning(current);
                    return http.send(live, HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
                });
    }

    private void createBuckets(Process current) {
        if (settings.buckets().isEmpty()) {
            return;
        }
        try (S3Client s3 = client()) {
            Awaitility.await("MinIO to create the buckets " + settings.buckets() + " (log: " + logFile + ")")
                    .atMost(START_TIMEOUT).pollInterval(Duration.ofMillis(250))
                    .ignoreExceptionsInstanceOf(software.amazon.awssdk.core.exception.SdkClientException.class)
                    .until(() -> {
                        checkRunning(current);
                        for (String bucket : settings.buckets()) {
                            createBucket(s3, bucket);
                        }
                        return true;
                    });
        }
    }

    private static void createBucket(S3Client s3, String bucket) {
        try {
            s3.createBucket(b -> b.bucket(bucket));
        } catch (S3Exception e) {
            String code = e.awsErrorDetails() == null ? null : e.awsErrorDetails().errorCode();
            if (!"BucketAlreadyOwnedByYou".equals(code) && !"BucketAlreadyExists".equals(code)) {
                throw e;
            }
        }
    }

    private void checkRunning(Process current) {
        if (!current.isAlive()) {
            throw new IllegalStateException("MinIO exited with " + current.exitValue() + "; the end of " + logFile
                    + ":\n" + tail(30));
        }
    }

    private String tail(int lines) {
        try {
            List<String> all = Files.readAllLines(logFile, StandardCharsets.UTF_8);
            return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
        } catch (IOException | UncheckedIOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }

    /**
     * SIGKILL, as a crash would: the endpoint stops listening, requests in flight fail, what was stored before stays
     * in the data directory.
     */
    public synchronized void kill() {
        Process current = process;
        if (current != null) {
            current.destroyForcibly();
            waitFor(current, Duration.ofSeconds(30));
        }
    }

    /** Stops MinIO: SIGTERM, then SIGKILL after 20 s; the data stays. Idempotent. */
    @Override
    public synchronized void close() {
        Process current = process;
        if (current != null && current.isAlive()) {
            current.destroy();
            if (!waitFor(current, Duration.ofSeconds(20))) {
                current.destroyForcibly();
                waitFor(current, Duration.ofSeconds(10));
            }
        }
        if (hookRegistered) {
            try {
                Runtime.getRuntime().removeShutdownHook(shutdownHook);
            } catch (IllegalStateException shuttingDown) {
                // the hook runs anyway
            }
            hookRegistered = false;
        }
    }

    private void destroyForcibly() {
        Process current = process;
        if (current != null) {
            current.destroyForcibly();
        }
    }

    private static boolean waitFor(Process p, Duration timeout) {
        try {
            return p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** A new client for this server: path-style, endpoint override, static credentials, {@link #REGION}. */
    public S3Client client() {
        return client(ACCESS_KEY, SECRET_KEY);
    }

    /** A new client as {@link #client()}, with other credentials: to see them refused. */
    public S3Client client(String accessKeyId, String secretAccessKey) {
        return S3Client.builder()
                .endpointOverride(URI.create(endpoint()))
                .forcePathStyle(true)
                .region(Region.of(REGION))
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(accessKeyId,
                        secretAccessKey)))
                .httpClient(UrlConnectionHttpClient.builder().socketTimeout(Duration.ofSeconds(60)).build())
                .build();
    }

    /** The AWS shared credentials file for this server (profile {@code default}), as the operator's Secret holds it. */
    public String credentialsFile() {
        return "[default]\naws_access_key_id = " + ACCESS_KEY + "\naws_secret_access_key = " + SECRET_KEY + "\n";
    }

    /** The AWS shared config file for this server (profile {@code default}). */
    public String configFile() {
        return "[default]\nregion = " + REGION + "\n";
    }

    /** {@code http://<address>:<port>}, without a trailing slash. */
    public String endpoint() {
        return "http://" + hostPort(port);
    }

    public String address() {
        return settings.address();
    }

    public int port() {
        return port;
    }

    /** MinIO's console port (the console is off; MinIO is given the port so that it picks none itself). */
    public int consolePort() {
        return consolePort;
    }

    public String region() {
        return REGION;
    }

    public String accessKey() {
        return ACCESS_KEY;
    }

    public String secretKey() {
        return SECRET_KEY;
    }

    /** The buckets created at start. */
    public List<String> buckets() {
        return settings.buckets();
    }

    public Path dataDir() {
        return dataDir;
    }

    public Path logFile() {
        return logFile;
    }

    /** Whether MinIO runs. */
    public boolean alive() {
        Process current = process;
        return current != null && current.isAlive();
    }

    /** MinIO's pid. */
    public long pid() {
        Process current = process;
        if (current == null) {
            throw new IllegalStateException("the S3 server was never started");
        }
        return current.pid();
    }

    /** How long the last {@link #start()} took until the server answered and its buckets existed. */
    public Duration lastStartup() {
        return lastStartup;
    }

    private static List<InetAddress> addressesOf(InetAddress inet) {
        List<InetAddress> addresses = new ArrayList<>(List.of(inet));
        for (String loopback : HOST_LOOPBACKS) {
            try {
                addresses.add(InetAddress.getByName(loopback));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return addresses;
    }

    private static InetAddress parseLoopback(String address) {
        try {
            InetAddress inet = InetAddress.getByName(address);
            if (!inet.isLoopbackAddress() || !address.equals(inet.getHostAddress())) {
                throw new IllegalArgumentException("not a literal loopback address: " + address);
            }
            return inet;
        } catch (IOException e) {
            throw new IllegalArgumentException("not an address: " + address, e);
        }
    }
}
