package dev.etcdoperator.core.cluster;

import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

import dev.etcdoperator.api.v1beta2.Condition;
import dev.etcdoperator.api.v1beta2.EtcdClusterStatus;
import dev.etcdoperator.api.v1beta2.MemberDetail;
import dev.etcdoperator.api.v1beta2.MembersStatus;
import dev.etcdoperator.core.cluster.ClusterPlanner.Seat;
import dev.etcdoperator.core.cluster.Step.AddMember;
import dev.etcdoperator.core.cluster.Step.AllMembersLost;
import dev.etcdoperator.core.cluster.Step.CompactKeyspace;
import dev.etcdoperator.core.cluster.Step.DefragmentMember;
import dev.etcdoperator.core.cluster.Step.DisarmNoSpace;
import dev.etcdoperator.core.cluster.Step.CreateMemberPod;
import dev.etcdoperator.core.cluster.Step.CreateInitialMembers;
import dev.etcdoperator.core.cluster.Step.CreateSeed;
import dev.etcdoperator.core.cluster.Step.DeletePod;
import dev.etcdoperator.core.cluster.Step.Nothing;
import dev.etcdoperator.core.cluster.Step.Paused;
import dev.etcdoperator.core.cluster.Step.PromoteLearner;
import dev.etcdoperator.core.cluster.Step.QuorumLost;
import dev.etcdoperator.core.cluster.Step.RecordInitialMembers;
import dev.etcdoperator.core.cluster.Step.RecordSeed;
import dev.etcdoperator.core.cluster.Step.Refuse;
import dev.etcdoperator.core.cluster.Step.RemoveMember;
import dev.etcdoperator.core.cluster.Step.UpgradeMember;
import dev.etcdoperator.core.cluster.Step.Wait;
import dev.etcdoperator.core.status.Conditions;
import dev.etcdoperator.core.status.Readiness;

/**
 * Writes what one reconcile observed and decided onto an {@link EtcdClusterStatus}: phase, the original's four
 * conditions ({@code Available}, {@code Recovering}, {@code Scaling}, {@code Upgrading}), sizes, member names and
 * details, versions and the client service. Pure; times come from the {@link Clock}, and a condition whose status,
 * reason and message do not change is left exactly as it was.
 *
 * <p>Phase: {@code Failed} while quorum is lost ({@code reason: QuorumLost}) or every member of a cluster that ran is
 * lost ({@code reason: AllMembersLost}); {@code Creating} until the first observation in which {@code spec.size}
 * members are voting, healthy and ready; {@code Running} from then on; {@code Creating} again once a person had a
 * cluster that lost every member seeded again. An invalid spec ({@code Failed}/{@code InvalidSpec}) is the
 * reconciler's to set: it does not plan then.
 *
 * <p>{@code seedMember} is recorded when the planner chooses the seed ({@link RecordSeed}), before its pod exists;
 * {@code initialMembers} when it chooses the first members of a cluster that starts them together
 * ({@link RecordInitialMembers}), before their pods exist, until they first have a quorum; its first name is then
 * recorded as {@code seedMember} too. A seed recorded alone clears {@code initialMembers}.
 *
 * <p>The summary condition {@code Ready} is True when the cluster is {@code Running} and {@code Available} with
 * {@code spec.size} ready members at the version asked for, and nothing is scaling, upgrading or recovering; else
 * False with the reason and message of the first condition in the way.
 */
public final class ClusterStatusBuilder {
    public static final String PHASE_CREATING = "Creating";
    public static final String PHASE_RUNNING = "Running";
    public static final String PHASE_FAILED = "Failed";

    public static final String AVAILABLE = "Available";
    public static final String RECOVERING = "Recovering";
    public static final String SCALING = "Scaling";
    public static final String UPGRADING = "Upgrading";

    public static final String REASON_QUORUM_LOST = "QuorumLost";
    public static final String REASON_ALL_MEMBERS_LOST = "AllMembersLost";
    /** A recovery from a lost quorum is in progress (see the QuorumRecovery condition). */
    public static final String REASON_RECOVERING_QUORUM = "RecoveringQuorum";
    public static final String QUORUM_RECOVERY = QuorumRecoveryReport.CONDITION;
    public static final String REASON_QUORUM_HEALTHY = QuorumRecoveryReport.REASON_QUORUM_HEALTHY;
    public static final String REASON_PAUSED = "ControlPaused";
    /** A pod has been terminating for longer than {@link ClusterPlanner#STUCK_AFTER}: a person should look. */
    public static final String REASON_POD_STUCK = "PodStuckTerminating";
    /** The condition the cluster controller sets on a restored cluster's seed and its snapshot. */
    public static final String RESTORE_SNAPSHOT = "RestoreSnapshot";
    /** {@link #RESTORE_SNAPSHOT} after a reseed: the restored data is gone, a later seed is no restore's. */
    public static final String REASON_RESTORE_SUPERSEDED = "RestoreSnapshotSuperseded";
    public static final String REASON_READY = "ClusterReady";

    /** Additive, set once etcd's NOSPACE alarm was first seen: True while it is raised. */
    public static final String OUT_OF_SPACE = "OutOfSpace";
    public static final String REASON_NO_SPACE_ALARM = "NoSpaceAlarm";
    static final String REASON_DOWNGRADE_STILL_ENABLED = "DowngradeStillEnabled";
    /** The alarm stays: the live data does not fit the quota. */
    public static final String REASON_LIVE_DATA_OVER_QUOTA = "LiveDataOverQuota";
    public static final String REASON_ALARM_DISARMED = "NoSpaceAlarmDisarmed";
    /** The alarm went without the operator disarming it (a person did). */
    public static final String REASON_ALARM_GONE = "NoSpaceAlarmGone";

