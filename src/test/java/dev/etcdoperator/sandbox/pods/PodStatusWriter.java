package dev.etcdoperator.sandbox.pods;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/** Writes a pod's status through the API, retrying on conflicts and keeping conditions others own. */
final class PodStatusWriter {
    static final Set<String> KUBELET_CONDITIONS = Set.of("PodScheduled", "Initialized", "ContainersReady", "Ready");
    private static final int ATTEMPTS = 10;

    private final KubernetesClient client;

    PodStatusWriter(KubernetesClient client) {
        this.client = client;
    }

    /** False when the pod (this very pod, by uid) is no longer in the API. */
    boolean write(String namespace, String name, String uid, PodStatus status) {
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            Pod latest = client.pods().inNamespace(namespace).withName(name).get();
            if (latest == null || !uid.equals(latest.getMetadata().getUid())) {
                return false;
            }
            List<PodCondition> conditions = new ArrayList<>(status.getConditions());
            if (latest.getStatus() != null && latest.getStatus().getConditions() != null) {
                latest.getStatus().getConditions().stream().filter(c -> !KUBELET_CONDITIONS.contains(c.getType()))
                        .forEach(conditions::add);
            }
            status.setConditions(conditions);
            latest.setStatus(status);
            try {
                client.pods().inNamespace(namespace).resource(latest).updateStatus();
                return true;
            } catch (KubernetesClientException e) {
                if (e.getCode() == 404) {
                    return false;
                }
                if (e.getCode() != 409) {
                    throw e;
                }
            }
        }
        throw new IllegalStateException("status of pod " + namespace + "/" + name + " kept conflicting");
    }
}
