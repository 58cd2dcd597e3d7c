package dev.etcdoperator.restore;

import java.util.HashMap;
import java.util.Map;

import dev.etcdoperator.api.v1beta2.EtcdCluster;
import dev.etcdoperator.api.v1beta2.RestoreAnnotations;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;

/**
 * The mark a restore puts on its template cluster (annotation {@code restoring: <restore>}) so that no second
 * restore starts on it. Taking it is an update that fails if the cluster changed since it was read. It is released
 * when the restore ends or its EtcdRestore is deleted, and a mark whose EtcdRestore is gone or finished holds
 * nothing ({@link RestoreObserver} does not report it), so a restart in between leaves no cluster locked.
 */
final class TemplateLock {
    private final KubernetesClient client;

    TemplateLock(KubernetesClient client) {
        this.client = client;
    }

    void take(EtcdCluster template, String restore) {
        Map<String, String> annotations = template.getMetadata().getAnnotations() == null ? new HashMap<>()
                : new HashMap<>(template.getMetadata().getAnnotations());
        if (restore.equals(annotations.get(RestoreAnnotations.RESTORING))) {
            return;
        }
        annotations.put(RestoreAnnotations.RESTORING, restore);
        template.getMetadata().setAnnotations(annotations);
        try {
            client.resources(EtcdCluster.class).inNamespace(template.getMetadata().getNamespace()).resource(template)
                    .update();
        } catch (KubernetesClientException e) {
            throw new IllegalStateException("could not mark EtcdCluster " + template.getMetadata().getName()
                    + " as being restored (" + e.getCode() + "); it changed meanwhile", e);
        }
    }

    /** Removes the mark of {@code restore} from the cluster of that name, if it carries it. */
    void release(String namespace, String cluster, String restore) {
        EtcdCluster current = client.resources(EtcdCluster.class).inNamespace(namespace).withName(cluster).get();
        if (current != null) {
            release(current, restore);
        }
    }

    /** Removes the mark of {@code restore} from every cluster of the namespace that carries it. */
    void releaseAll(String namespace, String restore) {
        for (EtcdCluster cluster : client.resources(EtcdCluster.class).inNamespace(namespace).list().getItems()) {
            release(cluster, restore);
        }
    }

    private void release(EtcdCluster cluster, String restore) {
        Map<String, String> annotations = cluster.getMetadata().getAnnotations();
        if (annotations == null || !restore.equals(annotations.get(RestoreAnnotations.RESTORING))) {
            return;
        }
        Map<String, String> without = new HashMap<>(annotations);
        without.remove(RestoreAnnotations.RESTORING);
        cluster.getMetadata().setAnnotations(without);
        client.resources(EtcdCluster.class).inNamespace(cluster.getMetadata().getNamespace()).resource(cluster)
                .update();
    }
}