    /** Additive, while {@code spec.etcd.defragmentation} is set: True while a member is being defragmented for it. */
    public static final String DEFRAGMENTING = "Defragmenting";
    public static final String REASON_DEFRAGMENTING_MEMBER = "DefragmentingMember";
    public static final String REASON_NO_MEMBER_FRAGMENTED = "NoMemberFragmented";
    public static final String REASON_DEFRAGMENTATION_ON_HOLD = "DefragmentationOnHold";
    public static final String REASON_DEFRAGMENTATION_OFF = "DefragmentationOff";

    private static final String READY_TYPE = Readiness.CONDITION;
    /** Reasons of a False Recovering, Scaling or Upgrading condition that leave nothing to do. */
    /** Members restart on TLS Secrets that changed; absent until the first change is seen. */
    public static final String CERTIFICATES_ROTATING = "CertificatesRotating";
    public static final String REASON_RESTARTING_MEMBER = "RestartingMember";
    public static final String REASON_ROTATION_WAITING = "RotationWaiting";
    public static final String REASON_CERTIFICATES_CURRENT = "CertificatesCurrent";
    private static final Set<String> SETTLED = Set.of("NoFailedMembers", "SizeReached",
            "VersionReached", REASON_PAUSED);

    private final Conditions conditions;
    private final Readiness readiness;
    private final VersionPolicy versions;

    public ClusterStatusBuilder(Clock clock) {
        this(new Conditions(clock), new VersionPolicy());
    }

    public ClusterStatusBuilder(Conditions conditions, VersionPolicy versions) {
        this.conditions = Objects.requireNonNull(conditions, "conditions");
        this.readiness = new Readiness(conditions);
        this.versions = Objects.requireNonNull(versions, "versions");
    }

    /** Sets every field this controller owns on {@code status} and returns it, {@code step} carried out. */
    public EtcdClusterStatus apply(EtcdClusterStatus status, ClusterObservation o, Step step, Long generation) {
        return apply(status, o, step, generation, true);
    }

    /**
     * Sets every field this controller owns on {@code status} and returns it.
     *
     * @param acted whether {@code step} was carried out (false: it failed and is retried)
     */
    public EtcdClusterStatus apply(EtcdClusterStatus status, ClusterObservation o, Step step, Long generation,
            boolean acted) {
        MemberNaming naming = o.naming();
        List<EtcdMember> members = o.members().orElse(List.of());
        List<Seat> seats = members.isEmpty() ? List.of() : ClusterPlanner.seats(o, members);
        List<MemberPod> live = o.livePods().stream().sorted(Comparator.comparing(MemberPod::name)).toList();
        // judged on the member details recorded before this observation replaces them
        String failedUpgrade = failedNow(o, step, status.getMemberDetails());

        MembersStatus names = new MembersStatus();
        names.setReady(new ArrayList<>(live.stream().filter(MemberPod::ready).map(MemberPod::name).toList()));
        names.setUnready(new ArrayList<>(live.stream().filter(p -> !p.ready()).map(MemberPod::name).toList()));
        status.setMembers(names);
        status.setReadyMembers(names.getReady().size());
        status.setReady(names.getReady().size() + "/" + o.desiredSize());
        status.setSize(seats.isEmpty() ? live.size() : seats.size());
        status.setMemberDetails(seats.isEmpty() ? podDetails(o, live) : memberDetails(o, seats));
        status.setServiceName(naming.clientServiceName());
        status.setClientPort(MemberNaming.CLIENT_PORT);
        status.setControlPaused(o.paused());
        if (step instanceof RecordSeed r) {
            status.setSeedMember(r.name());
            status.setInitialMembers(null);
        }
        if ((status.getSeedMember() == null || status.getSeedMember().isBlank()) && o.seedMember() != null) {
            // a seed the status did not record yet: a restored cluster's, which its restore started and named
            status.setSeedMember(o.seedMember());
        }
        if (step instanceof RecordInitialMembers r) {
            status.setInitialMembers(new ArrayList<>(r.names()));
            // the first of them is the seed where initialMembers cannot be stored (a CRD from before the field: the
            // API server drops it), so that the cluster then starts from that seed instead of choosing names forever
            status.setSeedMember(r.names().get(0));
        }
        if (step instanceof RecordSeed r && r.reseed()) {
            // the new seed starts a new cluster: it has not run, whatever the lost one ran; nor is it the recovered one
            status.setCurrentVersion(null);
            status.setLastSurvivorRecoveryDate(null);
            // nor the restored one: its backups must not be taken for the restored cluster's
            boolean restored = status.getConditions() != null && status.getConditions().stream()
                    .anyMatch(c -> RESTORE_SNAPSHOT.equals(c.getType()));
            if (restored) {
                set(status, new Condition(RESTORE_SNAPSHOT, Conditions.FALSE, REASON_RESTORE_SUPERSEDED, "The cluster"
                        + " was started again empty (a reseed): it no longer holds the restored snapshot."), generation);
            }
        } else if (!seats.isEmpty()) {
            status.setCurrentVersion(currentVersion(o, seats));
        } else if (status.getCurrentVersion() == null) {
            status.setCurrentVersion(o.currentVersion());
        }

        recordFailedUpgrade(status, o, failedUpgrade);

        Condition available = available(o, seats, step);
        phase(status, o, seats, step, Conditions.TRUE.equals(available.getStatus()));

        Condition upgrading = upgrading(o, seats, step, failedUpgrade);
        set(status, available, generation);
        if (Conditions.TRUE.equals(available.getStatus())) {
            // the first members started together have had their quorum: from now on, a member down is one down
            status.setInitialMembers(null);
        }
        if (acted) {
            QuorumRecoveryReport.countFailedCopy(status, step);
        }
        QuorumRecoveryReport.apply(status, o, step, o.now(), Conditions.TRUE.equals(available.getStatus()))
                .ifPresent(c -> set(status, c, generation));
        set(status, recovering(o, step), generation);
        set(status, scaling(o, seats, step), generation);
        set(status, upgrading, generation);
        outOfSpace(status, o, seats, step).ifPresent(c -> set(status, c, generation));
        DefragmentationRoundReport.apply(status, o, seats, step, acted);
        defragmenting(status, o, seats, step).ifPresent(c -> set(status, c, generation));
        certificatesRotating(status, o, step).ifPresent(c -> set(status, c, generation));
        status.setTargetVersion(Conditions.TRUE.equals(upgrading.getStatus()) ? o.desiredVersion() : null);
        Condition ready = ready(status, o.desiredSize(), o.paused(), o.desiredVersion());
        readiness.set(status, Conditions.TRUE.equals(ready.getStatus()), ready.getReason(), ready.getMessage(),
                generation);
        status.setObservedGeneration(generation);
        return status;
    }

