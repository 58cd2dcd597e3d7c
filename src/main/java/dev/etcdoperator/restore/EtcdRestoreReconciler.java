package dev.etcdoperator.restore;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import dev.etcdoperator.api.v1beta2.EtcdCluster;
import dev.etcdoperator.api.v1beta2.EtcdRestore;
import dev.etcdoperator.api.v1beta2.EtcdRestoreSpec;
import dev.etcdoperator.api.v1beta2.EtcdRestoreStatus;
import dev.etcdoperator.api.v1beta2.RestoreAnnotations;
import dev.etcdoperator.api.v1beta2.SavedClusterSpec;
import dev.etcdoperator.cluster.ClusterValidation;
import dev.etcdoperator.cluster.RestoredFrom;
import dev.etcdoperator.core.backup.BackupFailure;
import dev.etcdoperator.core.backup.BackupSchedule;
import dev.etcdoperator.core.backup.S3Location;
import dev.etcdoperator.core.restore.ClusterSeen;
import dev.etcdoperator.core.restore.FailureReport;
import dev.etcdoperator.core.restore.RestoreAction;
import dev.etcdoperator.core.restore.RestoreEnd;
import dev.etcdoperator.core.restore.RestoreHold;
import dev.etcdoperator.core.restore.RestorePhase;
import dev.etcdoperator.core.restore.RestorePlanner;
import dev.etcdoperator.core.restore.RestoreStatusBuilder;
import dev.etcdoperator.core.restore.SeedStaging;
import dev.etcdoperator.core.restore.SnapshotUrl;
import dev.etcdoperator.core.status.Conditions;
import dev.etcdoperator.core.status.Messages;
import dev.etcdoperator.core.status.SpecValidity;
import dev.etcdoperator.core.validation.RestoreSpecValidator;
import dev.etcdoperator.core.validation.Validation;
import dev.etcdoperator.storage.BackupStorage;
import dev.etcdoperator.storage.ObjectVersion;
import dev.etcdoperator.storage.S3Credentials;
import dev.etcdoperator.storage.S3Settings;
import dev.etcdoperator.support.EventRecorder;
import dev.etcdoperator.support.Leadership;
import dev.etcdoperator.support.StatusChange;
import dev.etcdoperator.support.ForRestores;
import dev.etcdoperator.support.WorkerPool;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.javaoperatorsdk.operator.api.reconciler.Cleaner;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.DeleteControl;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import io.javaoperatorsdk.operator.processing.event.source.inbound.SimpleInboundEventSource;
import org.jboss.logging.Logger;

/**
 * The {@code etcdrestore} controller. A restore runs through phases recorded in its status before each is acted
 * on (see {@link RestorePhase}): the preflight reads and verifies the backup and checks the template cluster while
 * changing nothing; only then is the template's spec saved and the template deleted; the restored cluster is
 * created under the same name with its seed member restoring the snapshot; the restore is done when the cluster
 * is available at full size. An operator restart resumes from the recorded phase.
 */
@ControllerConfiguration(name = EtcdRestoreReconciler.NAME, finalizerName = RestoreHold.FINALIZER)
public class EtcdRestoreReconciler implements Reconciler<EtcdRestore>, Cleaner<EtcdRestore> {
    public static final String NAME = "etcdrestore";
    static final String REASON_SPEC_CHANGED = "SpecChangedDuringPreflight";
    private static final Logger LOG = Logger.getLogger(EtcdRestoreReconciler.class);
    private static final Duration WHILE_BUSY = Duration.ofSeconds(1);
    /** A preflight's start and end trigger a reconcile; this is in case such a trigger was missed. */
    private static final Duration WHILE_WORKING = Duration.ofSeconds(10);
    /** Preflight failures that may pass by themselves; any other failure ends the restore. */
    private static final Set<String> TRANSIENT = Set.of(BackupFailure.S3_UNREACHABLE, BackupFailure.UPLOAD_FAILED,
            BackupFailure.TIMEOUT);
    /** After the preflight, a failure of the credentials is retried too: a person can fix them, and must not lose the restore. */
    private static final Set<String> RETRIED_AFTER_PREFLIGHT = Set.of(BackupFailure.S3_UNREACHABLE,
            BackupFailure.UPLOAD_FAILED, BackupFailure.TIMEOUT, BackupFailure.AWS_SECRET_NOT_FOUND,
            BackupFailure.AWS_SECRET_INVALID, BackupFailure.S3_ACCESS_DENIED, BackupFailure.ENCRYPTION_KEY_NOT_FOUND,
            BackupFailure.ENCRYPTION_KEY_INVALID);
    static final String REASON_BACKUP_CHANGED = "BackupChanged";
    /** The wait before the second start of a seed whose download failed; it doubles before each next one. */
    static final Duration SEED_RETRY_SPACING = Duration.ofSeconds(30);
    static final String REASON_TEMPLATE_CHANGED = "TemplateChanged";
    static final String REASON_SEED_RETRIED = "SeedDownloadRetried";
    private static final Duration STORE_CALL_TIME = Duration.ofSeconds(30);
    static final String CONDITION_ENDED_ELSEWHERE = RestoreEnd.CONDITION_ENDED_ELSEWHERE;
    private static final Map<RestorePhase, String> CONDITION_OF = Map.of(RestorePhase.Preflight, "Preflight",
            RestorePhase.Deleting, "Deleting", RestorePhase.Restoring, "Restoring", RestorePhase.Growing, "Growing",
            RestorePhase.Done, "Done");

    private final RestoreSpecValidator validator = new RestoreSpecValidator();
    private final SpecValidity validity;
    private final EventRecorder events;
    private final Conditions conditions;
    private final Clock clock;
    private final RestoreObserver observer;
    private final RestorePreflight preflight;
    private final RestoreActions actions;
    private final SnapshotSecrets secrets;
    private final SeedStager stager;
    /** The restores (uid@generation) whose staging was considered in this process: it is tried once. */
    private final Set<String> stagingConsidered = ConcurrentHashMap.newKeySet();
    private final TemplateLock lock;
    private final BackupStorage storage;
    private final KubernetesClient client;
    private final RestoreMetrics metrics;
    private final WorkerPool workers;
    private final SimpleInboundEventSource<EtcdRestore> wakeUps = new SimpleInboundEventSource<>("preflight-workers");
    private final RestoreStatusBuilder statusBuilder;
    /**
     * The restores (by uid) whose snapshot Secret holds a link this process made. A link to the operator (an encrypted
     * backup) lives in the memory of the process that made it: one that another process made is made again.
     */
    private final Set<String> linkedHere = ConcurrentHashMap.newKeySet();

