package dev.etcdoperator.cluster;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.random.RandomGenerator;
import java.util.stream.Collectors;

import dev.etcdoperator.support.ApiRefusal;
import dev.etcdoperator.api.v1beta2.CertificateStatus;
import dev.etcdoperator.api.v1beta2.Condition;
import dev.etcdoperator.api.v1beta2.EtcdBackup;
import dev.etcdoperator.api.v1beta2.EtcdCluster;
import dev.etcdoperator.api.v1beta2.EtcdRestore;
import dev.etcdoperator.api.v1beta2.RestoreAnnotations;
import dev.etcdoperator.api.v1beta2.QuorumLossRecovery;
import dev.etcdoperator.api.v1beta2.EtcdClusterStatus;
import dev.etcdoperator.core.cluster.CertificateValidity;
import dev.etcdoperator.core.cluster.ClusterHealth;
import dev.etcdoperator.core.cluster.ClusterObservation;
import dev.etcdoperator.core.cluster.ClusterPlanner;
import dev.etcdoperator.core.cluster.ClusterStatusBuilder;
import dev.etcdoperator.core.cluster.EtcdMember;
import dev.etcdoperator.core.cluster.MemberDatabase;
import dev.etcdoperator.core.cluster.QuorumLoss;
import dev.etcdoperator.core.cluster.QuorumRecoveryPlanner;
import dev.etcdoperator.core.cluster.Step;
import dev.etcdoperator.core.restore.SeedSnapshotClaim;
import dev.etcdoperator.core.status.Conditions;
import dev.etcdoperator.core.status.Readiness;
import dev.etcdoperator.core.status.SpecValidity;
import dev.etcdoperator.core.validation.Validation;
import dev.etcdoperator.etcd.EtcdAdminException;
import dev.etcdoperator.etcd.EtcdTls;
import dev.etcdoperator.metrics.ClusterMetrics;
import dev.etcdoperator.support.EventRecorder;
import dev.etcdoperator.support.Leadership;
import dev.etcdoperator.support.StatusChange;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.javaoperatorsdk.operator.api.config.informer.InformerEventSourceConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import io.javaoperatorsdk.operator.processing.event.source.informer.InformerEventSource;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/**
 * The {@code etcdcluster} controller. Each reconcile checks the spec, makes sure the Services exist, observes
 * the member pods and the etcd member list, lets the planner pick one step, carries it out and reports the
 * status; it runs again on every pod change and at least every reconcile interval. A deleted cluster's pods,
 * Services, claims and budget go by their owner references, and what this process holds for it by
 * {@link ClusterDeletion}.
 */
@ControllerConfiguration(name = EtcdClusterReconciler.NAME)
public class EtcdClusterReconciler implements Reconciler<EtcdCluster> {
    public static final String NAME = "etcdcluster";
    public static final String PHASE_FAILED = "Failed";
    /** A member's etcd ended and the kubelet started it again in its pod. */
    public static final String REASON_ETCD_RESTARTED = "MemberEtcdRestarted";
    /**
     * The API server refused a pod or claim the spec makes as invalid (a field of an embedded Kubernetes type the
     * operator passes on as given: tolerations, affinity, resources, securityContext, a claim's spec...).
     */
    public static final String REASON_REJECTED = "RejectedByApiServer";
    /** Ready is False: a pod of an earlier, deleted cluster of this name is still there. */
    public static final String REASON_WAITING_FOR_EARLIER_CLUSTER = "WaitingForEarlierCluster";
    public static final String REASON_SERVICE_NAME_TAKEN = "ServiceNameTaken";
    public static final String REASON_BUDGET_NAME_TAKEN = "DisruptionBudgetNameTaken";
    /** Available is not known: the cluster is refused (invalid spec, TLS), and its members are not looked at. */
    public static final String REASON_NOT_OBSERVED = "NotObserved";
    /** What the API server answers a request it refuses as such: malformed, forbidden (admission, quota), invalid. */
    private static final java.util.Set<Integer> REFUSALS = java.util.Set.of(400, 403, 422);
    private static final Logger LOG = Logger.getLogger(EtcdClusterReconciler.class);
    /** Set only for clusters with {@code spec.TLS.static}: whether the operator found their TLS secrets. */
    static final String CONDITION_TLS = "TLSSecretsReady";
    static final String REASON_TLS_READY = "TLSSecretsFound";
    static final String REASON_CERTIFICATE_EXPIRES_SOON = "CertificateExpiresSoon";
    static final String REASON_CERTIFICATE_EXPIRED = "CertificateExpired";
    /**
     * Set only for clusters carrying the restore-snapshot-secret annotation, when their seed member is created:
     * whether the operator honoured it.
     */
    public static final String CONDITION_RESTORE = ClusterStatusBuilder.RESTORE_SNAPSHOT;
    public static final String REASON_RESTORE_CONFIRMED = "RestoreSnapshotConfirmed";
    static final String REASON_RESTORE_PENDING = "RestoreSnapshotPending";
    public static final String REASON_RESTORE_REFUSED = "RestoreSnapshotRefused";
    /** After a change, look again soon: the next step usually follows from it. */
    static final Duration AFTER_CHANGE = Duration.ofMillis(200);
    /** While waiting (on a member, on quorum), or after a failed step, look again every second. */
    static final Duration WHILE_WAITING = Duration.ofSeconds(1);
    /**
     * While a member whose pod was created moments ago starts or catches up, look again every 250 ms: it answers
     * within a second or two, and the next step (promotion, the next member) should not wait a whole second more.
     */
    static final Duration WHILE_STARTING = Duration.ofMillis(250);
    /**
     * How long after a pod's creation (or the end of a member's container) a wait counts as starting for
     * {@link #WHILE_STARTING}.
     */
    static final Duration STARTING_WINDOW = Duration.ofSeconds(30);
    private static final Set<String> TRANSIENT_QUORUM_REASONS = Set.of(QuorumRecoveryPlanner.MAY_COME_BACK,
            QuorumRecoveryPlanner.NO_MEMBER_ANSWERS, ClusterStatusBuilder.REASON_QUORUM_HEALTHY);
    private static final Set<String> STARTING_WAITS = Set.of(Step.Wait.MEMBERS_STARTING, Step.Wait.MEMBER_STARTING,
            Step.Wait.LEARNER_CATCHING_UP, Step.Wait.MEMBER_NOT_HEALTHY, Step.Wait.RECOVERY_MEMBER_STARTING);

