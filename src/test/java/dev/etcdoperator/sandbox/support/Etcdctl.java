package dev.etcdoperator.sandbox.support;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** The machine's etcdctl (API v3), or another release's, against one endpoint, with a deadline on every call. */
public final class Etcdctl {
    private final String endpoint;
    private final String program;

    public Etcdctl(String endpoint) {
        this(endpoint, "etcdctl");
    }

    public Etcdctl(String endpoint, String program) {
        this.endpoint = endpoint;
        this.program = program;
    }

    public Kubectl.Result run(String... args) {
        List<String> command = new ArrayList<>(List.of(program, "--endpoints", endpoint,
                "--dial-timeout=3s", "--command-timeout=5s"));
        command.addAll(List.of(args));
        try {
            ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
            builder.environment().put("ETCDCTL_API", "3");
            Process process = builder.start();
            process.getOutputStream().close();
            byte[] out = process.getInputStream().readAllBytes();
            if (!process.waitFor(20, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IllegalStateException("etcdctl did not finish: " + command);
            }
            return new Kubectl.Result(process.exitValue(), new String(out, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new IllegalStateException("cannot run etcdctl", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    public String get(String key) {
        Kubectl.Result result = run("get", key, "--print-value-only");
        if (!result.ok()) {
            throw new IllegalStateException("etcdctl get failed: " + result.output());
        }
        return result.output().strip();
    }

    public void put(String key, String value) {
        Kubectl.Result result = run("put", key, value);
        if (!result.ok()) {
            throw new IllegalStateException("etcdctl put failed: " + result.output());
        }
    }
}
