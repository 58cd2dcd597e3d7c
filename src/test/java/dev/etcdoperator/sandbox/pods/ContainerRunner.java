package dev.etcdoperator.sandbox.pods;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerState;
import io.fabric8.kubernetes.api.model.ContainerStateBuilder;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.Set;
import java.util.concurrent.ScheduledExecutorService;

/**
 * Keeps one container (or init container) going as kubelet would: starts it when the pod lets it,
 * restarts it by the restart policy with a doubling back-off, runs its probes, kills it when its
 * liveness or startup probe fails, and reports its status. Only the pod's worker thread calls
 * {@link #tick}.
 */
final class ContainerRunner {
    private static final Set<String> RETRIED_REASONS = Set.of(ContainerEnvironment.CONFIG_ERROR, VolumeDirectories.FAILED_MOUNT);
    private static final Duration RESET_BACKOFF_AFTER = Duration.ofMinutes(10);

    interface Events {
        void warning(String reason, String message);
    }

    private Container spec;
    private final boolean init;
    private final String restartPolicy;
    private final RuntimeSettings settings;
    private final ScheduledExecutorService probeExecutor;
    private final Events events;

    private ContainerProcess process;
    private ContainerLauncher launcher;
    /** The image of the process last started: the kubelet reports that one, not the spec's, until it restarts. */
    private String startedImage;
    private boolean probesStarted;
    private ProbeRunner readiness;
    private ProbeRunner liveness;
    private ProbeRunner startup;
    private ContainerState state;
    private ContainerState lastState;
    private int restartCount;
    private int backoffSteps;
    private Instant nextStart = Instant.MIN;
    private boolean everStarted;
    private boolean finished;
    private boolean blocked;
    /** The message of the last failed pull of this container's image; null once one started. */
    private String lastPullFailure;
    private boolean stopping;
    private Instant killAt;
    private String lastWarning;
    private boolean restartForNewImage;

    ContainerRunner(Container spec, boolean init, String restartPolicy, RuntimeSettings settings,
            ScheduledExecutorService probeExecutor, Events events) {
        this.spec = spec;
        this.init = init;
        this.restartPolicy = restartPolicy == null ? "Always" : restartPolicy;
        this.settings = settings;
        this.probeExecutor = probeExecutor;
        this.events = events;
        this.state = waiting(init ? "PodInitializing" : "ContainerCreating", null);
    }

    String name() {
        return spec.getName();
    }

    Container spec() {
        return spec;
    }

    /** Shows why the container cannot start yet, before the pod lets it. */
    void waitingFor(String reason, String message) {
        if (process == null && !finished) {
            state = waiting(reason, message);
        }
    }

    /** A failure the sandbox will not retry: the container stays waiting with this reason. */
    void block(String reason, String message) {
        blocked = true;
        state = waiting(reason, message);
        warnOnce(reason, message);
    }

    /**
     * The pod's image for this container changed (the one pod field Kubernetes lets users change): stop the
     * running process and start the new image at once, whatever the restart policy, keeping the volumes.
     */
    void changeImage(Container changed, Instant now) {
        if (changed.getImage() == null || changed.getImage().equals(spec.getImage())) {
            return;
        }
        spec = new io.fabric8.kubernetes.api.model.ContainerBuilder(spec).withImage(changed.getImage()).build();
        if (process != null) {
            restartForNewImage = true;
            if (killAt == null) {
                process.signal("TERM");
                killAt = now.plus(settings.containerGrace());
            }
        }
    }

    void tick(ContainerLauncher launcher, Instant now) {
        if (process != null) {
            watchRunning(now);
        }
        if (process == null && !finished && !blocked && !stopping && !now.isBefore(nextStart)) {
            start(launcher, now);
        }
    }

    private void watchRunning(Instant now) {
        if (process.exited()) {
            exited(now);
            return;
        }
        if (startup != null && !startup.everSucceeded() && startup.failed()) {
            kill("Startup probe failed", now);
        } else if (liveness != null && liveness.failed()) {
            kill("Liveness probe failed", now);
        }
        if (startup != null && startup.everSucceeded() && !probesStarted && killAt == null) {
            startup.cancel();
            startLivenessAndReadiness();
        }
        if (killAt != null && now.isAfter(killAt)) {
            process.signal("KILL");
        }
    }

    private void kill(String why, Instant now) {
        if (killAt == null) {
            warnOnce("Unhealthy", why + " for container " + name() + ", it will be restarted");
            process.signal("TERM");
            killAt = now.plus(settings.containerGrace());
        }
    }

    private void exited(Instant now) {
        cancelProbes();
        int code = process.exitCode();
        ContainerState terminated = new ContainerStateBuilder().withNewTerminated()
                .withExitCode(code).withReason(code == 0 ? "Completed" : "Error")
                .withStartedAt(process.startedAt().toString()).withFinishedAt(process.finishedAt().toString())
                .withContainerID(containerId(process)).endTerminated().build();
        boolean ranLong = Duration.between(process.startedAt(), now).compareTo(RESET_BACKOFF_AFTER) > 0;
        process = null;
        killAt = null;
        if (restartForNewImage && !stopping) {
            restartForNewImage = false;
            lastState = terminated;
            nextStart = now;
            state = waiting("ContainerCreating", "the image changed to " + spec.getImage());
            return;
        }
        boolean restart = !stopping && ("Always".equals(restartPolicy) && !init
                || ("OnFailure".equals(restartPolicy) || init && "Always".equals(restartPolicy)) && code != 0);
        if (restart) {
            backoffSteps = ranLong ? 1 : backoffSteps + 1;
            lastState = terminated;
            if (backoffSteps == 1) {
                // as the kubelet: a container that ended is started again at once, the next time after a back-off
                nextStart = now;
                state = waiting("ContainerCreating", "restarting container " + name());
                return;
            }
            Duration delay = settings.initialBackoff().multipliedBy(1L << Math.min(backoffSteps - 2, 20));
            if (delay.compareTo(settings.maxBackoff()) > 0) {
                delay = settings.maxBackoff();
            }
            nextStart = now.plus(delay);
            state = waiting("CrashLoopBackOff", "back-off " + delay.toMillis() + "ms restarting failed container="
                    + name());
        } else {
            finished = true;
            state = terminated;
        }
    }