    private final SpecValidity validity;
    private final EventRecorder events;
    private final Duration interval;
    private final KubernetesClient client;
    private final EtcdAdmins admins;
    private final ClusterObserver observer;
    private final ClusterActuator actuator;
    private final ClusterPlanner planner = new ClusterPlanner(RandomGenerator.of("L64X128MixRandom"));
    private final ClusterStatusBuilder statusBuilder;
    private final Conditions conditions;
    private final Readiness readiness;
    private final ClusterMetrics metrics;
    private final ClusterDeletion deletion;
    private final Clock clock;
    private final SpaceRecoveries space;
    private final ChildrenChecks children;
    private final MemberRestarts restarts;
    private final InPlaceRecreations recreations;

    /** The shortest reconcile interval: a zero one would reconcile every settled cluster without a pause. */
    static final Duration MIN_INTERVAL = Duration.ofSeconds(1);

    static Duration atLeastASecond(Duration interval) {
        if (interval.compareTo(MIN_INTERVAL) < 0) {
            LOG.warnf("the reconcile interval %s is shorter than %s: %s is used", interval, MIN_INTERVAL, MIN_INTERVAL);
            return MIN_INTERVAL;
        }
        return interval;
    }

    public EtcdClusterReconciler(SpecValidity validity, EventRecorder events, KubernetesClient client,
            EtcdAdmins admins, ClusterMetrics metrics, ClusterDeletion deletion, Clock clock, SpaceRecoveries space,
            ChildrenChecks children, MemberRestarts restarts, InPlaceRecreations recreations,
            @ConfigProperty(name = "etcd-operator.cluster.reconcile-interval", defaultValue = "8s") Duration interval) {
        this.validity = validity;
        this.events = events;
        this.interval = atLeastASecond(interval);
        this.client = client;
        this.admins = admins;
        this.metrics = metrics;
        this.deletion = deletion;
        this.clock = clock;
        this.space = space;
        this.children = children;
        this.restarts = restarts;
        this.recreations = recreations;
        this.observer = new ClusterObserver(admins, clock, space);
        this.actuator = new ClusterActuator(client, events);
        this.statusBuilder = new ClusterStatusBuilder(clock);
        this.conditions = new Conditions(clock);
        this.readiness = new Readiness(conditions);
    }

    @Override
    public List<EventSource<?, EtcdCluster>> prepareEventSources(EventSourceContext<EtcdCluster> context) {
        var pods = InformerEventSourceConfiguration.from(Pod.class, EtcdCluster.class)
                .withName("member-pods")
                .withLabelSelector(ClusterResources.LABEL_APP + "=" + ClusterResources.APP)
                .build();
        var services = InformerEventSourceConfiguration.from(Service.class, EtcdCluster.class)
                .withName("cluster-services")
                .withLabelSelector(ClusterResources.LABEL_APP + "=" + ClusterResources.APP)
                .build();
        return List.of(new InformerEventSource<>(pods, context), new InformerEventSource<>(services, context),
                RestoreEndEvents.of(context));
    }

    @Override
    public UpdateControl<EtcdCluster> reconcile(EtcdCluster cluster, Context<EtcdCluster> context) {
        try {
            return reconcileCluster(cluster, context);
        } finally {
            // the SDK reports a deletion at once, even while this reconcile runs: what it registered or opened
            // after that must go too
            if (context.getPrimaryCache().get(ResourceID.fromResource(cluster)).isEmpty()) {
                deletion.deleted(cluster.getMetadata().getNamespace(), cluster.getMetadata().getName());
            }
        }
    }

