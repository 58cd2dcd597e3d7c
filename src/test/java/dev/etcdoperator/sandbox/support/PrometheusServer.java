package dev.etcdoperator.sandbox.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.etcdoperator.sandbox.controlplane.ParentDeathSignal;
import org.awaitility.Awaitility;

/**
 * A real Prometheus server (the host's, Debian package {@code prometheus}) on a loopback port, with the config it is
 * given, its data and log under {@code dir}; queried through its HTTP API. Closing it stops it.
 */
public final class PrometheusServer implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final Process process;
    private final int port;
    private final Path log;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private PrometheusServer(Process process, int port, Path log) {
        this.process = process;
        this.port = port;
        this.log = log;
    }

    /** Starts {@code prometheus} with {@code config} (YAML) and waits until it is ready. */
    public static PrometheusServer start(HostProgram prometheus, Path dir, String config) throws IOException {
        Files.createDirectories(dir);
        Path configFile = Files.writeString(dir.resolve("prometheus.yml"), config);
        Path log = dir.resolve("prometheus.log");
        int port = FreePorts.onLoopback();
        List<String> command = new ArrayList<>(List.of(prometheus.path().toString(),
                "--config.file=" + configFile.toAbsolutePath(),
                "--storage.tsdb.path=" + dir.resolve("data").toAbsolutePath(),
                "--web.listen-address=127.0.0.1:" + port,
                "--log.level=warn"));
        Process process = new ProcessBuilder(ParentDeathSignal.wrap(command)).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
        PrometheusServer server = new PrometheusServer(process, port, log);
        try {
            Awaitility.await("prometheus ready; its log: " + log).atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(200)).ignoreExceptions()
                    .until(() -> server.get("/-/ready").statusCode() == 200);
            return server;
        } catch (RuntimeException e) {
            server.close();
            throw e;
        }
    }

    /** The {@code data.result} of an instant query. */
    public JsonNode query(String promql) {
        return api("/api/v1/query?query=" + URLEncoder.encode(promql, StandardCharsets.UTF_8)).path("result");
    }

    /** The {@code data} of an API path, e.g. {@code /api/v1/rules}. */
    public JsonNode api(String pathAndQuery) {
        HttpResponse<String> response = get(pathAndQuery);
        try {
            JsonNode body = JSON.readTree(response.body());
            if (!"success".equals(body.path("status").asText())) {
                throw new IllegalStateException(pathAndQuery + " answered " + response.body());
            }
            return body.path("data");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public Path log() {
        return log;
    }

    private HttpResponse<String> get(String pathAndQuery) {
        try {
            return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + pathAndQuery))
                    .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                process.waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
