package dev.etcdoperator.sandbox;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import dev.etcdoperator.sandbox.controlplane.ParentDeathSignal;
import dev.etcdoperator.sandbox.support.FreePorts;
import org.awaitility.Awaitility;

/**
 * The packaged operator ({@code target/quarkus-app/quarkus-run.jar}, the artifact the Helm chart deploys) run as
 * a child process against the sandbox's API server, with the identity and environment the chart gives it.
 */
public final class OperatorProcess implements AutoCloseable {
    private final List<String> command;
    private final Path logFile;
    private final int httpPort;
    private final Path kubeconfig;
    private final Map<String, String> env;
    private volatile Process process;
    private boolean stopped;
    private int restarts;
    /**
     * Every launch runs on this one thread. The operator is started under a parent-death signal tied to the thread
     * that starts it ({@link ParentDeathSignal}): a restart started from the thread that saw the last process exit,
     * a pool thread that ends when idle, was killed with it moments later and counted as a second exit.
     */
    private final ExecutorService launcher = Executors.newSingleThreadExecutor(task -> {
        Thread thread = new Thread(task, "operator-launcher");
        thread.setDaemon(true);
        return thread;
    });

    /**
     * @param kubeconfig       the operator's identity and API server, as {@code KUBECONFIG}
     * @param env              the environment the Helm chart's Deployment gives the operator container
     * @param chartJvmOptions  the JVM options the image's launcher derives from the chart's Deployment, its paths the
     *                         packaged operator's ({@link ImageClassDataArchive#prepare}), first
     * @param jvmOptions       added after those and the sandbox's own, so that a later option such as
     *                         {@code -Xmx128m} wins
     */
    OperatorProcess(Path jar, Path kubeconfig, Map<String, String> env, Path hostsFile, Path logFile,
            List<String> chartJvmOptions, List<String> jvmOptions, Map<String, String> properties) {
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException("the packaged operator is missing: " + jar
                    + " (build it with ./mvnw package -DskipTests)");
        }
        this.logFile = logFile;
        this.kubeconfig = kubeconfig;
        this.env = Map.copyOf(env);
        this.httpPort = FreePorts.onLoopback();
        command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        command.addAll(chartJvmOptions);
        command.addAll(List.of("-Djdk.net.hosts.file=" + hostsFile,
                "-Dsun.net.inetaddr.ttl=1",
                "-Dsun.net.inetaddr.negative.ttl=0",
                "-Dquarkus.http.port=" + httpPort,
                "-Dquarkus.http.host=127.0.0.1",
                "-Dquarkus.kubernetes-client.trust-certs=true"));
        command.addAll(jvmOptions);
        properties.forEach((k, v) -> command.add("-D" + k + "=" + v));
        command.addAll(List.of("-jar", jar.toString()));
    }

    /** Starts the process and waits until its readiness check passes; once per object (the sandbox makes a new one to start again). */
    public OperatorProcess start(Duration timeout) {
        synchronized (this) {
            // under the lock: the exit handler of a process stopped before sees either stopped or another process
            stopped = false;
            launch();
        }
        Awaitility.await("the operator to be ready (log: " + logFile + ")").atMost(timeout)
                .pollInterval(Duration.ofMillis(250)).ignoreExceptionsInstanceOf(UncheckedIOException.class)
                .until(() -> {
                    if (!process.isAlive()) {
                        throw new IllegalStateException("the operator exited with " + process.exitValue()
                                + "; see " + logFile);
                    }
                    return get("/q/health/ready").statusCode() == 200;
                });
        restartWhenItExits(process);
        return this;
    }

    private void launch() {
        try {
            launcher.submit(this::launchOnThisThread).get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while starting the operator", e);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
        }
    }

    private void launchOnThisThread() {
        try {
            Files.createDirectories(logFile.getParent());
            ProcessBuilder builder = new ProcessBuilder(ParentDeathSignal.wrap(command)).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(logFile.toFile()));
            builder.environment().putAll(env);
            builder.environment().put("KUBECONFIG", kubeconfig.toString());
            process = builder.start();
            Process started = process;
            // a test JVM stopped by a signal must not leave the operator running
            Runtime.getRuntime().addShutdownHook(new Thread(started::destroyForcibly, "stop-operator"));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start the operator", e);
        }
    }

    /**
     * A running operator that exits by itself (it does when it loses its leader lease, which a slow API server can
     * cause) is started again, as the kubelet restarts its Deployment's container; the log says so. One stopped or
     * killed here is not.
     */
    private synchronized void restartWhenItExits(Process running) {
        running.onExit().thenRun(() -> {
            synchronized (this) {
                if (stopped || running != process) {
                    return;
                }
                restarts++;
                try {
                    Files.writeString(logFile, "sandbox: the operator exited with " + running.exitValue()
                            + "; it is started again, as its pod's container would be\n",
                            java.nio.file.StandardOpenOption.APPEND);
                } catch (IOException e) {
                    // the restart matters more than its log line
                }
                launch();
                restartWhenItExits(process);
            }
        });
    }

    /** How often the operator exited by itself and was started again. */
    public synchronized int restarts() {
        return restarts;
    }

    public String url() {
        return "http://127.0.0.1:" + httpPort;
    }

    public Path logFile() {
        return logFile;
    }

    /** The operator's process id (for jcmd and the like); -1 before it is started. */
    public long pid() {
        return process == null ? -1 : process.pid();
    }

    public boolean alive() {
        return process != null && process.isAlive();
    }

    /** GET on the operator's HTTP port, for /q/health and /q/metrics. */
    public HttpResponse<String> get(String path) {
        try {
            return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(url() + path))
                    .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** SIGKILL, as a crash or an evicted pod would. */
    public void kill() {
        synchronized (this) {
            stopped = true;
        }
        if (process != null) {
            process.destroyForcibly();
            waitFor(Duration.ofSeconds(30));
        }
        launcher.shutdown();
    }

    /** SIGTERM, then SIGKILL after 20 s. */
    @Override
    public void close() {
        synchronized (this) {
            stopped = true;
        }
        if (process != null && process.isAlive()) {
            process.destroy();
            if (!waitFor(Duration.ofSeconds(20))) {
                process.destroyForcibly();
                waitFor(Duration.ofSeconds(10));
            }
        }
        launcher.shutdown();
    }

    private boolean waitFor(Duration timeout) {
        try {
            return process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
