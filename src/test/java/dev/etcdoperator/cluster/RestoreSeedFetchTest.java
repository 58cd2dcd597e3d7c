package dev.etcdoperator.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The seed's {@code fetch-snapshot} script run for real by {@code /bin/sh} with the machine's wget, tee and sha256sum
 * (what the sandbox's busybox image is), against a local HTTP server: the file is kept only when it is whole and its
 * SHA-256 is the recorded one.
 */
class RestoreSeedFetchTest {
    static final byte[] SNAPSHOT = new byte[3 * 1024 * 1024 + 17];

    @TempDir
    Path dir;
    HttpServer server;
    final List<String> ifMatch = new CopyOnWriteArrayList<>();
    volatile int cutAfter = -1;

    @BeforeEach
    void serve() throws IOException {
        assumeTrue(onPath("wget") && onPath("tee") && onPath("sha256sum"),
                "wget, tee and sha256sum are needed on PATH to run the fetch script");
        new Random(7).nextBytes(SNAPSHOT);
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/snapshot", exchange -> {
            ifMatch.add(String.valueOf(exchange.getRequestHeaders().getFirst("If-Match")));
            String wanted = exchange.getRequestHeaders().getFirst("If-Match");
            if (wanted != null && !wanted.equals("\"etag-1\"")) {
                exchange.sendResponseHeaders(412, -1);
                exchange.close();
                return;
            }
            // a short body is sent chunked, so that it ends cleanly where it was cut
            exchange.sendResponseHeaders(200, cutAfter < 0 ? SNAPSHOT.length : 0);
            try (OutputStream body = exchange.getResponseBody()) {
                body.write(SNAPSHOT, 0, cutAfter < 0 ? SNAPSHOT.length : cutAfter);
            } catch (IOException e) {
                // the client went away: nothing to answer
            }
        });
        server.start();
    }

    @AfterEach
    void stop() {
        if (server != null) {
            server.stop(0);
        }
    }

    @Test
    void aWholeSnapshotWithTheRecordedDigestIsKept() throws Exception {
        Result r = fetch(sha256(SNAPSHOT), null);
        assertThat(r.exit()).as(r.output()).isZero();
        assertThat(Files.readAllBytes(file())).isEqualTo(SNAPSHOT);
        try (var left = Files.list(dir)) {
            assertThat(left).as("only the snapshot is left").containsExactly(file());
        }
    }

    @Test
    void anotherDigestFailsAndLeavesNoFile() throws Exception {
        Result r = fetch("00" + sha256(SNAPSHOT).substring(2), null);
        assertThat(r.exit()).as("not a failed download: trying again would not help").isEqualTo(1);
        assertThat(r.output()).contains("SHA-256 is " + sha256(SNAPSHOT));
        assertThat(dir).isEmptyDirectory();
    }

    @Test
    void aShortDownloadFailsAndLeavesNoFile() throws Exception {
        cutAfter = SNAPSHOT.length / 2;
        Result r = fetch(sha256(SNAPSHOT), null);
        assertThat(r.exit()).as(r.output()).isNotZero();
        assertThat(dir).isEmptyDirectory();
    }

    @Test
    void theVerifiedETagIsSentAndAnotherObjectIsRefused() throws Exception {
        Result same = fetch(sha256(SNAPSHOT), "\"etag-1\"");
        assertThat(same.exit()).as(same.output()).isZero();
        Result changed = fetch(sha256(SNAPSHOT), "\"etag-2\"");
        assertThat(changed.exit()).isEqualTo(SnapshotFetch.DOWNLOAD_FAILED);
        assertThat(changed.output()).contains("could not be downloaded");
        assertThat(ifMatch).containsExactly("\"etag-1\"", "\"etag-2\"");
        assertThat(dir).isEmptyDirectory();
    }

    /** A link that is refused (an operator restarted since it was made) is a failed download, said by its own exit. */
    @Test
    void aRefusedLinkIsAFailedDownloadAndLeavesNoFile() throws Exception {
        Result r = run(file(), "/no-such-link", sha256(SNAPSHOT), null);
        assertThat(r.exit()).as(r.output()).isEqualTo(SnapshotFetch.DOWNLOAD_FAILED);
        assertThat(r.output()).contains("could not be downloaded whole");
        assertThat(dir).isEmptyDirectory();
    }

    @Test
    void aFileThatCannotBeWrittenFails() throws Exception {
        Path missing = dir.resolve("no-such-dir").resolve("restore-snapshot.db");
        Result r = run(missing, sha256(SNAPSHOT), null);
        assertThat(r.exit()).isEqualTo(1);
        assertThat(missing).doesNotExist();
        Result withoutDigest = run(missing, null, "\"etag-1\"");
        assertThat(withoutDigest.exit()).as("not a failed download: trying again would not help: %s",
                withoutDigest.output()).isEqualTo(1);
        assertThat(withoutDigest.output()).contains("could not be stored whole");
        assertThat(missing).doesNotExist();
    }

    /** Without a digest the ETag alone binds the download (for a store seen to refuse other ETags): kept whole. */
    @Test
    void withoutADigestTheSnapshotIsKeptWholeWhileItsETagIsTheVerifiedOne() throws Exception {
        Result r = fetch(null, "\"etag-1\"");
        assertThat(r.exit()).as(r.output()).isZero();
        assertThat(Files.readAllBytes(file())).isEqualTo(SNAPSHOT);
        try (var left = Files.list(dir)) {
            assertThat(left).as("only the snapshot is left").containsExactly(file());
        }

        Result changed = fetch(null, "\"etag-2\"");
        assertThat(changed.exit()).as(changed.output()).isEqualTo(SnapshotFetch.DOWNLOAD_FAILED);
        assertThat(dir).isEmptyDirectory();

        try (ServerSocket broken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            Thread cutOff = new Thread(() -> answerAThirdAndHangUp(broken));
            cutOff.setDaemon(true);
            cutOff.start();
            Result cut = run(file(), "http://127.0.0.1:" + broken.getLocalPort() + "/snapshot", null, "\"etag-1\"");
            assertThat(cut.exit()).as(cut.output()).isEqualTo(SnapshotFetch.DOWNLOAD_FAILED);
            assertThat(dir).isEmptyDirectory();
            cutOff.join(10_000);
        }
    }

    /**
     * Announces the whole snapshot, sends a third of it and closes the connection, as a download cut off; then stops
     * listening, so that a wget that tries again is refused.
     */
    static void answerAThirdAndHangUp(ServerSocket server) {
        try (server; Socket socket = server.accept()) {
            socket.getInputStream().read(new byte[8192]);
            OutputStream out = socket.getOutputStream();
            out.write(("HTTP/1.1 200 OK\r\nContent-Length: " + SNAPSHOT.length + "\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.write(SNAPSHOT, 0, SNAPSHOT.length / 3);
            out.flush();
        } catch (IOException e) {
            // the client went away first: the test then fails on what it read
        }
    }

    /**
     * The step after etcd's restore, run by /bin/sh on a copy of the data volume's layout: the restored directory
     * becomes the data directory in one rename; a data directory already there (an earlier pod's on the same claim)
     * is kept, and the new restore dropped.
     */
    @Test
    void theRestoredDataBecomesTheDataDirectoryUnlessOneIsThere() throws Exception {
        Path volume = dir.resolve("volume");
        String script = RestoreSeed.placeScript(ClusterResources.DATA_MOUNT + "/snapshot.db")
                .replace(ClusterResources.DATA_MOUNT, volume.toString());
        Files.createDirectories(volume.resolve("restoring").resolve("member"));
        Files.writeString(volume.resolve("restoring").resolve("member").resolve("db"), "restored");
        Files.writeString(volume.resolve("snapshot.db"), "snapshot");
        assertThat(run(script)).isZero();
        assertThat(Files.readString(volume.resolve("data").resolve("member").resolve("db"))).isEqualTo("restored");
        assertThat(volume.resolve("restoring")).doesNotExist();
        assertThat(volume.resolve("snapshot.db")).doesNotExist();

        Files.writeString(volume.resolve("data").resolve("member").resolve("db"), "taken writes since");
        Files.createDirectories(volume.resolve("restoring").resolve("member"));
        Files.writeString(volume.resolve("restoring").resolve("member").resolve("db"), "restored again");
        assertThat(run(script)).isZero();
        assertThat(Files.readString(volume.resolve("data").resolve("member").resolve("db")))
                .isEqualTo("taken writes since");
        assertThat(volume.resolve("restoring")).doesNotExist();
    }

    private static int run(String script) throws Exception {
        Process p = new ProcessBuilder("/bin/sh", "-c", script).redirectErrorStream(true).start();
        p.getInputStream().readAllBytes();
        return p.waitFor(30, TimeUnit.SECONDS) ? p.exitValue() : -1;
    }

    @Test
    void neitherADigestNorAnETagIsRefusedBeforeAnyDownload() throws Exception {
        Result r = fetch(null, null);
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.output()).contains("neither a SHA-256 nor an ETag");
        assertThat(ifMatch).as("nothing was asked of the store").isEmpty();
        assertThat(dir).isEmptyDirectory();
    }

    record Result(int exit, String output) {
    }

    Path file() {
        return dir.resolve("restore-snapshot.db");
    }

    Result fetch(String sha256, String etag) throws Exception {
        return run(file(), sha256, etag);
    }

    Result run(Path target, String sha256, String etag) throws Exception {
        return run(target, "/snapshot", sha256, etag);
    }

    Result run(Path target, String urlPath, String sha256, String etag) throws Exception {
        String url = urlPath.startsWith("http") ? urlPath : "http://127.0.0.1:" + server.getAddress().getPort() + urlPath;
        ProcessBuilder pb = new ProcessBuilder("/bin/sh", "-c", RestoreSeed.fetchScript(target.toString()))
                .redirectErrorStream(true);
        pb.environment().put("SNAPSHOT_URL", url);
        pb.environment().remove("SNAPSHOT_SHA256");
        pb.environment().remove("SNAPSHOT_ETAG");
        if (sha256 != null) {
            pb.environment().put("SNAPSHOT_SHA256", sha256);
        }
        if (etag != null) {
            pb.environment().put("SNAPSHOT_ETAG", etag);
        }
        Path log = Files.createTempFile("fetch", ".log");
        try {
            Process p = pb.redirectOutput(log.toFile()).start();
            if (!p.waitFor(60, TimeUnit.SECONDS)) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
                throw new AssertionError("the fetch script did not end within 60 s: " + Files.readString(log));
            }
            return new Result(p.exitValue(), Files.readString(log));
        } finally {
            Files.deleteIfExists(log);
        }
    }

    static String sha256(byte[] data) throws NoSuchAlgorithmException {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(data));
    }

    static boolean onPath(String program) {
        for (String d : System.getenv().getOrDefault("PATH", "").split(":")) {
            if (Files.isExecutable(Path.of(d, program))) {
                return true;
            }
        }
        return false;
    }
}
