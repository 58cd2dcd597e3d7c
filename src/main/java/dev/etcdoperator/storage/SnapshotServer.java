package dev.etcdoperator.storage;

import java.io.IOException;
import java.io.InputStream;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

import dev.etcdoperator.core.backup.S3Location;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/**
 * Serves client-side encrypted backups decrypted, to the pods that restore them (a restored cluster's seed member,
 * a restore drill), on the operator's HTTP port: {@code GET /snapshots/<token>}. Each link is a random 256-bit token
 * for one object (its ETag and version id, as the restore verified it) that expires, and is spent once a download
 * has been served whole; a download that broke off may be tried again with the same link until it expires, one at a
 * time. The plaintext is authenticated segment by segment as it is decrypted, and its SHA-256 is compared with the
 * one recorded at backup time before the response is ended: a stream that fails either is cut off, never ended, and
 * the pod checks the SHA-256 of what it got as well. Tokens live in memory: a link made before the operator
 * restarted (or the leader changed) is refused afterwards, so a restore makes its link again in a process that did
 * not make it, and starts its seed again when the seed's download was refused.
 */
@ApplicationScoped
public class SnapshotServer implements SnapshotLinks {
    static final String PATH = "/snapshots/";
    private static final Logger LOG = Logger.getLogger(SnapshotServer.class);
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final int CHUNK = 64 * 1024;
    private static final long WRITE_TIMEOUT_SECONDS = 120;

    record Grant(S3Settings settings, S3Location location, ObjectVersion object, Instant expires, AtomicBoolean busy) {
    }

    private final Map<String, Grant> grants = new ConcurrentHashMap<>();
    private final String base;
    private final Clock clock;
    private final Function<S3Settings, BackupStorage.Store> stores;

    @Inject
    public SnapshotServer(@ConfigProperty(name = "etcd-operator.snapshot-server.url") Optional<String> url,
            @ConfigProperty(name = "etcd-operator.snapshot-server.host") Optional<String> host,
            @ConfigProperty(name = "quarkus.http.port", defaultValue = "8080") int port) {
        this(base(url, host, port), Clock.systemUTC(),
                s -> new BackupStore(S3Clients.create(s), s, 8 * 1024 * 1024, 2));
    }

    SnapshotServer(String base, Clock clock, Function<S3Settings, BackupStorage.Store> stores) {
        this.base = base;
        this.clock = clock;
        this.stores = stores;
    }

    /** The explicit URL, else {@code http://<host>:<port>} of the pod's own IP (the chart gives it), else none. */
    static String base(Optional<String> url, Optional<String> host, int port) {
        if (url.isPresent() && !url.get().isBlank()) {
            return url.get().strip().replaceAll("/+$", "");
        }
        if (host.isPresent() && !host.get().isBlank()) {
            String h = host.get().strip();
            return "http://" + (h.contains(":") ? "[" + h + "]" : h) + ":" + port;
        }
        return null;
    }

    void routes(@Observes Router router) {
        router.get(PATH + ":token").blockingHandler(this::serve, false);
    }

    @Override
    public boolean available() {
        return base != null;
    }

    @Override
    public String link(S3Settings settings, S3Location location, ObjectVersion object, Duration validFor) {
        if (base == null) {
            throw new IllegalStateException("the operator has no address pods can download a decrypted backup from:"
                    + " set etcd-operator.snapshot-server.host (the Helm chart sets it to the pod's IP) or"
                    + " etcd-operator.snapshot-server.url");
        }
        Instant now = clock.instant();
        grants.values().removeIf(g -> !g.busy().get() && g.expires().isBefore(now));
        byte[] random = new byte[32];
        RANDOM.nextBytes(random);
        String token = Base64.getUrlEncoder().withoutPadding().encodeToString(random);
        grants.put(token, new Grant(settings, location, object, now.plus(validFor), new AtomicBoolean()));
        return base + PATH + token;
    }

    /** How many links are live (not spent, not expired). */
    int live() {
        Instant now = clock.instant();
        return (int) grants.values().stream().filter(g -> !g.expires().isBefore(now)).count();
    }

    void serve(RoutingContext ctx) {
        String token = ctx.pathParam("token");
        Grant grant = token == null ? null : grants.get(token);
        HttpServerResponse response = ctx.response();
        if (grant == null || grant.expires().isBefore(clock.instant())) {
            response.setStatusCode(404).end("no such link, or it expired or was used\n");
            return;
        }
        if (!grant.busy().compareAndSet(false, true)) {
            response.setStatusCode(409).end("this link is being downloaded\n");
            return;
        }
        String what = grant.location().toString();
        try (BackupStorage.Store store = stores.apply(grant.settings());
                BackupStorage.Snapshot snapshot = store.readSnapshot(grant.location(), grant.object())) {
            response.putHeader("Content-Type", "application/octet-stream");
            // the recorded size is metadata, which may change without the ETag: a length from it could end a download
            // early as whole; chunked, only the last chunk, sent once all was checked, ends it
            response.setChunked(true);
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            InputStream in = snapshot.stream();
            byte[] chunk = new byte[CHUNK];
            int n;
            long served = 0;
            while ((n = in.read(chunk)) >= 0) {
                if (n == 0) {
                    continue;
                }
                served += n;
                if (snapshot.size() != null && served > snapshot.size()) {
                    throw new IOException("the decrypted snapshot is longer than the " + snapshot.size()
                            + " bytes recorded");
                }
                sha.update(chunk, 0, n);
                response.write(Buffer.buffer().appendBytes(chunk, 0, n)).toCompletionStage().toCompletableFuture()
                        .get(WRITE_TIMEOUT_SECONDS, TimeUnit.SECONDS);
            }
            if (snapshot.size() != null && served != snapshot.size()) {
                throw new IOException("the decrypted snapshot has " + served + " bytes, not the " + snapshot.size()
                        + " recorded");
            }
            String got = HexFormat.of().formatHex(sha.digest());
            if (snapshot.sha256() != null && !snapshot.sha256().equalsIgnoreCase(got)) {
                throw new IOException("the decrypted snapshot's SHA-256 is " + got + ", the backup recorded "
                        + snapshot.sha256());
            }
            response.end().toCompletionStage().toCompletableFuture().get(WRITE_TIMEOUT_SECONDS, TimeUnit.SECONDS);
            grants.remove(token);
            LOG.infof("served the decrypted snapshot of %s (%s)", what, got);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            fail(response, what, e);
        } catch (Exception e) {
            fail(response, what, e);
        } finally {
            grant.busy().set(false);
        }
    }

    /** Before the first byte, an error status; after it, the connection is cut, so the download cannot pass as whole. */
    private static void fail(HttpServerResponse response, String what, Exception e) {
        LOG.warnf("serving the decrypted snapshot of %s failed: %s", what, e.getMessage());
        if (!response.headWritten()) {
            response.setStatusCode(502).end("the backup could not be read and decrypted: " + e.getMessage() + "\n");
        } else {
            response.reset();
        }
    }
}
