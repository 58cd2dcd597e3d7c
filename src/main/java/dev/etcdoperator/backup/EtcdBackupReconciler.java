package dev.etcdoperator.backup;

import dev.etcdoperator.api.v1beta2.EtcdBackup;
import dev.etcdoperator.api.v1beta2.EtcdBackupStatus;
import dev.etcdoperator.core.status.SpecValidity;
import dev.etcdoperator.core.validation.BackupSpecValidator;
import dev.etcdoperator.core.validation.Validation;
import dev.etcdoperator.support.EventRecorder;
import dev.etcdoperator.support.StatusChange;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;

/** The {@code etcdbackup} controller: checks the spec, then takes backups to S3-compatible storage. */
@ControllerConfiguration(name = EtcdBackupReconciler.NAME)
public class EtcdBackupReconciler implements Reconciler<EtcdBackup> {
    public static final String NAME = "etcdbackup";

    private final BackupSpecValidator validator = new BackupSpecValidator();
    private final SpecValidity validity;
    private final EventRecorder events;

    public EtcdBackupReconciler(SpecValidity validity, EventRecorder events) {
        this.validity = validity;
        this.events = events;
    }

    @Override
    public UpdateControl<EtcdBackup> reconcile(EtcdBackup backup, Context<EtcdBackup> context) {
        if (backup.getStatus() == null) {
            backup.setStatus(new EtcdBackupStatus());
        }
        StatusChange<EtcdBackup> change = new StatusChange<>(backup);
        EtcdBackupStatus status = backup.getStatus();
        Validation validation = validator.validate(backup.getSpec());
        boolean news = validity.record(status, validation, backup.getMetadata().getGeneration());
        if (!validation.valid()) {
            status.setSucceeded(false);
            status.setReason(SpecValidity.REASON_INVALID + ": " + validation.message());
            if (news) {
                events.warning(backup, SpecValidity.REASON_INVALID, validation.message());
            }
        } else if (status.getReason() != null && status.getReason().startsWith(SpecValidity.REASON_INVALID)) {
            status.setReason(null);
            status.setSucceeded(null);
        }
        return change.control(backup);
    }
}