    /** What the conditions just set say about the whole cluster. */
    private static Condition ready(EtcdClusterStatus status, int desiredSize, boolean paused, String desiredVersion) {
        Condition available = Conditions.find(status.getConditions(), AVAILABLE).orElseThrow();
        if (!Conditions.TRUE.equals(available.getStatus())) {
            return available;
        }
        Optional<Condition> space = Conditions.find(status.getConditions(), OUT_OF_SPACE);
        if (space.isPresent() && Conditions.TRUE.equals(space.get().getStatus())) {
            return condition(READY_TYPE, false, space.get().getReason(), space.get().getMessage());
        }
        for (String type : List.of(RECOVERING, SCALING, UPGRADING)) {
            Condition c = Conditions.find(status.getConditions(), type).orElseThrow();
            if (Conditions.TRUE.equals(c.getStatus()) || !SETTLED.contains(c.getReason())) {
                return condition(READY_TYPE, false, c.getReason(), c.getMessage());
            }
        }
        int ready = status.getReadyMembers();
        if (paused) {
            // the conditions say the changes wait (ControlPaused), which is settled; Ready is still about the spec
            int members = status.getSize() == null ? ready : status.getSize();
            String current = status.getCurrentVersion();
            if (members != desiredSize) {
                return condition(READY_TYPE, false, REASON_PAUSED, "The cluster has " + members + " members and"
                        + " spec.size asks for " + desiredSize + "; control is paused (spec.paused).");
            }
            if (current != null && desiredVersion != null && !Version.parse(current).equals(Version.parse(desiredVersion))) {
                return condition(READY_TYPE, false, REASON_PAUSED, "The members run " + current + " and spec.version"
                        + " asks for " + desiredVersion + "; control is paused (spec.paused).");
            }
        }
        if (ready < desiredSize || !PHASE_RUNNING.equals(status.getPhase())) {
            return condition(READY_TYPE, false, "MembersNotReady", ready + " of " + desiredSize
                    + " members are ready.");
        }
        return condition(READY_TYPE, true, REASON_READY, ready + " of " + desiredSize + " members are ready and "
                + available.getMessage().substring(0, 1).toLowerCase(Locale.ROOT)
                + available.getMessage().substring(1));
    }

    private void set(EtcdClusterStatus status, Condition wanted, Long generation) {
        status.setConditions(conditions.set(status.getConditions(), wanted, generation));
    }

    private static void phase(EtcdClusterStatus status, ClusterObservation o, List<Seat> seats, Step step,
            boolean available) {
        String before = status.getPhase();
        boolean lostBefore = PHASE_FAILED.equals(before) && (REASON_QUORUM_LOST.equals(status.getReason())
                || REASON_ALL_MEMBERS_LOST.equals(status.getReason()));
        if (step instanceof QuorumLost || step instanceof AllMembersLost) {
            status.setPhase(PHASE_FAILED);
            status.setReason(step instanceof QuorumLost ? REASON_QUORUM_LOST : REASON_ALL_MEMBERS_LOST);
            return;
        }
        if (step instanceof RecordSeed r && r.reseed()) {
            status.setReason(null);
            status.setPhase(PHASE_CREATING);
            return;
        }
        if (lostBefore && !available) {
            // what is done without a quorum (a member made again on its claim, a pod waited for) brings none back
            return;
        }
        if (lostBefore) {
            status.setReason(null);
        }
        boolean ranBefore = PHASE_RUNNING.equals(before) || lostBefore;
        status.setPhase(ranBefore || allReady(o, seats) ? PHASE_RUNNING : PHASE_CREATING);
    }