    public EtcdRestoreReconciler(SpecValidity validity, EventRecorder events, Conditions conditions, Clock clock,
            KubernetesClient client, RestoreMetrics metrics, BackupStorage storage, @ForRestores WorkerPool workers) {
        this.workers = workers;
        this.validity = validity;
        this.events = events;
        this.conditions = conditions;
        this.clock = clock;
        this.client = client;
        this.storage = storage;
        this.observer = new RestoreObserver(client, clock);
        this.lock = new TemplateLock(client);
        this.preflight = new RestorePreflight(client, observer, storage);
        this.actions = new RestoreActions(client);
        this.secrets = new SnapshotSecrets(client);
        this.stager = new SeedStager(client);
        this.metrics = metrics;
        this.statusBuilder = new RestoreStatusBuilder(conditions);
    }

    @Override
    public List<EventSource<?, EtcdRestore>> prepareEventSources(EventSourceContext<EtcdRestore> context) {
        List<EventSource<?, EtcdRestore>> sources = new java.util.ArrayList<>(RestoredClusterEvents.of(context));
        sources.add(wakeUps);
        return sources;
    }

    @Override
    public UpdateControl<EtcdRestore> reconcile(EtcdRestore restore, Context<EtcdRestore> context) {
        if (restore.getStatus() == null) {
            restore.setStatus(new EtcdRestoreStatus());
        }
        StatusChange<EtcdRestore> change = new StatusChange<>(restore,
                r -> statusBuilder.ready(r.getStatus(), r.getMetadata().getGeneration()));
        EtcdRestoreStatus status = restore.getStatus();
        RestorePhase phase = phase(status);
        Optional<String> notOurs = RestoreEnd.endedElsewhere(status);
        if (notOurs.isPresent()) {
            // never started again: its template would be deleted and rebuilt from a backup older than its data
            if (Conditions.find(status.getConditions(), CONDITION_ENDED_ELSEWHERE).isEmpty()) {
                setCondition(restore, CONDITION_ENDED_ELSEWHERE, Conditions.TRUE, "NotRestarted", notOurs.get());
                events.normal(restore, "NotRestarted", notOurs.get());
            }
            return change.control(restore);
        }
        if (phase == RestorePhase.Done || phase == RestorePhase.Failed) {
            workers.forget(jobKey(restore.getMetadata().getNamespace(), restore.getMetadata().getName()));
            // a clean-up that failed is tried again soon: nothing else wakes an ended restore
            return finish(restore) ? change.control(restore)
                    : change.control(restore).rescheduleAfter(WHILE_BUSY.multipliedBy(5));
        }
        if (phase == null || phase == RestorePhase.Preflight) {
            Validation validation = validator.validate(restore.getSpec());
            boolean news = validity.record(status, validation, restore.getMetadata().getGeneration());
            if (!validation.valid()) {
                status.setSucceeded(false);
                status.setReason(SpecValidity.REASON_INVALID + ": " + validation.message());
                if (news) {
                    events.warning(restore, SpecValidity.REASON_INVALID, validation.message());
                }
                return change.control(restore);
            }
        }
        String namespace = restore.getMetadata().getNamespace();
        String clusterName = spec(restore).getEtcdCluster().getName();
        ClusterSeen seen = observer.see(namespace, clusterName);
        RestoreAction action = RestorePlanner.next(restore.getMetadata().getName(), phase, status.getTemplateUid(),
                status.getRestoredClusterUid(), seen, status.getSeedRetries() == null ? 0 : status.getSeedRetries());
        boolean untouched = FailureReport.templateUntouched(phase, status.getTemplateUid(), seen);
        Leadership.check("restore " + restore.getMetadata().getName());
        try {
            if (phase == RestorePhase.Restoring && action instanceof RestoreAction.Wait) {
                keepUrlFresh(restore);
            }
            return act(restore, change, phase, action, untouched);
        } catch (BackupFailure e) {
            if (phase == null || phase == RestorePhase.Preflight) {
                return preflightFailed(restore, change, e);
            }
            return storeFailed(restore, change, phase, e, untouched);
        } catch (SnapshotSecrets.Taken e) {
            return fail(restore, change, phase, SnapshotSecrets.REASON_TAKEN, e.getMessage(), untouched);
        } catch (RuntimeException e) {
            if (restore.getMetadata().getDeletionTimestamp() != null && NamespaceEnding.is(e)) {
                throw new NamespaceEnding((KubernetesClientException) e);
            }
            LOG.warnf(e, "EtcdRestore %s/%s: %s failed; trying again", namespace, restore.getMetadata().getName(),
                    action.getClass().getSimpleName());
            progress(restore, phase == null ? RestorePhase.Preflight : phase, "retrying after an error: " + e.getMessage());
            return change.control(restore).rescheduleAfter(WHILE_BUSY.multipliedBy(5));
        }
    }

    /**
     * A deleted EtcdRestore (see {@link RestoreHold}): one that deleted its template goes on, phase by phase as
     * {@link #reconcile} would, until its seed runs on the restored data or it ends; any other goes at once, and the
     * template stays as it is.
     */
    @Override
    public DeleteControl cleanup(EtcdRestore restore, Context<EtcdRestore> context) {
        RestorePhase phase = restore.getStatus() == null || RestoreEnd.endedElsewhere(restore.getStatus()).isPresent()
                ? null : phase(restore.getStatus());
        if (!RestoreHold.finishesFirst(phase, phase == RestorePhase.Deleting && templateDeletionAsked(restore))) {
            if (phase == RestorePhase.Preflight || phase == RestorePhase.Deleting) {
                LOG.infof("EtcdRestore %s/%s was deleted before it deleted its template: it stops, nothing changed",
                        restore.getMetadata().getNamespace(), restore.getMetadata().getName());
            }
            if (phase == RestorePhase.Failed && templateDeletionAsked(restore)) {
                logSavedSpec(restore);
            }
            workers.forget(jobKey(restore.getMetadata().getNamespace(), restore.getMetadata().getName()));
            return DeleteControl.defaultDelete();
        }
        UpdateControl<EtcdRestore> control;
        try {
            control = reconcile(restore, context);
        } catch (NamespaceEnding e) {
            return giveUp(restore, e.getMessage());
        }
        Integer failures = restore.getStatus() == null ? null : restore.getStatus().getConsecutiveFailures();
        if (failures != null && failures > 0) {
            // a store or Secret that keeps failing (a namespace being deleted takes the Secrets first): asked of
            // the API server, which refuses any create in a namespace being deleted
            Optional<String> ending = namespaceEnding(restore);
            if (ending.isPresent()) {
                return giveUp(restore, ending.get());
            }
        }
        if (control.isPatchStatus()) {
            // the status as this reconcile left it (a JSON patch of the difference, so that fields it cleared are
            // removed), written only over the version this run read: a run on a cached copy older than the last
            // write would undo what that write recorded
            String read = restore.getMetadata().getResourceVersion();
            EtcdRestoreStatus left = restore.getStatus();
            try {
                client.resources(EtcdRestore.class).inNamespace(restore.getMetadata().getNamespace())
                        .withName(restore.getMetadata().getName()).editStatus(r -> {
                            if (read != null && !read.equals(r.getMetadata().getResourceVersion())) {
                                throw new StaleRead();
                            }
                            r.setStatus(left);
                            return r;
                        });
            } catch (RuntimeException e) {
                for (Throwable t = e; t != null; t = t.getCause()) {
                    if (t instanceof StaleRead) {
                        return DeleteControl.noFinalizerRemoval().rescheduleAfter(WHILE_BUSY.toMillis());
                    }
                }
                throw e;
            }
        }
        EtcdRestoreStatus left = restore.getStatus();
        if (!RestoreHold.finishesFirst(phase(left), true)) {
            if (RestorePhase.Failed.name().equals(left.getPhase())) {
                logSavedSpec(restore);
            }
            LOG.infof("EtcdRestore %s/%s was deleted after it deleted its template: its seed runs on the restored"
                    + " data (or it ended), and it goes", restore.getMetadata().getNamespace(),
                    restore.getMetadata().getName());
            return DeleteControl.defaultDelete();
        }
        return DeleteControl.noFinalizerRemoval().rescheduleAfter(
                control.getScheduleDelay().orElse(WHILE_BUSY.toMillis()));
    }

