package dev.etcdoperator.storage;

import static dev.etcdoperator.storage.BackupStoreEncryptionTest.KEY;
import static dev.etcdoperator.storage.BackupStoreEncryptionTest.sha256;
import static dev.etcdoperator.storage.BackupStoreTest.BUCKET;
import static dev.etcdoperator.storage.BackupStoreTest.ME;
import static dev.etcdoperator.storage.BackupStoreTest.PART;
import static dev.etcdoperator.storage.BackupStoreTest.deadline;
import static dev.etcdoperator.storage.BackupStoreTest.metadata;
import static dev.etcdoperator.storage.BackupStoreTest.snapshot;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import dev.etcdoperator.core.backup.BackupMetadata;
import dev.etcdoperator.core.backup.S3Location;
import dev.etcdoperator.support.MovingClock;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.ext.web.Router;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The operator's links to decrypted backups, served by a real HTTP server over a store in memory. */
class SnapshotServerTest {
    static final S3Location LOCATION = new S3Location(BUCKET, "enc/snapshot.db");
    final InMemoryS3 s3 = new InMemoryS3(BUCKET);
    final S3Settings settings = new S3Settings("id", "secret", null, "us-east-1", null, true).withClientKey(KEY);
    final MovingClock clock = new MovingClock(Instant.parse("2026-06-01T00:00:00Z"));
    /** HTTP/1.1, as the pods' wget: one in about 400 of the JDK client's h2c upgrades to this server read a frame wrong. */
    final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    Vertx vertx;
    HttpServer server;
    SnapshotServer snapshots;

    @BeforeEach
    void start() throws Exception {
        vertx = Vertx.vertx();
        Router router = Router.router(vertx);
        server = vertx.createHttpServer().requestHandler(router).listen(0, "127.0.0.1").toCompletionStage()
                .toCompletableFuture().get(30, TimeUnit.SECONDS);
        snapshots = new SnapshotServer("http://127.0.0.1:" + server.actualPort(), clock,
                s -> new BackupStore(s3, s, PART, 2));
        snapshots.routes(router);
    }

    @AfterEach
    void stop() throws Exception {
        vertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }

    byte[] backup(int blocks) throws Exception {
        byte[] snapshot = snapshot(11, blocks);
        new BackupStore(s3, settings, PART, 2).upload(new ByteArrayInputStream(snapshot), LOCATION, metadata(ME),
                deadline());
        return snapshot;
    }

