package dev.etcdoperator.sandbox.pods;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Cluster DNS as hosts files, one per namespace, rebuilt whenever a pod or service changes. Names
 * with a namespace in them are in every file; the short forms (a search domain would add the rest)
 * only in the file of their own namespace. There is no virtual IP: a ClusterIP service's names lead
 * straight to the addresses of its ready pods. Files are rewritten in place, so a bind mount of one
 * over /etc/hosts keeps seeing the latest content.
 */
public final class ClusterDns implements AutoCloseable {
    private static final String CLUSTER_DOMAIN = "cluster.local";

    private final KubernetesClient client;
    private final Path dir;
    private final Set<String> namespaces = new HashSet<>();
    private final Map<String, String> written = new HashMap<>();
    private final AtomicBoolean rebuildQueued = new AtomicBoolean();
    private final ExecutorService rebuilder = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "sandbox-dns");
        t.setDaemon(true);
        return t;
    });
    private SharedIndexInformer<Pod> pods;
    private SharedIndexInformer<Service> services;

    /** @param dir where the hosts files go, one per namespace, named after it */
    public ClusterDns(KubernetesClient client, Path dir) {
        this.client = client;
        this.dir = dir.toAbsolutePath();
        try {
            Files.createDirectories(this.dir);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public synchronized void start() {
        ResourceEventHandler<Object> handler = new ResourceEventHandler<>() {
            @Override
            public void onAdd(Object obj) {
                queueRebuild();
            }

            @Override
            public void onUpdate(Object oldObj, Object newObj) {
                queueRebuild();
            }

            @Override
            public void onDelete(Object obj, boolean deletedFinalStateUnknown) {
                queueRebuild();
            }
        };
        pods = client.pods().inAnyNamespace().inform(cast(handler));
        services = client.services().inAnyNamespace().inform(cast(handler));
        rebuild();
    }

    @SuppressWarnings("unchecked")
    private static <T> ResourceEventHandler<T> cast(ResourceEventHandler<Object> handler) {
        return (ResourceEventHandler<T>) (ResourceEventHandler<?>) handler;
    }

    /** The hosts file for processes of this namespace; created (with localhost only) if new. */
    public Path hostsFile(String namespace) {
        Path file = dir.resolve(namespace);
        synchronized (this) {
            if (namespaces.add(namespace)) {
                writeIfChanged(namespace, render(namespace));
            }
        }
        return file;
    }

    private void queueRebuild() {
        if (rebuildQueued.compareAndSet(false, true)) {
            rebuilder.execute(() -> {
                rebuildQueued.set(false);
                rebuild();
            });
        }
    }

    /** Rewrites every namespace's file from the informers' current view. */
    public synchronized void rebuild() {
        entries = computeEntries();
        for (String ns : namespaces) {
            writeIfChanged(ns, render(ns));
        }
    }

    private List<Entry> entries = List.of();

    /** One name to one address; shortIn is the namespace where the short name also works. */
    private record Entry(String ip, String namespace, String fullName, String shortName) {
    }

    private List<Entry> computeEntries() {
        if (pods == null || services == null) {
            return List.of();
        }
        List<Entry> result = new ArrayList<>();
        List<Pod> allPods = pods.getStore().list();
        for (Service svc : services.getStore().list()) {
            Map<String, String> selector = svc.getSpec() == null ? null : svc.getSpec().getSelector();
            if (selector == null || selector.isEmpty()) {
                continue;
            }
            String ns = svc.getMetadata().getNamespace();
            String name = svc.getMetadata().getName();
            boolean headless = "None".equals(svc.getSpec().getClusterIP());
            boolean notReadyToo = headless && Boolean.TRUE.equals(svc.getSpec().getPublishNotReadyAddresses());
            for (Pod pod : allPods) {
                if (!ns.equals(pod.getMetadata().getNamespace()) || !selected(pod, selector) || ip(pod) == null
                        || !notReadyToo && !ready(pod)) {
                    continue;
                }
                result.add(new Entry(ip(pod), ns, name + "." + ns, name));
                String hostname = pod.getSpec().getHostname();
                if (headless && hostname != null && name.equals(pod.getSpec().getSubdomain())) {
                    result.add(new Entry(ip(pod), ns, hostname + "." + name + "." + ns, hostname + "." + name));
                }
            }
        }
        return result;
    }

    private String render(String namespace) {
        Map<String, Set<String>> namesByIp = new LinkedHashMap<>();
        namesByIp.put("127.0.0.1", new LinkedHashSet<>(List.of("localhost")));
        for (Entry e : entries) {
            Set<String> names = namesByIp.computeIfAbsent(e.ip(), k -> new TreeSet<>());
            names.add(e.fullName() + ".svc");
            names.add(e.fullName() + ".svc." + CLUSTER_DOMAIN);
            names.add(e.fullName());
            if (e.namespace().equals(namespace)) {
                names.add(e.shortName());
            }
        }
        StringBuilder text = new StringBuilder("# cluster DNS of the sandbox, namespace " + namespace + "\n");
        namesByIp.forEach((ip, names) -> text.append(ip).append(' ').append(String.join(" ", names)).append('\n'));
        return text.toString();
    }

    private void writeIfChanged(String namespace, String content) {
        if (content.equals(written.get(namespace))) {
            return;
        }
        byte[] bytes = content.getBytes(StandardCharsets.UTF_8);
        try (FileChannel channel = FileChannel.open(dir.resolve(namespace), StandardOpenOption.CREATE,
                StandardOpenOption.WRITE)) {
            // overwrite, then cut: the inode stays the same and the file is never empty in between
            channel.write(ByteBuffer.wrap(bytes), 0);
            channel.truncate(bytes.length);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        written.put(namespace, content);
    }

    private static boolean selected(Pod pod, Map<String, String> selector) {
        Map<String, String> labels = pod.getMetadata().getLabels();
        return labels != null && labels.entrySet().containsAll(selector.entrySet());
    }

    private static String ip(Pod pod) {
        if (pod.getStatus() == null || pod.getStatus().getPodIP() == null) {
            return null;
        }
        String phase = pod.getStatus().getPhase();
        return "Succeeded".equals(phase) || "Failed".equals(phase) ? null : pod.getStatus().getPodIP();
    }

    private static boolean ready(Pod pod) {
        return pod.getStatus().getConditions() != null && pod.getStatus().getConditions().stream()
                .anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()));
    }

    @Override
    public void close() {
        if (pods != null) {
            pods.close();
        }
        if (services != null) {
            services.close();
        }
        rebuilder.shutdownNow();
        try {
            rebuilder.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