    private DeleteControl giveUp(EtcdRestore restore, String why) {
        String message = "The namespace is being deleted, so this restore cannot create what it still has to (" + why
                + "); it goes without finishing (phase " + restore.getStatus().getPhase() + "). The backup is intact.";
        LOG.warnf("EtcdRestore %s/%s: %s", restore.getMetadata().getNamespace(), restore.getMetadata().getName(),
                message);
        events.warning(restore, "GaveUp", message);
        workers.forget(jobKey(restore.getMetadata().getNamespace(), restore.getMetadata().getName()));
        return DeleteControl.defaultDelete();
    }

    /**
     * Whether the restore's namespace is being deleted, asked in a dry run of the restored cluster's creation: the
     * API server's namespace lifecycle check refuses it before anything else is looked at.
     */
    private Optional<String> namespaceEnding(EtcdRestore restore) {
        EtcdCluster probe = new EtcdCluster();
        probe.setMetadata(new io.fabric8.kubernetes.api.model.ObjectMetaBuilder()
                .withName(spec(restore).getEtcdCluster().getName())
                .withNamespace(restore.getMetadata().getNamespace()).build());
        probe.setSpec(new dev.etcdoperator.api.v1beta2.EtcdClusterSpec());
        probe.getSpec().setSize(1);
        try {
            client.resource(probe).inNamespace(restore.getMetadata().getNamespace()).dryRun().create();
            return Optional.empty();
        } catch (KubernetesClientException e) {
            return NamespaceEnding.is(e) ? Optional.of(new NamespaceEnding(e).getMessage()) : Optional.empty();
        }
    }

    /**
     * A deleted restore that failed after its template was deleted and before it created the restored cluster: the
     * template's metadata and spec, which only its status held, go to the operator's log (etcdEnv values left out:
     * they may hold credentials).
     */
    private void logSavedSpec(EtcdRestore restore) {
        EtcdRestoreStatus left = restore.getStatus();
        if (left == null || left.getRestoredClusterUid() != null || left.getClusterSpec() == null) {
            return;
        }
        var spec = Serialization.clone(left.getClusterSpec());
        if (spec.getPod() != null && spec.getPod().getEtcdEnv() != null) {
            spec.getPod().getEtcdEnv().forEach(env -> {
                if (env != null && env.getValue() != null) {
                    env.setValue("(not logged)");
                }
            });
        }
        String saved = Serialization.asJson(Map.of("metadata", Map.of("name", spec(restore).getEtcdCluster()
                .getName(), "labels", left.getClusterLabels() == null ? Map.of() : left.getClusterLabels(),
                "annotations", left.getClusterAnnotations() == null ? Map.of() : left.getClusterAnnotations()),
                "spec", spec));
        LOG.warnf("EtcdRestore %s/%s was deleted and failed after it deleted its template, before it created the"
                + " restored cluster; the template's metadata and spec were: %s", restore.getMetadata().getNamespace(),
                restore.getMetadata().getName(), saved);
        events.warning(restore, "TemplateSpecLogged", "Deleted and failed after its template was deleted: the"
                + " template's spec is in the operator's log (search for this restore's name). The backup is intact:"
                + " restore it again with a new EtcdRestore.");
    }