    private static boolean allReady(ClusterObservation o, List<Seat> seats) {
        return seats.size() >= o.desiredSize() && seats.stream().allMatch(s -> !s.learner() && s.healthy()
                && s.pod().map(MemberPod::ready).orElse(false));
    }

    private static Condition available(ClusterObservation o, List<Seat> seats, Step step) {
        if (step instanceof QuorumLost q) {
            return condition(AVAILABLE, false, REASON_QUORUM_LOST, q.message());
        }
        if (step instanceof AllMembersLost l) {
            return condition(AVAILABLE, false, REASON_ALL_MEMBERS_LOST, l.message());
        }
        if (seats.isEmpty()) {
            if (o.pods().isEmpty()) {
                return condition(AVAILABLE, false, "NoMembers", "The cluster has no member yet.");
            }
            return condition(AVAILABLE, false, "NoMemberReachable", "No etcd member answers yet ("
                    + (step instanceof Wait w ? w.message() : "pods " + podNames(o.livePods())) + ").");
        }
        List<String> lacking = ClusterPlanner.partialListLacks(o, seats);
        if (!lacking.isEmpty()) {
            // what answered may be one member's own new cluster, not this one's data (paused or not)
            return condition(AVAILABLE, false, Wait.MEMBER_LIST_PARTIAL,
                    ClusterPlanner.partialListMessage(o, seats, lacking));
        }
        List<Seat> voters = seats.stream().filter(s -> !s.learner()).toList();
        long healthy = voters.stream().filter(Seat::healthy).count();
        if (healthy < ClusterPlanner.majority(voters.size())) {
            if (step instanceof Wait w && (Wait.MEMBERS_STARTING.equals(w.reason())
                    || Wait.CORRUPT_ALARM.equals(w.reason()))) {
                return condition(AVAILABLE, false, w.reason(), w.message());
            }
            return condition(AVAILABLE, false, REASON_QUORUM_LOST, "Only " + healthy + " of " + voters.size()
                    + " voting members are healthy; etcd needs " + ClusterPlanner.majority(voters.size()) + ".");
        }
        String leader = seats.stream().filter(Seat::leader).map(Seat::name).findFirst().orElse(null);
        return condition(AVAILABLE, true, "QuorumHealthy", healthy + " of " + voters.size()
                + " voting members are healthy" + (leader == null ? "." : "; the leader is " + leader + "."));
    }

    private static Condition recovering(ClusterObservation o, Step step) {
        if (step instanceof Paused p) {
            return condition(RECOVERING, false, REASON_PAUSED, p.describe());
        }
        if (step instanceof QuorumLost q) {
            List<MemberPod> stuck = ClusterPlanner.stuckPods(o);
            // a pod stuck terminating is never lost for good: only a person can say its node is gone
            return condition(RECOVERING, false, REASON_QUORUM_LOST, "Members cannot be replaced without quorum; the"
                    + " operator waits for a majority to answer again (see the Available condition)."
                    + (stuck.isEmpty() ? "" : " " + stuckMessage(o, stuck)));
        }
        if (step instanceof AllMembersLost) {
            return condition(RECOVERING, false, REASON_ALL_MEMBERS_LOST, "No member is left to recover from; the"
                    + " operator waits for a restore or a reseed request (see the Available condition).");
        }
        if (step instanceof RemoveMember r && r.replacement()) {
            return condition(RECOVERING, true, RemoveMember.DEAD_MEMBER.equals(r.reason()) ? "ReplacingDeadMember"
                    : "ReplacingFailingMember", r.describe());
        }
        if (step instanceof Step.RecordQuorumRecovery || step instanceof Step.CreateRecoveryMember
                || step instanceof Step.RetireSurvivor || step instanceof Step.StopSurvivor
                || step instanceof Step.CreateRestore) {
            return condition(RECOVERING, true, REASON_RECOVERING_QUORUM, step.describe());
        }
        if (step instanceof DeletePod d) {
            return condition(RECOVERING, true, DeletePod.NOT_A_MEMBER.equals(d.reason()) ? "DeletingStrayPod"
                    : DeletePod.SPLIT_OFF.equals(d.reason()) ? DeletePod.SPLIT_OFF : "RestartingMember", d.describe());
        }
        if (step instanceof CreateMemberPod c && CreateMemberPod.RECREATING_IN_PLACE.equals(c.reason())) {
            return condition(RECOVERING, true, CreateMemberPod.RECREATING_IN_PLACE, c.describe());
        }
        List<MemberPod> stuck = ClusterPlanner.stuckPods(o);
        if (!stuck.isEmpty()) {
            return condition(RECOVERING, true, REASON_POD_STUCK, stuckMessage(o, stuck));
        }
        if (step instanceof Wait w && recoveryWait(w)) {
            return condition(RECOVERING, true, w.reason(), w.message());
        }
        return condition(RECOVERING, false, "NoFailedMembers", "No member needs replacing or restarting.");
    }

    private static String stuckMessage(ClusterObservation o, List<MemberPod> stuck) {
        StringBuilder m = new StringBuilder();
        for (MemberPod p : stuck) {
            m.append("Pod ").append(p.name()).append(" has been terminating since ").append(p.deletionTimestamp())
                    .append(o.persistent() && o.claims().contains(p.name())
                            ? "; member " + p.name() + " is recreated on its claim " + p.name() + " once it is gone. "
                            : "; its member is replaced without it, or has been. ");
        }
        return m.append("Other work goes on meanwhile. Its node may be lost: once you know it is (or that its etcd no"
                + " longer runs), delete the pod by force: kubectl delete pod -n " + o.namespace()
                + " --grace-period=0 --force " + String.join(" ", stuck.stream().map(MemberPod::name).toList()))
                .toString();
    }

