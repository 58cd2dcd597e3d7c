package dev.etcdoperator.backup;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

import dev.etcdoperator.api.v1beta2.BackupPolicy;
import dev.etcdoperator.api.v1beta2.InputRules;
import dev.etcdoperator.api.v1beta2.EtcdBackup;
import dev.etcdoperator.api.v1beta2.EtcdBackupStatus;
import dev.etcdoperator.core.backup.BackupFailure;
import dev.etcdoperator.core.backup.BackupSchedule;
import dev.etcdoperator.core.backup.BackupStatusBuilder;
import dev.etcdoperator.core.backup.BackupTaken;
import dev.etcdoperator.core.status.Conditions;
import dev.etcdoperator.core.status.SpecValidity;
import dev.etcdoperator.core.validation.BackupSpecValidator;
import dev.etcdoperator.core.validation.Validation;
import dev.etcdoperator.etcd.EtcdAdminFactory;
import dev.etcdoperator.etcd.EtcdAdminOptions;
import dev.etcdoperator.storage.BackupStorage;
import dev.etcdoperator.support.EventRecorder;
import dev.etcdoperator.support.StatusChange;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import org.jboss.logging.Logger;

/**
 * The {@code etcdbackup} controller: checks the spec, then takes a backup when one is due (once, or every
 * {@code backupIntervalInSecond}), records the outcome in the status, an Event and the metrics, and comes back when
 * the next one (or the next retry) is due. The schedule lives in the status, so a restarted operator keeps it.
 */
@ControllerConfiguration(name = EtcdBackupReconciler.NAME)
public class EtcdBackupReconciler implements Reconciler<EtcdBackup> {
    public static final String NAME = "etcdbackup";
    public static final String CONDITION = BackupStatusBuilder.CONDITION;
    public static final String REASON_TAKEN = BackupStatusBuilder.REASON_TAKEN;
    public static final String REASON_MISSED = "BackupsMissed";
    public static final String REASON_RETENTION = "RetentionFailed";
    static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(60);
    private static final Logger LOG = Logger.getLogger(EtcdBackupReconciler.class);

    private final BackupSpecValidator validator = new BackupSpecValidator();
    private final SpecValidity validity;
    private final EventRecorder events;
    private final Conditions conditions;
    private final Clock clock;
    private final BackupRequests requests;
    private final BackupRunner runner;
    private final BackupMetrics metrics;
    private final BackupStatusBuilder statusBuilder;

