package floor;

import io.fabric8.kubernetes.api.model.Pod;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;

/** Watches Pods in every namespace and changes nothing. */
@ControllerConfiguration(name = "nothing")
public class NothingReconciler implements Reconciler<Pod> {
    @Override
    public UpdateControl<Pod> reconcile(Pod resource, Context<Pod> context) {
        return UpdateControl.noUpdate();
    }
}