    private static Condition scaling(ClusterObservation o, List<Seat> seats, Step step) {
        int size = seats.isEmpty() ? o.livePods().size() : seats.size();
        List<String> replacing = seats.isEmpty() ? List.of() : RunOnceReplacement.toReplace(o, seats).stream()
                .map(Seat::name).toList();
        String progress = " The cluster has " + size + (size == 1 ? " member" : " members") + "; spec.size asks for "
                + o.desiredSize() + (replacing.isEmpty() ? "" : ", and one more while member" + (replacing.size() > 1
                        ? "s " : " ") + String.join(", ", replacing) + ", whose pod does not start etcd again when it"
                        + " ends, " + (replacing.size() > 1 ? "are" : "is") + " replaced") + ".";
        if (step instanceof Paused p) {
            return condition(SCALING, false, REASON_PAUSED, p.describe());
        }
        if (step instanceof QuorumLost) {
            return condition(SCALING, false, REASON_QUORUM_LOST, "Scaling is on hold while quorum is lost." + progress);
        }
        if (step instanceof AllMembersLost) {
            return condition(SCALING, false, REASON_ALL_MEMBERS_LOST, "Scaling is on hold: every member is lost."
                    + progress);
        }
        if (step instanceof RecordSeed r) {
            return condition(SCALING, true, r.reseed() ? "Reseeding" : "ChoosingSeedMember", r.describe() + progress);
        }
        if (step instanceof CreateSeed c) {
            return condition(SCALING, true, "CreatingSeedMember", c.describe() + progress);
        }
        if (step instanceof RecordInitialMembers r) {
            return condition(SCALING, true, "ChoosingInitialMembers", r.describe() + progress);
        }
        if (step instanceof CreateInitialMembers c) {
            return condition(SCALING, true, "CreatingInitialMembers", c.describe() + progress);
        }
        if (step instanceof AddMember a) {
            return condition(SCALING, true, "AddingMember", a.describe() + progress);
        }
        if (step instanceof PromoteLearner p) {
            return condition(SCALING, true, "PromotingLearner", p.describe() + progress);
        }
        if (step instanceof RemoveMember r && RemoveMember.SCALE_DOWN.equals(r.reason())) {
            return condition(SCALING, true, "RemovingMember", r.describe() + progress);
        }
        if (step instanceof RemoveMember r && RemoveMember.RUNS_ONCE.equals(r.reason())
                || step instanceof Step.MoveLeader) {
            return condition(SCALING, true, RemoveMember.RUNS_ONCE, step.describe() + progress);
        }
        if (step instanceof CreateMemberPod c && CreateMemberPod.STARTING_ADDED_MEMBER.equals(c.reason())) {
            return condition(SCALING, true, CreateMemberPod.STARTING_ADDED_MEMBER, c.describe() + progress);
        }
        if (step instanceof Wait w && !recoveryWait(w) && !Wait.NO_SPACE.equals(w.reason())) {
            return condition(SCALING, true, w.reason(), w.message() + progress);
        }
        return size == o.desiredSize() && !seats.isEmpty()
                ? condition(SCALING, false, "SizeReached", "The cluster has " + size + " members, as spec.size asks.")
                : condition(SCALING, false, "ScalingOnHold", "Scaling waits: " + step.describe() + progress);
    }

