package dev.etcdoperator.core.restore;

import dev.etcdoperator.api.v1beta2.Condition;
import dev.etcdoperator.api.v1beta2.EtcdRestoreStatus;
import dev.etcdoperator.core.status.Conditions;
import dev.etcdoperator.core.status.Readiness;

/**
 * Sums up an {@link EtcdRestoreStatus} in its {@code Ready} condition: True once the restore is {@code Done}, False
 * while it runs (with what its current phase waits for) and once it {@code Failed} (with why). Pure.
 */
public final class RestoreStatusBuilder {
    public static final String REASON_RESTORED = "Restored";
    public static final String REASON_IN_PROGRESS = "RestoreInProgress";
    public static final String REASON_FAILED = "RestoreFailed";

    private final Readiness readiness;

    public RestoreStatusBuilder(Conditions conditions) {
        this.readiness = new Readiness(conditions);
    }

    /** Sets {@code Ready} from the phase, the reason and the phase conditions already on {@code status}. */
    public void ready(EtcdRestoreStatus status, Long generation) {
        String phase = status.getPhase();
        if (RestorePhase.Done.name().equals(phase)) {
            readiness.ready(status, REASON_RESTORED, "The cluster was restored from the backup"
                    + (status.getRestoredRevision() == null ? "" : " at revision " + status.getRestoredRevision())
                    + " and is available at full size.", generation);
            return;
        }
        if (phase == null) {
            return; // nothing done yet, or an invalid spec, which the Valid check reports
        }
        if (RestorePhase.Failed.name().equals(phase)) {
            String reason = status.getReason() == null ? "" : status.getReason();
            int colon = reason.indexOf(':');
            readiness.notReady(status, colon > 0 ? reason.substring(0, colon) : REASON_FAILED,
                    colon > 0 ? reason.substring(colon + 1).trim() : "The restore failed. " + reason, generation);
            return;
        }
        Condition current = Conditions.find(status.getConditions(), phase).orElse(null);
        if (current != null && Conditions.FALSE.equals(current.getStatus())) {
            readiness.notReady(status, current.getReason(), "Phase " + phase + ": " + current.getMessage(), generation);
            return;
        }
        String message = current == null || current.getMessage() == null ? "under way" : current.getMessage();
        readiness.notReady(status, REASON_IN_PROGRESS, "Phase " + phase + ": " + message, generation);
    }
}
