package dev.etcdoperator.sandbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The README's sandbox command stops everything it started: after Ctrl-C (SIGINT to the sandbox), when the
 * process that started it (Maven) goes away, even by SIGKILL, and when the sandbox's own JVM is killed with
 * SIGKILL, which runs none of its shutdown hooks. The sandbox runs as the README's command runs it, a JVM of
 * {@link SandboxMain}.
 */
class SandboxMainIT {
    static final Duration START = Duration.ofMinutes(5);
    static final Duration STOP = Duration.ofSeconds(60);
    static final int OUTPUT_KEPT = 80;

    private Process launched;
    private final List<ProcessHandle> tree = new ArrayList<>();

    @AfterEach
    void killWhatIsLeft() {
        // only reached with something alive when an assertion failed: leave nothing running either way
        tree.forEach(ProcessHandle::destroyForcibly);
        if (launched != null) {
            launched.destroyForcibly();
        }
    }

    @Test
    void ctrlCStopsEveryProcessTheSandboxStarted() throws Exception {
        ProcessHandle sandbox = startSandbox(false);
        assertThat(tree).as("the sandbox's processes").hasSizeGreaterThan(5);
        signal("INT", sandbox.pid());
        awaitAllGone();
    }

    @Test
    void theParentGoingAwayStopsEveryProcessTheSandboxStarted() throws Exception {
        ProcessHandle sandbox = startSandbox(true);
        ProcessHandle parent = sandbox.parent().orElseThrow();
        assertThat(parent.pid()).isEqualTo(launched.pid());
        assertThat(tree).as("the sandbox's processes").hasSizeGreaterThan(5);
        signal("KILL", parent.pid());
        awaitAllGone();
    }

    @Test
    void killingTheSandboxItselfStopsEveryProcessItStarted() throws Exception {
        ProcessHandle sandbox = startSandbox(false);
        assertThat(tree).as("the sandbox's processes").hasSizeGreaterThan(5);
        signal("KILL", sandbox.pid());
        awaitAllGone();
    }

    /**
     * Starts SandboxMain (under a shell that waits for it when {@code underAParent}, as Maven does) and returns
     * the sandbox JVM once it says it is ready, with every process it started recorded in {@link #tree}.
     */
    private ProcessHandle startSandbox(boolean underAParent) throws Exception {
        Path state = Path.of("target", "sandbox-main-it").toAbsolutePath();
        List<String> java = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("surefire.test.class.path", System.getProperty("java.class.path")),
                "-Doperator.jar=" + System.getProperty("operator.jar"),
                "-Dsandbox.stateDir=" + state, "-Dsandbox.s3Port=0",
                SandboxMain.class.getName());
        List<String> command = new ArrayList<>();
        if (underAParent) {
            // a parent that stays, waiting for its child, as Maven's exec goal does
            command.addAll(List.of("sh", "-c", "\"$@\"; echo sandbox ended with $?", "sh"));
        }
        command.addAll(java);
        launched = new ProcessBuilder(command).redirectErrorStream(true).start();
        launched.getOutputStream().close();
        CompletableFuture<Void> ready = new CompletableFuture<>();
        Deque<String> lastLines = new ArrayDeque<>();
        Thread reader = new Thread(() -> {
            try (BufferedReader out = new BufferedReader(new InputStreamReader(launched.getInputStream(),
                    StandardCharsets.UTF_8))) {
                for (String line; (line = out.readLine()) != null;) {
                    if (line.contains("The sandbox is ready.")) {
                        ready.complete(null);
                    }
                    if (!ready.isDone()) {
                        lastLines.addLast(line);
                        if (lastLines.size() > OUTPUT_KEPT) {
                            lastLines.removeFirst();
                        }
                    }
                }
                ready.completeExceptionally(new AssertionError("the sandbox ended before it was ready; its last "
                        + "lines:\n" + String.join("\n", lastLines)));
            } catch (IOException e) {
                ready.completeExceptionally(e);
            }
        }, "sandbox-main-output");
        reader.setDaemon(true);
        reader.start();
        ready.get(START.toSeconds(), TimeUnit.SECONDS);
        ProcessHandle sandbox = underAParent
                ? launched.toHandle().children().findFirst().orElseThrow()
                : launched.toHandle();
        tree.add(sandbox);
        sandbox.descendants().forEach(tree::add);
        return sandbox;
    }

    private void awaitAllGone() {
        await().atMost(STOP).pollInterval(Duration.ofMillis(250)).untilAsserted(() -> assertThat(tree)
                .filteredOn(ProcessHandle::isAlive)
                .extracting(p -> p.pid() + " " + p.info().commandLine().orElse("?"))
                .as("processes still running").isEmpty());
    }

    private static void signal(String signal, long pid) throws Exception {
        Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(pid)).inheritIO().start();
        assertThat(kill.waitFor(10, TimeUnit.SECONDS) && kill.exitValue() == 0).as("kill -%s %d", signal, pid)
                .isTrue();
    }
}