    public EtcdBackupReconciler(SpecValidity validity, EventRecorder events, Conditions conditions, Clock clock,
            KubernetesClient client, BackupMetrics metrics, BackupStorage storage) {
        this.validity = validity;
        this.events = events;
        this.conditions = conditions;
        this.clock = clock;
        this.requests = new BackupRequests(client);
        this.metrics = metrics;
        this.statusBuilder = new BackupStatusBuilder(conditions);
        this.runner = new BackupRunner(new SnapshotSources(EtcdAdminFactory.jetcd(EtcdAdminOptions.defaults()), clock),
                SnapshotReader.etcd(), storage, clock, new RestoresInProgress(client));
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
            status.setNextBackupDate(null);
            if (news) {
                events.warning(backup, SpecValidity.REASON_INVALID, validation.message());
            }
            return change.control(backup);
        }
        if (status.getReason() != null && status.getReason().startsWith(SpecValidity.REASON_INVALID)) {
            status.setReason(null);
            status.setSucceeded(null);
        }
        Duration interval = interval(backup.getSpec().getBackupPolicy());
        Instant now = clock.instant();
        BackupSchedule.Decision decision = BackupSchedule.decide(interval, history(status), now);
        if (decision instanceof BackupSchedule.Finished) {
            status.setNextBackupDate(null);
            return change.control(backup);
        }
        if (decision instanceof BackupSchedule.Wait wait) {
            status.setNextBackupDate(format(wait.until()));
            return change.control(backup).rescheduleAfter(untilThen(wait.until()));
        }
        BackupSchedule.Due due = (BackupSchedule.Due) decision;
        if (due.missed() > 0) {
            events.warning(backup, REASON_MISSED, due.missed() + " scheduled backup(s) did not happen: one was due at "
                    + format(due.dueAt()) + "; taking one now");
        }
        Instant next = take(backup, interval);
        status.setNextBackupDate(next == null ? null : format(next));
        UpdateControl<EtcdBackup> control = change.control(backup);
        return next == null ? control : control.rescheduleAfter(untilThen(next));
    }

    /** Takes one backup and records the outcome; returns when the schedule wants the next attempt, or null. */
    private Instant take(EtcdBackup backup, Duration interval) {
        EtcdBackupStatus status = backup.getStatus();
        String namespace = backup.getMetadata().getNamespace();
        String name = backup.getMetadata().getName();
        BackupPolicy policy = backup.getSpec().getBackupPolicy();
        boolean periodic = !interval.isZero();
        Instant started = clock.instant();
        String cluster = backup.getSpec().getEtcdCluster() == null ? "" : backup.getSpec().getEtcdCluster().getName();
        try {
            BackupRequest request = requests.resolve(backup);
            int maxBackups = policy == null || policy.getMaxBackups() == null ? 0 : policy.getMaxBackups();
            BackupTaken result = runner.run(request, periodic, maxBackups, timeout(policy),
                    BackupStatusBuilder.lastBackup(status));
            Instant done = clock.instant();
            String message = statusBuilder.succeeded(status, result, done, backup.getMetadata().getGeneration());
            events.normal(backup, REASON_TAKEN, message);
            if (result.retentionProblem() != null) {
                events.warning(backup, REASON_RETENTION, result.retentionProblem());
            }
            metrics.taken(namespace, name, cluster, result.took(), result.size(), done);
            LOG.infof("EtcdBackup %s/%s: %s", namespace, name, message);
            return periodic ? done.plus(interval) : null;
        } catch (BackupFailure e) {
            return failed(backup, e, started, cluster);
        } catch (RuntimeException e) {
            LOG.errorf(e, "EtcdBackup %s/%s failed unexpectedly", namespace, name);
            return failed(backup, new BackupFailure(BackupFailure.SNAPSHOT_FAILED, "unexpected error: " + e, true, e),
                    started, cluster);
        }
    }

    private Instant failed(EtcdBackup backup, BackupFailure failure, Instant started, String cluster) {
        EtcdBackupStatus status = backup.getStatus();
        Instant done = clock.instant();
        int failures = (status.getConsecutiveFailures() == null ? 0 : status.getConsecutiveFailures()) + 1;
        Instant retry = done.plus(BackupSchedule.backoff(failures));
        String message = statusBuilder.failed(status, failure, done, retry, backup.getMetadata().getGeneration());
        events.warning(backup, failure.reason(), message);
        metrics.failed(backup.getMetadata().getNamespace(), backup.getMetadata().getName(), cluster, failure.reason(),
                Duration.between(started, done));
        LOG.warnf("EtcdBackup %s/%s failed (%s): %s", backup.getMetadata().getNamespace(),
                backup.getMetadata().getName(), failure.reason(), failure.getMessage());
        Duration interval = interval(backup.getSpec().getBackupPolicy());
        Instant next = BackupSchedule.decide(interval, history(status), done) instanceof BackupSchedule.Wait w ? w.until() : retry;
        return next;
    }

    private static BackupSchedule.History history(EtcdBackupStatus status) {
        return BackupStatusBuilder.history(status);
    }

    /** The interval, capped at the API's maximum (the validator refuses more; this keeps the arithmetic safe). */
    static Duration interval(BackupPolicy policy) {
        return policy == null || policy.getBackupIntervalInSecond() == null || policy.getBackupIntervalInSecond() <= 0
                ? Duration.ZERO
                : Duration.ofSeconds(Math.min(policy.getBackupIntervalInSecond(), InputRules.MAX_BACKUP_INTERVAL_SECONDS));
    }

    /** The timeout, capped at the API's maximum. */
    static Duration timeout(BackupPolicy policy) {
        return policy == null || policy.getTimeoutInSecond() == null || policy.getTimeoutInSecond() <= 0
                ? DEFAULT_TIMEOUT
                : Duration.ofSeconds(Math.min(policy.getTimeoutInSecond(), InputRules.MAX_BACKUP_TIMEOUT_SECONDS));
    }

    private Duration untilThen(Instant when) {
        Duration d = Duration.between(clock.instant(), when);
        return d.isNegative() ? Duration.ZERO : d.plusMillis(50);
    }

    private static String format(Instant t) {
        return BackupStatusBuilder.format(t);
    }
}
