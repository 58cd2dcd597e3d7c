package dev.etcdoperator.etcd;

import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Real etcd processes for tests, each on its own loopback address (127.77.N.x, ports 2379/2380) with a temporary
 * data dir. {@link #close()} stops every process it started (SIGTERM, wait, SIGKILL) and deletes the dirs; call it
 * from {@code @AfterAll}/{@code @AfterEach} so that it also runs when a test fails.
 */
final class EtcdProcesses implements AutoCloseable {

    /** One etcd member process. */
    record Node(String name, String ip, String clientUrl, Process process, Path dataDir, Path log) {

        String peerUrl() {
            return "http://" + ip + ":2380";
        }

        String logTail() {
            try {
                List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
                return String.join("\n", lines.subList(Math.max(0, lines.size() - 15), lines.size()));
            } catch (IOException e) {
                return "(no log: " + e.getMessage() + ")";
            }
        }
    }

    private final String subnet;
    private final Path root;
    private final List<Node> nodes = new java.util.concurrent.CopyOnWriteArrayList<>();
    private List<String> tlsArgs = List.of();
    private List<String> extraArgs = List.of();
    /** Kills what is left if the JVM ends without {@link #close()} (a test run interrupted, a fork timed out). */
    private final Thread reaper = new Thread(() -> nodes.forEach(n -> n.process().destroyForcibly()), "etcd-reaper");

    EtcdProcesses() {
        this.subnet = "127.77." + ThreadLocalRandom.current().nextInt(1, 250) + ".";
        Runtime.getRuntime().addShutdownHook(reaper);
        try {
            this.root = Files.createTempDirectory("etcd-admin-test");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The loopback address number {@code host} of this instance's private subnet. */
    String ip(int host) {
        return subnet + host;
    }

    /** Members started from now on serve clients over TLS and require a client certificate signed by {@code ca}. */
    void requireClientTls(Path cert, Path key, Path ca) {
        tlsArgs = List.of("--cert-file", cert.toString(), "--key-file", key.toString(),
                "--trusted-ca-file", ca.toString(), "--client-cert-auth");
    }

    /** Members started from now on get these flags too (say {@code --quota-backend-bytes=...}). */
    void withArgs(String... args) {
        extraArgs = List.of(args);
    }

    /** A directory removed with the rest by {@link #close()}. */
    Path workDir() {
        return root;
    }

    String scheme() {
        return tlsArgs.isEmpty() ? "http" : "https";
    }

    /** Starts a new single-member cluster. */
    Node startSeed(String name, int host) {
        String ip = ip(host);
        return start(name, ip, name + "=" + peer(ip), "new");
    }

    /** Starts a member already added through the API, joining with state {@code existing}. */
    Node startJoining(String name, int host, String initialCluster) {
        return start(name, ip(host), initialCluster, "existing");
    }

    String peer(String ip) {
        return "http://" + ip + ":2380";
    }

    String client(int host) {
        return scheme() + "://" + ip(host) + ":2379";
    }

    private Node start(String name, String ip, String initialCluster, String state) {
        try {
            Path data = Files.createDirectories(root.resolve(name));
            Path log = root.resolve(name + ".log");
            String clientUrl = scheme() + "://" + ip + ":2379";
            List<String> command = new ArrayList<>(List.of("etcd", "--name", name, "--data-dir", data.toString(),
                    "--logger=zap", "--log-outputs=stderr",
                    "--listen-client-urls", clientUrl, "--advertise-client-urls", clientUrl,
                    "--listen-peer-urls", peer(ip), "--initial-advertise-peer-urls", peer(ip),
                    "--initial-cluster", initialCluster, "--initial-cluster-state", state,
                    "--initial-cluster-token", "etcd-admin-test"));
            command.addAll(tlsArgs);
            command.addAll(extraArgs);
            Process process = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(log.toFile()).start();
            process.getOutputStream().close();
            Node node = new Node(name, ip, clientUrl, process, data, log);
            nodes.add(node);
            return node;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start etcd " + name, e);
        }
    }

    /** Waits until the admin says the member is healthy (for a learner: its status answers). */
    void awaitHealthy(EtcdAdmin admin, Node node, Duration within) {
        await("etcd " + node.name() + " healthy").atMost(within).pollInterval(Duration.ofMillis(100))
                .failFast("etcd " + node.name() + " exited", () -> !node.process().isAlive())
                .until(() -> admin.health(node.clientUrl()).healthy());
    }

    /** Waits for a member to exit by itself (as a removed member does). */
    void awaitExit(Node node, Duration within) {
        await("etcd " + node.name() + " exits").atMost(within).pollInterval(Duration.ofMillis(100))
                .until(() -> !node.process().isAlive());
    }

    void stop(Node node) {
        node.process().destroy();
        try {
            if (!node.process().waitFor(3, TimeUnit.SECONDS)) {
                node.process().destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            node.process().destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        nodes.forEach(n -> n.process().destroy());
        nodes.forEach(this::stop);
        nodes.clear();
        try {
            Runtime.getRuntime().removeShutdownHook(reaper);
        } catch (IllegalStateException e) {
            // the JVM is already shutting down: the reaper runs anyway
        }
        try (Stream<Path> files = Files.walk(root)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // best effort: a temp dir
        }
    }
}
