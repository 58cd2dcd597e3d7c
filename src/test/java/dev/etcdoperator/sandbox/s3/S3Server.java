package dev.etcdoperator.sandbox.s3;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.awaitility.Awaitility;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * An S3-compatible server for tests and the sandbox: Adobe's s3mock (its Spring Boot exec jar, fetched from Maven
 * Central by the build into {@code target/s3mock/}) run as a child process of its own, bound to one loopback
 * address only, behind a front in this JVM that checks credentials as S3 does.
 *
 * <p>The endpoint, plain HTTP on {@link #port()}, is the front ({@link AuthenticatingFront}): it accepts requests
 * signed (AWS Signature Version 4, header or presigned URL) with {@link #ACCESS_KEY}/{@link #SECRET_KEY} for
 * {@link #REGION}, refuses others with S3's errors ({@code InvalidAccessKeyId}, {@code SignatureDoesNotMatch},
 * {@code AccessDenied}), and passes accepted ones to s3mock's own plain HTTP port, {@link #s3mockPort()}. s3mock
 * also serves HTTPS with its self-signed certificate on {@link #httpsPort()}, unchecked. Ports left at 0 are chosen
 * once and kept: {@link #kill()} then {@link #start()} brings the server back on the same ports with the same data.
 */
public final class S3Server implements AutoCloseable {
    /** System property with the path of s3mock's exec jar; set by Maven for the sandbox tests and the sandbox. */
    public static final String JAR_PROPERTY = "s3mock.jar";
    public static final String REGION = "us-east-1";
    public static final String ACCESS_KEY = "sandbox-access-key";
    public static final String SECRET_KEY = "sandbox-secret-key";

    private static final Duration START_TIMEOUT = Duration.ofSeconds(120);

    private final Settings settings;
    private final Path dataDir;
    private final Path tempDir;
    private final Path logFile;
    private final Path loopbackBeans;
    private final int port;
    private final int s3mockPort;
    private final int httpsPort;
    private final AuthenticatingFront front;
    private final Thread shutdownHook = new Thread(this::destroyForcibly, "stop-s3-server");
    private boolean hookRegistered;
    private volatile Process process;
    private Duration lastStartup;

    /**
     * How to run the server.
     *
     * @param directory where its data ({@code data/}), temporary files ({@code tmp/}), log ({@code s3mock.log}) and
     *                  generated configuration go
     * @param address the loopback address to listen on, and only there
     * @param port the HTTP port, 0 for a free one
     * @param httpsPort the HTTPS port, 0 for a free one
     * @param buckets buckets created when the server starts (kept ones stay as they are)
     * @param jar s3mock's exec jar
     */
    public record Settings(Path directory, String address, int port, int httpsPort, List<String> buckets, Path jar) {
        public Settings {
            buckets = List.copyOf(buckets);
        }

        /** 127.0.0.1, free ports, no bucket, the jar named by {@value #JAR_PROPERTY} (else target/s3mock). */
        public static Settings in(Path directory) {
            return new Settings(directory, "127.0.0.1", 0, 0, List.of(), Path.of(System.getProperty(JAR_PROPERTY,
                    Path.of("target", "s3mock", "s3mock-exec.jar").toString())));
        }

        public Settings withAddress(String loopbackAddress) {
            return new Settings(directory, loopbackAddress, port, httpsPort, buckets, jar);
        }

        public Settings withPort(int httpPort) {
            return new Settings(directory, address, httpPort, httpsPort, buckets, jar);
        }

        public Settings withHttpsPort(int port) {
            return new Settings(directory, address, this.port, port, buckets, jar);
        }

        public Settings withBuckets(String... names) {
            return new Settings(directory, address, port, httpsPort, List.of(names), jar);
        }

        public Settings withJar(Path exeJar) {
            return new Settings(directory, address, port, httpsPort, buckets, exeJar);
        }
    }

    private S3Server(Settings settings) {
        InetAddress inet = parseLoopback(settings.address());
        if (!Files.isRegularFile(settings.jar())) {
            throw new IllegalStateException("s3mock's exec jar is missing: " + settings.jar()
                    + " (the build copies it there: ./mvnw generate-test-resources)");
        }
        this.settings = settings;
        Path dir = settings.directory().toAbsolutePath();
        this.dataDir = dir.resolve("data");
        this.tempDir = dir.resolve("tmp");
        this.logFile = dir.resolve("s3mock.log");
        this.loopbackBeans = dir.resolve("loopback-connector.xml");
        this.port = settings.port() != 0 ? settings.port() : freePort(inet);
        int https = settings.httpsPort() != 0 ? settings.httpsPort() : freePort(inet);
        while (https == port) {
            https = freePort(inet);
        }
        this.httpsPort = https;
        int internal = freePort(inet);
        while (internal == port || internal == httpsPort) {
            internal = freePort(inet);
        }
        this.s3mockPort = internal;
        this.front = new AuthenticatingFront(new InetSocketAddress(inet, port),
                new InetSocketAddress(inet, s3mockPort),
                new SigV4Check(ACCESS_KEY, SECRET_KEY, REGION, Clock.systemUTC()));
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
     * Starts the server (again, after {@link #kill()} or {@link #close()}) on the same ports and data directory:
     * s3mock first, then, once it answers, the front on the endpoint.
     */
    public synchronized S3Server start() {
        if (alive()) {
            throw new IllegalStateException("the S3 server is already running, pid " + process.pid());
        }
        long started = System.nanoTime();
        try {
            Files.createDirectories(dataDir);
            Files.createDirectories(tempDir);
            writeLoopbackBeans();
            ProcessBuilder builder = new ProcessBuilder(command()).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(logFile.toFile()))
                    .directory(settings.directory().toAbsolutePath().toFile());
            if (!hookRegistered) {
                Runtime.getRuntime().addShutdownHook(shutdownHook);
                hookRegistered = true;
            }
            process = builder.start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start the S3 server", e);
        }
        Process current = process;
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        try {
            awaitAnswer(current, http);
            front.open();
        } catch (RuntimeException e) {
            current.destroyForcibly();
            waitFor(current, Duration.ofSeconds(30));
            throw e;
        }
        lastStartup = Duration.ofNanos(System.nanoTime() - started);
        return this;
    }

    private void awaitAnswer(Process current, HttpClient http) {
        Awaitility.await("s3mock to answer on " + s3mockEndpoint() + " (log: " + logFile + ")")
                .atMost(START_TIMEOUT).pollDelay(Duration.ofMillis(200)).pollInterval(Duration.ofMillis(200))
                .ignoreExceptionsInstanceOf(IOException.class)
                .until(() -> {
                    if (!current.isAlive()) {
                        throw new IllegalStateException("the S3 server exited with " + current.exitValue()
                                + "; see " + logFile);
                    }
                    return answers(http);
                });
    }

    private boolean answers(HttpClient http) throws IOException, InterruptedException {
        // s3mock initialises its store lazily, on the first request: the buckets exist once HEAD finds them
        List<String> paths = settings.buckets().isEmpty() ? List.of("/")
                : settings.buckets().stream().map(b -> "/" + b).toList();
        for (String path : paths) {
            HttpRequest head = HttpRequest.newBuilder(URI.create(s3mockEndpoint() + path))
                    .method("HEAD", HttpRequest.BodyPublishers.noBody()).timeout(Duration.ofSeconds(10)).build();
            if (http.send(head, HttpResponse.BodyHandlers.discarding()).statusCode() != 200) {
                return false;
            }
        }
        return true;
    }

    private List<String> command() {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx384m", "-XX:+UseSerialGC",
                "-Djava.net.preferIPv4Stack=true",
                // s3mock stages every upload in a temporary file: beside its data, not in the machine's /tmp
                "-Djava.io.tmpdir=" + tempDir,
                "-jar", settings.jar().toAbsolutePath().toString(),
                // the main connector (HTTPS) honours server.address ...
                "--server.address=" + settings.address(),
                "--server.port=" + httpsPort,
                "--http.port=" + s3mockPort,
                // ... the additional plain HTTP connector does not: these beans give it the same address
                "--spring.main.sources=" + loopbackBeans.toUri(),
                "--spring.main.banner-mode=off",
                "--com.adobe.testing.s3mock.store.root=" + dataDir,
                "--com.adobe.testing.s3mock.store.retain-files-on-exit=true",
                "--com.adobe.testing.s3mock.store.region=" + REGION));
        if (!settings.buckets().isEmpty()) {
            command.add("--com.adobe.testing.s3mock.store.initial-buckets=" + String.join(",", settings.buckets()));
        }
        return command;
    }

    /**
     * s3mock's plain HTTP connector is a bean named {@code httpConnector}, created with a port and no address, so
     * Tomcat binds it on every interface. This bean definition (loaded through {@code spring.main.sources}) sets
     * its address before the web server starts its connectors; it is eager although s3mock initialises lazily.
     */
    private void writeLoopbackBeans() throws IOException {
        Files.writeString(loopbackBeans, """
                <?xml version="1.0" encoding="UTF-8"?>
                <beans xmlns="http://www.springframework.org/schema/beans"
                       xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
                       xsi:schemaLocation="http://www.springframework.org/schema/beans
                                           https://www.springframework.org/schema/beans/spring-beans.xsd">
                  <bean id="httpConnectorOnLoopbackOnly" lazy-init="false"
                        class="org.springframework.beans.factory.config.MethodInvokingBean">
                    <property name="targetObject" ref="httpConnector"/>
                    <property name="targetMethod" value="setProperty"/>
                    <property name="arguments">
                      <list>
                        <value>address</value>
                        <value>%s</value>
                      </list>
                    </property>
                  </bean>
                </beans>
                """.formatted(settings.address()), StandardCharsets.UTF_8);
    }

    /**
     * SIGKILL, as a crash would: the endpoint stops listening and drops its connections, uploads in flight fail,
     * what was stored before stays in the data directory.
     */
    public synchronized void kill() {
        front.stop();
        Process current = process;
        if (current != null) {
            current.destroyForcibly();
            waitFor(current, Duration.ofSeconds(30));
        }
    }

    /** Stops the front, then s3mock: SIGTERM, then SIGKILL after 20 s; the data stays. Idempotent. */
    @Override
    public synchronized void close() {
        front.close();
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

    /** {@code http://<address>:<port>}, without a trailing slash: the front, which checks credentials. */
    public String endpoint() {
        return "http://" + settings.address() + ":" + port;
    }

    /** s3mock's own plain HTTP port, behind the front: no credentials checked there. For measurements. */
    public String s3mockEndpoint() {
        return "http://" + settings.address() + ":" + s3mockPort;
    }

    public String httpsEndpoint() {
        return "https://" + settings.address() + ":" + httpsPort;
    }

    public String address() {
        return settings.address();
    }

    public int port() {
        return port;
    }

    public int httpsPort() {
        return httpsPort;
    }

    /** s3mock's own plain HTTP port, behind the front. */
    public int s3mockPort() {
        return s3mockPort;
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

    /** Whether s3mock runs (the front listens from its start until {@link #kill()} or {@link #close()}). */
    public boolean alive() {
        Process current = process;
        return current != null && current.isAlive();
    }

    /** s3mock's pid; it is the java process itself (the front runs in this JVM). */
    public long pid() {
        Process current = process;
        if (current == null) {
            throw new IllegalStateException("the S3 server was never started");
        }
        return current.pid();
    }

    /** How long the last {@link #start()} took until the server answered. */
    public Duration lastStartup() {
        return lastStartup;
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

    private static int freePort(InetAddress address) {
        try (ServerSocket socket = new ServerSocket()) {
            socket.bind(new InetSocketAddress(address, 0), 1);
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
