package dev.etcdoperator.sandbox.pods;

import java.util.logging.Level;
import java.util.logging.Logger;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;

/**
 * The last step of a pod's deletion on its node: once every process of the pod is gone, the pod is deleted from
 * the API with a grace period of zero (it then disappears, or waits for its finalizers), as a kubelet does.
 */
final class PodFinalizer {
    private static final Logger LOG = Logger.getLogger(PodFinalizer.class.getName());

    private final KubernetesClient client;

    PodFinalizer(KubernetesClient client) {
        this.client = client;
    }

    void removeFromApi(Pod pod) {
        String ns = pod.getMetadata().getNamespace();
        String name = pod.getMetadata().getName();
        try {
            Pod latest = client.pods().inNamespace(ns).withName(name).get();
            if (latest == null || !pod.getMetadata().getUid().equals(latest.getMetadata().getUid())) {
                return;
            }
            client.pods().inNamespace(ns).withName(name).withGracePeriod(0).delete();
        } catch (KubernetesClientException e) {
            if (e.getCode() != 404) {
                LOG.log(Level.WARNING, "cannot remove pod " + ns + "/" + name + " from the API", e);
            }
        }
    }
}