    HttpResponse<byte[]> get(String url) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(60)).build(),
                HttpResponse.BodyHandlers.ofByteArray());
    }

    @Test
    void aLinkServesTheDecryptedSnapshotOnceWhole() throws Exception {
        byte[] snapshot = backup(8000); // 4 MiB: several segments
        String url = new BackupStore(s3, settings, PART, 2, snapshots).presignedGet(LOCATION, null, Duration.ofHours(1));

        assertThat(url).startsWith("http://127.0.0.1:" + server.actualPort() + "/snapshots/").hasSizeGreaterThan(60);
        HttpResponse<byte[]> first = get(url);
        assertThat(first.statusCode()).isEqualTo(200);
        assertThat(sha256(first.body())).isEqualTo(sha256(snapshot));
        assertThat(first.headers().firstValue("Content-Length")).as("chunked: no length from metadata").isEmpty();
        assertThat(get(url).statusCode()).as("a link is spent once served whole").isEqualTo(404);
        assertThat(snapshots.live()).isZero();
    }

    @Test
    void aLinkExpiresAndAnUnknownTokenGetsNothing() throws Exception {
        backup(10);
        String url = snapshots.link(settings, LOCATION, null, Duration.ofMinutes(5));
        clock.advance(Duration.ofMinutes(6));

        assertThat(get(url).statusCode()).isEqualTo(404);
        assertThat(get(url.substring(0, url.lastIndexOf('/') + 1) + "guessed").statusCode()).isEqualTo(404);
    }

    @Test
    void aSnapshotThatDoesNotDecryptIsNeverServedWhole() throws Exception {
        backup(8000);
        InMemoryS3.Obj o = s3.objects.get(LOCATION.key());
        byte[] changed = o.data().clone();
        changed[changed.length - 100] ^= 1; // in the last segment: earlier ones are sent before it fails
        s3.put(LOCATION.key(), changed, o.metadata(), o.lastModified());
        String url = snapshots.link(settings, LOCATION, null, Duration.ofHours(1));

        assertThatThrownBy(() -> get(url)).isInstanceOf(IOException.class);
        assertThat(snapshots.live()).as("the link may be tried again").isOne();
    }

    @Test
    void aSnapshotWhoseRecordedDigestDiffersIsNeverServedWhole() throws Exception {
        backup(100);
        InMemoryS3.Obj o = s3.objects.get(LOCATION.key());
        Map<String, String> metadata = new HashMap<>(o.metadata());
        metadata.put(BackupMetadata.SNAPSHOT_SHA256, "00".repeat(32));
        s3.put(LOCATION.key(), o.data(), metadata, o.lastModified());
        String url = snapshots.link(settings, LOCATION, null, Duration.ofHours(1));

        assertThatThrownBy(() -> get(url)).isInstanceOf(IOException.class);
    }

    /** The length is read from the object's metadata or tags, which may change without its ETag. */
    @Test
    void aRecordedSizeThatIsNotTheSnapshotsIsNeverServedWhole() throws Exception {
        for (long recorded : new long[] {-5, 10, 100 * 512 + 31, 100 * 512 + 33, 1L << 40}) {
            byte[] snapshot = backup(100);
            InMemoryS3.Obj o = s3.objects.get(LOCATION.key());
            Map<String, String> metadata = new HashMap<>(o.metadata());
            metadata.put(BackupMetadata.SNAPSHOT_SIZE, Long.toString(recorded));
            s3.put(LOCATION.key(), o.data(), metadata, o.lastModified());
            String url = snapshots.link(settings, LOCATION, null, Duration.ofHours(1));

            if (recorded < 0) {
                HttpResponse<byte[]> served = get(url);
                assertThat(served.statusCode()).as("not a size: sent as it comes").isEqualTo(200);
                assertThat(sha256(served.body())).isEqualTo(sha256(snapshot));
            } else {
                HttpResponse<byte[]> served;
                try {
                    served = get(url);
                } catch (IOException cut) {
                    continue;
                }
                assertThat(served.statusCode()).as("recorded %d: an error before any byte, or cut off", recorded)
                        .isEqualTo(502);
            }
        }
    }

    @Test
    void aWrongKeyIsAnErrorBeforeAnyByte() throws Exception {
        backup(10);
        S3Settings other = settings.withClientKey(BackupStoreEncryptionTest.OTHER);
        HttpResponse<byte[]> r = get(snapshots.link(other, LOCATION, null, Duration.ofHours(1)));

        assertThat(r.statusCode()).isEqualTo(502);
        assertThat(new String(r.body())).contains(KEY.fingerprint());
    }

    @Test
    void theAddressIsTheExplicitUrlElseThePodIpAndPort() {
        assertThat(SnapshotServer.base(Optional.of("http://op.ns.svc:8080/"), Optional.of("10.0.0.1"), 8080))
                .isEqualTo("http://op.ns.svc:8080");
        assertThat(SnapshotServer.base(Optional.empty(), Optional.of("10.0.0.1"), 8080)).isEqualTo("http://10.0.0.1:8080");
        assertThat(SnapshotServer.base(Optional.empty(), Optional.of("fd00::1"), 8080)).isEqualTo("http://[fd00::1]:8080");
        assertThat(SnapshotServer.base(Optional.empty(), Optional.of(" "), 8080)).isNull();
        SnapshotServer none = new SnapshotServer(null, Clock.systemUTC(), s -> null);
        assertThat(none.available()).isFalse();
        assertThatThrownBy(() -> none.link(settings, LOCATION, null, Duration.ofHours(1)))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("snapshot-server.host");
    }
}
