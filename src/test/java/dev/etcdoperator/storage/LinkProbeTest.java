package dev.etcdoperator.storage;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import com.sun.net.httpserver.HttpServer;
import dev.etcdoperator.core.backup.S3Location;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Whether a presigned link can serve only the object it was made for: the store is asked for the object with another
 * ETag in a signed {@code If-Match}, for one byte, and only a 412 counts as a yes.
 */
class LinkProbeTest {
    static final S3Location LOCATION = S3Location.parse("bucket/backups/one");
    static final ObjectVersion OBJECT = new ObjectVersion("\"etag-1\"", null);
    static final byte[] BODY = new byte[64 * 1024];

    HttpServer server;
    final List<String> asked = new CopyOnWriteArrayList<>();
    volatile String mode = "honours";

    @BeforeEach
    void serve() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", exchange -> {
            String ifMatch = exchange.getRequestHeaders().getFirst("If-Match");
            asked.add(exchange.getRequestMethod() + " " + exchange.getRequestURI().getPath() + " If-Match=" + ifMatch
                    + " Range=" + exchange.getRequestHeaders().getFirst("Range") + " signed="
                    + exchange.getRequestURI().getQuery().matches(".*X-Amz-SignedHeaders=[^&]*if-match.*"));
            int status = switch (mode) {
                case "honours" -> OBJECT.etag().equals(ifMatch) ? 200 : 412;
                case "ignores" -> 200;
                case "failing" -> 503;
                default -> 403;
            };
            if (status == 200) {
                exchange.sendResponseHeaders(200, BODY.length);
                try (OutputStream body = exchange.getResponseBody()) {
                    body.write(BODY);
                } catch (IOException e) {
                    // the client went away
                }
            } else {
                exchange.sendResponseHeaders(status, -1);
            }
            exchange.close();
        });
        server.start();
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    S3Settings settings() {
        return new S3Settings("AKIDEXAMPLE", "secret", null, "us-east-1",
                URI.create("http://127.0.0.1:" + server.getAddress().getPort()), true);
    }

    BackupStore store(S3Settings settings) {
        return new BackupStore(new InMemoryS3("bucket"), settings, 5 * 1024 * 1024, 2);
    }

    @Test
    void aStoreThatRefusesAnotherETagBindsTheLink() {
        assertThat(store(settings()).linkRefusesOtherObjects(LOCATION, OBJECT)).isTrue();
        assertThat(asked).hasSize(1);
        assertThat(asked.get(0)).startsWith("GET /bucket/backups/one If-Match=\"not-").contains("Range=bytes=0-0")
                .contains("signed=true").doesNotContain("If-Match=\"etag-1\"");
    }

    @Test
    void aStoreThatIgnoresIfMatchDoesNot() {
        mode = "ignores";
        assertThat(store(settings()).linkRefusesOtherObjects(LOCATION, OBJECT)).isFalse();
        assertThat(asked).hasSize(1);
    }

    @Test
    void anyOtherAnswerOrNoneIsANo() {
        mode = "forbidden";
        assertThat(store(settings()).linkRefusesOtherObjects(LOCATION, OBJECT)).isFalse();
        S3Settings nowhere = new S3Settings("AKIDEXAMPLE", "secret", null, "us-east-1", URI.create("http://127.0.0.1:1"),
                true);
        assertThat(store(nowhere).linkRefusesOtherObjects(LOCATION, OBJECT)).isFalse();
    }

    /** The link a pod would use, asked for one byte as the pod would ask: only a refusal of the link itself counts. */
    @Test
    void aStoreThatRefusesTheLinkItselfIsToldFromOneThatServesIt() {
        assertThat(store(settings()).linkRefusal(LOCATION, OBJECT)).isEmpty();
        assertThat(asked).hasSize(1);
        assertThat(asked.get(0)).startsWith("GET /bucket/backups/one If-Match=\"etag-1\"").contains("Range=bytes=0-0");

        mode = "forbidden";
        assertThat(store(settings()).linkRefusal(LOCATION, OBJECT)).hasValueSatisfying(r -> {
            assertThat(r.status()).isEqualTo(403);
            assertThat(r.storeFailing()).isFalse();
            assertThat(r.toString()).startsWith("HTTP 403");
        });
        mode = "failing";
        assertThat(store(settings()).linkRefusal(LOCATION, OBJECT)).hasValueSatisfying(r -> {
            assertThat(r.status()).isEqualTo(503);
            assertThat(r.storeFailing()).isTrue();
        });

        S3Settings nowhere = new S3Settings("AKIDEXAMPLE", "secret", null, "us-east-1", URI.create("http://127.0.0.1:1"),
                true);
        assertThat(store(nowhere).linkRefusal(LOCATION, OBJECT)).as("unreachable: other checks say so").isEmpty();
        S3Settings encrypted = settings().withClientKey(BackupKey.of(new byte[BackupKey.LENGTH], "ns/key[key]"));
        int before = asked.size();
        assertThat(store(encrypted).linkRefusal(LOCATION, OBJECT)).as("the operator's own link").isEmpty();
        assertThat(asked).hasSize(before);
    }

    @Test
    void aLinkOfTheOperatorsOwnOrAnObjectWithoutETagIsNeverAskedAbout() {
        S3Settings encrypted = settings().withClientKey(BackupKey.of(new byte[BackupKey.LENGTH], "ns/key[key]"));
        assertThat(store(encrypted).linkRefusesOtherObjects(LOCATION, OBJECT)).isFalse();
        assertThat(store(settings()).linkRefusesOtherObjects(LOCATION, new ObjectVersion(null, null))).isFalse();
        assertThat(store(settings()).linkRefusesOtherObjects(LOCATION, null)).isFalse();
        assertThat(asked).isEmpty();
    }
}
