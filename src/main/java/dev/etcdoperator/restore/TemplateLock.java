package dev.etcdoperator.restore;

import java.util.HashMap;
import java.util.Map;

import dev.etcdoperator.support.ApiRefusal;
import dev.etcdoperator.api.v1beta2.EtcdCluster;
import dev.etcdoperator.api.v1beta2.RestoreAnnotations;
import dev.etcdoperator.core.backup.BackupFailure;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.utils.Serialization;

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
        EtcdCluster marked = Serialization.clone(template);
        marked.getMetadata().setAnnotations(annotations);
        for (int attempt = 0; ; attempt++) {
            try {
                client.resources(EtcdCluster.class).inNamespace(template.getMetadata().getNamespace())
                        .resource(marked).update();
                template.getMetadata().setAnnotations(annotations);
                return;
            } catch (KubernetesClientException e) {
                if (e.getCode() == 400 || e.getCode() == 403 || e.getCode() == 422) {
                    // e.g. annotations over the API server's limit once the mark is added, or a policy refusing
                    // it: asking again gets the same answer
                    String said = ApiRefusal.said(e);
                    throw new BackupFailure(RestorePreflight.TEMPLATE_REFUSED, "the API server refuses to mark"
                            + " EtcdCluster " + template.getMetadata().getNamespace() + "/"
                            + template.getMetadata().getName() + " as being restored (annotation "
                            + RestoreAnnotations.RESTORING + "): " + said + ". Nothing was changed; fix the template"
                            + " cluster, then restore", false);
                }
                EtcdCluster now = e.getCode() == 409 && attempt < 5 ? client.resources(EtcdCluster.class)
                        .inNamespace(template.getMetadata().getNamespace())
                        .withName(template.getMetadata().getName()).get() : null;
                if (now == null || !sameAsRead(template, now)) {
                    throw new IllegalStateException("could not mark EtcdCluster " + template.getMetadata().getName()
                            + " as being restored (" + e.getCode() + "); it changed meanwhile", e);
                }
                // only its status (or its resource version) moved, as the cluster controller writes it: what the
                // preflight recorded of it still holds
                marked.getMetadata().setResourceVersion(now.getMetadata().getResourceVersion());
            }
        }
    }

    /** The same cluster, with the spec, labels and annotations the preflight read. */
    private static boolean sameAsRead(EtcdCluster read, EtcdCluster now) {
        return java.util.Objects.equals(read.getMetadata().getUid(), now.getMetadata().getUid())
                && java.util.Objects.equals(read.getMetadata().getGeneration(), now.getMetadata().getGeneration())
                && java.util.Objects.equals(read.getMetadata().getLabels(), now.getMetadata().getLabels())
                && java.util.Objects.equals(read.getMetadata().getAnnotations(), now.getMetadata().getAnnotations())
                && now.getMetadata().getDeletionTimestamp() == null;
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