    private UpdateControl<EtcdRestore> act(EtcdRestore restore, StatusChange<EtcdRestore> change, RestorePhase phase,
            RestoreAction action, boolean untouched) {
        EtcdRestoreStatus status = restore.getStatus();
        if (action instanceof RestoreAction.RunPreflight) {
            Optional<RestorePreflight.Passed> ran = preflight(restore);
            if (ran.isEmpty()) {
                return change.control(restore).rescheduleAfter(WHILE_WORKING);
            }
            RestorePreflight.Passed passed = ran.get();
            if (status.getStagedSeed() != null) {
                checkStaged(restore, passed);
            }
            EtcdRestoreSpec verifying = Serialization.clone(restore.getSpec());
            status.setPhase(RestorePhase.Deleting.name());
            status.setVerifiedSpec(verifying);
            status.setBackupETag(passed.backup().object() == null ? null : passed.backup().object().etag());
            status.setBackupVersionId(passed.backup().object() == null ? null : passed.backup().object().versionId());
            status.setTemplateUid(passed.template().getMetadata().getUid());
            status.setTemplateGeneration(passed.template().getMetadata().getGeneration());
            status.setTemplateDeletionRequested(null);
            status.setClusterSpec(SavedClusterSpec.of(passed.template().getSpec()));
            status.setClusterLabels(passed.template().getMetadata().getLabels());
            status.setClusterAnnotations(savedAnnotations(passed.template()));
            status.setBackupSha256(passed.backup().sha256());
            status.setSnapshotSha256(passed.backup().encrypted() ? passed.backup().snapshotSha256() : null);
            status.setBackupKeyFingerprint(passed.backup().keyFingerprint());
            status.setBackupSize(passed.backup().size());
            status.setRestoredRevision(passed.backup().revision());
            status.setConsecutiveFailures(0);
            status.setLastAttemptDate(now());
            status.setReason(null);
            status.setSucceeded(null);
            String message = "backup " + restore.getSpec().getS3().getPath() + " verified (" + passed.backup().size()
                    + " bytes, sha256 " + passed.backup().sha256() + (passed.backup().encrypted()
                            ? "; decrypted with key " + passed.backup().keyFingerprint() + ", snapshot sha256 "
                                    + passed.backup().snapshotSha256() : "")
                    + (passed.backup().revision() == null ? ""
                    : ", revision " + passed.backup().revision()) + "); template cluster " + passed.template()
                    .getMetadata().getName() + " recorded";
            setCondition(restore, "Preflight", Conditions.TRUE, "PreflightPassed", message);
            progress(restore, RestorePhase.Deleting, "deleting the template cluster");
            events.normal(restore, "PreflightPassed", message);
            return change.control(restore).rescheduleAfter(Duration.ZERO);
        }
        if (action instanceof RestoreAction.DeleteTemplate) {
            Optional<String> changed = prepareSnapshot(restore, true);
            if (changed.isPresent()) {
                return fail(restore, change, phase, REASON_BACKUP_CHANGED, changed.get(), untouched);
            }
            String name = spec(restore).getEtcdCluster().getName();
            if (status.getTemplateGeneration() != null && !Boolean.TRUE.equals(status.getTemplateDeletionRequested())
                    && status.getVerifiedSpec() != null
                    && !Serialization.asJson(restore.getSpec()).equals(Serialization.asJson(status.getVerifiedSpec()))) {
                // edited while the preflight ran on the spec before (the edit was allowed then): what it checked is
                // not what was asked for now
                return fail(restore, change, phase, REASON_SPEC_CHANGED, "the spec changed while the preflight checked"
                        + " the one before it (generation " + restore.getMetadata().getGeneration() + "); recreate the"
                        + " EtcdRestore to restore as its spec says now", untouched);
            }
            if (status.getTemplateGeneration() != null && !Boolean.TRUE.equals(status.getTemplateDeletionRequested())) {
                // recorded before the deletion is asked for: an EtcdRestore deleted from then on finishes the
                // restored cluster, one deleted before (or whose template someone else deleted) stops. (Without
                // templateGeneration the status was recorded by an earlier version, or the API server's CRD is
                // older and drops both fields: the deletion is asked for at once, as before.)
                status.setTemplateDeletionRequested(true);
                progress(restore, RestorePhase.Deleting, "deleting the template cluster");
                return change.control(restore).rescheduleAfter(Duration.ZERO);
            }
            boolean deleted;
            try {
                deleted = actions.deleteTemplate(restore.getMetadata().getNamespace(), name, status.getTemplateUid(),
                        status.getTemplateGeneration());
            } catch (RestoreActions.TemplateEdited e) {
                return fail(restore, change, phase, REASON_TEMPLATE_CHANGED, e.getMessage(), untouched);
            }
            if (deleted) {
                events.normal(restore, "TemplateDeleted", "Deleted EtcdCluster " + name + " (uid "
                        + status.getTemplateUid() + ") to restore it from the backup.");
            }
            progress(restore, RestorePhase.Deleting, "waiting for the template cluster and its pods to go");
            return change.control(restore).rescheduleAfter(WHILE_BUSY);
        }
        if (action instanceof RestoreAction.CreateCluster) {
            boolean stagedHolds = status.getStagedSeed() != null
                    && stager.holdsVerifiedBackup(restore, status.getStagedSeed());
            Optional<String> changed;
            try {
                changed = prepareSnapshot(restore, false);
            } catch (BackupFailure | KubernetesClientException e) {
                if (!stagedHolds) {
                    throw e;
                }
                changed = Optional.of("the backup could not be looked at again (" + e.getMessage() + ")");
            }
            if (changed.isPresent() && !stagedHolds) {
                return fail(restore, change, phase, REASON_BACKUP_CHANGED, changed.get(), untouched);
            }
            if (changed.isPresent()) {
                // the template is gone: the staged pod's copy of the verified backup is what is left of the data
                events.warning(restore, REASON_BACKUP_CHANGED, changed.get() + "; pod " + status.getStagedSeed()
                        + " downloaded the verified version whole before, and the restored cluster takes it as its"
                        + " seed");
            }
            String clusterName = spec(restore).getEtcdCluster().getName();
            String staged = status.getStagedSeed();
            if (staged != null && stager.adoptable(restore, RestoreActions.wanted(restore, clusterName, staged), staged,
                    SnapshotSecrets.name(restore)) instanceof SeedStaging.Discard discard) {
                // deleted before the cluster is created: a cluster that names it as its seed would wait for it
                discardStaged(restore, discard, true);
                staged = null;
            }
            EtcdCluster created;
            try {
                created = actions.createCluster(restore, clusterName, staged);
            } catch (IllegalStateException e) {
                return fail(restore, change, RestorePhase.Deleting, RestorePlanner.REASON_CLUSTER_REPLACED,
                        e.getMessage() + "; it was left alone and gets no snapshot", false);
            }
            if (staged != null && !staged.equals(created.getMetadata().getAnnotations() == null ? null
                    : created.getMetadata().getAnnotations().get(RestoreAnnotations.SEED_MEMBER))) {
                // a cluster this restore created before, without naming the staged pod: it makes its own seed
                discardStaged(restore, new SeedStaging.Discard(true, "the restored cluster was created without it"),
                        true);
            } else if (staged != null) {
                if (stager.adopt(restore, created, staged, SnapshotSecrets.name(restore))) {
                    events.normal(restore, "StagedSeedAdopted", "EtcdCluster " + created.getMetadata().getName()
                            + " took pod " + staged + ", which restored the backup beside the template, as its seed"
                            + " member.");
                } else if (stager.see(restore, staged).ownedByRestore()) {
                    // it failed or ended since it was looked at: the cluster makes its seed of that name once it is gone
                    discardStaged(restore, new SeedStaging.Discard(true, "it failed or ended while it was handed over"),
                            true);
                }
            }
            status.setRestoredClusterUid(created.getMetadata().getUid());
            setCondition(restore, "Deleting", Conditions.TRUE, "TemplateDeleted", "the template cluster is gone");
            status.setPhase(RestorePhase.Restoring.name());
            progress(restore, RestorePhase.Restoring, "the seed member fetches and restores the snapshot");
            events.normal(restore, "ClusterCreated", "Created EtcdCluster " + created.getMetadata().getName()
                    + " whose seed member restores the backup.");
            return change.control(restore).rescheduleAfter(WHILE_BUSY);
        }
        if (action instanceof RestoreAction.RetrySeed retry) {
            return retrySeed(restore, change, phase, retry, untouched);
        }
        if (action instanceof RestoreAction.Advance advance) {
            return advance(restore, change, phase, advance);
        }
        if (action instanceof RestoreAction.Fail fail) {
            return fail(restore, change, phase == null ? RestorePhase.Preflight : phase, fail.reason(), fail.message(),
                    untouched);
        }
        if (action instanceof RestoreAction.Wait wait) {
            progress(restore, phase, wait.message());
            return change.control(restore).rescheduleAfter(WHILE_BUSY);
        }
        return change.control(restore);
    }