    private Condition upgrading(ClusterObservation o, List<Seat> seats, Step step, String failedUpgrade) {
        String wanted = o.desiredVersion();
        if (step instanceof Paused p) {
            return condition(UPGRADING, false, REASON_PAUSED, p.describe());
        }
        if (step instanceof QuorumLost) {
            return condition(UPGRADING, false, REASON_QUORUM_LOST, "Upgrades are on hold while quorum is lost.");
        }
        if (step instanceof AllMembersLost) {
            return condition(UPGRADING, false, REASON_ALL_MEMBERS_LOST, "Upgrades are on hold: every member is lost.");
        }
        if (step instanceof Refuse r) {
            return condition(UPGRADING, false, r.reason(), r.message());
        }
        // a member whose version is not known (no pod of its own yet, or its pod gone) is no member left behind
        long behind = seats.stream().map(s -> ClusterPlanner.podVersion(o, s))
                .filter(v -> v != null && !v.equals(wanted)).count();
        if (step instanceof Step.ResetMemberImage r) {
            return condition(UPGRADING, true, "ResettingMemberImage", r.describe());
        }
        if (step instanceof UpgradeMember u) {
            return condition(UPGRADING, true, "UpgradingMember", u.describe() + " " + (seats.size() - behind)
                    + " of " + seats.size() + " members run " + wanted + ".");
        }
        if (step instanceof Step.EnableDowngrade d) {
            return condition(UPGRADING, true, "EnablingDowngrade", d.describe());
        }
        if (step instanceof Step.DowngradeMember d) {
            return condition(UPGRADING, true, "DowngradingMember", d.describe() + " " + (seats.size() - behind)
                    + " of " + seats.size() + " members run " + wanted + ".");
        }
        if (behind > 0 && DowngradePlanner.applies(o, seats) && !(step instanceof Refuse)) {
            // what the downgrade's own rules say once the step in its way is done: a refusal is no downgrade on hold
            if (!DowngradePlanner.rollsBackAnUnfinishedUpgrade(o, seats)
                    && DowngradePlanner.plan(o, seats).orElse(null) instanceof Refuse r) {
                return condition(UPGRADING, false, r.reason(), r.message());
            }
            return condition(UPGRADING, true, "DowngradeOnHold", "The downgrade to " + wanted + " waits ("
                    + (seats.size() - behind) + " of " + seats.size() + " members run it): " + step.describe());
        }
        if (seats.isEmpty()) {
            return condition(UPGRADING, false, "NoMembers", "No member answers; nothing to upgrade yet.");
        }
        String running = ClusterPlanner.runningVersion(o);
        if ((wanted.equals(o.failedUpgrade()) || wanted.equals(failedUpgrade))
                && (behind > 0 || recordedBelow(o, wanted))) {
            // also when every pod has the release's image: the last member given it failed on it
            Refuse failed = ClusterPlanner.upgradeFailed(o, behind == 0 && o.currentVersion() != null
                    ? o.currentVersion() : running);
            return condition(UPGRADING, false, failed.reason(), failed.message());
        }
        if (behind == 0) {
            Optional<String> stillEnabled = seats.stream().map(s -> o.healthOf(s.member().id())
                    .map(MemberHealth::downgradeTarget).orElse("")).filter(t -> minorBelow(t, wanted)).findFirst();
            if (stillEnabled.isPresent()) {
                // spec.version set back mid-downgrade: etcd keeps the job, and the cluster version pinned, until it is
                // cancelled
                return condition(UPGRADING, false, REASON_DOWNGRADE_STILL_ENABLED, "Every member runs " + wanted
                        + ", but etcd's downgrade to " + stillEnabled.get() + " is still enabled: etcd keeps the"
                        + " cluster version at it until the downgrade is cancelled (etcdctl downgrade cancel).");
            }
            return condition(UPGRADING, false, "VersionReached", "Every member runs " + wanted + ".");
        }
        VersionPolicy.Verdict verdict = versions.check(running, wanted);
        if (!verdict.allowed()) {
            return condition(UPGRADING, false, verdict.reason(), verdict.message());
        }
        return condition(UPGRADING, true, "UpgradeOnHold", "The upgrade to " + wanted + " waits ("
                + (seats.size() - behind) + " of " + seats.size() + " members run it): " + step.describe());
    }

    /**
     * {@code status.failedUpgradeVersion}: recorded when {@code step} takes out a member whose etcd failed on
     * spec.version while the others run an earlier one (an upgrade that does not start: replaced without claims, made
     * again on its claim at the version the others run), so that the rollout does not upgrade the next member into
     * the same failure, and the same again for ever; cleared once spec.version names another version.
     */
    private static void recordFailedUpgrade(EtcdClusterStatus status, ClusterObservation o, String failed) {
        String recorded = status.getFailedUpgradeVersion();
        if (recorded != null && !recorded.equals(o.desiredVersion())) {
            status.setFailedUpgradeVersion(null);
        }
        if (failed != null) {
            status.setFailedUpgradeVersion(failed);
        }
    }

    /**
     * The version whose upgrade {@code step} gives up on a member of, or null: the member's etcd crash-loops on it
     * and was never recorded healthy on it ({@code details}, the member details before this observation). A pod
     * that ended (evicted, its node shut down) or a member that ran well on it and failed later says nothing
     * against the release.
     */
    /**
     * The version the cluster runs, as its members report it: the lowest version a healthy member reports, and the
     * version recorded before while a member cannot tell (restarting, gone, or crash-looping on a release it was just
     * given and never ran). Taken from the pods' images alone, a member given a release counted as running it before
     * it ever did, and a pod made again for it got that release too.
     */
    static String currentVersion(ClusterObservation o, List<Seat> seats) {
        List<Version> known = new ArrayList<>();
        boolean untold = false;
        Version storage = null;
        for (Seat s : seats) {
            Optional<MemberHealth> health = o.healthOf(s.member().id()).filter(MemberHealth::healthy);
            Optional<Version> reported = health.map(MemberHealth::version).flatMap(Version::parse);
            if (reported.isPresent()) {
                // the pod's own tag where it names the same release (a tag of a custom build: 3.5.35-fips)
                Optional<Version> tag = s.pod().map(MemberPod::etcdVersion).flatMap(Version::parse)
                        .filter(t -> t.major() == reported.get().major() && t.minor() == reported.get().minor()
                                && t.patch() == reported.get().patch());
                known.add(tag.orElse(reported.get()));
            } else {
                untold = true;
            }
            Optional<Version> stored = health.map(MemberHealth::storageVersion).flatMap(Version::parse);
            if (stored.isPresent() && (storage == null || stored.get().compareTo(storage) > 0)) {
                storage = stored.get();
            }
        }
        // etcd raised its cluster version (members keep their data at it) before every member was seen healthy on
        // the release: the version recorded before is no version a member can run on that data any more
        Version dataFloor = storage;
        if (untold && o.currentVersion() != null) {
            Version.parse(o.currentVersion()).filter(v -> dataFloor == null || v.major() > dataFloor.major()
                    || v.major() == dataFloor.major() && v.minor() >= dataFloor.minor()).ifPresent(known::add);
        }
        return known.stream().min(Comparator.naturalOrder()).map(Version::toString)
                .orElseGet(() -> ClusterPlanner.runningVersion(o));
    }