    private UpdateControl<EtcdCluster> reconcileCluster(EtcdCluster cluster, Context<EtcdCluster> context) {
        if (cluster.getStatus() == null) {
            cluster.setStatus(new EtcdClusterStatus());
        }
        StatusChange<EtcdCluster> change = new StatusChange<>(cluster);
        EtcdClusterStatus status = cluster.getStatus();
        Validation validation = ClusterValidation.validate(cluster);
        boolean news = validity.record(status, validation, cluster.getMetadata().getGeneration());
        if (!validation.valid()) {
            status.setPhase(PHASE_FAILED);
            status.setReason(SpecValidity.REASON_INVALID);
            notObserved(cluster, "the spec is invalid");
            if (news) {
                events.warning(cluster, SpecValidity.REASON_INVALID, validation.message());
            }
            return change.control(cluster);
        }
        if (SpecValidity.REASON_INVALID.equals(status.getReason()) || isTlsReason(status.getReason())) {
            status.setReason(null);
            status.setPhase(null);
        }
        String namespace = cluster.getMetadata().getNamespace();
        EtcdTls clientTls = null;
        MemberTlsKeys tlsKeys = MemberTlsKeys.COREOS;
        if (ClusterTls.enabled(cluster.getSpec())) {
            ClusterTls.Loaded tls = ClusterTls.loadOrRefuse(cluster.getSpec(), namespace,
                    secret -> client.secrets().inNamespace(namespace).withName(secret).get());
            if (!tls.ok()) {
                // members without the TLS asked for would expose their data, and members with half of it
                // would not start: create and change nothing until the secrets are there
                return refuseTls(cluster, change, tls.reason(), tls.problem());
            }
            clientTls = tls.clientTls();
            tlsKeys = tls.keys();
            reportCertificates(cluster, tls.certificates());
        } else {
            status.setCertificates(null);
            metrics.certificates(cluster.getMetadata().getNamespace(), cluster.getMetadata().getName(), List.of());
            if (Conditions.find(status.getConditions(), CONDITION_TLS).isPresent()) {
                status.setConditions(status.getConditions().stream()
                        .filter(c -> !CONDITION_TLS.equals(c.getType())).toList());
            }
        }

        String name = cluster.getMetadata().getName();
        // the pods of an earlier, deleted cluster of this name carry the same labels until they are collected
        Map<Boolean, List<Pod>> byEarlierCluster = context.getSecondaryResources(Pod.class).stream()
                .filter(p -> name.equals(p.getMetadata().getLabels().get(ClusterResources.LABEL_CLUSTER)))
                .collect(Collectors.partitioningBy(p -> ownedByAnotherCluster(p, cluster)));
        List<Pod> pods = byEarlierCluster.get(false);
        List<Pod> earlierPods = byEarlierCluster.get(true);
        Optional<String> earlierPod = earlierPods.stream().map(p -> "Pod " + p.getMetadata().getName()).findFirst();
        if (tlsKeys.material() != null) {
            Optional<String> unsafe = tlsKeys.material().unsafeChangeFrom(ClusterObserver.tlsStartedOn(pods));
            if (unsafe.isPresent()) {
                // restarting members onto it would cut them off from each other, and the operator's own client
                // already uses it: change nothing, and say what to do
                return refuseTls(cluster, change, ClusterTls.REASON_UNSAFE_CHANGE, "The TLS secrets changed in a way"
                        + " the members cannot be moved onto one at a time: " + unsafe.get() + ". The operator"
                        + " restarts no member and changes nothing else until the secrets are put back or changed in"
                        + " passes: to change the CA, first add the new CA to every secret's CA bundle next to the old"
                        + " one, certificates unchanged, and wait for CertificatesRotating=False; then put in"
                        + " certificates of the new CA, both CAs still in the bundles, and wait again; then drop the"
                        + " old CA.");
            }
        }
        String key = ClusterObserver.key(namespace, name);
        String uid = cluster.getMetadata().getUid();
        // a Service deleted by hand shows in the informer's cache at once: it is made again in this reconcile
        Set<String> services = context.getSecondaryResources(Service.class).stream()
                .map(s -> s.getMetadata().getName()).collect(Collectors.toSet());
        boolean serviceMissing = !services.contains(ClusterResources.clientServiceName(name))
                || !services.contains(name);
        boolean paused = Boolean.TRUE.equals(cluster.getSpec().getPaused());
        if (!paused && earlierPod.isPresent()) {
            // its etcd would be behind this cluster's Services (they select by label) and answer for it
            return waitForEarlierCluster(cluster, change, earlierPod.get(),
                    StuckPods.hint(namespace, earlierPods, clock.instant()));
        }
        List<Pod> unplaced = paused ? List.of()
                : MemberPlacement.outdated(pods, ClusterResources.placement(cluster.getSpec()));
        if (!unplaced.isEmpty()) {
            return remakeUnplaced(cluster, change, unplaced);
        }
        int budgetSize = budgetSize(cluster);
        if (!paused && (serviceMissing || children.due(key, uid, budgetSize))) {
            Optional<Map.Entry<String, NameHolder>> held = ensureServices(cluster, budgetSize);
            if (held.isPresent() && held.get().getValue().kind() == NameHolder.Kind.EARLIER_CLUSTER) {
                // its deletion would take the members' DNS names with it: a member started now could not find the
                // others (a joining etcd gives up at once); the garbage collector deletes it, then it is made anew
                return waitForEarlierCluster(cluster, change, "Service " + held.get().getKey(), Optional.empty());
            }
            if (held.isPresent()) {
                // it selects other pods, or none: the members' DNS names or the clients' address would not be theirs
                return notReadyWhile(cluster, change, REASON_SERVICE_NAME_TAKEN, held.get().getValue()
                        .takenMessage("Service " + held.get().getKey(), cluster, "starts or changes no member"), true);
            }
            children.checked(key, uid, budgetSize);
        }
        ClusterObserver.Observed observed;
        boolean restoreEnded = restoreEnded(cluster, pods, context);
        long observing = System.nanoTime();
        try {
            observed = observer.observe(cluster, pods, claims(cluster), clientTls, backupsIfNeeded(cluster),
                    tlsKeys.fingerprint(), restoreEnded);
        } catch (IllegalArgumentException e) {
            // the operator secret's material cannot be used (not PEM, key not PKCS#8, ...)
            return refuseTls(cluster, change, ClusterTls.REASON_INVALID, "Secret " + namespace + "/"
                    + ClusterResources.operatorSecret(cluster.getSpec()) + " (spec.TLS.static.operatorSecret) "
                    + "cannot be used: " + e.getMessage() + " The operator creates and changes nothing for this "
                    + "cluster until it is fixed.");
        }
        observed = withQuorumRestore(cluster, observed);
        observed = new ClusterObserver.Observed(recreations.marked(key, cluster.getMetadata().getUid(),
                observed.observation(), pods), observed.admin(), observed.clientUrlByPod());
        reportRestarts(cluster, key, pods, observed.observation());
        metrics.observed(namespace, name, ClusterHealth.of(observed.observation()));
        metrics.observedDatabases(namespace, name, observed.observation().space().quotaBytes(),
                MemberDatabase.of(observed.observation()));
        Step step = planner.plan(observed.observation());
        if (!(step instanceof Step.Nothing || step instanceof Step.Paused || step instanceof Step.Wait)) {
            Leadership.check(step.describe());
        }
        Optional<String> seedSnapshot = Optional.empty();
        if (step instanceof Step.CreateSeed) {
            SeedSnapshotClaim.Decision claim = RestoreSeed.check(cluster, client);
            if (claim instanceof SeedSnapshotClaim.Pending pending) {
                // the restore that created this cluster has not recorded it yet: a seed now would start empty
                setRestoreCondition(cluster, Conditions.UNKNOWN, REASON_RESTORE_PENDING, pending.message());
                return change.control(cluster).rescheduleAfter(WHILE_WAITING);
            }
            if (claim instanceof SeedSnapshotClaim.Held held) {
                boolean told = Conditions.find(status.getConditions(), CONDITION_RESTORE)
                        .map(c -> held.message().equals(c.getMessage())).orElse(false);
                setRestoreCondition(cluster, Conditions.FALSE, held.reason(), held.message());
                if (!told) {
                    events.warning(cluster, held.reason(), held.message());
                }
                return change.control(cluster).rescheduleAfter(interval);
            }
            if (claim instanceof SeedSnapshotClaim.Refused refused) {
                String message = refused.message() + "; the seed member starts empty and nothing is mounted.";
                boolean told = Conditions.find(status.getConditions(), CONDITION_RESTORE)
                        .map(c -> message.equals(c.getMessage())).orElse(false);
                setRestoreCondition(cluster, Conditions.FALSE, REASON_RESTORE_REFUSED, message);
                if (!told) {
                    events.warning(cluster, REASON_RESTORE_REFUSED, message);
                }
            }
            if (claim instanceof SeedSnapshotClaim.Confirmed confirmed) {
                seedSnapshot = Optional.of(confirmed.secret());
                setRestoreCondition(cluster, Conditions.TRUE, REASON_RESTORE_CONFIRMED, "The seed member restores the "
                        + "snapshot of Secret " + confirmed.secret() + ", which the EtcdRestore that created this "
                        + "cluster made.");
            }
        }
        if (!(step instanceof Step.CreateSeed) && !restoreEnded) {
            confirmAdoptedSeed(cluster, observed.observation());
        }
        List<Condition> before = List.copyOf(status.getConditions());
        boolean acted = true;
        String rejected = null;
        if (step instanceof Step.Wait) {
            LOG.debugf("%s/%s: %s", cluster.getMetadata().getNamespace(), name, step.describe());
        } else if (step instanceof Step.QuorumLost && alreadyTold(before, step)) {
            // looked at again every second or faster while the quorum is lost: told once for each change
            LOG.debugf("%s/%s: %s", cluster.getMetadata().getNamespace(), name, step.describe());
        } else if (!(step instanceof Step.Nothing || step instanceof Step.Paused)) {
            LOG.infof("%s/%s: %s", cluster.getMetadata().getNamespace(), name, step.describe());
        }
        long acting = System.nanoTime();
        actuator.consumeAnsweredRequests(cluster);
        try {
            int added = actuator.act(cluster, observed.observation(), observed.admin(), observed.clientUrlByPod(),
                    step, seedSnapshot, tlsKeys);
            space.done(ClusterObserver.key(namespace, name), cluster.getMetadata().getUid(), step);
            recreations.done(key, cluster.getMetadata().getUid(), step, observed.observation(), pods);
            metrics.acted(namespace, name, step, added);
        } catch (EtcdAdminException | KubernetesClientException | IllegalStateException e) {
            acted = false;
            if (e instanceof KubernetesClientException k && REFUSALS.contains(k.getCode())) {
                rejected = ApiRefusal.said(k);
            }
            metrics.stepFailed(namespace, name, step);
            LOG.warnf("%s/%s: %s failed: %s", cluster.getMetadata().getNamespace(), name, step.describe(),
                    e.getMessage());
            events.warning(cluster, "StepFailed", step.describe() + " failed: " + e.getMessage()
                    + " The operator retries.");
        }
        if (LOG.isDebugEnabled()) {
            LOG.debugf("%s/%s: observed in %d ms, acted in %d ms", namespace, name,
                    (acting - observing) / 1_000_000, (System.nanoTime() - acting) / 1_000_000);
        }
        if (acted || !(step instanceof Step.RecordSeed || step instanceof Step.RecordQuorumRecovery
                || step instanceof Step.CreateRestore)) {
            // a reseed or an approved recovery whose request could not be consumed (the annotation changed
            // meanwhile), or a restore that could not be created, is not recorded
            statusBuilder.apply(status, observed.observation(), step, cluster.getMetadata().getGeneration(), acted);
        }
        if (acted) {
            recordRefusals(cluster, step, before, status.getConditions());
        }
        if (rejected != null) {
            // retried at the interval, not every second: it passes only once the spec (or an admission policy) changes
            new Readiness(conditions).notReady(status, REASON_REJECTED, "The API server refused what the spec makes ("
                    + step.describe() + "): " + rejected + " Fix spec.pod, or the namespace's admission policy or quota"
                    + " that refused it; the operator tries again.",
                    cluster.getMetadata().getGeneration());
            recordNews(cluster, REASON_REJECTED, before, status.getConditions());
        }
        MemberPlacement.record(conditions, status, namespace, pods, paused, cluster.getMetadata().getGeneration());
        recordQuorumRecoveryNews(cluster, before, status.getConditions());
        recordNews(cluster, ClusterStatusBuilder.REASON_POD_STUCK, before, status.getConditions());
        recordNews(cluster, MemberPlacement.REASON_UNSCHEDULABLE, before, status.getConditions(),
                MemberPlacement.CONDITION);
        recordNews(cluster, ClusterStatusBuilder.REASON_NO_SPACE_ALARM, before, status.getConditions(),
                ClusterStatusBuilder.OUT_OF_SPACE);
        recordNews(cluster, ClusterStatusBuilder.REASON_LIVE_DATA_OVER_QUOTA, before, status.getConditions());
        return change.control(cluster).rescheduleAfter(rejected != null ? interval
                : nextCheck(step, acted, lastPodChange(pods), clock.instant(), interval));
    }