    /**
     * The seed could not download the snapshot: the object must still be the verified one, the Secret gets a link
     * this process made (the one the seed had may have died with an earlier operator process), and the failed pod is
     * deleted so that the cluster controller starts the seed again, which reads the Secret anew. A retry counts only
     * once its pod was deleted.
     */
    private UpdateControl<EtcdRestore> retrySeed(EtcdRestore restore, StatusChange<EtcdRestore> change,
            RestorePhase phase, RestoreAction.RetrySeed retry, boolean untouched) {
        Optional<String> changed = prepareSnapshot(restore, false);
        if (changed.isPresent()) {
            return fail(restore, change, phase, REASON_BACKUP_CHANGED, changed.get(), untouched);
        }
        EtcdRestoreStatus status = restore.getStatus();
        int retries = status.getSeedRetries() == null ? 0 : status.getSeedRetries();
        Instant last = retries == 0 || status.getLastAttemptDate() == null ? null
                : Instant.parse(status.getLastAttemptDate());
        Duration wait = last == null ? Duration.ZERO
                : Duration.between(clock.instant(), last.plus(SEED_RETRY_SPACING.multipliedBy(1L << (retries - 1))));
        if (!wait.isNegative() && !wait.isZero()) {
            // a store failing for a while (its downloads, not its HEAD) is given time before the next try
            progress(restore, phase, retry.message() + " in " + Math.max(1, wait.toSeconds()) + " s");
            return change.control(restore).rescheduleAfter(wait);
        }
        if (actions.deleteFailedSeed(restore.getMetadata().getNamespace(), retry.pod())) {
            status.setSeedRetries(retries + 1);
            status.setLastAttemptDate(now());
            events.warning(restore, REASON_SEED_RETRIED, retry.message() + "; deleted pod " + retry.pod() + ".");
            LOG.infof("EtcdRestore %s/%s: %s", restore.getMetadata().getNamespace(), restore.getMetadata().getName(),
                    retry.message());
        }
        progress(restore, phase, retry.message());
        return change.control(restore).rescheduleAfter(WHILE_BUSY);
    }

    /**
     * The preflight runs on the workers, off the reconcile thread, on a copy of the restore as it is now; its outcome
     * counts only for the spec it checked (the tag holds the generation). Until it is there, the Preflight condition
     * says whether it waits for a worker or runs. A failed preflight throws what it threw.
     */
    private Optional<RestorePreflight.Passed> preflight(EtcdRestore restore) {
        String key = jobKey(restore.getMetadata().getNamespace(), restore.getMetadata().getName());
        String tag = restore.getMetadata().getUid() + "@" + restore.getMetadata().getGeneration();
        Optional<WorkerPool.Finished<RestorePreflight.Passed>> finished = workers.take(key, tag);
        if (finished.isPresent()) {
            if (finished.get().failure() != null) {
                throw finished.get().failure();
            }
            // marked here, for the spec the preflight checked: a preflight of an earlier spec (another cluster, say)
            // ends unheeded and marks nothing
            lock.take(finished.get().result().template(), restore.getMetadata().getName());
            return Optional.of(finished.get().result());
        }
        EtcdRestore copy = Serialization.clone(restore);
        ResourceID id = ResourceID.fromResource(restore);
        WorkerPool.State<RestorePreflight.Passed> state = workers.submit(key, tag, () -> preflight.run(copy),
                () -> wakeUps.propagateEvent(id));
        if (stagingConsidered.add(tag)) {
            stage(restore);
        }
        progress(restore, RestorePhase.Preflight, state instanceof WorkerPool.Running<?>
                ? "reading and verifying the backup, checking the template cluster"
                : "waiting for a free worker (etcd-operator.restore.workers) to check the backup");
        return Optional.empty();
    }

    /**
     * Starts the restored cluster's seed beside the template while the preflight reads the backup (see
     * {@link SeedStaging}), where that is safe; otherwise, or when anything in the way fails, the seed is made after
     * the template is gone. Changes nothing of the template.
     */
    private void stage(EtcdRestore restore) {
        EtcdRestoreStatus status = restore.getStatus();
        if (status.getStagedSeed() != null) {
            return;
        }
        String namespace = restore.getMetadata().getNamespace();
        String name = restore.getSpec().getEtcdCluster().getName();
        String etag;
        try {
            EtcdCluster template = observer.cluster(namespace, name);
            if (template == null || !ClusterValidation.validate(template).valid()
                    || Boolean.TRUE.equals(template.getSpec().getPaused())
                    || otherRestore(template, restore.getMetadata().getName())) {
                return;
            }
            boolean persistent = template.getSpec().getPod() != null
                    && template.getSpec().getPod().getPersistentVolumeClaimSpec() != null;
            S3Location location = S3Location.parse(restore.getSpec().getS3().getPath());
            try (BackupStorage.Store store = storage.open(S3Credentials.settings(client, namespace,
                    restore.getSpec().getS3()))) {
                Optional<ObjectVersion> object = store.head(location, clock.instant().plus(STORE_CALL_TIME));
                boolean bound = object.isPresent() && store.linkRefusesOtherObjects(location, object.get());
                Optional<String> not = SeedStaging.notStaged(persistent, bound, object.isPresent());
                if (not.isPresent()) {
                    LOG.debugf("EtcdRestore %s/%s: the seed starts after the template is gone: %s", namespace,
                            restore.getMetadata().getName(), not.get());
                    return;
                }
                putUrl(restore, store, location, object.get());
                etag = object.get().etag();
            }
            String member = SeedStager.memberName(restore, name);
            if (stager.create(restore, template, member, SnapshotSecrets.name(restore), stagedFor(restore, template,
                    etag))) {
                status.setStagedSeed(member);
                events.normal(restore, "SeedStaged", "Started pod " + member + " to fetch and restore the backup"
                        + " beside the template while the preflight verifies it; it serves no one until the restored"
                        + " cluster takes it as its seed, and is deleted if the restore does not go on.");
            }
        } catch (BackupFailure | SnapshotSecrets.Taken | KubernetesClientException | IllegalArgumentException e) {
            // the preflight meets the same problem and says so; the seed is then made after the template is gone
            LOG.debugf("EtcdRestore %s/%s: no staged seed: %s", namespace, restore.getMetadata().getName(),
                    e.getMessage());
        }
    }

