package dev.etcdoperator.core.backup;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.time.format.DateTimeParseException;

import dev.etcdoperator.api.v1beta2.EtcdBackupStatus;
import dev.etcdoperator.core.status.Conditions;
import dev.etcdoperator.core.status.Readiness;

/**
 * Writes the outcome of one attempt onto an {@link EtcdBackupStatus}, and reads back what the status remembers:
 * the schedule ({@link BackupSchedule.History}) and the last backup ({@link BackupPlanner.LastBackup}). Pure.
 *
 * <p>{@code Ready} follows the last attempt: True after a backup was taken, False after a failure (with its reason)
 * until the next backup is taken.
 */
public final class BackupStatusBuilder {
    public static final String CONDITION = "BackupSucceeded";
    public static final String REASON_TAKEN = "BackupTaken";

    private final Conditions conditions;
    private final Readiness readiness;

    public BackupStatusBuilder(Conditions conditions) {
        this.conditions = conditions;
        this.readiness = new Readiness(conditions);
    }

    /** Records a successful backup; returns the message for the Event and the log. */
    public String succeeded(EtcdBackupStatus status, BackupTaken taken, Instant done, Long generation) {
        status.setSucceeded(true);
        status.setReason(null);
        status.setEtcdRevision(taken.revision());
        status.setEtcdVersion(taken.etcdVersion());
        status.setEtcdClusterID(taken.etcdClusterId());
        status.setClusterUID(taken.clusterUid());
        status.setLastSuccessDate(format(done));
        status.setLastAttemptDate(format(done));
        status.setConsecutiveFailures(0);
        status.setBackupPath(taken.path());
        status.setBackupSize(taken.size());
        status.setBackupSha256(taken.sha256());
        String message = taken.describe();
        conditions.put(status, CONDITION, Conditions.TRUE, REASON_TAKEN, message, generation);
        readiness.ready(status, REASON_TAKEN, message, generation);
        return message;
    }

    /**
     * Records a failed attempt. What the last successful backup recorded (revision, cluster, object) stays: it is
     * what the next attempt is checked against.
     *
     * @param retry when the next attempt is due
     * @return the message for the Event and the log
     */
    public String failed(EtcdBackupStatus status, BackupFailure failure, Instant done, Instant retry, Long generation) {
        int failures = (status.getConsecutiveFailures() == null ? 0 : status.getConsecutiveFailures()) + 1;
        status.setSucceeded(false);
        status.setReason(failure.reason() + ": " + failure.getMessage());
        status.setLastAttemptDate(format(done));
        status.setConsecutiveFailures(failures);
        String message = failure.getMessage() + "; next attempt at " + format(retry);
        conditions.put(status, CONDITION, Conditions.FALSE, failure.reason(), message, generation);
        readiness.notReady(status, failure.reason(), message, generation);
        return message;
    }

    public static BackupSchedule.History history(EtcdBackupStatus status) {
        return new BackupSchedule.History(parse(status.getLastSuccessDate()), parse(status.getLastAttemptDate()),
                status.getConsecutiveFailures() == null ? 0 : status.getConsecutiveFailures());
    }

    public static BackupPlanner.LastBackup lastBackup(EtcdBackupStatus status) {
        if (status == null || status.getLastSuccessDate() == null) {
            return BackupPlanner.LastBackup.none();
        }
        return new BackupPlanner.LastBackup(status.getEtcdRevision(), status.getEtcdClusterID(), status.getClusterUID());
    }

    public static String format(Instant t) {
        return t.truncatedTo(ChronoUnit.MILLIS).toString();
    }

    public static Instant parse(String t) {
        if (t == null || t.isBlank()) {
            return null;
        }
        try {
            return Instant.parse(t);
        } catch (DateTimeParseException e) {
            return null;
        }
    }
}
