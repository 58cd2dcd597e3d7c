package dev.etcdoperator.sandbox;

import java.util.function.UnaryOperator;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.Resource;

/**
 * An edit that survives a concurrent writer. The client's {@code edit} sends the resource version it read, so a status
 * or annotation written by the operator (or the API server) in between makes it fail with 409 Conflict; the object is
 * then read again and the same change applied to it. Any other refusal (a 422 from validation) is thrown at once.
 */
public final class Edits {

    private static final int ATTEMPTS = 20;

    private Edits() {
    }

    public static <T extends HasMetadata> T edit(Resource<T> resource, UnaryOperator<T> change) {
        KubernetesClientException conflict = null;
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            try {
                return resource.edit(change);
            } catch (KubernetesClientException e) {
                if (e.getCode() != 409) {
                    throw e;
                }
                conflict = e;
            }
        }
        throw conflict;
    }
}
