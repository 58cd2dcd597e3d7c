package dev.etcdoperator.support;

import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;

/** Patches the status only when it differs from what the resource had when the reconcile began. */
public final class StatusChange<P extends CustomResource<?, ?>> {
    private final String before;

    public StatusChange(P resource) {
        this.before = Serialization.asJson(resource.getStatus());
    }

    public UpdateControl<P> control(P resource) {
        return before.equals(Serialization.asJson(resource.getStatus()))
                ? UpdateControl.noUpdate()
                : UpdateControl.patchStatus(resource);
    }
}
