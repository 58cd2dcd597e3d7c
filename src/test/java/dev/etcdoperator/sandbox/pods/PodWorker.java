package dev.etcdoperator.sandbox.pods;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.HostIPBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import io.fabric8.kubernetes.api.model.PodIPBuilder;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.fabric8.kubernetes.api.model.PodStatusBuilder;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.stream.Collectors;

/**
 * The kubelet of one pod, on a thread of its own: waits for its claims, takes an address, prepares
 * volumes, runs init containers in order and then the containers, publishes the status, and on
 * deletion stops every process (SIGTERM, grace, SIGKILL) before it gives the address and claims back.
 */
final class PodWorker {
    private static final Logger LOG = Logger.getLogger(PodWorker.class.getName());
    private static final long TICK_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

    private final Pod pod;
    private final PodRuntime.Services services;
    private final List<ContainerRunner> initRunners = new ArrayList<>();
    private final List<ContainerRunner> mainRunners = new ArrayList<>();
    private final List<String> claims;
    private final Map<String, String[]> conditionTimes = new HashMap<>();
    private final Thread thread;
    private volatile Duration stopGrace;
    private volatile boolean deleting;
    private final java.util.concurrent.atomic.AtomicReference<Pod> changedSpec =
            new java.util.concurrent.atomic.AtomicReference<>();

    private String ip;
    private ContainerLauncher launcher;
    private String unschedulable;
    private boolean podBlocked;
    private Instant nextPrepare = Instant.MIN;
    private String lastPrepareProblem;
    private int initIndex;
    private boolean initFailed;
    private String startTime;
    private PodStatus published;
    private boolean goneFromApi;

    PodWorker(Pod pod, PodRuntime.Services services, Runnable onExit) {
        this.pod = pod;
        this.services = services;
        String policy = pod.getSpec().getRestartPolicy();
        ContainerRunner.Events events = (reason, message) -> services.events().warning(pod, reason, message);
        for (Container c : list(pod.getSpec().getInitContainers())) {
            initRunners.add(new ContainerRunner(c, true, policy, services.settings(), services.probes(), events));
        }
        for (Container c : list(pod.getSpec().getContainers())) {
            mainRunners.add(new ContainerRunner(c, false, policy, services.settings(), services.probes(), events));
        }
        this.claims = VolumeDirectories.volumes(pod).stream().filter(v -> v.getPersistentVolumeClaim() != null)
                .map(v -> v.getPersistentVolumeClaim().getClaimName()).distinct().collect(Collectors.toList());
        this.thread = new Thread(() -> {
            try {
                run();
            } finally {
                onExit.run();
            }
        }, "sandbox-pod-" + pod.getMetadata().getNamespace() + "-" + pod.getMetadata().getName());
        thread.setDaemon(true);
    }

    void start() {
        thread.start();
    }

    /** Asks the worker to stop every process of the pod, with this grace period before SIGKILL. */
    void requestStop(Duration grace) {
        Duration current = stopGrace;
        if (current == null || grace.compareTo(current) < 0) {
            stopGrace = grace;
        }
        LockSupport.unpark(thread);
    }

    /**
     * The pod is being deleted in the API (it has a deletionTimestamp): the worker stops every process within
     * {@code grace} and then removes the pod from the API, as a kubelet does.
     */
    void deleting(Duration grace) {
        deleting = true;
        requestStop(grace);
    }

    /** The pod was updated in the API: the worker applies a changed container image on its next tick. */
    void specChanged(Pod updated) {
        changedSpec.set(updated);
        LockSupport.unpark(thread);
    }

    boolean join(Duration timeout) throws InterruptedException {
        thread.join(Math.max(1, timeout.toMillis()));
        return !thread.isAlive();
    }

    Duration podGrace() {
        Long seconds = pod.getSpec().getTerminationGracePeriodSeconds();
        return Duration.ofSeconds(seconds == null ? 30 : seconds);
    }

    Pod pod() {
        return pod;
    }

    private void run() {
        try {
            validate();
            while (stopGrace == null) {
                Instant now = Instant.now();
                step(now);
                publish();
                LockSupport.parkNanos(TICK_NANOS);
            }
        } catch (RuntimeException | Error e) {
            LOG.log(Level.SEVERE, "pod worker of " + key() + " failed", e);
        } finally {
            stopAll(stopGrace == null ? services.settings().closeGrace() : stopGrace);
            if (deleting) {
                publishTerminated();
            }
            release();
            if (deleting) {
                services.finalizer().removeFromApi(pod);
            }
        }
    }

