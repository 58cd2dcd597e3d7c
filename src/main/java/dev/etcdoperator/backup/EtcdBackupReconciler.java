package dev.etcdoperator.backup;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.inject.Inject;

import dev.etcdoperator.api.v1beta2.BackupPolicy;
import dev.etcdoperator.api.v1beta2.InputRules;
import dev.etcdoperator.api.v1beta2.EtcdBackup;
import dev.etcdoperator.api.v1beta2.EtcdBackupStatus;
import dev.etcdoperator.api.v1beta2.RestoreDrillPolicy;
import dev.etcdoperator.core.backup.BackupFailure;
import dev.etcdoperator.core.backup.BackupSchedule;
import dev.etcdoperator.core.backup.BackupStatusBuilder;
import dev.etcdoperator.core.backup.BackupTaken;
import dev.etcdoperator.core.backup.DrillVerdict;
import dev.etcdoperator.core.backup.DrillSchedule;
import dev.etcdoperator.core.backup.RestoreDrills;
import dev.etcdoperator.core.schedule.CronSchedule;
import dev.etcdoperator.core.status.Conditions;
import dev.etcdoperator.core.status.SpecValidity;
import dev.etcdoperator.core.validation.BackupSpecValidator;
import dev.etcdoperator.core.validation.Validation;
import dev.etcdoperator.etcd.EtcdAdminFactory;
import dev.etcdoperator.etcd.EtcdAdminOptions;
import dev.etcdoperator.storage.BackupStorage;
import dev.etcdoperator.support.EventRecorder;
import dev.etcdoperator.support.StatusChange;
import dev.etcdoperator.support.WorkerPool;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import io.javaoperatorsdk.operator.processing.event.source.inbound.SimpleInboundEventSource;
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
    /** Whether a backup waits for a worker or runs now. */
    public static final String CONDITION_IN_PROGRESS = "BackupInProgress";
    public static final String REASON_QUEUED = "Queued";
    public static final String REASON_RUNNING = "Running";
    public static final String REASON_IDLE = "NotRunning";
    public static final String CONDITION_VERIFIED = BackupStatusBuilder.CONDITION_VERIFIED;
    static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(60);
    /** A backup's start and end trigger a reconcile; this is in case such a trigger was missed. */
    static final Duration WHILE_WORKING = Duration.ofSeconds(10);
    /** How soon after a backup is recorded the backup retention left for it is looked at. */
    static final Duration DEFERRED_LOOK = Duration.ofMillis(500);
    private static final Logger LOG = Logger.getLogger(EtcdBackupReconciler.class);

    private final BackupSpecValidator validator = new BackupSpecValidator();
    private final SpecValidity validity;
    private final EventRecorder events;
    private final Conditions conditions;
    private final Clock clock;
    private final BackupTaker taker;
    private final BackupMetrics metrics;
    private final BackupStatusBuilder statusBuilder;
    private final WorkerPool workers;
    private final RestoreDrillTaker drills;
    /** EtcdBackups whose leftover drill pods this operator has looked for since it started. */
    private final Set<String> swept = ConcurrentHashMap.newKeySet();
    /**
     * The drills (backup uid and path) that this process saw interrupted once, not recorded and run again; a second
     * interruption of the same drill is recorded, so that a download that always fails is not retried forever.
     */
    private final Set<String> interrupted = ConcurrentHashMap.newKeySet();
    private final SimpleInboundEventSource<EtcdBackup> wakeUps = new SimpleInboundEventSource<>("backup-workers");
    private final DrillsRunning drilling;
    private final DeferredDeletion deferredDeletion;
    /**
     * By EtcdBackup uid: the backup retention left because the status named it, and the newer one the status is to
     * name before it goes. Forgotten on a restart: the next backup's retention deletes it then.
     */
    private final Map<String, Deferred> deferred = new ConcurrentHashMap<>();

    /** @param generation the spec the backup that deferred it ran with */
    record Deferred(String path, String recorded, Long generation) {
    }

    @Inject
    public EtcdBackupReconciler(SpecValidity validity, EventRecorder events, Conditions conditions, Clock clock,
            KubernetesClient client, BackupMetrics metrics, BackupStorage storage, WorkerPool workers) {
        this(validity, events, conditions, clock, metrics, workers, new DrillsRunning(), client, storage);
    }

    private EtcdBackupReconciler(SpecValidity validity, EventRecorder events, Conditions conditions, Clock clock,
            BackupMetrics metrics, WorkerPool workers, DrillsRunning drilling, KubernetesClient client,
            BackupStorage storage) {
        this(validity, events, conditions, clock, metrics, workers, runner(client, storage, clock), drilling,
                client);
    }

    private EtcdBackupReconciler(SpecValidity validity, EventRecorder events, Conditions conditions, Clock clock,
            BackupMetrics metrics, WorkerPool workers, BackupRunner runner, DrillsRunning drilling,
            KubernetesClient client) {
        this(validity, events, conditions, clock, metrics, workers, taker(client, runner, drilling),
                new RestoreDrillRunner(client, runner.storage(), EtcdAdminFactory.jetcd(EtcdAdminOptions.defaults()),
                        clock), drilling, deferredDeletion(client, runner, drilling));
    }

    EtcdBackupReconciler(SpecValidity validity, EventRecorder events, Conditions conditions, Clock clock,
            BackupMetrics metrics, WorkerPool workers, BackupTaker taker, RestoreDrillTaker drills) {
        this(validity, events, conditions, clock, metrics, workers, taker, drills, new DrillsRunning());
    }

    EtcdBackupReconciler(SpecValidity validity, EventRecorder events, Conditions conditions, Clock clock,
            BackupMetrics metrics, WorkerPool workers, BackupTaker taker, RestoreDrillTaker drills,
            DrillsRunning drilling) {
        this(validity, events, conditions, clock, metrics, workers, taker, drills, drilling, DeferredDeletion.NONE);
    }

    EtcdBackupReconciler(SpecValidity validity, EventRecorder events, Conditions conditions, Clock clock,
            BackupMetrics metrics, WorkerPool workers, BackupTaker taker, RestoreDrillTaker drills,
            DrillsRunning drilling, DeferredDeletion deferredDeletion) {
        this.deferredDeletion = deferredDeletion;
        this.drilling = drilling;
        this.drills = drills;
        this.validity = validity;
        this.events = events;
        this.conditions = conditions;
        this.clock = clock;
        this.metrics = metrics;
        this.workers = workers;
        this.taker = taker;
        this.statusBuilder = new BackupStatusBuilder(conditions);
    }

    private static BackupRunner runner(KubernetesClient client, BackupStorage storage, Clock clock) {
        return new BackupRunner(new SnapshotSources(EtcdAdminFactory.jetcd(EtcdAdminOptions.defaults()), clock),
                SnapshotReader.etcd(), storage, clock, new RestoresInProgress(client));
    }

    /** Resolves the EtcdBackup's Secrets and cluster, then deletes what retention deferred. */
    private static DeferredDeletion deferredDeletion(KubernetesClient client, BackupRunner runner,
            DrillsRunning drilling) {
        BackupRequests requests = new BackupRequests(client);
        return (backup, path) -> {
            BackupRequest request = requests.resolve(backup);
            Integer every = drillEvery(backup);
            return runner.deleteDeferred(request, path, timeout(backup.getSpec().getBackupPolicy()),
                    new BackupRunner.ForDrills(false, () -> keptForDrills(client, backup, request.location().bucket(),
                            every, drilling)), () -> changedSince(client, backup));
        };
    }

    /** Resolves the EtcdBackup's Secrets and cluster, then runs the backup. */
    private static BackupTaker taker(KubernetesClient client, BackupRunner runner, DrillsRunning drilling) {
        BackupRequests requests = new BackupRequests(client);
        return (backup, interval) -> {
            BackupPolicy policy = backup.getSpec().getBackupPolicy();
            int maxBackups = policy == null || policy.getMaxBackups() == null ? 0 : policy.getMaxBackups();
            BackupRequest request = requests.resolve(backup);
            Integer every = drillEvery(backup);
            return runner.run(request, !interval.isZero(), maxBackups, timeout(policy),
                    BackupStatusBuilder.lastBackup(backup.getStatus()), new BackupRunner.ForDrills(drillsOn(backup),
                            () -> keptForDrills(client, backup, request.location().bucket(), every, drilling)),
                    () -> changedSince(client, backup));
        };
    }

    /**
     * The keys retention keeps for drills, read right before it deletes: from the status as the backup began, the
     * status as the API server holds it now (a drill may have verified another backup since), and the drill running
     * or not recorded yet.
     */
    static Set<String> keptForDrills(KubernetesClient client, EtcdBackup began, String bucket, Integer every,
            DrillsRunning drilling) {
        String uid = began.getMetadata().getUid();
        Set<String> keys = new java.util.LinkedHashSet<>(BackupStatusBuilder.keptForDrills(began.getStatus(), bucket,
                every, drilling.path(uid)));
        EtcdBackup now = client.resources(EtcdBackup.class).inNamespace(began.getMetadata().getNamespace())
                .withName(began.getMetadata().getName()).get();
        if (now != null && uid.equals(now.getMetadata().getUid()) && now.getStatus() != null) {
            keys.addAll(BackupStatusBuilder.keptForDrills(now.getStatus(), bucket, every));
        }
        return keys;
    }

    /** What changed in the EtcdBackup since {@code began} was copied, if anything. */
    static Optional<String> changedSince(KubernetesClient client, EtcdBackup began) {
        EtcdBackup now = client.resources(EtcdBackup.class).inNamespace(began.getMetadata().getNamespace())
                .withName(began.getMetadata().getName()).get();
        if (now == null) {
            return Optional.of("the EtcdBackup was deleted during the backup");
        }
        if (!now.getMetadata().getUid().equals(began.getMetadata().getUid())) {
            return Optional.of("the EtcdBackup was deleted and made again during the backup");
        }
        if (!java.util.Objects.equals(now.getMetadata().getGeneration(), began.getMetadata().getGeneration())) {
            return Optional.of("the EtcdBackup's spec changed during the backup (generation "
                    + began.getMetadata().getGeneration() + " to " + now.getMetadata().getGeneration() + ")");
        }
        return Optional.empty();
    }

    @Override
    public List<EventSource<?, EtcdBackup>> prepareEventSources(EventSourceContext<EtcdBackup> context) {
        return List.of(wakeUps);
    }

    @Override
    public UpdateControl<EtcdBackup> reconcile(EtcdBackup backup, Context<EtcdBackup> context) {
        UpdateControl<EtcdBackup> control = reconcileBackup(backup);
        Optional<Instant> drill = DrillSchedule.recorded(backup.getStatus());
        if (drill.isEmpty() || drillSchedule(backup) == null) {
            return control;
        }
        // a drill already due is the drill's business (it runs, or waits for a first backup, whose end wakes this up)
        Duration untilDrill = Duration.between(clock.instant(), drill.get());
        Optional<Long> planned = control.getScheduleDelay();
        return untilDrill.isNegative() || untilDrill.isZero() || planned.isPresent() && planned.get() <= untilDrill.toMillis() ? control
                : control.rescheduleAfter(untilDrill.plusMillis(1));
    }

    private UpdateControl<EtcdBackup> reconcileBackup(EtcdBackup backup) {
        if (backup.getStatus() == null) {
            backup.setStatus(new EtcdBackupStatus());
        }
        StatusChange<EtcdBackup> change = new StatusChange<>(backup);
        EtcdBackupStatus status = backup.getStatus();
        drilling.recorded(backup.getMetadata().getUid(), status.getLastVerifiedBackupPath());
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
            statusBuilder.validAgain(status, backup.getMetadata().getGeneration());
        }
        remembered(backup);
        DrillSchedule.record(status, drillSchedule(backup), clock.instant());
        Duration interval = interval(backup.getSpec().getBackupPolicy());
        Optional<WorkerPool.Finished<BackupTaken>> finished = workers.take(jobKey(backup), jobTag(backup));
        if (finished.isEmpty() && !workers.has(jobKey(backup), jobTag(backup))) {
            // no job of this spec is queued or running (one of an earlier spec may have ended, dropped)
            Conditions.find(status.getConditions(), CONDITION_IN_PROGRESS)
                    .filter(c -> Conditions.TRUE.equals(c.getStatus()))
                    .ifPresent(c -> conditions.put(status, CONDITION_IN_PROGRESS, Conditions.FALSE, REASON_IDLE,
                            "No backup runs.", backup.getMetadata().getGeneration()));
        }
        workers.<Drilled>take(drillKey(backup), backup.getMetadata().getUid())
                .ifPresent(drilled -> recordDrill(backup, drilled));
        workers.<String>take(deferredKey(backup), backup.getMetadata().getUid())
                .ifPresent(done -> recordDeferred(backup, done));
        if (finished.isEmpty()) {
            deleteDeferredOnceRecorded(backup);
        }
        if (finished.isPresent()) {
            Instant next = record(backup, interval, finished.get());
            status.setNextBackupDate(next == null ? null : format(next));
            boolean drilling = drillIfDue(backup);
            UpdateControl<EtcdBackup> control = change.control(backup);
            if (deferred.containsKey(backup.getMetadata().getUid())) {
                // the next look, once the status names the new backup, deletes the one retention left
                return control.rescheduleAfter(next == null ? DEFERRED_LOOK : min(DEFERRED_LOOK, untilThen(next)));
            }
            return next == null ? drilling ? control.rescheduleAfter(WHILE_WORKING) : control
                    : control.rescheduleAfter(drilling ? min(WHILE_WORKING, untilThen(next)) : untilThen(next));
        }
        Instant now = clock.instant();
        BackupSchedule.Decision decision = BackupSchedule.decide(interval, history(status), now);
        if (decision instanceof BackupSchedule.Finished) {
            status.setNextBackupDate(null);
            UpdateControl<EtcdBackup> control = change.control(backup);
            return drillIfDue(backup) ? control.rescheduleAfter(WHILE_WORKING) : control;
        }
        if (decision instanceof BackupSchedule.Wait wait) {
            status.setNextBackupDate(format(wait.until()));
            Duration until = untilThen(wait.until());
            return change.control(backup).rescheduleAfter(drillIfDue(backup) ? min(WHILE_WORKING, until) : until);
        }
        BackupSchedule.Due due = (BackupSchedule.Due) decision;
        boolean submitted = workers.has(jobKey(backup), jobTag(backup));
        WorkerPool.State<BackupTaken> state = submit(backup, interval);
        if (due.missed() > 0 && !submitted) {
            events.warning(backup, REASON_MISSED, due.missed() + " scheduled backup(s) did not happen: one was due at "
                    + format(due.dueAt()) + "; taking one now");
        }
        progress(backup, state);
        return change.control(backup).rescheduleAfter(WHILE_WORKING);
    }

    /**
     * Hands the backup to the workers: it runs when one is free, on a copy of the resource as it is now; its start
     * and its end trigger a reconcile, which takes the outcome.
     */
    private WorkerPool.State<BackupTaken> submit(EtcdBackup backup, Duration interval) {
        EtcdBackup copy = Serialization.clone(backup);
        ResourceID id = ResourceID.fromResource(backup);
        return workers.submit(jobKey(backup), jobTag(backup), () -> taker.take(copy, interval),
                () -> wakeUps.propagateEvent(id));
    }

    /** The condition that says whether a backup waits for a worker or runs. */
    private void progress(EtcdBackup backup, WorkerPool.State<BackupTaken> state) {
        String reason;
        String message;
        if (state instanceof WorkerPool.Running<BackupTaken> running) {
            reason = REASON_RUNNING;
            message = "The backup runs since " + format(running.since()) + ".";
        } else if (state instanceof WorkerPool.Finished<BackupTaken> finished) {
            // ended between this reconcile's look and its submit: the next reconcile records it
            reason = REASON_RUNNING;
            message = "The backup that began at " + format(finished.started()) + " has ended.";
        } else {
            reason = REASON_QUEUED;
            message = "The backup waits for a free backup worker (etcd-operator.backup.workers).";
        }
        conditions.put(backup.getStatus(), CONDITION_IN_PROGRESS, Conditions.TRUE, reason, message,
                backup.getMetadata().getGeneration());
    }

    /**
     * The last successful backup and the last verified one the status remembers, in the metrics (an operator restart
     * forgets them).
     */
    private void remembered(EtcdBackup backup) {
        EtcdBackupStatus status = backup.getStatus();
        String cluster = backup.getSpec().getEtcdCluster() == null ? "" : backup.getSpec().getEtcdCluster().getName();
        Duration interval = interval(backup.getSpec().getBackupPolicy());
        metrics.spec(backup.getMetadata().getNamespace(), backup.getMetadata().getName(), interval,
                backup.getSpec().getRestoreDrill() != null);
        BackupPolicy policy = backup.getSpec().getBackupPolicy();
        if (!interval.isZero() && policy != null && policy.getMaxBackups() != null && policy.getMaxBackups() > 0) {
            // from the first look on, so that a first failure after a restart is an increase
            metrics.retentionSeries(backup.getMetadata().getNamespace(), backup.getMetadata().getName(), cluster);
        }
        if (status.getLastVerifiedDate() != null && backup.getSpec().getRestoreDrill() != null) {
            try {
                metrics.rememberedVerified(backup.getMetadata().getNamespace(), backup.getMetadata().getName(),
                        cluster, Instant.parse(status.getLastVerifiedDate()));
            } catch (java.time.format.DateTimeParseException e) {
                LOG.debugf("EtcdBackup %s/%s: lastVerifiedDate %s is no time", backup.getMetadata().getNamespace(),
                        backup.getMetadata().getName(), status.getLastVerifiedDate());
            }
        }
        // a one-shot backup's last success only grows old: an alert on its age would fire for ever
        if (status.getLastSuccessDate() == null || interval.isZero()) {
            return;
        }
        try {
            metrics.remembered(backup.getMetadata().getNamespace(), backup.getMetadata().getName(), cluster,
                    Instant.parse(status.getLastSuccessDate()), status.getBackupSize(), interval);
        } catch (java.time.format.DateTimeParseException e) {
            LOG.debugf("EtcdBackup %s/%s: lastSuccessDate %s is no time", backup.getMetadata().getNamespace(),
                    backup.getMetadata().getName(), status.getLastSuccessDate());
        }
    }

    /** Records the outcome of a backup; returns when the schedule wants the next attempt, or null. */
    private Instant record(EtcdBackup backup, Duration interval, WorkerPool.Finished<BackupTaken> finished) {
        EtcdBackupStatus status = backup.getStatus();
        conditions.put(status, CONDITION_IN_PROGRESS, Conditions.FALSE, REASON_IDLE, "The last backup attempt ended at "
                + format(finished.done()) + ".", backup.getMetadata().getGeneration());
        String namespace = backup.getMetadata().getNamespace();
        String name = backup.getMetadata().getName();
        boolean periodic = !interval.isZero();
        String cluster = backup.getSpec().getEtcdCluster() == null ? "" : backup.getSpec().getEtcdCluster().getName();
        if (finished.failure() instanceof BackupFailure failure) {
            return failed(backup, failure, finished.started(), finished.done(), cluster);
        }
        if (finished.failure() != null) {
            LOG.errorf(finished.failure(), "EtcdBackup %s/%s failed unexpectedly", namespace, name);
            return failed(backup, new BackupFailure(BackupFailure.SNAPSHOT_FAILED, "unexpected error: "
                    + finished.failure(), true, finished.failure()), finished.started(), finished.done(), cluster);
        }
        BackupTaken result = finished.result();
        Instant done = finished.done();
        String message = statusBuilder.succeeded(status, result, done, backup.getMetadata().getGeneration());
        events.normal(backup, REASON_TAKEN, message);
        deferred.remove(backup.getMetadata().getUid());
        if (result.deferred() != null && !result.deferred().equals(result.path())) {
            deferred.put(backup.getMetadata().getUid(), new Deferred(result.deferred(), result.path(),
                    backup.getMetadata().getGeneration()));
        }
        metrics.taken(namespace, name, cluster, result.took(), result.size(), done, interval);
        if (result.retentionProblem() != null) {
            events.warning(backup, REASON_RETENTION, result.retentionProblem());
            metrics.retentionFailed(namespace, name, cluster);
        }
        LOG.infof("EtcdBackup %s/%s: %s", namespace, name, message);
        return periodic ? done.plus(interval) : null;
    }

    /** What a drill job hands back: the backup it drilled, the backups counted toward it, and what it found. */
    record Drilled(String path, int backupsCounted, DrillVerdict.Outcome outcome) {
    }

    /**
     * Hands a restore drill to the workers when one is due (see {@link BackupStatusBuilder#drillDue}); it runs on
     * a copy of the resource as it is now, beside the backups, so it never holds the next backup back.
     *
     * @return whether a drill is queued or running
     */
    private boolean drillIfDue(EtcdBackup backup) {
        String uid = backup.getMetadata().getUid();
        String key = drillKey(backup);
        if (workers.has(key, uid)) {
            return true;
        }
        if (swept.add(uid)) {
            drills.removeLeftovers(backup);
        }
        boolean scheduled = DrillSchedule.due(backup.getStatus(), drillSchedule(backup), clock.instant());
        Optional<String> due = BackupStatusBuilder.drillDue(drillEvery(backup), backup.getStatus(), scheduled);
        if (due.isEmpty()) {
            return false;
        }
        EtcdBackup copy = Serialization.clone(backup);
        String path = due.get();
        Integer counted = backup.getStatus().getBackupsSinceDrill();
        ResourceID id = ResourceID.fromResource(backup);
        drilling.started(uid, path);
        workers.submit(key, uid, () -> {
            Drilled drilled = null;
            try {
                drilled = drill(copy, path, counted == null ? 0 : counted);
                return drilled;
            } finally {
                drilling.ended(uid, path, drilled != null && drilled.outcome().verified());
            }
        }, () -> wakeUps.propagateEvent(id));
        return true;
    }

    /** An unexpected failure counts as the drill's outcome too, so that it is not started again at once. */
    private Drilled drill(EtcdBackup backup, String path, int counted) {
        try {
            return new Drilled(path, counted, drills.drill(backup, path));
        } catch (RuntimeException e) {
            LOG.errorf(e, "the restore drill of %s failed unexpectedly", path);
            return new Drilled(path, counted, DrillVerdict.Outcome.failed(DrillVerdict.DRILL_FAILED, "the drill of " + path
                    + " failed unexpectedly: " + e));
        }
    }

    private void recordDrill(EtcdBackup backup, WorkerPool.Finished<Drilled> finished) {
        String namespace = backup.getMetadata().getNamespace();
        String name = backup.getMetadata().getName();
        Drilled drilled = finished.result();
        if (drilled == null) {
            // an Error, not an outcome: the drill is due again and tried at the next reconcile
            LOG.errorf(finished.failure(), "the restore drill of EtcdBackup %s/%s failed unexpectedly", namespace, name);
            return;
        }
        DrillVerdict.Outcome outcome = drilled.outcome();
        String attempt = backup.getMetadata().getUid() + " " + drilled.path();
        if (DrillVerdict.INTERRUPTED.equals(outcome.reason()) && interrupted.add(attempt)) {
            events.warning(backup, outcome.reason(), outcome.message() + "; the drill runs again");
            LOG.warnf("EtcdBackup %s/%s: %s; the drill runs again", namespace, name, outcome.message());
            return;
        }
        interrupted.remove(attempt);
        statusBuilder.drilled(backup.getStatus(), drilled.path(), drilled.backupsCounted(), outcome,
                finished.done(), backup.getMetadata().getGeneration());
        DrillSchedule.drilled(backup.getStatus(), drillSchedule(backup), finished.started(), finished.done());
        String cluster = backup.getSpec().getEtcdCluster() == null ? "" : backup.getSpec().getEtcdCluster().getName();
        metrics.drilled(namespace, name, cluster, outcome.reason(), Duration.between(finished.started(),
                finished.done()), outcome.verified() ? finished.done() : null);
        if (outcome.verified()) {
            events.normal(backup, outcome.reason(), outcome.message());
            LOG.infof("EtcdBackup %s/%s: %s", namespace, name, outcome.message());
        } else {
            events.warning(backup, outcome.reason(), outcome.message());
            LOG.warnf("EtcdBackup %s/%s: restore drill failed (%s): %s", namespace, name, outcome.reason(),
                    outcome.message());
        }
    }

    /** How many backups make a drill, or null when drills are off or follow a schedule alone. */
    static Integer drillEvery(EtcdBackup backup) {
        RestoreDrillPolicy policy = backup.getSpec().getRestoreDrill();
        if (policy == null) {
            return null;
        }
        if (policy.getEvery() == null) {
            return policy.getSchedule() == null ? RestoreDrills.DEFAULT_EVERY : null;
        }
        return policy.getEvery();
    }

    static boolean drillsOn(EtcdBackup backup) {
        return backup.getSpec().getRestoreDrill() != null;
    }

    /** {@code spec.restoreDrill.schedule}, or null without one (or with one validation refuses). */
    static CronSchedule drillSchedule(EtcdBackup backup) {
        RestoreDrillPolicy policy = backup.getSpec().getRestoreDrill();
        if (policy == null || policy.getSchedule() == null) {
            return null;
        }
        try {
            return CronSchedule.parse(policy.getSchedule());
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    static String deferredKey(EtcdBackup backup) {
        return deferredKey(backup.getMetadata().getNamespace(), backup.getMetadata().getName());
    }

    static String deferredKey(String namespace, String name) {
        return NAME + "-retention/" + namespace + "/" + name;
    }

    /**
     * Hands the backup retention left to a worker once the status names the newer backup (this reconcile read it so:
     * the status patch landed), and no backup of it runs meanwhile.
     */
    private void deleteDeferredOnceRecorded(EtcdBackup backup) {
        String uid = backup.getMetadata().getUid();
        Deferred d = deferred.get(uid);
        if (d == null) {
            return;
        }
        if (!java.util.Objects.equals(d.generation(), backup.getMetadata().getGeneration())) {
            deferred.remove(uid);
            return;
        }
        if (!d.recorded().equals(backup.getStatus().getBackupPath()) || workers.has(jobKey(backup), jobTag(backup))
                || workers.has(deferredKey(backup), uid)) {
            return;
        }
        deferred.remove(uid);
        EtcdBackup copy = Serialization.clone(backup);
        ResourceID id = ResourceID.fromResource(backup);
        workers.submit(deferredKey(backup), uid, () -> deferredDeletion.delete(copy, d.path()),
                () -> wakeUps.propagateEvent(id));
    }

    private void recordDeferred(EtcdBackup backup, WorkerPool.Finished<String> done) {
        String namespace = backup.getMetadata().getNamespace();
        String name = backup.getMetadata().getName();
        if (done.failure() != null) {
            String message = done.failure().getMessage() + "; the next backup's retention deletes it";
            events.warning(backup, REASON_RETENTION, message);
            metrics.retentionFailed(namespace, name, backup.getSpec().getEtcdCluster() == null ? ""
                    : backup.getSpec().getEtcdCluster().getName());
            LOG.warnf("EtcdBackup %s/%s: %s", namespace, name, message);
        } else {
            LOG.infof("EtcdBackup %s/%s: %s", namespace, name, done.result());
        }
    }

    static String drillKey(EtcdBackup backup) {
        return drillKey(backup.getMetadata().getNamespace(), backup.getMetadata().getName());
    }

    static String drillKey(String namespace, String name) {
        return NAME + "-drill/" + namespace + "/" + name;
    }

    private static Duration min(Duration a, Duration b) {
        return a.compareTo(b) <= 0 ? a : b;
    }

    /**
     * A backup's outcome is recorded only against the spec it ran with: one that ended after the spec changed (a new
     * path, bucket or schedule) is dropped, and the spec as it is then decides what runs next.
     */
    static String jobTag(EtcdBackup backup) {
        return backup.getMetadata().getUid() + "/" + backup.getMetadata().getGeneration();
    }

    static String jobKey(EtcdBackup backup) {
        return jobKey(backup.getMetadata().getNamespace(), backup.getMetadata().getName());
    }

    static String jobKey(String namespace, String name) {
        return NAME + "/" + namespace + "/" + name;
    }

    private Instant failed(EtcdBackup backup, BackupFailure failure, Instant started, Instant done, String cluster) {
        EtcdBackupStatus status = backup.getStatus();
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