    /**
     * When to look again after a reconcile that chose {@code step}. Pod changes (a pod running, turning ready)
     * trigger a reconcile by themselves; this is for what etcd alone shows (a member answering, a learner caught
     * up, a promotion done). A lost quorum is often a leader election after a member died: it is looked at again
     * every second, it may be back; every 250 ms within {@link #STARTING_WINDOW} of a pod change (a member's pod
     * ended: the others are electing a leader).
     *
     * @param lastPodChange when a member pod of the cluster was last created or had a container end, or null
     */
    static Duration nextCheck(Step step, boolean acted, Instant lastPodChange, Instant now,
            Duration interval) {
        if (step instanceof Step.Nothing || step instanceof Step.Paused || step instanceof Step.Refuse
                || step instanceof Step.AllMembersLost
                || step instanceof Step.Wait w && Step.Wait.NO_SPACE.equals(w.reason())) {
            // a NOSPACE alarm the operator cannot clear waits on a person (or on keys being deleted)
            return interval;
        }
        if (!acted) {
            return WHILE_WAITING;
        }
        boolean recent = lastPodChange != null && !lastPodChange.plus(STARTING_WINDOW).isBefore(now);
        if (step instanceof Step.QuorumLost) {
            // just after a member's pod ended (it may have been the leader) the others elect a leader within a
            // second or two: the replacement starts as soon as a majority answers again
            return recent ? WHILE_STARTING : WHILE_WAITING;
        }
        if (step instanceof Step.Wait wait) {
            return recent && STARTING_WAITS.contains(wait.reason()) ? WHILE_STARTING : WHILE_WAITING;
        }
        return AFTER_CHANGE;
    }

