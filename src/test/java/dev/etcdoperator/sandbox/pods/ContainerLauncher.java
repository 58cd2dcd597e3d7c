package dev.etcdoperator.sandbox.pods;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.File;

import dev.etcdoperator.sandbox.controlplane.ParentDeathSignal;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * Starts the processes of one pod. Each runs as
 * {@code setsid unshare --mount --uts --propagation private sh -c SCRIPT}: a session of its own (so
 * the process group can be signalled as a whole), a private mount namespace in which the namespace's
 * hosts file covers /etc/hosts and every volume directory is bound at its mountPath, and the pod's
 * hostname. The script then execs the container's program, so the pid we hold is the program's.
 */
final class ContainerLauncher {
    private final KubernetesClient client;
    private final ImageResolver images;
    private final ProcessRegistry registry;
    private final Pod pod;
    private final String podIp;
    private final Map<String, Path> volumeDirs;
    private final Path hostsFile;
    private final Path podDir;
    private final Path logDir;

    ContainerLauncher(KubernetesClient client, ImageResolver images, ProcessRegistry registry, Pod pod, String podIp,
            Map<String, Path> volumeDirs, Path hostsFile, Path podDir, Path logDir) {
        this.client = client;
        this.images = images;
        this.registry = registry;
        this.pod = pod;
        this.podIp = podIp;
        this.volumeDirs = volumeDirs;
        this.hostsFile = hostsFile;
        this.podDir = podDir;
        this.logDir = logDir;
    }

    String podIp() {
        return podIp;
    }

    Path logFile(Container container) {
        return logDir.resolve(container.getName() + ".log");
    }

    ContainerProcess launch(Container container) throws NotEmulatedException, IOException {
        Map<String, String> env = ContainerEnvironment.build(client, pod, container, podIp);
        List<String> argv = images.commandLine(container.getImage(), expand(container.getCommand(), env),
                expand(container.getArgs(), env));
        Files.createDirectories(logDir);
        Path log = logFile(container);
        ProcessBuilder builder = builder(container, env, argv)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                .redirectErrorStream(true);
        return new ContainerProcess(builder.start(), registry);
    }

    /** Runs a probe command in the container's context; the exit code, or -1 after the timeout. */
    int exec(Container container, List<String> command, Duration timeout) throws NotEmulatedException, IOException,
            InterruptedException {
        Map<String, String> env = ContainerEnvironment.build(client, pod, container, podIp);
        List<String> argv = images.commandLine(container.getImage(), expand(command, env), List.of());
        Process process = builder(container, env, argv)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectErrorStream(true)
                .start();
        registry.add(process.pid());
        try {
            if (process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                return process.exitValue();
            }
            return -1;
        } finally {
            if (ProcessGroups.alive(process.pid())) {
                ProcessGroups.signal(process.pid(), "KILL");
            }
            process.waitFor(5, TimeUnit.SECONDS);
            registry.remove(process.pid());
        }
    }

    private ProcessBuilder builder(Container container, Map<String, String> env, List<String> argv)
            throws NotEmulatedException {
        List<String> command = new ArrayList<>(List.of("setsid", "unshare", "--mount", "--uts", "--propagation",
                "private", "--", "/bin/sh", "-c", script(container), "sh"));
        command.addAll(argv);
        ProcessBuilder builder = new ProcessBuilder(ParentDeathSignal.wrap(command)).directory(podDir.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        builder.environment().clear();
        builder.environment().putAll(env);
        return builder;
    }

    private String script(Container container) throws NotEmulatedException {
        StringBuilder s = new StringBuilder("set -e\n");
        s.append("mount --bind ").append(quote(hostsFile.toString())).append(" /etc/hosts\n");
        String hostname = pod.getSpec().getHostname() != null ? pod.getSpec().getHostname() : pod.getMetadata().getName();
        s.append("hostname ").append(quote(hostname.length() > 63 ? hostname.substring(0, 63) : hostname)).append('\n');
        for (VolumeMount mount : container.getVolumeMounts() == null ? List.<VolumeMount>of() : container.getVolumeMounts()) {
            Path source = volumeDirs.get(mount.getName());
            if (source == null) {
                throw new NotEmulatedException(ContainerEnvironment.CONFIG_ERROR,
                        "volumeMount " + mount.getName() + " names no volume of the pod");
            }
            if (mount.getSubPath() != null && !mount.getSubPath().isEmpty()) {
                source = source.resolve(mount.getSubPath());
                s.append("mkdir -p ").append(quote(source.toString())).append('\n');
            }
            s.append("mkdir -p ").append(quote(mount.getMountPath())).append('\n');
            s.append("mount --bind ").append(Boolean.TRUE.equals(mount.getReadOnly()) ? "-o ro " : "")
                    .append(quote(source.toString())).append(' ').append(quote(mount.getMountPath())).append('\n');
        }
        if (container.getWorkingDir() != null && !container.getWorkingDir().isEmpty()) {
            s.append("cd ").append(quote(container.getWorkingDir())).append('\n');
        }
        s.append("exec \"$@\"\n");
        return s.toString();
    }

    private List<String> expand(List<String> items, Map<String, String> env) {
        if (items == null) {
            return List.of();
        }
        return items.stream().map(item -> ContainerEnvironment.rewriteWildcards(ContainerEnvironment.expand(item, env), podIp))
                .collect(Collectors.toList());
    }

    private static String quote(String text) {
        return "'" + text.replace("'", "'\\''") + "'";
    }
}
