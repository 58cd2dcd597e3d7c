package dev.etcdoperator.support;

import java.util.function.Consumer;

import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;

/** Patches the status only when it differs from what the resource had when the reconcile began. */
public final class StatusChange<P extends CustomResource<?, ?>> {
    private final String before;
    private final Consumer<P> finish;

    public StatusChange(P resource) {
        this(resource, r -> {
        });
    }

    /** @param finish completes the status (a summary condition) each time before it is compared */
    public StatusChange(P resource, Consumer<P> finish) {
        this.before = Serialization.asJson(resource.getStatus());
        this.finish = finish;
    }

    public UpdateControl<P> control(P resource) {
        finish.accept(resource);
        return before.equals(Serialization.asJson(resource.getStatus()))
                ? UpdateControl.noUpdate()
                : UpdateControl.patchStatus(resource);
    }
}
