package dev.etcdoperator.sandbox.controlplane;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * One long-running program of the control plane, its output appended to a log file. It is stopped by
 * {@link #close()} (SIGTERM, then SIGKILL), and by a shutdown hook if the JVM ends without that.
 */
final class Daemon implements AutoCloseable {
    private final String name;
    private final Path log;
    private final Process process;
    private final Thread reaper;

    private Daemon(String name, Path log, Process process) {
        this.name = name;
        this.log = log;
        this.process = process;
        this.reaper = new Thread(process::destroyForcibly, "stop-" + name);
        Runtime.getRuntime().addShutdownHook(reaper);
    }

    static Daemon start(String name, List<String> command, Map<String, String> env, Path log) {
        try {
            Files.createDirectories(log.getParent());
            ProcessBuilder builder = new ProcessBuilder(ParentDeathSignal.wrap(command)).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
            builder.environment().putAll(env);
            Process process = builder.start();
            process.getOutputStream().close();
            return new Daemon(name, log, process);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + name + ": " + command, e);
        }
    }

    boolean alive() {
        return process.isAlive();
    }

    long pid() {
        return process.pid();
    }

    /** Fails with the end of the log when the program has exited. */
    void checkAlive() {
        if (!process.isAlive()) {
            throw new IllegalStateException(name + " exited with " + process.exitValue() + "; the end of " + log
                    + ":\n" + tail(40));
        }
    }

    String tail(int lines) {
        try {
            List<String> all = Files.readAllLines(log, StandardCharsets.UTF_8);
            return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
        } catch (IOException | UncheckedIOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }

    Path log() {
        return log;
    }

    /** SIGKILL, as a crash would, and waits until the process is gone. */
    void kill() {
        process.destroyForcibly();
        waitFor(Duration.ofSeconds(30));
    }

    @Override
    public void close() {
        if (process.isAlive()) {
            process.destroy();
            if (!waitFor(Duration.ofSeconds(15))) {
                process.destroyForcibly();
                waitFor(Duration.ofSeconds(15));
            }
        }
        try {
            Runtime.getRuntime().removeShutdownHook(reaper);
        } catch (IllegalStateException e) {
            // the JVM is shutting down; the hook runs anyway
        }
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