    /** The Available condition already says what {@code step} says: the quorum was lost, as the log told. */
    private static boolean alreadyTold(List<Condition> conditions, Step step) {
        return Conditions.find(conditions, ClusterStatusBuilder.AVAILABLE)
                .map(c -> step.describe().equals(c.getMessage())).orElse(false);
    }

    /** Each restart of a member's etcd in its pod, once; the pods of members etcd no longer has are left out. */
    private void reportRestarts(EtcdCluster cluster, String key, List<Pod> pods, ClusterObservation o) {
        Optional<Set<String>> members = o.members().map(list -> list.stream().map(EtcdMember::name)
                .collect(Collectors.toSet()));
        List<Pod> ofMembers = pods.stream().filter(p -> members.map(m -> m.contains(p.getMetadata().getName()))
                .orElse(true)).toList();
        restarts.since(key, ofMembers).forEach(r -> events.warning(cluster, REASON_ETCD_RESTARTED, r.describe()));
    }

    /** When a member pod of the cluster was last created or had a container end; null when not known. */
    static Instant lastPodChange(List<Pod> pods) {
        Instant newest = null;
        for (Pod pod : pods) {
            List<String> times = new ArrayList<>();
            times.add(pod.getMetadata().getCreationTimestamp());
            if (pod.getStatus() != null && pod.getStatus().getContainerStatuses() != null) {
                pod.getStatus().getContainerStatuses().stream()
                        .filter(c -> c.getState() != null && c.getState().getTerminated() != null)
                        .forEach(c -> times.add(c.getState().getTerminated().getFinishedAt()));
            }
            for (String time : times) {
                if (time == null) {
                    continue;
                }
                try {
                    Instant t = Instant.parse(time);
                    newest = newest == null || t.isAfter(newest) ? t : newest;
                } catch (DateTimeParseException e) {
                    // not a time: it does not count as a change
                }
            }
        }
        return newest;
    }

    private void setRestoreCondition(EtcdCluster cluster, String value, String reason, String message) {
        EtcdClusterStatus status = cluster.getStatus();
        status.setConditions(conditions.set(status.getConditions(), new Condition(CONDITION_RESTORE, value, reason,
                message), cluster.getMetadata().getGeneration()));
    }

    private static boolean isTlsReason(String reason) {
        return ClusterTls.REASON_MISSING.equals(reason) || ClusterTls.REASON_INVALID.equals(reason)
                || ClusterTls.REASON_UNSAFE_CHANGE.equals(reason);
    }

    /** Reports a TLS problem (condition, phase, a Warning Event once per distinct message) and acts on nothing. */
    private UpdateControl<EtcdCluster> refuseTls(EtcdCluster cluster, StatusChange<EtcdCluster> change,
            String reason, String message) {
        EtcdClusterStatus status = cluster.getStatus();
        boolean news = Conditions.find(status.getConditions(), CONDITION_TLS)
                .map(c -> !reason.equals(c.getReason()) || !message.equals(c.getMessage())).orElse(true);
        status.setConditions(conditions.set(status.getConditions(),
                new Condition(CONDITION_TLS, Conditions.FALSE, reason, message), cluster.getMetadata().getGeneration()));
        status.setPhase(PHASE_FAILED);
        status.setReason(reason);
        readiness.notReady(status, reason, message, cluster.getMetadata().getGeneration());
        notObserved(cluster, "its TLS secrets are refused (" + reason + ")");
        if (news) {
            events.warning(cluster, reason, message);
        }
        return change.control(cluster).rescheduleAfter(interval);
    }

    /**
     * The members are not looked at while the cluster is refused: Available no longer claims what the last look
     * saw (a majority may have been lost since), it says it is not known.
     */
    private void notObserved(EtcdCluster cluster, String why) {
        EtcdClusterStatus status = cluster.getStatus();
        Conditions.find(status.getConditions(), ClusterStatusBuilder.AVAILABLE)
                .filter(c -> !Conditions.UNKNOWN.equals(c.getStatus()))
                .ifPresent(c -> status.setConditions(conditions.set(status.getConditions(), new Condition(
                        ClusterStatusBuilder.AVAILABLE, Conditions.UNKNOWN, REASON_NOT_OBSERVED, "The members are not"
                                + " looked at while " + why + ". Last seen: " + c.getMessage()),
                        cluster.getMetadata().getGeneration())));
    }

