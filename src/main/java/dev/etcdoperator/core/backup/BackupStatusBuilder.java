package dev.etcdoperator.core.backup;

import java.time.Instant;
import java.util.LinkedHashSet;
import java.util.Optional;
import java.util.Set;
import java.time.temporal.ChronoUnit;
import java.time.format.DateTimeParseException;

import dev.etcdoperator.api.v1beta2.BackupKeyspace;
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
    /** Ready's reason before the first backup of an EtcdBackup whose spec was invalid at first. */
    public static final String REASON_PENDING = "NoBackupYet";
    public static final String REASON_TAKEN = "BackupTaken";
    /** Set by restore drills only; {@code Ready} does not follow it. */
    public static final String CONDITION_VERIFIED = "BackupVerified";

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
        BackupTaken.Encrypted encrypted = taken.encrypted();
        status.setSnapshotSha256(encrypted == null ? null : encrypted.snapshotSha256());
        status.setSnapshotSize(encrypted == null ? null : encrypted.snapshotSize());
        status.setEncryptionKeyFingerprint(encrypted == null ? null : encrypted.keyFingerprint());
        status.setBackupKeyspace(keyspace(taken.keyspace()));
        status.setBackupsSinceDrill((status.getBackupsSinceDrill() == null ? 0 : status.getBackupsSinceDrill()) + 1);
        String message = taken.describe();
        conditions.put(status, CONDITION, Conditions.TRUE, REASON_TAKEN, message, generation);
        readiness.ready(status, REASON_TAKEN, message, generation);
        return message;
    }

    /**
     * The spec is valid again after it was not: {@code succeeded}, {@code reason} and {@code Ready} say again what
     * the last attempt did (the {@link #CONDITION} condition kept it), as they did before the spec went wrong.
     */
    public void validAgain(EtcdBackupStatus status, Long generation) {
        java.util.Optional<dev.etcdoperator.api.v1beta2.Condition> last = Conditions.find(status.getConditions(),
                CONDITION);
        if (last.isEmpty()) {
            status.setSucceeded(null);
            status.setReason(null);
            readiness.notReady(status, REASON_PENDING, "No backup was taken yet.", generation);
        } else if (Conditions.TRUE.equals(last.get().getStatus())) {
            status.setSucceeded(true);
            status.setReason(null);
            readiness.ready(status, last.get().getReason(), last.get().getMessage(), generation);
        } else {
            status.setSucceeded(false);
            status.setReason(last.get().getReason() + ": " + last.get().getMessage());
            readiness.notReady(status, last.get().getReason(), last.get().getMessage(), generation);
        }
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
        status.setReason(dev.etcdoperator.core.status.Messages.bounded(failure.reason() + ": " + failure.getMessage()));
        status.setLastAttemptDate(format(done));
        status.setConsecutiveFailures(failures);
        String message = dev.etcdoperator.core.status.Messages.bounded(failure.getMessage()) + "; next attempt at "
                + format(retry);
        conditions.put(status, CONDITION, Conditions.FALSE, failure.reason(), message, generation);
        readiness.notReady(status, failure.reason(), message, generation);
        return message;
    }

    /**
     * Records a restore drill of the backup at {@code path}: {@code BackupVerified} True or False with the reason;
     * a verified backup becomes the last verified one, which retention keeps. A failed drill leaves the last
     * verified backup as it was.
     *
     * @param backupsCounted {@code backupsSinceDrill} when the drill began: backups taken while it ran still count
     *                       toward the next one
     */
    public void drilled(EtcdBackupStatus status, String path, int backupsCounted, DrillVerdict.Outcome outcome,
            Instant done, Long generation) {
        int since = status.getBackupsSinceDrill() == null ? 0 : status.getBackupsSinceDrill();
        status.setLastDrilledBackupPath(path);
        status.setBackupsSinceDrill(Math.max(0, since - backupsCounted));
        if (outcome.verified()) {
            status.setLastVerifiedDate(format(done));
            status.setLastVerifiedBackupPath(path);
        }
        conditions.put(status, CONDITION_VERIFIED, outcome.verified() ? Conditions.TRUE : Conditions.FALSE,
                outcome.reason(), outcome.message(), generation);
    }

    /** The restore drill due now after {@code every} backups, if any (see {@link RestoreDrills}). */
    public static Optional<String> drillDue(Integer every, EtcdBackupStatus status) {
        return drillDue(every, status, false);
    }

    /**
     * The restore drill due now, if any (see {@link RestoreDrills}).
     *
     * @param scheduled a drill of {@code spec.restoreDrill.schedule} is due ({@link DrillSchedule#due})
     */
    public static Optional<String> drillDue(Integer every, EtcdBackupStatus status, boolean scheduled) {
        return RestoreDrills.due(every, status.getLastSuccessDate() == null ? null : status.getBackupPath(),
                status.getLastDrilledBackupPath(),
                status.getBackupsSinceDrill() == null ? 0 : status.getBackupsSinceDrill(), scheduled);
    }

    /**
     * The keys in {@code bucket} that retention keeps for drills: the last verified backup (whether drills are on
     * or not) and, while drills are on, the backup due for a drill or being drilled.
     */
    public static Set<String> keptForDrills(EtcdBackupStatus status, String bucket, Integer every) {
        return keptForDrills(status, bucket, every, null);
    }

    /** @param drilling the path of the backup a drill is restoring now (a scheduled one too), or null */
    public static Set<String> keptForDrills(EtcdBackupStatus status, String bucket, Integer every, String drilling) {
        Set<String> keys = new LinkedHashSet<>();
        keyIn(bucket, status.getLastVerifiedBackupPath()).ifPresent(keys::add);
        drillDue(every, status).flatMap(path -> keyIn(bucket, path)).ifPresent(keys::add);
        keyIn(bucket, drilling).ifPresent(keys::add);
        return keys;
    }

    private static Optional<String> keyIn(String bucket, String path) {
        return path != null && path.startsWith(bucket + "/") ? Optional.of(path.substring(bucket.length() + 1))
                : Optional.empty();
    }

    /** What the source said about the last successful backup's keyspace, or null when nothing was recorded. */
    public static KeyspaceFingerprint recordedKeyspace(EtcdBackupStatus status) {
        BackupKeyspace k = status.getBackupKeyspace();
        return k == null || k.getRevision() == null ? null
                : new KeyspaceFingerprint(k.getRevision(), k.getHashKV(), k.getCompactRevision(), k.getKeyCount());
    }

    private static BackupKeyspace keyspace(KeyspaceFingerprint f) {
        if (f == null) {
            return null;
        }
        BackupKeyspace k = new BackupKeyspace();
        k.setRevision(f.revision());
        k.setHashKV(f.hash());
        k.setCompactRevision(f.compactRevision());
        k.setKeyCount(f.keyCount());
        return k;
    }

    public static BackupSchedule.History history(EtcdBackupStatus status) {
        return new BackupSchedule.History(parse(status.getLastSuccessDate()), parse(status.getLastAttemptDate()),
                status.getConsecutiveFailures() == null ? 0 : status.getConsecutiveFailures());
    }

    public static BackupPlanner.LastBackup lastBackup(EtcdBackupStatus status) {
        if (status == null || status.getLastSuccessDate() == null) {
            return BackupPlanner.LastBackup.none();
        }
        return new BackupPlanner.LastBackup(status.getEtcdRevision(), status.getEtcdClusterID(), status.getClusterUID(),
                status.getLastSuccessDate(), status.getBackupPath());
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
