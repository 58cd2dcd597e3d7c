package dev.etcdoperator.support;

import io.fabric8.kubernetes.client.KubernetesClientException;

/** What the API server said when it refused a request, and whether a ResourceQuota was what refused it. */
public final class ApiRefusal {
    private ApiRefusal() {
    }

    /** The API server's own words (its Status message), or the client's message when it sent none. */
    public static String said(KubernetesClientException e) {
        return e.getStatus() != null && e.getStatus().getMessage() != null ? e.getStatus().getMessage()
                : e.getMessage();
    }

    /** A 403 from the quota admission: the namespace's ResourceQuota has no room for the object. */
    public static boolean exceededQuota(KubernetesClientException e) {
        String said = said(e);
        return e.getCode() == 403 && said != null && said.contains("exceeded quota");
    }
}