    private void start(ContainerLauncher launcher, Instant now) {
        try {
            process = launcher.launch(spec);
            startedImage = spec.getImage();
            lastPullFailure = null;
        } catch (NotEmulatedException e) {
            if (ImageResolver.ERR_IMAGE_PULL.equals(e.reason())) {
                // as a kubelet: tried again (every second here, with a growing back-off there), and a changed image
                // is the one tried next
                nextStart = now.plusSeconds(1);
                boolean again = e.getMessage().equals(lastPullFailure);
                lastPullFailure = e.getMessage();
                state = waiting(again ? ImageResolver.IMAGE_PULL_BACK_OFF : ImageResolver.ERR_IMAGE_PULL,
                        e.getMessage());
                warnOnce(ImageResolver.ERR_IMAGE_PULL, e.getMessage());
            } else if (RETRIED_REASONS.contains(e.reason())) {
                nextStart = now.plusSeconds(1);
                state = waiting(e.reason(), e.getMessage());
                warnOnce(e.reason(), e.getMessage());
            } else {
                block(e.reason(), e.getMessage());
            }
            return;
        } catch (IOException e) {
            block("StartError", "cannot start the process: " + e.getMessage());
            return;
        }
        if (everStarted) {
            restartCount++;
        }
        everStarted = true;
        this.launcher = launcher;
        state = new ContainerStateBuilder().withNewRunning().withStartedAt(process.startedAt().toString())
                .endRunning().build();
        if (spec.getStartupProbe() != null) {
            startup = new ProbeRunner(spec.getStartupProbe(), spec, launcher, probeExecutor);
        } else {
            startLivenessAndReadiness();
        }
    }

    private void startLivenessAndReadiness() {
        probesStarted = true;
        ContainerLauncher l = launcher;
        if (spec.getReadinessProbe() != null && !init) {
            readiness = new ProbeRunner(spec.getReadinessProbe(), spec, l, probeExecutor);
        }
        if (spec.getLivenessProbe() != null && !init) {
            liveness = new ProbeRunner(spec.getLivenessProbe(), spec, l, probeExecutor);
        }
    }

    private void cancelProbes() {
        for (ProbeRunner probe : new ProbeRunner[] {readiness, liveness, startup}) {
            if (probe != null) {
                probe.cancel();
            }
        }
        readiness = null;
        liveness = null;
        startup = null;
        probesStarted = false;
    }

    /** Stops the container for good: SIGTERM now, SIGKILL after the grace period (see {@link #gone}). */
    void terminate(Duration grace, Instant now) {
        stopping = true;
        if (process != null && killAt == null) {
            process.signal("TERM");
            killAt = now.plus(grace);
        } else if (process != null && now.plus(grace).isBefore(killAt)) {
            killAt = now.plus(grace);
        }
    }

    /** True when no process of this container is left; escalates to SIGKILL once the grace is over. */
    boolean gone(Instant now) {
        if (process == null) {
            return true;
        }
        if (killAt != null && now.isAfter(killAt)) {
            process.signal("KILL");
        }
        if (process.exited() && process.gone()) {
            exited(now);
            return true;
        }
        return false;
    }

    boolean running() {
        return process != null;
    }

    boolean everStarted() {
        return everStarted;
    }

    /** Will not run again: exited and not to be restarted. */
    boolean finished() {
        return finished;
    }

    boolean succeeded() {
        return finished && state.getTerminated() != null && state.getTerminated().getExitCode() == 0;
    }

    boolean started() {
        return process != null && (spec.getStartupProbe() == null || startup != null && startup.everSucceeded());
    }

    boolean ready() {
        if (process == null || !started() || killAt != null) {
            return false;
        }
        return spec.getReadinessProbe() == null || readiness != null && readiness.succeeding();
    }

    Long pid() {
        return process == null ? null : process.pid();
    }

    ContainerStatus status() {
        String image = startedImage == null ? spec.getImage() : startedImage;
        return new ContainerStatusBuilder().withName(name()).withImage(image)
                .withImageID("sandbox://" + image)
                .withContainerID(process == null ? null : containerId(process))
                .withState(state).withLastState(lastState == null ? new ContainerState() : lastState)
                .withReady(!init ? ready() : succeeded()).withStarted(init ? null : started())
                .withRestartCount(restartCount).build();
    }

    private static String containerId(ContainerProcess process) {
        return "sandbox://" + process.pid();
    }

    private static ContainerState waiting(String reason, String message) {
        return new ContainerStateBuilder().withNewWaiting().withReason(reason).withMessage(message).endWaiting().build();
    }

    private void warnOnce(String reason, String message) {
        String key = reason + ":" + message;
        if (!key.equals(lastWarning)) {
            lastWarning = key;
            events.warning(reason, message);
        }
    }
}
