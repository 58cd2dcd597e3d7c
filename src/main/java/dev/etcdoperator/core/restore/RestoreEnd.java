package dev.etcdoperator.core.restore;

import java.util.Optional;

import dev.etcdoperator.api.v1beta2.Condition;
import dev.etcdoperator.api.v1beta2.EtcdRestoreStatus;
import dev.etcdoperator.core.status.Conditions;
import dev.etcdoperator.core.status.SpecValidity;

/**
 * Whether a restore has ended, as everything that waits on restores reads it (retention keeping the backups they
 * use, a template's mark, a run-once pod's replacement): Done or Failed, or ended by another operator (version),
 * which is never run here.
 */
public final class RestoreEnd {
    /** Set on a restore another operator (version) ended or ran: it is never run here. */
    public static final String CONDITION_ENDED_ELSEWHERE = "EndedElsewhere";

    private RestoreEnd() {
    }

    /** @param status null when the restore has none yet */
    public static boolean ended(EtcdRestoreStatus status) {
        if (status == null) {
            return false;
        }
        return RestorePhase.Done.name().equals(status.getPhase()) || RestorePhase.Failed.name().equals(status.getPhase())
                || endedElsewhere(status).isPresent();
    }

    /**
     * Why a restore whose status another operator wrote is ended, if it is: a status with {@code succeeded} or a
     * failure {@code reason} but no phase (the original operator's: it ran each restore once, and never again once
     * either was set), or a phase this version does not know (a newer operator's).
     */
    public static Optional<String> endedElsewhere(EtcdRestoreStatus status) {
        Optional<Condition> told = Conditions.find(status.getConditions(), CONDITION_ENDED_ELSEWHERE);
        if (told.isPresent()) {
            return Optional.of(told.get().getMessage());
        }
        if (status.getPhase() != null) {
            return known(status.getPhase()) ? Optional.empty() : Optional.of("status.phase " + status.getPhase()
                    + " is not one this operator knows (written by another version): the restore is left as it is."
                    + " To restore again, create a new EtcdRestore.");
        }
        if (status.getConditions() != null && !status.getConditions().isEmpty()) {
            return Optional.empty();
        }
        boolean failed = status.getReason() != null && !status.getReason().isBlank()
                && !status.getReason().startsWith(SpecValidity.REASON_INVALID);
        if (Boolean.TRUE.equals(status.getSucceeded()) || failed) {
            return Optional.of("This restore ended before this operator ran it (status.succeeded "
                    + status.getSucceeded() + (failed ? ", reason " + status.getReason() : "") + ", no status.phase):"
                    + " it is not run again. To restore again, create a new EtcdRestore.");
        }
        return Optional.empty();
    }

    private static boolean known(String phase) {
        try {
            RestorePhase.valueOf(phase);
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }
}