    /**
     * Whether the template's deletion was asked for, read from the API server (a cache may not show a deletion this
     * restore asked for a moment ago): the template is gone or being deleted, or another cluster has its name.
     */
    private boolean templateDeletionAsked(EtcdRestore restore) {
        EtcdRestoreStatus status = restore.getStatus();
        if (status.getTemplateGeneration() != null && !Boolean.TRUE.equals(status.getTemplateDeletionRequested())) {
            // this restore never went on to delete it: gone, it was someone else's doing
            return false;
        }
        EtcdCluster now = client.resources(EtcdCluster.class).inNamespace(restore.getMetadata().getNamespace())
                .withName(spec(restore).getEtcdCluster().getName()).get();
        return now == null || now.getMetadata().getDeletionTimestamp() != null
                || !now.getMetadata().getUid().equals(restore.getStatus().getTemplateUid());
    }

    private static boolean otherRestore(EtcdCluster template, String restore) {
        String holder = template.getMetadata().getAnnotations() == null ? null
                : template.getMetadata().getAnnotations().get(RestoreAnnotations.RESTORING);
        return holder != null && !holder.equals(restore);
    }

    private static String stagedFor(EtcdRestore restore, EtcdCluster template, String etag) {
        return SeedStaging.stagedFor(template.getMetadata().getUid(),
                Serialization.asJson(SavedClusterSpec.of(template.getSpec())), restore.getMetadata().getGeneration(),
                etag);
    }

    /** After the preflight passed: the staged seed goes on only if it was started for what the preflight verified. */
    private void checkStaged(EtcdRestore restore, RestorePreflight.Passed passed) {
        String verified = stagedFor(restore, passed.template(),
                passed.backup().object() == null ? null : passed.backup().object().etag());
        try {
            SeedStaging.afterPreflight(stager.stagedFor(restore, restore.getStatus().getStagedSeed()), verified)
                    .ifPresent(d -> discardStaged(restore, d));
        } catch (KubernetesClientException e) {
            // the preflight's result stands; the pod is not used, and deleted when the restore ends
            LOG.debugf("EtcdRestore %s/%s: the staged seed could not be checked: %s",
                    restore.getMetadata().getNamespace(), restore.getMetadata().getName(), e.getMessage());
            restore.getStatus().setStagedSeed(null);
        }
    }

    private void discardStaged(EtcdRestore restore, SeedStaging.Discard discard) {
        discardStaged(restore, discard, false);
    }

    /**
     * @param strict a failed delete is thrown (the reconcile is tried again): where the restored cluster may name
     *               the pod as its seed, which it would otherwise wait for
     */
    private void discardStaged(EtcdRestore restore, SeedStaging.Discard discard, boolean strict) {
        String staged = restore.getStatus().getStagedSeed();
        if (discard.delete()) {
            try {
                stager.delete(restore, staged);
            } catch (KubernetesClientException e) {
                if (strict) {
                    throw e;
                }
                // deleted when the restore ends (or with it)
                LOG.debugf("EtcdRestore %s/%s: deleting the staged seed %s failed: %s",
                        restore.getMetadata().getNamespace(), restore.getMetadata().getName(), staged, e.getMessage());
            }
        }
        restore.getStatus().setStagedSeed(null);
        events.normal(restore, "StagedSeedDiscarded", "Pod " + staged + " is not used as the seed member ("
                + discard.why() + "); the restored cluster makes its seed after the template is gone.");
    }

    static String jobKey(String namespace, String name) {
        return NAME + "/" + namespace + "/" + name;
    }

    private UpdateControl<EtcdRestore> advance(EtcdRestore restore, StatusChange<EtcdRestore> change, RestorePhase from,
            RestoreAction.Advance advance) {
        EtcdRestoreStatus status = restore.getStatus();
        status.setPhase(advance.to().name());
        // a failure that was retried and passed is no outcome: succeeded says one only when the restore ends
        status.setSucceeded(null);
        status.setReason(null);
        if (from == RestorePhase.Deleting) {
            setCondition(restore, "Deleting", Conditions.TRUE, "TemplateDeleted", "the template cluster is gone");
        }
        setCondition(restore, CONDITION_OF.get(from), Conditions.TRUE, "PhaseCompleted", advance.message());
        if (advance.to() == RestorePhase.Done) {
            status.setSucceeded(true);
            status.setReason(null);
            setCondition(restore, "Done", Conditions.TRUE, "Restored", advance.message());
            events.normal(restore, "Restored", "Restored EtcdCluster " + spec(restore).getEtcdCluster().getName()
                    + " from " + spec(restore).getS3().getPath() + (status.getRestoredRevision() == null ? ""
                    : " (revision " + status.getRestoredRevision() + ")") + ": " + advance.message() + ".");
            metrics.finished(restore.getMetadata().getNamespace(), restore.getMetadata().getName(),
                    spec(restore).getEtcdCluster().getName(), true);
            return finish(restore) ? change.control(restore)
                    : change.control(restore).rescheduleAfter(WHILE_BUSY.multipliedBy(5));
        }
        progress(restore, advance.to(), advance.message());
        // the change that moved this phase on may already satisfy the next one, and no other event would say so
        return change.control(restore).rescheduleAfter(Duration.ZERO);
    }

    private UpdateControl<EtcdRestore> preflightFailed(EtcdRestore restore, StatusChange<EtcdRestore> change,
            BackupFailure failure) {
        EtcdRestoreStatus status = restore.getStatus();
        if (!TRANSIENT.contains(failure.reason())) {
            return fail(restore, change, RestorePhase.Preflight, failure.reason(), failure.getMessage(), true);
        }
        int failures = (status.getConsecutiveFailures() == null ? 0 : status.getConsecutiveFailures()) + 1;
        status.setConsecutiveFailures(failures);
        status.setLastAttemptDate(now());
        status.setSucceeded(false);
        status.setReason(Messages.bounded(failure.reason() + ": " + failure.getMessage()));
        if (status.getPhase() == null) {
            status.setPhase(RestorePhase.Preflight.name());
        }
        Duration backoff = BackupSchedule.backoff(failures);
        String message = failure.getMessage() + "; nothing was changed; the preflight runs again in "
                + backoff.toSeconds() + " s";
        setCondition(restore, "Preflight", Conditions.FALSE, failure.reason(), message);
        events.warning(restore, failure.reason(), message);
        return change.control(restore).rescheduleAfter(backoff);
    }