    /** The version recorded in the status is below {@code wanted}: the cluster, by its members' word, never ran it. */
    private static boolean recordedBelow(ClusterObservation o, String wanted) {
        return below(o.currentVersion(), wanted);
    }

    /** {@code version}'s minor is an earlier one than {@code wanted}'s (the end of a downgrade to it is no stale job). */
    private static boolean minorBelow(String version, String wanted) {
        return Version.parse(version).flatMap(v -> Version.parse(wanted).map(w -> v.major() < w.major()
                || v.major() == w.major() && v.minor() < w.minor())).orElse(false);
    }

    private static boolean below(String version, String wanted) {
        return version != null && Version.parse(version)
                .flatMap(v -> Version.parse(wanted).map(w -> v.compareTo(w) < 0)).orElse(false);
    }

    private static String failedNow(ClusterObservation o, Step step, List<MemberDetail> details) {
        String member = step instanceof Step.RemoveMember r && r.replacement()
                ? r.name() : step instanceof Step.DeletePod d && Step.DeletePod.POD_STOPPED.equals(d.reason())
                        ? d.name() : null;
        String wanted = o.desiredVersion();
        if (member == null || wanted == null) {
            return null;
        }
        boolean failedOnWanted = o.livePod(member).filter(MemberPod::crashLooping)
                .filter(p -> !p.runsOnce() && wanted.equals(p.etcdVersion())).isPresent();
        boolean ranWellOnIt = details != null && details.stream().anyMatch(d -> member.equals(d.getName())
                && Boolean.TRUE.equals(d.getHealthy()) && wanted.equals(d.getVersion()));
        // the last member given the release, on its claim: every pod has its image, yet the cluster never ran it
        // (the recorded version is the members' own word), and the member is made again at the version it ran. A
        // member replaced instead gets the version the others run, the release: no failure to record then.
        boolean madeAgainOnClaim = step instanceof Step.DeletePod && o.persistent() && o.claims().contains(member);
        boolean clusterBelow = !wanted.equals(ClusterPlanner.runningVersion(o)) || madeAgainOnClaim
                && recordedBelow(o, wanted) && below(currentVersion(o, ClusterPlanner.seats(o,
                        o.members().orElse(List.of()))), wanted);
        return failedOnWanted && !ranWellOnIt && clusterBelow ? wanted : null;
    }

    /**
     * {@code OutOfSpace}: True while the NOSPACE alarm is raised, saying what the operator does about it; False once it
     * disarmed it (or the alarm went otherwise). Absent until the alarm is first seen.
     */
    private static Optional<Condition> outOfSpace(EtcdClusterStatus status, ClusterObservation o, List<Seat> seats,
            Step step) {
        if (step instanceof DisarmNoSpace d) {
            return Optional.of(condition(OUT_OF_SPACE, false, REASON_ALARM_DISARMED, d.message()));
        }
        Optional<Condition> before = Conditions.find(status.getConditions(), OUT_OF_SPACE);
        if (!o.space().noSpace()) {
            return before.filter(c -> Conditions.TRUE.equals(c.getStatus())).map(c -> condition(OUT_OF_SPACE, false,
                    REASON_ALARM_GONE, "No member reports the NOSPACE alarm any more."));
        }
        if (step instanceof Wait w && Wait.NO_SPACE.equals(w.reason())) {
            return Optional.of(condition(OUT_OF_SPACE, true, REASON_LIVE_DATA_OVER_QUOTA, w.message()));
        }
        List<String> raisedBy = o.space().noSpaceAlarms().stream().map(a -> seats.stream()
                .filter(s -> s.member().id() == a.memberId()).map(Seat::name).filter(n -> !n.isEmpty()).findFirst()
                .orElse(Long.toHexString(a.memberId()))).distinct().sorted().toList();
        boolean freeing = step instanceof CompactKeyspace || step instanceof DefragmentMember;
        return Optional.of(condition(OUT_OF_SPACE, true, REASON_NO_SPACE_ALARM, "etcd's NOSPACE alarm is raised"
                + " (by " + String.join(", ", raisedBy) + "): the cluster refuses writes until it is disarmed. "
                + (freeing ? step.describe() : "Freeing space waits: " + step.describe())));
    }

