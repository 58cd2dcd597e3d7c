package dev.etcdoperator.restore;

import dev.etcdoperator.api.v1beta2.EtcdRestore;
import dev.etcdoperator.api.v1beta2.EtcdRestoreStatus;
import dev.etcdoperator.core.status.SpecValidity;
import dev.etcdoperator.core.validation.RestoreSpecValidator;
import dev.etcdoperator.core.validation.Validation;
import dev.etcdoperator.support.EventRecorder;
import dev.etcdoperator.support.StatusChange;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;

/** The {@code etcdrestore} controller: checks the spec, then rebuilds a cluster from a verified backup. */
@ControllerConfiguration(name = EtcdRestoreReconciler.NAME)
public class EtcdRestoreReconciler implements Reconciler<EtcdRestore> {
    public static final String NAME = "etcdrestore";

    private final RestoreSpecValidator validator = new RestoreSpecValidator();
    private final SpecValidity validity;
    private final EventRecorder events;

    public EtcdRestoreReconciler(SpecValidity validity, EventRecorder events) {
        this.validity = validity;
        this.events = events;
    }

    @Override
    public UpdateControl<EtcdRestore> reconcile(EtcdRestore restore, Context<EtcdRestore> context) {
        if (restore.getStatus() == null) {
            restore.setStatus(new EtcdRestoreStatus());
        }
        StatusChange<EtcdRestore> change = new StatusChange<>(restore);
        EtcdRestoreStatus status = restore.getStatus();
        Validation validation = validator.validate(restore.getSpec());
        boolean news = validity.record(status, validation, restore.getMetadata().getGeneration());
        if (!validation.valid()) {
            status.setSucceeded(false);
            status.setReason(SpecValidity.REASON_INVALID + ": " + validation.message());
            if (news) {
                events.warning(restore, SpecValidity.REASON_INVALID, validation.message());
            }
        } else if (status.getReason() != null && status.getReason().startsWith(SpecValidity.REASON_INVALID)) {
            status.setReason(null);
            status.setSucceeded(null);
        }
        return change.control(restore);
    }
}
