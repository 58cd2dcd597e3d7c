package dev.etcdoperator.restore;

import dev.etcdoperator.support.ApiRefusal;
import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.api.model.StatusCause;
import io.fabric8.kubernetes.client.KubernetesClientException;

/**
 * The API server refused to create something in the restore's namespace because the namespace is being deleted: a
 * deleted restore that waits to finish would wait for good, and everything it would create goes with the namespace.
 */
final class NamespaceEnding extends RuntimeException {
    /** The cause type kube-apiserver's namespace lifecycle admission gives such a refusal. */
    static final String CAUSE = "NamespaceTerminating";

    NamespaceEnding(KubernetesClientException refusal) {
        super(ApiRefusal.said(refusal), refusal);
    }

    static boolean is(RuntimeException e) {
        if (!(e instanceof KubernetesClientException refusal) || refusal.getCode() != 403) {
            return false;
        }
        Status status = refusal.getStatus();
        if (status != null && status.getDetails() != null && status.getDetails().getCauses() != null) {
            for (StatusCause cause : status.getDetails().getCauses()) {
                if (CAUSE.equals(cause.getReason())) {
                    return true;
                }
            }
        }
        String said = status != null && status.getMessage() != null ? status.getMessage() : refusal.getMessage();
        return said != null && said.contains("because it is being terminated");
    }
}
