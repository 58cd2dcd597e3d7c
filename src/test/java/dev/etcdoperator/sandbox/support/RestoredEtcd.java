package dev.etcdoperator.sandbox.support;

import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A snapshot file checked the way an administrator would: {@code etcdctl snapshot restore} into a fresh data
 * directory, then a single etcd started on it (on free loopback ports) to read the keys back. Closing it stops
 * that etcd.
 */
public final class RestoredEtcd implements AutoCloseable {
    private final Process process;
    private final String endpoint;
    private final Duration restoreTook;

    private RestoredEtcd(Process process, String endpoint, Duration restoreTook) {
        this.process = process;
        this.endpoint = endpoint;
        this.restoreTook = restoreTook;
    }

    /** Restores {@code snapshot} under {@code dir}; throws with etcdctl's output when it refuses the file. */
    public static RestoredEtcd restore(Path snapshot, Path dir) {
        return restore(snapshot, dir, null);
    }

    /**
     * Restores {@code snapshot} under {@code dir} with the release in {@code bin} ({@code etcdutl snapshot restore}
     * where the release has it, as 3.6 requires, then its etcd), or with the machine's etcdctl and etcd when null.
     */
    public static RestoredEtcd restore(Path snapshot, Path dir, Path bin) {
        String restorer = bin == null ? "etcdctl"
                : Files.isExecutable(bin.resolve("etcdutl")) ? bin.resolve("etcdutl").toString()
                : bin.resolve("etcdctl").toString();
        String etcdProgram = bin == null ? "etcd" : bin.resolve("etcd").toString();
        try {
            int clientPort = FreePorts.onLoopback();
            int peerPort = FreePorts.onLoopback();
            String peer = "http://127.0.0.1:" + peerPort;
            Path data = dir.resolve("data");
            long restoreStarted = System.nanoTime();
            Kubectl.Result restored = run(restorer, "snapshot", "restore", snapshot.toString(), "--data-dir",
                    data.toString(), "--name", "restored", "--initial-cluster", "restored=" + peer,
                    "--initial-advertise-peer-urls", peer);
            if (!restored.ok()) {
                throw new IllegalStateException(restorer + " snapshot restore refused " + snapshot + ": " + restored.output());
            }
            Duration restoreTook = Duration.ofNanos(System.nanoTime() - restoreStarted);
            String client = "http://127.0.0.1:" + clientPort;
            Process etcd = new ProcessBuilder(etcdProgram, "--name", "restored", "--data-dir", data.toString(),
                    "--listen-client-urls", client, "--advertise-client-urls", client, "--listen-peer-urls", peer,
                    "--initial-advertise-peer-urls", peer, "--logger=zap")
                    .redirectErrorStream(true).redirectOutput(dir.resolve("etcd.log").toFile()).start();
            RestoredEtcd r = new RestoredEtcd(etcd, client, restoreTook);
            try {
                await().atMost(Duration.ofSeconds(30)).until(() -> new Etcdctl(client).run("endpoint", "health").ok());
            } catch (RuntimeException e) {
                r.close();
                throw e;
            }
            return r;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** How long the restore tool took (etcd not yet started). */
    public Duration restoreTook() {
        return restoreTook;
    }

    public String endpoint() {
        return endpoint;
    }

    /** Every key under {@code prefix} with its value, as of {@code revision} (0: the latest). */
    public Map<String, String> keys(String prefix, long revision) {
        Etcdctl etcdctl = new Etcdctl(endpoint);
        Kubectl.Result r = revision > 0 ? etcdctl.run("get", prefix, "--prefix", "--rev=" + revision)
                : etcdctl.run("get", prefix, "--prefix");
        if (!r.ok()) {
            throw new IllegalStateException("etcdctl get failed: " + r.output());
        }
        List<String> lines = Arrays.stream(r.output().split("\n")).toList();
        Map<String, String> keys = new LinkedHashMap<>();
        for (int i = 0; i + 1 < lines.size(); i += 2) {
            keys.put(lines.get(i), lines.get(i + 1));
        }
        return keys;
    }

    @Override
    public void close() {
        process.destroyForcibly();
        try {
            process.waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static Kubectl.Result run(String... command) throws IOException {
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().put("ETCDCTL_API", "3");
        Process p = builder.start();
        try {
            byte[] out = p.getInputStream().readAllBytes();
            if (!p.waitFor(5, TimeUnit.MINUTES)) {
                p.destroyForcibly();
                throw new IllegalStateException("etcdctl did not finish in 5 minutes");
            }
            return new Kubectl.Result(p.exitValue(), new String(out, StandardCharsets.UTF_8));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
