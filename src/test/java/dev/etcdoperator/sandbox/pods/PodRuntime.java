package dev.etcdoperator.sandbox.pods;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Stands in for kubelet on a machine without Kubernetes: runs the containers of every pod in the API
 * as local processes (see docs/sandbox-pods.md). Call {@link #start()} once, {@link #close()} at the end.
 */
public final class PodRuntime implements AutoCloseable {
    /** What the pod workers share. */
    record Services(KubernetesClient client, RuntimeSettings settings, ImageResolver images, ProcessRegistry processes,
            VolumeDirectories volumes, ClaimRegistry claims, LoopbackIpPool ips, ClusterDns dns,
            ScheduledExecutorService probes, PodStatusWriter statusWriter, EventRecorder events,
            PodFinalizer finalizer) {
    }

    private final Services services;
    private final Map<String, PodWorker> workers = new ConcurrentHashMap<>();
    private final Thread shutdownHook;
    private SharedIndexInformer<Pod> informer;
    private String nodeName;
    private boolean started;
    private boolean closed;

    public PodRuntime(KubernetesClient client, Path stateDir, ClusterDns dns) {
        this(client, stateDir, dns, RuntimeSettings.defaults());
    }

    public PodRuntime(KubernetesClient client, Path stateDir, ClusterDns dns, RuntimeSettings settings) {
        this(client, stateDir, dns, settings, new ImageResolver());
    }

    /** Runs etcd images of the given releases only (an image's tag names the version it runs). */
    public PodRuntime(KubernetesClient client, Path stateDir, ClusterDns dns, RuntimeSettings settings,
            EtcdReleases releases) {
        this(client, stateDir, dns, settings, new ImageResolver(releases));
    }

    /** @param programs program name (etcd, etcdctl, sh, ...) to the host binary that stands in for it */
    public PodRuntime(KubernetesClient client, Path stateDir, ClusterDns dns, RuntimeSettings settings,
            Map<String, Path> programs) {
        this(client, stateDir, dns, settings, new ImageResolver(programs, EtcdReleases.hostOnly()));
    }

    private PodRuntime(KubernetesClient client, Path stateDir, ClusterDns dns, RuntimeSettings settings,
            ImageResolver images) {
        try {
            Files.createDirectories(stateDir);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        VolumeDirectories volumes = new VolumeDirectories(stateDir.toAbsolutePath());
        ProcessRegistry processes = new ProcessRegistry();
        // the kubelet probes each container on its own: a probe that waits out its timeout (a frozen etcd) must
        // not hold up the others, so there are threads enough for every probe of a busy test
        ScheduledThreadPoolExecutor probes = new ScheduledThreadPoolExecutor(64, r -> {
            Thread t = new Thread(r, "sandbox-probe");
            t.setDaemon(true);
            return t;
        });
        probes.setRemoveOnCancelPolicy(true);
        this.services = new Services(client, settings, images, processes, volumes, new ClaimRegistry(client, volumes),
                new LoopbackIpPool(settings.firstIp()), dns, probes, new PodStatusWriter(client), new EventRecorder(client),
                new PodFinalizer(client));
        this.shutdownHook = new Thread(processes::killAll, "sandbox-pods-shutdown");
    }

    /** Binds claims and runs every pod of the API from now on, in every namespace, scheduled or not. */
    public synchronized void start() {
        startInformer(null);
    }

    /**
     * Registers a Node of this name and runs the pods bound to it, as a kubelet does: the scheduler binds pods
     * to the Node; a pod being deleted is stopped within its grace period and then removed from the API.
     */
    public synchronized void startAsNode(String node) {
        NodeRegistration.register(services.client(), node);
        startInformer(node);
    }

    private void startInformer(String node) {
        if (started || closed) {
            throw new IllegalStateException(closed ? "closed" : "already started");
        }
        started = true;
        nodeName = node;
        Runtime.getRuntime().addShutdownHook(shutdownHook);
        services.claims().start();
        var pods = services.client().pods().inAnyNamespace();
        informer = (node == null ? pods : pods.withField("spec.nodeName", node)).inform(new ResourceEventHandler<>() {
            @Override
            public void onAdd(Pod pod) {
                run(pod);
            }

            @Override
            public void onUpdate(Pod old, Pod pod) {
                run(pod);
            }

            @Override
            public void onDelete(Pod pod, boolean unknownFinalState) {
                PodWorker worker = workers.get(pod.getMetadata().getUid());
                if (worker != null) {
                    worker.requestStop(worker.podGrace());
                }
            }
        });
    }

    private synchronized void run(Pod pod) {
        String uid = pod.getMetadata().getUid();
        PodWorker existing = workers.get(uid);
        boolean deleting = pod.getMetadata().getDeletionTimestamp() != null;
        if (existing != null && !closed) {
            if (deleting && nodeName != null) {
                existing.deleting(gracePeriod(pod, existing.podGrace()));
            } else {
                existing.specChanged(pod);
            }
            return;
        }
        if (closed) {
            return;
        }
        if (deleting && nodeName != null) {
            services.finalizer().removeFromApi(pod);
            return;
        }
        if (terminal(pod)) {
            return;
        }
        PodWorker worker = new PodWorker(pod, services, () -> workers.remove(uid));
        workers.put(uid, worker);
        worker.start();
    }

    private static boolean terminal(Pod pod) {
        return pod.getStatus() != null && List.of("Succeeded", "Failed").contains(pod.getStatus().getPhase())
                || pod.getMetadata().getDeletionTimestamp() != null;
    }

    private static Duration gracePeriod(Pod pod, Duration fallback) {
        Long seconds = pod.getMetadata().getDeletionGracePeriodSeconds();
        return seconds == null ? fallback : Duration.ofSeconds(seconds);
    }

    /** The file a container's output goes to; it stays after the pod is gone. */
    public Path logFile(Pod pod, String container) {
        return services.volumes().logDir(pod).resolve(container + ".log");
    }

    /** The host directory behind a persistentVolumeClaim. */
    public Path claimDirectory(String namespace, String claim) {
        return services.volumes().claimDir(namespace, claim);
    }

    /**
     * Stops every process the runtime started (SIGTERM, the close grace, SIGKILL) and returns when they
     * are gone. Idempotent.
     */
    @Override
    public void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        if (informer != null) {
            informer.close();
        }
        services.claims().close();
        Duration grace = services.settings().closeGrace();
        workers.values().forEach(w -> w.requestStop(grace));
        Instant deadline = Instant.now().plus(grace).plusSeconds(30);
        for (PodWorker worker : List.copyOf(workers.values())) {
            try {
                worker.join(Duration.between(Instant.now(), deadline));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        services.probes().shutdownNow();
        for (int i = 0; i < 200 && services.processes().anyAlive(); i++) {
            services.processes().killAll();
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50));
        }
        if (started) {
            try {
                Runtime.getRuntime().removeShutdownHook(shutdownHook);
            } catch (IllegalStateException e) {
                // the JVM is already shutting down; the hook runs anyway
            }
        }
    }
}