    private void validate() {
        List<ContainerRunner> all = all();
        if (Boolean.TRUE.equals(pod.getSpec().getHostNetwork())) {
            blockPod("HostNetworkNotEmulated", "hostNetwork is not emulated: every sandbox pod has its own loopback address");
            return;
        }
        try {
            VolumeDirectories.validate(pod);
        } catch (NotEmulatedException e) {
            blockPod(e.reason(), e.getMessage());
            return;
        }
        for (ContainerRunner r : all) {
            Container c = r.spec();
            try {
                try {
                    services.images().commandLine(c.getImage(), list(c.getCommand()), list(c.getArgs()));
                } catch (NotEmulatedException e) {
                    if (!ImageResolver.ERR_IMAGE_PULL.equals(e.reason())) {
                        throw e;
                    }
                    // an image it cannot pull is tried again when the container starts, as a kubelet does
                }
                ProbeRunner.validate(c.getReadinessProbe(), "readinessProbe");
                ProbeRunner.validate(c.getLivenessProbe(), "livenessProbe");
                ProbeRunner.validate(c.getStartupProbe(), "startupProbe");
                if (c.getRestartPolicy() != null) {
                    throw new NotEmulatedException("SidecarNotEmulated",
                            "a container-level restartPolicy (sidecar init container) is not emulated");
                }
                if (c.getLifecycle() != null && (c.getLifecycle().getPostStart() != null || c.getLifecycle().getPreStop() != null)) {
                    throw new NotEmulatedException("LifecycleHookNotEmulated", "postStart and preStop hooks are not emulated");
                }
            } catch (NotEmulatedException e) {
                r.block(e.reason(), "container " + c.getName() + ": " + e.getMessage());
            }
        }
    }

    private void blockPod(String reason, String message) {
        podBlocked = true;
        boolean first = true;
        for (ContainerRunner r : all()) {
            if (first) {
                r.block(reason, message);
                first = false;
            } else {
                r.waitingFor(reason, message);
            }
        }
    }

    private void step(Instant now) {
        if (podBlocked) {
            return;
        }
        Pod updated = changedSpec.getAndSet(null);
        if (updated != null) {
            for (Container c : list(updated.getSpec().getContainers())) {
                mainRunners.stream().filter(r -> r.name().equals(c.getName())).forEach(r -> r.changeImage(c, now));
            }
        }
        if (launcher == null && !prepare(now)) {
            return;
        }
        while (initIndex < initRunners.size()) {
            ContainerRunner r = initRunners.get(initIndex);
            r.tick(launcher, now);
            if (r.succeeded()) {
                initIndex++;
                continue;
            }
            initFailed = r.finished();
            break;
        }
        for (ContainerRunner r : mainRunners) {
            if (initIndex < initRunners.size()) {
                r.waitingFor("PodInitializing", null);
            } else {
                r.tick(launcher, now);
            }
        }
    }

    /** Claims, address and volumes; false while the pod has to wait. */
    private boolean prepare(Instant now) {
        if (now.isBefore(nextPrepare)) {
            return false;
        }
        nextPrepare = now.plusMillis(500);
        for (String claim : claims) {
            String problem = services.claims().acquire(pod.getMetadata().getNamespace(), claim, uid());
            if (problem != null) {
                unschedulable = "0/1 nodes are available: " + problem + ".";
                return false;
            }
        }
        unschedulable = null;
        Map<String, Path> volumeDirs;
        try {
            volumeDirs = services.volumes().prepare(services.client(), pod);
        } catch (NotEmulatedException e) {
            all().forEach(r -> r.waitingFor("ContainerCreating", e.getMessage()));
            if (!e.getMessage().equals(lastPrepareProblem)) {
                lastPrepareProblem = e.getMessage();
                services.events().warning(pod, e.reason(), e.getMessage());
            }
            return false;
        }
        ip = services.ips().allocate();
        startTime = now.toString();
        Path hosts = services.dns().hostsFile(pod.getMetadata().getNamespace());
        launcher = new ContainerLauncher(services.client(), services.images(), services.processes(), pod, ip, volumeDirs,
                hosts, services.volumes().podDir(pod), services.volumes().logDir(pod));
        return true;
    }

