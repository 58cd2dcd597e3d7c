package dev.etcdoperator.sandbox.apiserver;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import org.jboss.logging.Logger;

/**
 * Deletes objects whose owners are all gone, as the cluster's garbage collector does with background
 * propagation. It sweeps every namespaced kind the sandbox serves a few times a second.
 */
public final class GarbageCollector implements AutoCloseable {
    private static final Logger LOG = Logger.getLogger(GarbageCollector.class);

    private final KubernetesClient client;
    private final Discovery discovery;
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "sandbox-gc");
        t.setDaemon(true);
        return t;
    });

    GarbageCollector(KubernetesClient client, Discovery discovery) {
        this.client = client;
        this.discovery = discovery;
    }

    void start() {
        timer.scheduleWithFixedDelay(this::sweepQuietly, 300, 300, TimeUnit.MILLISECONDS);
    }

    private void sweepQuietly() {
        try {
            sweep();
        } catch (RuntimeException e) {
            LOG.debugf("garbage collection sweep failed: %s", e.getMessage());
        }
    }

    /** One pass: returns how many objects it deleted. */
    int sweep() {
        List<GenericKubernetesResource> all = new ArrayList<>();
        for (ResourceType type : discovery.types()) {
            if (!type.namespaced() || type.plural().equals("events")) {
                continue;
            }
            all.addAll(client.genericKubernetesResources(context(type)).inAnyNamespace().list().getItems());
        }
        Set<String> uids = new HashSet<>();
        all.forEach(o -> uids.add(o.getMetadata().getUid()));
        int deleted = 0;
        for (GenericKubernetesResource o : all) {
            List<OwnerReference> owners = o.getMetadata().getOwnerReferences();
            if (owners == null || owners.isEmpty() || owners.stream().anyMatch(r -> uids.contains(r.getUid()))) {
                continue;
            }
            try {
                ResourceType type = discovery.types().stream()
                        .filter(t -> t.kind().equals(o.getKind()) && t.groupVersion().equals(o.getApiVersion()))
                        .findFirst().orElse(null);
                if (type != null) {
                    client.genericKubernetesResources(context(type)).inNamespace(o.getMetadata().getNamespace())
                            .withName(o.getMetadata().getName()).delete();
                    deleted++;
                    LOG.debugf("garbage collected %s %s/%s", o.getKind(), o.getMetadata().getNamespace(),
                            o.getMetadata().getName());
                }
            } catch (KubernetesClientException e) {
                LOG.debugf("could not collect %s: %s", o.getMetadata().getName(), e.getMessage());
            }
        }
        return deleted;
    }

    private static ResourceDefinitionContext context(ResourceType type) {
        return new ResourceDefinitionContext.Builder().withGroup(type.group()).withVersion(type.version())
                .withKind(type.kind()).withPlural(type.plural()).withNamespaced(type.namespaced()).build();
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