    /**
     * The TLS Secrets are there: {@code TLSSecretsReady} says so, and when the first of their certificates expires
     * (reason {@code CertificateExpiresSoon} within {@link CertificateValidity#WARN_BEFORE}, {@code CertificateExpired}
     * after, each told once by a Warning Event); the status and a gauge list every certificate's expiry.
     */
    private void reportCertificates(EtcdCluster cluster, List<CertificateValidity> certificates) {
        EtcdClusterStatus status = cluster.getStatus();
        Instant now = clock.instant();
        status.setCertificates(certificates.isEmpty() ? null : certificates.stream()
                .map(c -> new CertificateStatus(c.secret(), c.key(), c.subject(), c.notAfter().toString())).toList());
        metrics.certificates(cluster.getMetadata().getNamespace(), cluster.getMetadata().getName(), certificates);
        Optional<CertificateValidity> first = CertificateValidity.firstToExpire(certificates);
        String reason = REASON_TLS_READY;
        String message = "The TLS secrets are present.";
        if (first.isPresent()) {
            CertificateValidity c = first.get();
            if (c.expired(now)) {
                reason = REASON_CERTIFICATE_EXPIRED;
                message = "Certificate " + c.label() + " expired at " + c.notAfter() + ": members and the operator"
                        + " refuse it. Put a new certificate in the Secret.";
            } else if (c.expiresSoon(now)) {
                reason = REASON_CERTIFICATE_EXPIRES_SOON;
                message = "Certificate " + c.label() + " expires at " + c.notAfter() + ", in "
                        + Duration.between(now, c.notAfter()).toHours() + " hours. Put a new certificate in the Secret.";
            } else {
                message = "The TLS secrets are present; the first certificate to expire is " + c.label() + ", at "
                        + c.notAfter() + ".";
            }
        }
        String previous = Conditions.find(status.getConditions(), CONDITION_TLS).map(Condition::getReason).orElse(null);
        status.setConditions(conditions.set(status.getConditions(), new Condition(CONDITION_TLS, Conditions.TRUE, reason,
                message), cluster.getMetadata().getGeneration()));
        if (!REASON_TLS_READY.equals(reason) && !reason.equals(previous)) {
            events.warning(cluster, reason, message);
        }
    }

    /**
     * A refusal, a lost quorum or a cluster that lost every member is told once, when it first shows in the status,
     * not on every reconcile.
     */
    private void recordRefusals(EtcdCluster cluster, Step step, List<Condition> before, List<Condition> after) {
        String reason = null;
        String message = null;
        if (step instanceof Step.Refuse r) {
            reason = r.reason();
            message = r.message();
        } else if (step instanceof Step.QuorumLost q) {
            reason = ClusterStatusBuilder.REASON_QUORUM_LOST;
            message = q.message();
        } else if (step instanceof Step.AllMembersLost l) {
            reason = ClusterStatusBuilder.REASON_ALL_MEMBERS_LOST;
            message = l.message();
        }
        if (reason == null) {
            return;
        }
        String r = reason;
        Set<String> seen = before.stream().filter(c -> r.equals(c.getReason()))
                .map(Condition::getMessage).collect(Collectors.toSet());
        boolean isNew = after.stream().filter(c -> r.equals(c.getReason()))
                .anyMatch(c -> !seen.contains(c.getMessage()));
        if (isNew) {
            events.warning(cluster, reason, message);
            if (step instanceof Step.Refuse) {
                metrics.refused(cluster.getMetadata().getNamespace(), cluster.getMetadata().getName(), reason);
            }
        }
    }

    /**
     * A Warning Event when the condition {@code type} turns to {@code reason} (not at each change of its message: the
     * NOSPACE alarm is told once, and each action on it by an Event of its own).
     */
    private void recordNews(EtcdCluster cluster, String reason, List<Condition> before, List<Condition> after,
            String type) {
        boolean was = Conditions.find(before, type).map(c -> reason.equals(c.getReason())).orElse(false);
        Conditions.find(after, type).filter(c -> !was && reason.equals(c.getReason()))
                .ifPresent(c -> events.warning(cluster, reason, c.getMessage()));
    }

    /**
     * An Event each time the QuorumRecovery condition says something new while it waits on a loss for good or is
     * done (the steps that act record Events of their own): Normal once recovered, Warning otherwise. A loss that may
     * end by itself (a leader election) is told by the QuorumLost Event alone.
     */
    private void recordQuorumRecoveryNews(EtcdCluster cluster, List<Condition> before, List<Condition> after) {
        String type = ClusterStatusBuilder.QUORUM_RECOVERY;
        Optional<Condition> was = Conditions.find(before, type);
        Conditions.find(after, type)
                .filter(c -> Conditions.FALSE.equals(c.getStatus()) && !TRANSIENT_QUORUM_REASONS.contains(c.getReason()))
                .filter(c -> was.map(w -> !c.getReason().equals(w.getReason())
                        || !c.getMessage().equals(w.getMessage())).orElse(true))
                .ifPresent(c -> {
                    if (QuorumRecoveryPlanner.RECOVERED.equals(c.getReason())) {
                        events.normal(cluster, c.getReason(), c.getMessage());
                    } else {
                        events.warning(cluster, c.getReason(), c.getMessage());
                    }
                });
    }

    /** With a recovery from a backup in progress: what is seen of the EtcdRestore it made (gone, failed). */
    private ClusterObserver.Observed withQuorumRestore(EtcdCluster cluster, ClusterObserver.Observed observed) {
        QuorumLoss loss = observed.observation().quorumLoss();
        QuorumLoss.Recovery recovery = loss.recovery();
        if (recovery == null || recovery.restore() == null) {
            return observed;
        }
        EtcdRestore restore = client.resources(EtcdRestore.class).inNamespace(cluster.getMetadata().getNamespace())
                .withName(recovery.restore()).get();
        QuorumLoss.RestoreSeen seen = restore == null ? new QuorumLoss.RestoreSeen(true, null)
                : restore.getStatus() != null && "Failed".equals(restore.getStatus().getPhase())
                        ? new QuorumLoss.RestoreSeen(false, restore.getStatus().getReason() == null ? "(no reason given)"
                                : restore.getStatus().getReason())
                        : QuorumLoss.RestoreSeen.RUNNING;
        return new ClusterObserver.Observed(observed.observation().withQuorumLoss(loss.withRecovery(
                recovery.withRestoreSeen(seen))), observed.admin(), observed.clientUrlByPod());
    }