    private void publish() {
        if (goneFromApi) {
            return;
        }
        PodStatus status = status();
        if (status.equals(published)) {
            return;
        }
        try {
            if (services.statusWriter().write(pod.getMetadata().getNamespace(), pod.getMetadata().getName(), uid(),
                    status)) {
                published = status;
            } else {
                goneFromApi = true;
                requestStop(podGrace());
            }
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "cannot write the status of pod " + key(), e);
        }
    }

    private void publishTerminated() {
        try {
            published = null;
            publish();
        } catch (RuntimeException e) {
            LOG.log(Level.FINE, "cannot write the final status of pod " + key(), e);
        }
    }

    PodStatus status() {
        boolean initialized = initIndex >= initRunners.size();
        List<ContainerStatus> containers = mainRunners.stream().map(ContainerRunner::status).collect(Collectors.toList());
        List<ContainerStatus> inits = initRunners.stream().map(ContainerRunner::status).collect(Collectors.toList());
        String phase;
        if (initFailed) {
            phase = "Failed";
        } else if (!initialized || mainRunners.stream().anyMatch(r -> !r.everStarted())) {
            phase = "Pending";
        } else if (mainRunners.stream().allMatch(ContainerRunner::finished)) {
            phase = mainRunners.stream().allMatch(ContainerRunner::succeeded) ? "Succeeded" : "Failed";
        } else {
            phase = "Running";
        }
        List<String> unready = mainRunners.stream().filter(r -> !r.ready()).map(ContainerRunner::name)
                .collect(Collectors.toList());
        List<String> incomplete = initRunners.stream().filter(r -> !r.succeeded()).map(ContainerRunner::name)
                .collect(Collectors.toList());
        List<PodCondition> conditions = new ArrayList<>();
        conditions.add(condition("PodScheduled", unschedulable == null, "Unschedulable", unschedulable));
        conditions.add(condition("Initialized", initialized, "ContainersNotInitialized",
                "containers with incomplete status: " + incomplete));
        conditions.add(condition("ContainersReady", unready.isEmpty(), "ContainersNotReady",
                "containers with unready status: " + unready));
        conditions.add(condition("Ready", unready.isEmpty(), "ContainersNotReady",
                "containers with unready status: " + unready));
        PodStatusBuilder status = new PodStatusBuilder().withPhase(phase).withConditions(conditions)
                .withContainerStatuses(containers).withInitContainerStatuses(inits).withStartTime(startTime);
        if (launcher != null || ip != null) {
            status.withHostIP("127.0.0.1").withHostIPs(new HostIPBuilder().withIp("127.0.0.1").build())
                    .withPodIP(ip).withPodIPs(new PodIPBuilder().withIp(ip).build());
        }
        return status.build();
    }

    private PodCondition condition(String type, boolean ok, String reason, String message) {
        String value = ok ? "True" : "False";
        String[] previous = conditionTimes.get(type);
        if (previous == null || !previous[0].equals(value)) {
            previous = new String[] {value, Instant.now().toString()};
            conditionTimes.put(type, previous);
        }
        PodConditionBuilder c = new PodConditionBuilder().withType(type).withStatus(value).withLastTransitionTime(previous[1]);
        if (!ok) {
            c.withReason(reason).withMessage(message);
        }
        return c.build();
    }

    private void stopAll(Duration grace) {
        for (String claim : claims) {
            services.claims().stopping(pod.getMetadata().getNamespace(), claim, uid());
        }
        Instant now = Instant.now();
        all().forEach(r -> r.terminate(grace, now));
        while (!all().stream().allMatch(r -> r.gone(Instant.now()))) {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50));
            if (stopGrace != null && stopGrace.compareTo(grace) < 0) {
                Duration shorter = stopGrace;
                all().forEach(r -> r.terminate(shorter, now));
            }
        }
    }

    private void release() {
        if (ip != null) {
            services.ips().release(ip);
        }
        for (String claim : claims) {
            services.claims().release(pod.getMetadata().getNamespace(), claim, uid());
        }
        try {
            services.volumes().removePodDir(pod);
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "cannot remove the directory of pod " + key(), e);
        }
    }

    private List<ContainerRunner> all() {
        List<ContainerRunner> all = new ArrayList<>(initRunners);
        all.addAll(mainRunners);
        return all;
    }

    private String uid() {
        return pod.getMetadata().getUid();
    }

    private String key() {
        return pod.getMetadata().getNamespace() + "/" + pod.getMetadata().getName();
    }

    private static <T> List<T> list(List<T> items) {
        return items == null ? List.of() : items;
    }
}