    /**
     * A store or its credentials failed after the preflight passed. What may pass by itself, or by a person's fix
     * (the AWS Secret deleted or changed meanwhile), is tried again with backoff: the template may already be gone,
     * and the backup is then the only copy of the data. A backup that is gone ends the restore.
     */
    private UpdateControl<EtcdRestore> storeFailed(EtcdRestore restore, StatusChange<EtcdRestore> change,
            RestorePhase phase, BackupFailure failure, boolean untouched) {
        if (!RETRIED_AFTER_PREFLIGHT.contains(failure.reason())) {
            return fail(restore, change, phase, failure.reason(), failure.getMessage(), untouched);
        }
        EtcdRestoreStatus status = restore.getStatus();
        int failures = (status.getConsecutiveFailures() == null ? 0 : status.getConsecutiveFailures()) + 1;
        status.setConsecutiveFailures(failures);
        status.setLastAttemptDate(now());
        Duration backoff = BackupSchedule.backoff(failures);
        String name = spec(restore).getEtcdCluster().getName();
        String message = failure.getMessage() + "; the restore tries again in " + backoff.toSeconds() + " s"
                + (untouched ? " (nothing was changed yet)" : ". " + FailureReport.clusterGone(name,
                        restore.getMetadata().getName()));
        status.setReason(failure.reason() + ": " + message);
        setCondition(restore, CONDITION_OF.get(phase), Conditions.FALSE, failure.reason(), message);
        events.warning(restore, failure.reason(), message);
        return change.control(restore).rescheduleAfter(backoff);
    }

    /**
     * Before the template is deleted, and again before the restored cluster is created: the object at the backup's
     * path must still be the one the preflight verified (same ETag, same version), and the Secret gets a freshly
     * signed URL that downloads only that object.
     *
     * @return why the restore cannot go on, when the object changed or is gone
     */
    /** @param beforeDeletion the template is still there: a store refusing the seed's link stops the restore here */
    private Optional<String> prepareSnapshot(EtcdRestore restore, boolean beforeDeletion) {
        EtcdRestoreStatus status = restore.getStatus();
        S3Location location = S3Location.parse(spec(restore).getS3().getPath());
        ObjectVersion verified = status.getBackupETag() == null ? null
                : new ObjectVersion(status.getBackupETag(), status.getBackupVersionId());
        S3Settings settings = S3Credentials.settings(client, restore.getMetadata().getNamespace(), spec(restore).getS3());
        requireVerifiedKey(status, settings);
        try (BackupStorage.Store store = storage.open(settings)) {
            // in a bucket with versioning the verified version is looked at: a newer version or a delete marker
            // at the key leaves it, and the link is signed for it
            Optional<ObjectVersion> now = store.head(location, verified == null ? null : verified.versionId(),
                    clock.instant().plus(STORE_CALL_TIME));
            if (now.isEmpty()) {
                return Optional.of("the backup " + location + " was deleted after the preflight verified it");
            }
            if (verified != null && !verified.sameAs(now.get())) {
                return Optional.of("the backup " + location + " was replaced after the preflight verified it (verified "
                        + verified + ", now " + now.get() + ")");
            }
            // the seed downloads with the link, not with the operator's credentials: a store that refuses links (a
            // bucket policy, a clock it does not accept) is found before the template goes, not by the seed after
            Optional<BackupStorage.LinkRefusal> refused = store.linkRefusal(location, verified);
            String refusal = refused.map(r -> r.storeFailing()
                    ? "the store fails the download link the seed member would use for " + location + " (" + r + ")"
                    : "the store refuses the download link the seed member would use for " + location + " (" + r
                            + "), although it lets the operator read the backup: check the bucket policy (links"
                            + " signed in the query string, their age) and the operator's clock").orElse(null);
            if (refusal != null && beforeDeletion) {
                throw new BackupFailure(refused.get().storeFailing() ? BackupFailure.S3_UNREACHABLE
                        : BackupFailure.S3_ACCESS_DENIED, refusal, true);
            }
            if (refusal != null) {
                // the template is gone: the seed tries the link itself, and its own failures are what counts
                LOG.warnf("EtcdRestore %s/%s: %s", restore.getMetadata().getNamespace(),
                        restore.getMetadata().getName(), refusal);
            }
            putUrl(restore, store, location, verified);
        }
        status.setConsecutiveFailures(0);
        return Optional.empty();
    }

    /**
     * While the seed member may still have to download the backup, the URL in the Secret never runs out; and a link to
     * the operator (an encrypted backup) that an earlier operator process or another leader made is made again here.
     */
    private void keepUrlFresh(EtcdRestore restore) {
        String expires = restore.getStatus().getSnapshotUrlExpires();
        boolean madeElsewhere = restore.getStatus().getSnapshotSha256() != null
                && !linkedHere.contains(restore.getMetadata().getUid());
        // deleted by hand, or first of the restore's dependents in a foreground deletion: the seed waits for it
        boolean gone = restore.getStatus().getSnapshotSecret() != null && secrets.missing(restore);
        if (!gone && !SnapshotUrl.needsSigning(expires == null ? null : Instant.parse(expires), clock.instant(),
                madeElsewhere)) {
            return;
        }
        if (gone) {
            LOG.warnf("EtcdRestore %s/%s: its snapshot Secret is gone; making it again",
                    restore.getMetadata().getNamespace(), restore.getMetadata().getName());
        } else if (madeElsewhere) {
            LOG.infof("EtcdRestore %s/%s: the link in its snapshot Secret was made by another operator process; making"
                    + " it again", restore.getMetadata().getNamespace(), restore.getMetadata().getName());
        }
        S3Location location = S3Location.parse(spec(restore).getS3().getPath());
        ObjectVersion verified = restore.getStatus().getBackupETag() == null ? null
                : new ObjectVersion(restore.getStatus().getBackupETag(), restore.getStatus().getBackupVersionId());
        S3Settings settings = S3Credentials.settings(client, restore.getMetadata().getNamespace(), spec(restore).getS3());
        requireVerifiedKey(restore.getStatus(), settings);
        try (BackupStorage.Store store = storage.open(settings)) {
            putUrl(restore, store, location, verified);
        }
    }

    /**
     * A client-side encrypted backup is served decrypted with the key in the Secret now: it must be the key the
     * preflight decrypted it with (a Secret rewritten meanwhile is refused, and tried again until it holds it).
     */
    private static void requireVerifiedKey(EtcdRestoreStatus status, S3Settings settings) {
        String verified = status.getBackupKeyFingerprint();
        if (verified == null) {
            return;
        }
        String now = settings.clientKey() == null ? null : settings.clientKey().fingerprint();
        if (!verified.equals(now)) {
            throw new BackupFailure(BackupFailure.ENCRYPTION_KEY_INVALID, "the preflight decrypted the backup with the"
                    + " key of fingerprint " + verified + ", and the key Secret (s3.clientSideEncryption) now holds "
                    + (now == null ? "none" : "the key of fingerprint " + now) + ": put that key back; the restore"
                    + " goes on once it is there", true);
        }
    }