    /** The namespace's EtcdBackups, read only for a cluster whose quorum-loss policy restores from one. */
    private List<EtcdBackup> backupsIfNeeded(EtcdCluster cluster) {
        QuorumLossRecovery r = cluster.getSpec().getQuorumLossRecovery();
        if (r == null || !QuorumLossRecovery.FROM_BACKUP.equals(r.policyOrDefault())) {
            return List.of();
        }
        try {
            return client.resources(EtcdBackup.class).inNamespace(cluster.getMetadata().getNamespace()).list()
                    .getItems();
        } catch (KubernetesClientException e) {
            LOG.warnf("%s/%s: the EtcdBackups could not be listed: %s", cluster.getMetadata().getNamespace(),
                    cluster.getMetadata().getName(), e.getMessage());
            return List.of();
        }
    }

    /** A Warning Event when a condition with {@code reason} shows a message it did not show before. */
    private void recordNews(EtcdCluster cluster, String reason, List<Condition> before, List<Condition> after) {
        Set<String> seen = before.stream().filter(c -> reason.equals(c.getReason()))
                .map(Condition::getMessage).collect(Collectors.toSet());
        after.stream().filter(c -> reason.equals(c.getReason()) && !seen.contains(c.getMessage())).findFirst()
                .ifPresent(c -> events.warning(cluster, reason, c.getMessage()));
    }

    private Set<String> claims(EtcdCluster cluster) {
        if (cluster.getSpec().getPod() == null || cluster.getSpec().getPod().getPersistentVolumeClaimSpec() == null) {
            return Set.of();
        }
        // a restored cluster starts from its snapshot: claims an earlier cluster of that name kept are not its own
        String notBefore = RestoreSeed.snapshotSecret(cluster).isPresent() ? cluster.getMetadata().getCreationTimestamp() : null;
        return client.persistentVolumeClaims().inNamespace(cluster.getMetadata().getNamespace())
                .withLabel(ClusterResources.LABEL_CLUSTER, cluster.getMetadata().getName()).list().getItems().stream()
                .map(PersistentVolumeClaim::getMetadata)
                // a claim being deleted takes its data with it: no member comes back on it
                .filter(m -> m.getDeletionTimestamp() == null)
                .filter(m -> notBefore == null || m.getCreationTimestamp() == null
                        || Instant.parse(m.getCreationTimestamp()).compareTo(Instant.parse(notBefore)) >= 0)
                .map(m -> m.getName()).collect(Collectors.toSet());
    }

    /**
     * The members the PodDisruptionBudget keeps a majority of: {@code spec.size}, or the members the status counts
     * when there are more (growing, shrinking, or one added to replace a member whose pod runs once).
     */
    static int budgetSize(EtcdCluster cluster) {
        Integer members = cluster.getStatus() == null ? null : cluster.getStatus().getSize();
        return Math.max(cluster.getSpec().getSize(), members == null ? 0 : members);
    }

    /**
     * A restored cluster whose seed its restore started beside the template (and handed over) never plans the seed's
     * creation (or planned it from a view that lagged, and waited for the restore to record the cluster): its snapshot
     * is confirmed once that pod is seen as the cluster's.
     */
    private void confirmAdoptedSeed(EtcdCluster cluster, ClusterObservation observation) {
        String staged = cluster.getMetadata().getAnnotations() == null ? null
                : cluster.getMetadata().getAnnotations().get(RestoreAnnotations.SEED_MEMBER);
        if (staged == null || !staged.equals(observation.seedMember()) || observation.anyPod(staged).isEmpty()
                || Conditions.find(cluster.getStatus().getConditions(), CONDITION_RESTORE)
                        .map(c -> Conditions.TRUE.equals(c.getStatus())).orElse(false)) {
            return;
        }
        if (RestoreSeed.check(cluster, client) instanceof SeedSnapshotClaim.Confirmed confirmed) {
            setRestoreCondition(cluster, Conditions.TRUE, REASON_RESTORE_CONFIRMED, "The seed member " + staged
                    + " restored the snapshot of Secret " + confirmed.secret() + ", which the EtcdRestore that created"
                    + " this cluster made; its restore started it beside the template cluster and handed it over.");
        }
    }

    /**
     * Whether no EtcdRestore still restores this cluster: looked up only when a pod runs once and the cluster names the
     * restore that made it, in the informer's cache, or, when it is not there, from the API server. A restore that
     * is gone, done or failed has ended.
     */
    private boolean restoreEnded(EtcdCluster cluster, List<Pod> pods, Context<EtcdCluster> context) {
        String restoredBy = cluster.getMetadata().getAnnotations() == null ? null
                : cluster.getMetadata().getAnnotations().get(RestoreAnnotations.RESTORED_BY);
        if (RestoreAnnotations.objectName(restoredBy).isEmpty() || pods.stream()
                .noneMatch(p -> ClusterResources.RUNS_ONCE.equals(p.getSpec().getRestartPolicy()))) {
            return true;
        }
        Set<EtcdRestore> known = context.getSecondaryResources(EtcdRestore.class);
        if (known.stream().anyMatch(r -> restoredBy.equals(r.getMetadata().getName()))) {
            return RestoreEndEvents.ended(known, restoredBy);
        }
        // not among this cluster's restores (deleted, or one that restores another cluster): the API server says
        EtcdRestore restore = client.resources(EtcdRestore.class).inNamespace(cluster.getMetadata().getNamespace())
                .withName(restoredBy).get();
        return RestoreEndEvents.ended(restore == null ? List.of() : List.of(restore), restoredBy);
    }

