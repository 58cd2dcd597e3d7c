package dev.etcdoperator.sandbox.support;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import dev.etcdoperator.sandbox.controlplane.Parts;

/** Runs kubectl (the sandbox's, built with the API server at the same release) against a kubeconfig, as a user would. */
public final class Kubectl {
    private final Path kubeconfig;

    public record Result(int exitCode, String output) {
        public boolean ok() {
            return exitCode == 0;
        }
    }

    public Kubectl(Path kubeconfig) {
        this.kubeconfig = kubeconfig;
    }

    /** True when the kubectl of the sandbox's parts is there (it is built with the control plane). */
    public static boolean available() {
        return Files.isExecutable(program());
    }

    private static Path program() {
        return Parts.program(Parts.KUBE, "kubectl");
    }

    public Result run(String... args) {
        List<String> command = new ArrayList<>(List.of(program().toString(), "--kubeconfig", kubeconfig.toString()));
        command.addAll(List.of(args));
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            process.getOutputStream().close();
            byte[] out = process.getInputStream().readAllBytes();
            if (!process.waitFor(60, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IllegalStateException("kubectl did not finish: " + command);
            }
            return new Result(process.exitValue(), new String(out, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new IllegalStateException("cannot run kubectl", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