    private void putUrl(EtcdRestore restore, BackupStorage.Store store, S3Location location, ObjectVersion object) {
        Instant signedAt = clock.instant();
        // the seed checks the snapshot it receives: decrypted, when the backup is encrypted
        String snapshotSha256 = restore.getStatus().getSnapshotSha256() != null
                ? restore.getStatus().getSnapshotSha256() : restore.getStatus().getBackupSha256();
        String url = store.presignedGet(location, object, SnapshotUrl.VALIDITY);
        boolean bound = store.linkRefusesOtherObjects(location, object);
        if (bound) {
            LOG.infof("EtcdRestore %s/%s: the store refuses the link for any object but the verified one (If-Match);"
                    + " the seed takes the download as it comes and etcd's restore checks the snapshot's own hash",
                    restore.getMetadata().getNamespace(), restore.getMetadata().getName());
        }
        secrets.put(restore, url, bound ? null : snapshotSha256, object == null ? null : object.etag());
        linkedHere.add(restore.getMetadata().getUid());
        restore.getStatus().setSnapshotSecret(SnapshotSecrets.name(restore));
        restore.getStatus().setSnapshotUrlExpires(signedAt.plus(SnapshotUrl.VALIDITY).truncatedTo(ChronoUnit.SECONDS)
                .toString());
    }

    /** A restore that ended keeps nothing: its Secret is deleted and its mark on the template removed. */
    /** @return whether everything the restore leaves behind is cleaned up */
    private boolean finish(EtcdRestore restore) {
        linkedHere.remove(restore.getMetadata().getUid());
        stagingConsidered.removeIf(tag -> tag.startsWith(restore.getMetadata().getUid() + "@"));
        try {
            secrets.delete(restore);
            // a staged seed (named the same for the whole restore, recorded or not) that was not adopted: the
            // cluster's seed stays
            String named = SeedStager.memberName(restore, spec(restore).getEtcdCluster().getName());
            stager.delete(restore, named);
            String recorded = restore.getStatus() == null ? null : restore.getStatus().getStagedSeed();
            if (recorded != null && !recorded.equals(named)) {
                // staged for a spec that named another cluster, before the spec changed
                stager.delete(restore, recorded);
            }
            lock.release(restore.getMetadata().getNamespace(), spec(restore).getEtcdCluster().getName(),
                    restore.getMetadata().getName());
            return true;
        } catch (RuntimeException e) {
            LOG.warnf("EtcdRestore %s/%s ended; cleaning up its Secret and mark failed (tried again in a few"
                    + " seconds): %s", restore.getMetadata().getNamespace(), restore.getMetadata().getName(),
                    e.getMessage());
            return false;
        }
    }

    /** The spec the restore acts on: the one its preflight verified, once it passed. */
    static EtcdRestoreSpec spec(EtcdRestore restore) {
        EtcdRestoreStatus status = restore.getStatus();
        return status != null && status.getVerifiedSpec() != null ? status.getVerifiedSpec() : restore.getSpec();
    }

    private UpdateControl<EtcdRestore> fail(EtcdRestore restore, StatusChange<EtcdRestore> change, RestorePhase phase,
            String reason, String what, boolean untouched) {
        EtcdRestoreStatus status = restore.getStatus();
        String message = FailureReport.message(what, untouched, spec(restore).getEtcdCluster().getName(),
                restore.getMetadata().getName());
        status.setPhase(RestorePhase.Failed.name());
        status.setSucceeded(false);
        status.setReason(Messages.bounded(reason + ": " + message));
        setCondition(restore, CONDITION_OF.get(phase), Conditions.FALSE, reason, message);
        events.warning(restore, reason, message);
        metrics.finished(restore.getMetadata().getNamespace(), restore.getMetadata().getName(),
                spec(restore).getEtcdCluster().getName(), false);
        LOG.warnf("EtcdRestore %s/%s failed in phase %s (%s): %s", restore.getMetadata().getNamespace(),
                restore.getMetadata().getName(), phase, reason, message);
        return finish(restore) ? change.control(restore)
                : change.control(restore).rescheduleAfter(WHILE_BUSY.multipliedBy(5));
    }

    /** The condition of the current phase says what is going on. */
    private void progress(EtcdRestore restore, RestorePhase phase, String message) {
        if (restore.getStatus().getPhase() == null) {
            restore.getStatus().setPhase(RestorePhase.Preflight.name());
        }
        String type = CONDITION_OF.get(phase);
        if (type != null) {
            setCondition(restore, type, Conditions.UNKNOWN, "InProgress", message);
        }
    }

    private void setCondition(EtcdRestore restore, String type, String value, String reason, String message) {
        conditions.put(restore.getStatus(), type, value, reason, message, restore.getMetadata().getGeneration());
    }

    /**
     * The template's annotations as the restored cluster gets them: without the restore's own, and with the clusters
     * it was restored in place of only where its status confirms it (a copied manifest's value names none).
     */
    static Map<String, String> savedAnnotations(EtcdCluster template) {
        Map<String, String> saved = withoutRestoreAnnotations(template.getMetadata().getAnnotations());
        if (saved == null) {
            return null;
        }
        List<String> earlier = RestoredFrom.uids(template);
        if (earlier.isEmpty()) {
            saved.remove(RestoreAnnotations.RESTORED_FROM_UID);
        } else {
            saved.put(RestoreAnnotations.RESTORED_FROM_UID, String.join(",", earlier));
        }
        return saved.isEmpty() ? null : saved;
    }

    static Map<String, String> withoutRestoreAnnotations(Map<String, String> annotations) {
        if (annotations == null) {
            return null;
        }
        Map<String, String> copy = new HashMap<>(annotations);
        copy.remove(RestoreAnnotations.RESTORING);
        copy.remove(RestoreAnnotations.RESTORED_BY);
        copy.remove(RestoreAnnotations.SNAPSHOT_SECRET);
        copy.remove(RestoreAnnotations.SEED_MEMBER);
        copy.remove("kubectl.kubernetes.io/last-applied-configuration");
        return copy.isEmpty() ? null : copy;
    }

    private static RestorePhase phase(EtcdRestoreStatus status) {
        if (status.getPhase() == null) {
            return null;
        }
        try {
            return RestorePhase.valueOf(status.getPhase());
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    private String now() {
        return Instant.now(clock).truncatedTo(ChronoUnit.MILLIS).toString();
    }

    /** The object changed since this run read it. */
    private static final class StaleRead extends RuntimeException {
        StaleRead() {
            super("changed since it was read", null, false, false);
        }
    }
}