    /**
     * {@code Defragmenting}: True while a member is defragmented for {@code spec.etcd.defragmentation} (past its
     * threshold or in a scheduled round); False with what holds it back otherwise. Absent while the field was never
     * set.
     */
    private static Optional<Condition> defragmenting(EtcdClusterStatus status, ClusterObservation o, List<Seat> seats,
            Step step) {
        FragmentationThreshold threshold = o.space().defragmentation();
        DefragmentationRound round = o.space().round();
        if (!o.space().defragmentationOn()) {
            return Conditions.find(status.getConditions(), DEFRAGMENTING).map(c -> condition(DEFRAGMENTING, false,
                    REASON_DEFRAGMENTATION_OFF, "spec.etcd.defragmentation is not set: members are defragmented only"
                            + " to free space under the NOSPACE alarm."));
        }
        if (step instanceof DefragmentMember d && !DefragmentMember.NO_SPACE.equals(d.reason())) {
            return Optional.of(condition(DEFRAGMENTING, true, REASON_DEFRAGMENTING_MEMBER, d.describe()));
        }
        String next = status.getDefragmentation() == null || status.getDefragmentation().getNextRoundTime() == null
                ? "" : " The next scheduled round is due at " + status.getDefragmentation().getNextRoundTime() + ".";
        List<String> waiting = new ArrayList<>(DefragmentationPlanner.fragmented(o, seats).stream().map(Seat::name)
                .toList());
        String which = waiting.isEmpty() ? "" : "The free space of " + String.join(", ", waiting)
                + " passes the threshold of " + threshold.describe() + ", ";
        List<String> inRound = DefragmentationPlanner.roundRemaining(o, seats).stream().map(Seat::name).toList();
        if (!inRound.isEmpty()) {
            which += (which.isEmpty() ? "The" : "and the") + " round scheduled for " + round.due() + " has "
                    + String.join(", ", inRound) + " left, ";
        }
        if (which.isEmpty()) {
            String none = threshold == null ? "No scheduled round is in progress."
                    : "No member's free space passes the threshold of " + threshold.describe() + ".";
            return Optional.of(condition(DEFRAGMENTING, false, REASON_NO_MEMBER_FRAGMENTED, none + next));
        }
        return Optional.of(condition(DEFRAGMENTING, false, REASON_DEFRAGMENTATION_ON_HOLD,
                !DefragmentationPlanner.enoughVoters(seats)
                        ? which + "but a member is defragmented only while the other healthy voting members are a"
                                + " majority: a cluster of fewer than three voting members is not defragmented by the"
                                + " operator." + next
                        : step instanceof Nothing && !DefragmentationPlanner.safe(seats)
                                ? which + "but defragmentation waits until every voting member is healthy."
                                : which + "but defragmentation waits until nothing else is in progress: "
                                        + step.describe()));
    }

    /** Waits that are about a member in trouble rather than one being added. */
    private static boolean recoveryWait(Wait w) {
        return Wait.MEMBER_NOT_HEALTHY.equals(w.reason()) || Wait.POD_TERMINATING.equals(w.reason())
                || Wait.RECOVERY_MEMBER_STARTING.equals(w.reason())
                || Wait.QUORUM_AT_RISK.equals(w.reason()) || Wait.CORRUPT_ALARM.equals(w.reason())
                || Wait.MEMBER_LIST_PARTIAL.equals(w.reason()) || Wait.LEADER_NOT_LISTED.equals(w.reason());
    }

    private static List<MemberDetail> memberDetails(ClusterObservation o, List<Seat> seats) {
        MemberNaming naming = o.naming();
        List<MemberDetail> details = new ArrayList<>();
        for (Seat s : seats) {
            MemberDetail d = new MemberDetail();
            d.setName(s.name().isEmpty() ? null : s.name());
            d.setId(s.member().hexId());
            d.setPeerURL(s.member().peerUrl());
            d.setClientURL(s.name().isEmpty() ? null : naming.clientUrl(s.name()));
            d.setHealthy(s.healthy());
            d.setLeader(s.leader());
            d.setLearner(s.learner());
            d.setVersion(o.healthOf(s.member().id()).map(MemberHealth::version)
                    .orElseGet(() -> ClusterPlanner.podVersion(o, s)));
            details.add(d);
        }
        return details;
    }

    private static List<MemberDetail> podDetails(ClusterObservation o, List<MemberPod> live) {
        MemberNaming naming = o.naming();
        List<MemberDetail> details = new ArrayList<>();
        for (MemberPod p : live) {
            MemberDetail d = new MemberDetail();
            d.setName(p.name());
            d.setPeerURL(naming.peerUrl(p.name()));
            d.setClientURL(naming.clientUrl(p.name()));
            d.setHealthy(false);
            d.setVersion(p.etcdVersion());
            details.add(d);
        }
        return details;
    }

    /**
     * {@code CertificatesRotating}: True while a live member pod runs on TLS material its Secrets no longer hold (with
     * the member restarted now, or what the roll waits for); False once every member runs on the current material.
     * Absent until the first change of the Secrets is seen.
     */
    private static Optional<Condition> certificatesRotating(EtcdClusterStatus status, ClusterObservation o,
            Step step) {
        List<MemberPod> stale = o.livePods().stream().filter(MemberPod::staleTls).toList();
        if (stale.isEmpty()) {
            return Conditions.find(status.getConditions(), CERTIFICATES_ROTATING).map(c -> condition(
                    CERTIFICATES_ROTATING, false, REASON_CERTIFICATES_CURRENT,
                    "Every member runs on the TLS secrets as they are now."));
        }
        String left = "Pod" + (stale.size() > 1 ? "s " : " ") + podNames(stale) + " still run" + (stale.size() > 1
                ? "" : "s") + " on TLS secrets that have changed since " + (stale.size() > 1 ? "they" : "it")
                + " started. ";
        if (step instanceof Step.RestartMember r) {
            return Optional.of(condition(CERTIFICATES_ROTATING, true, REASON_RESTARTING_MEMBER, left + r.describe()));
        }
        return Optional.of(condition(CERTIFICATES_ROTATING, true, REASON_ROTATION_WAITING, left
                + "Members are restarted one at a time, once every member is healthy; now: " + step.describe()));
    }

    private static Condition condition(String type, boolean status, String reason, String message) {
        return new Condition(type, status ? Conditions.TRUE : Conditions.FALSE, reason, message);
    }

    private static String podNames(List<MemberPod> pods) {
        return String.join(", ", pods.stream().map(MemberPod::name).sorted().toList());
    }
}
