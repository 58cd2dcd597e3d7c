package dev.etcdoperator.sandbox.pods;

import java.time.Instant;

/**
 * One running container: a process that leads its own session and process group, so that
 * signalling the group reaches everything the container started.
 */
final class ContainerProcess {
    private final Process process;
    private final Instant startedAt;
    private final ProcessRegistry registry;
    private Instant finishedAt;

    ContainerProcess(Process process, ProcessRegistry registry) {
        this.process = process;
        this.registry = registry;
        this.startedAt = Instant.now();
        registry.add(pid());
    }

    long pid() {
        return process.pid();
    }

    Instant startedAt() {
        return startedAt;
    }

    /** True once the main process has exited; whatever else ran in its group is killed then. */
    boolean exited() {
        if (process.isAlive()) {
            return false;
        }
        if (finishedAt == null) {
            finishedAt = Instant.now();
            if (ProcessGroups.alive(pid())) {
                ProcessGroups.signal(pid(), "KILL");
            }
        }
        return true;
    }

    Instant finishedAt() {
        return finishedAt;
    }

    int exitCode() {
        return process.exitValue();
    }

    void signal(String signal) {
        ProcessGroups.signal(pid(), signal);
    }

    /** True when no process of the group is left. */
    boolean gone() {
        boolean gone = !process.isAlive() && !ProcessGroups.alive(pid());
        if (gone) {
            registry.remove(pid());
        }
        return gone;
    }
}
