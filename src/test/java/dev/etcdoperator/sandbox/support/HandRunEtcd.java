package dev.etcdoperator.sandbox.support;

import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.etcdoperator.sandbox.controlplane.ParentDeathSignal;
import dev.etcdoperator.sandbox.controlplane.Parts;

/**
 * A cluster run by hand, as an administrator would: members of etcd 3.5 (built from its modules) on addresses
 * {@code <prefix>.1}, {@code <prefix>.2}, ..., each with a data directory that outlives its process.
 */
public final class HandRunEtcd implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Path dir;
    private final String prefix;
    private final int size;
    private final Process[] members;

    private HandRunEtcd(Path dir, String prefix, int size) {
        this.dir = dir;
        this.prefix = prefix;
        this.size = size;
        this.members = new Process[size];
    }

    public static HandRunEtcd start(Path dir, String prefix, int size) throws IOException {
        Files.createDirectories(dir);
        HandRunEtcd etcd = new HandRunEtcd(dir, prefix, size);
        try {
            for (int i = 0; i < size; i++) {
                etcd.run(i);
            }
            etcd.awaitHealthy();
            return etcd;
        } catch (RuntimeException e) {
            etcd.close();
            throw e;
        }
    }

    public List<String> endpoints() {
        return IntStream.range(0, size).mapToObj(this::clientUrl).toList();
    }

    /** The index of the member that leads now. */
    public int leader() {
        for (int i = 0; i < size; i++) {
            Kubectl.Result r = new Etcdctl(clientUrl(i)).run("endpoint", "status", "--write-out=json");
            if (!r.ok()) {
                continue;
            }
            try {
                JsonNode status = JSON.readTree(r.output()).get(0).get("Status");
                if (status.get("leader").asText().equals(status.get("header").get("member_id").asText())) {
                    return i;
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        throw new IllegalStateException("no member of " + endpoints() + " leads");
    }

    /** SIGKILL to member {@code i}; its data stays. */
    public void kill(int i) {
        members[i].destroyForcibly();
        try {
            members[i].waitFor();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Starts member {@code i} again on its data. */
    public void restart(int i) {
        run(i);
    }

    public void awaitHealthy() {
        await().atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(100)).until(() ->
                new Etcdctl(String.join(",", endpoints())).run("endpoint", "health", "--cluster").ok());
    }

    private void run(int i) {
        String initialCluster = IntStream.range(0, size).mapToObj(m -> name(m) + "=" + peerUrl(m))
                .collect(Collectors.joining(","));
        List<String> command = new ArrayList<>(List.of(Parts.program(Parts.ETCD_35, "etcd").toString(),
                "--name", name(i), "--data-dir", dir.resolve(name(i)).toString(), "--logger=zap",
                "--log-outputs=" + dir.resolve(name(i) + ".log"),
                "--listen-client-urls", clientUrl(i), "--advertise-client-urls", clientUrl(i),
                "--listen-peer-urls", peerUrl(i), "--initial-advertise-peer-urls", peerUrl(i),
                "--initial-cluster", initialCluster, "--initial-cluster-state", "new",
                "--initial-cluster-token", "by-hand"));
        try {
            members[i] = new ProcessBuilder(ParentDeathSignal.wrap(command)).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private String name(int i) {
        return "m" + i;
    }

    private String clientUrl(int i) {
        return "http://" + prefix + "." + (i + 1) + ":2379";
    }

    private String peerUrl(int i) {
        return "http://" + prefix + "." + (i + 1) + ":2380";
    }

    @Override
    public void close() {
        for (Process member : members) {
            if (member != null) {
                member.destroyForcibly();
            }
        }
        for (Process member : members) {
            if (member != null) {
                try {
                    member.waitFor();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }
    }
}