    /**
     * Makes the client and peer Services where missing, and the disruption budget.
     *
     * @return the holder of a Service's name when it is not this cluster (an earlier EtcdCluster of the same name,
     *         deleted, its Services not yet collected, or anything else) with the Service's name: nothing else is done
     *         then
     */
    private Optional<Map.Entry<String, NameHolder>> ensureServices(EtcdCluster cluster, int budgetSize) {
        String ns = cluster.getMetadata().getNamespace();
        List<Service> missing = new ArrayList<>();
        // both names are looked at before either Service is made: one made beside a name taken would serve nothing
        for (Service service : List.of(ClusterResources.clientService(cluster), ClusterResources.peerService(cluster))) {
            Service existing = client.services().inNamespace(ns).withName(service.getMetadata().getName()).get();
            if (existing == null) {
                missing.add(service);
                continue;
            }
            NameHolder holder = NameHolder.of(existing, cluster);
            if (holder.kind() == NameHolder.Kind.OTHER && selectsTheMembers(existing, cluster)) {
                // made by hand for this cluster (after a restore of the original operator lost it, say): it serves the
                // members, and is left as it is
                continue;
            }
            if (holder.kind() != NameHolder.Kind.THIS_CLUSTER) {
                return Optional.of(Map.entry(ns + "/" + existing.getMetadata().getName(), holder));
            }
        }
        for (Service service : missing) {
            client.services().inNamespace(ns).resource(service).create();
            events.normal(cluster, "ServiceCreated", "Created Service " + service.getMetadata().getName() + ".");
        }
        PodDisruptionBudget wanted = ClusterResources.disruptionBudget(cluster, budgetSize);
        PodDisruptionBudget existing = client.policy().v1().podDisruptionBudget().inNamespace(ns)
                .withName(wanted.getMetadata().getName()).get();
        if (existing == null) {
            client.policy().v1().podDisruptionBudget().inNamespace(ns).resource(wanted).create();
            return Optional.empty();
        }
        NameHolder holder = NameHolder.of(existing, cluster);
        if (holder.kind() == NameHolder.Kind.OTHER) {
            // the members run without the cluster's budget; the other one is left as it is
            events.warning(cluster, REASON_BUDGET_NAME_TAKEN, holder.takenMessage("PodDisruptionBudget " + ns + "/"
                    + existing.getMetadata().getName(), cluster, "keeps no disruption budget for the members"));
        } else if (holder.kind() == NameHolder.Kind.THIS_CLUSTER
                && (!wanted.getSpec().getMinAvailable().equals(existing.getSpec().getMinAvailable())
                        || existing.getSpec().getMaxUnavailable() != null)) {
            // a budget may set one of the two only: one edited to maxUnavailable would refuse minAvailable for good
            existing.getSpec().setMinAvailable(wanted.getSpec().getMinAvailable());
            existing.getSpec().setMaxUnavailable(null);
            client.policy().v1().podDisruptionBudget().inNamespace(ns).resource(existing).update();
        }
        return Optional.empty();
    }

    /** A Service that selects exactly the cluster's member pods, as the cluster's own do. */
    static boolean selectsTheMembers(Service service, EtcdCluster cluster) {
        return service.getSpec() != null && ClusterResources.selector(cluster.getMetadata().getName())
                .equals(service.getSpec().getSelector());
    }

    private static boolean ownedByAnotherCluster(HasMetadata object, EtcdCluster cluster) {
        return object.getMetadata().getOwnerReferences() != null && object.getMetadata().getOwnerReferences().stream()
                .anyMatch(o -> "EtcdCluster".equals(o.getKind()) && !cluster.getMetadata().getUid().equals(o.getUid()));
    }

    /**
     * Deletes member pods that fit no node and were made from other placement rules than spec.pod has now (they never
     * ran; the delete is conditional on their resourceVersion), so that the next reconcile makes them again from it.
     */
    private UpdateControl<EtcdCluster> remakeUnplaced(EtcdCluster cluster, StatusChange<EtcdCluster> change,
            List<Pod> unplaced) {
        Leadership.check("making pods that fit no node again");
        for (String pod : MemberPlacement.deleteAsSeen(client, unplaced)) {
            events.normal(cluster, MemberPlacement.REASON_REMADE, "Deleted pod " + pod + ", which fit no node, to make"
                    + " it again from the changed spec.pod.");
        }
        return change.control(cluster).rescheduleAfter(WHILE_WAITING);
    }

    /** Nothing is made for the cluster while an object of an earlier, deleted cluster of its name is still there. */
    private UpdateControl<EtcdCluster> waitForEarlierCluster(EtcdCluster cluster, StatusChange<EtcdCluster> change,
            String object, Optional<String> stuck) {
        String message = object + " belongs to an earlier EtcdCluster of this name, which was deleted; members start"
                + " once the garbage collector has removed it." + stuck.map(s -> " " + s).orElse("");
        return notReadyWhile(cluster, change, REASON_WAITING_FOR_EARLIER_CLUSTER, message, false);
    }

    /** Ready is False with {@code reason} and {@code message}, told in an Event once for each message; looked at later. */
    private UpdateControl<EtcdCluster> notReadyWhile(EtcdCluster cluster, StatusChange<EtcdCluster> change,
            String reason, String message, boolean warning) {
        boolean told = Conditions.find(cluster.getStatus().getConditions(), Readiness.CONDITION)
                .map(c -> reason.equals(c.getReason()) && message.equals(c.getMessage()))
                .orElse(false);
        if (!told && warning) {
            events.warning(cluster, reason, message);
        } else if (!told) {
            events.normal(cluster, reason, message);
        }
        readiness.notReady(cluster.getStatus(), reason, message, cluster.getMetadata().getGeneration());
        return change.control(cluster).rescheduleAfter(WHILE_WAITING);
    }
}
