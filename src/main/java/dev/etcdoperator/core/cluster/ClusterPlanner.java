package dev.etcdoperator.core.cluster;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.random.RandomGenerator;
import java.util.stream.Collectors;

import dev.etcdoperator.api.v1beta2.ClusterAnnotations;
import dev.etcdoperator.core.cluster.Step.AddMember;
import dev.etcdoperator.core.cluster.Step.AllMembersLost;
import dev.etcdoperator.core.cluster.Step.CreateInitialMembers;
import dev.etcdoperator.core.cluster.Step.CreateMemberPod;
import dev.etcdoperator.core.cluster.Step.CreateSeed;
import dev.etcdoperator.core.cluster.Step.DeletePod;
import dev.etcdoperator.core.cluster.Step.Nothing;
import dev.etcdoperator.core.cluster.Step.Paused;
import dev.etcdoperator.core.cluster.Step.PromoteLearner;
import dev.etcdoperator.core.cluster.Step.QuorumLost;
import dev.etcdoperator.core.cluster.Step.RecordInitialMembers;
import dev.etcdoperator.core.cluster.Step.RecordSeed;
import dev.etcdoperator.core.cluster.Step.Refuse;
import dev.etcdoperator.core.cluster.Step.ResetMemberImage;
import dev.etcdoperator.core.cluster.Step.RemoveMember;
import dev.etcdoperator.core.cluster.Step.UpgradeMember;
import dev.etcdoperator.core.cluster.Step.Wait;

/**
 * Picks the one next step of a cluster from one observation. Pure: the same observation (and random source)
 * gives the same step. At most one membership change per reconcile, and never one that costs quorum.
 *
 * <p>A <em>seat</em> is an etcd member with its pod: matched by member name, or, for a member added but not yet
 * started (it has no name), by its peer URL. A member is <em>healthy</em> when it answered and said so. Voters
 * are the members that are not learners; quorum is a majority ({@code n/2+1}) of voters. A removal is
 * <em>safe</em> when it is a learner's, or when the healthy voters left are still a majority of the voters left.
 * A member is <em>dead</em> when it started and its pod is gone, has ended or its etcd container crash-loops in it
 * (non-persistent), when its pod and its claim are both gone (persistent), or when it never started and its peer
 * URL is not one of ours. A member is <em>away</em> when it is persistent, started, and its pod is gone but still
 * terminating (a lost node): it is recreated on its claim once that pod is gone, and blocks nothing else meanwhile.
 * The cluster <em>ran</em> once a member answered ({@code status.currentVersion} is set): a cluster that ran is never
 * seeded again by itself.
 *
 * <p>The first rule that applies wins:
 * <ol>
 * <li>{@code spec.paused}: {@link Paused}. Else, while the status records a recovery from a lost quorum: what
 *   {@link QuorumRecoveryPlanner#inProgress} says, until its member answers and the survivor's pod is gone. Else a
 *   member pod whose etcd image cannot be had, made for another version than {@code spec.version}:
 *   {@link ResetMemberImage} to {@code spec.version}, when that is no lower than the cluster's version and allowed
 *   from it.</li>
 * <li>No member answered:
 *   <ul>
 *   <li>no pod at all and the cluster never ran: {@link CreateInitialMembers} of the first members the status
 *   records, or {@link CreateSeed} of the seed it records; else, for a new cluster of {@link #INITIAL_MEMBERS_FROM}
 *   members or more that starts empty (no snapshot, no claim left), {@link RecordInitialMembers} of
 *   {@code spec.size} new names, all started together with one {@code --initial-cluster}; else {@link RecordSeed} of
 *   a new seed (named after a claim an earlier cluster of this name left, if any). Pods are created only once the
 *   status records their names, so a lagging view of the pods never starts a second, independent cluster;</li>
 *   <li>the cluster never ran and a recorded first member's pod ended before its etcd started: {@link DeletePod}
 *   {@code FirstMemberFailed}; has no pod: {@link CreateInitialMembers} of the missing ones; both only as long as no
 *   etcd of the first members has started;</li>
 *   <li>no pod at all, the cluster ran, and claims are left: {@link CreateMemberPod} in place on the first;</li>
 *   <li>no pod and no claim, and the cluster ran: {@link AllMembersLost}, unless a person asked for a reseed
 *   ({@link RecordSeed} with {@code reseed}: a new, empty cluster);</li>
 *   <li>persistent, the cluster ran, and a claim has no pod: {@link CreateMemberPod} in place; a pod on a claim has
 *   ended or its etcd crash-loops: {@link DeletePod} to recreate it (a majority must be back before any member can
 *   answer);</li>
 *   <li>only terminating pods: {@link Wait} {@code PodTerminating};</li>
 *   <li>the cluster never ran or a pod is starting (not running, not ended, its etcd not crash-looping):
 *   {@link Wait} {@code MembersStarting};</li>
 *   <li>without claims, every pod has ended: {@link AllMembersLost};</li>
 *   <li>else {@link QuorumLost}: the pods run or have ended, none answers; under {@code FromBackup}, once the voters
 *   the status recorded at the loss show a majority lost for good, {@link Step.CreateRestore} after the grace period
 *   (see {@link QuorumRecoveryPlanner#noMemberAnswers(ClusterObservation, String, java.util.function.Supplier)}).</li>
 *   </ul></li>
 * <li>A member whose etcd leads a new cluster of its own beside the cluster: {@link DeletePod} {@code MemberSplitOff}
 *   with its claim; a member list lacking a majority of the members the pods and claims say the cluster has:
 *   {@link Wait} {@code MemberListPartial}, nothing changed (see {@link #splitOff}). Else a member etcd knows has no pod and needs
 *   one: added but never started, or persistent with its claim
 *   present: {@link CreateMemberPod} with state {@code existing} (not while a pod of that name is still
 *   terminating: see rule 15). This changes no membership, so it is done even without quorum: it is how quorum
 *   comes back.</li>
 * <li>Persistent, a started member's pod has ended or its etcd crash-loops, and the member is unhealthy:
 *   {@link DeletePod} so that rule 3 recreates it on its data (at the version the cluster runs); also without
 *   quorum, for the same reason. A member whose etcd failed in each of its last pods made so
 *   ({@link MemberPod#keepsFailing}) while every other member is healthy on the same release: {@link RemoveMember}
 *   {@code MemberKeepsFailing}, its claim and pod with it.</li>
 * <li>Healthy voters fewer than a majority of voters, but enough with the first members started together that
 *   are still starting (recorded until they first have a quorum; their pod not ended): {@link Wait}
 *   {@code MembersStarting}. Else
 *   {@link QuorumLost}, nothing is changed; unless a majority is
 *   lost for good, for longer than the grace period, and the policy or a person's approval says to recover: what
 *   {@link QuorumRecoveryPlanner#onQuorumLost} says.</li>
 * <li>A dead member: {@link RemoveMember} {@code DeadMember} if safe (with its ended pod, if it has one, deleted
 *   in the same step), else {@link Wait} {@code QuorumAtRisk}. A later observation adds a fresh member (rule 13):
 *   that is a replacement. A member is dead only by its pod (gone, ended, or its etcd waiting out the kubelet's
 *   back-off after a failure), never by its health: a member that does not answer for a while (a leader election, a
 *   slow disk) is waited for, not replaced. A crash-looping member that cannot be removed safely is started again
 *   in place by the kubelet, on its data: that is how a quorum lost to failed etcd processes comes back (rule 5
 *   counts it as one that may come back, not as lost for good).</li>
 * <li>A pod no member owns: {@link DeletePod} {@code NotAMember}, on a list the leader answered (else {@link Wait}
 *   {@code LeaderNotListed}). Then, while etcd's NOSPACE alarm is raised, what
 *   {@link SpacePlanner} says: compact, defragment the members one at a time, disarm.</li>
 * <li>More members than wanted and a learner among them: {@link RemoveMember} the learner. Wanted is
 *   {@code spec.size}, and one more while voters without a claim whose pod runs once (its etcd is not started
 *   again when it ends: a restored cluster's seed, a quorum recovery's member, a pod an earlier operator version
 *   made) could take the quorum with them: one of them is replaced by a member whose pod restarts etcd in place
 *   (rules 13 and 13a; see {@link RunOnceReplacement}).</li>
 * <li>A learner: {@link PromoteLearner} once it is healthy and its raft index has reached 90% of the highest
 *   voter's (etcd's own readiness bar), else {@link Wait} {@code LearnerCatchingUp} (or {@code MemberStarting}
 *   while its pod does not run, {@code PodTerminating} while its old pod terminates); one whose pod ended before
 *   its etcd joined: {@link DeletePod} {@code LearnerPodFailed}, and rule 3 makes it again.</li>
 * <li>A member that is not away and whose pod does not run yet: {@link Wait} {@code MemberStarting}.</li>
 * <li>More voters than wanted: {@link RemoveMember} {@code ScaleDown}, choosing an unhealthy follower
 *   (a member away first), then a follower whose pod runs once, then a healthy follower, the leader only when no
 *   follower is left; if unsafe,
 *   {@link Wait} {@code QuorumAtRisk}.</li>
 * <li>Any member unhealthy that is not away: {@link Wait} {@code MemberNotHealthy}.</li>
 * <li>Fewer members than wanted: {@link AddMember} (as a learner) with a fresh name. (13a) A member whose pod
 *   runs once to replace, and more voters than {@code spec.size}, all healthy: {@link RemoveMember}
 *   {@code RunOncePodReplaced} of it, a follower first; the leader only after a {@link MoveLeader} to a voter whose
 *   pod restarts in place ({@link Step.MoveLeader}); if unsafe, {@link Wait} {@code QuorumAtRisk}.</li>
 * <li>A member's pod (not away) runs another version than {@code spec.version}: check the change from the lowest
 *   running version with {@link VersionPolicy}; refused: {@link Refuse}; allowed: {@link UpgradeMember} on a
 *   follower, the leader last, unless a member is away and restarting this one would leave fewer healthy voters
 *   than a majority ({@link Wait} {@code QuorumAtRisk}).</li>
 * <li>A member is away: {@link Wait} {@code PodTerminating} (the status builder reports a pod terminating longer
 *   than {@link #STUCK_AFTER} past its deletion timestamp for a person).</li>
 * <li>A member's pod was started on other content of the cluster's TLS Secrets than they hold now: what
 *   {@link CertificateRolloutPlanner} says ({@link Step.RestartMember}, followers first, the leader last, one at a
 *   time, only while every voter is healthy and the others are a majority without it; else {@link Wait}
 *   {@code QuorumAtRisk}).</li>
 * <li>{@code spec.etcd.defragmentation} is set and a member's free space passes its threshold: what
 *   {@link DefragmentationPlanner} says ({@link Step.DefragmentMember} {@code Fragmented}, followers first, the leader
 *   last, only with three voters or more, all healthy).</li>
 * <li>Else {@link Nothing}.</li>
 * </ol>
 * New pods (seed, added, recreated) run the lowest version the cluster runs (so a refused or pending upgrade is
 * never carried in by a new member); a brand-new cluster runs {@code spec.version}.
 */
public final class ClusterPlanner {
    private static final int NAME_ATTEMPTS = 100;

    /**
     * From this {@code spec.size} on, a new, empty cluster starts all its members together; smaller ones start from
     * one seed (two members started together could not elect a leader while either is missing).
     */
    public static final int INITIAL_MEMBERS_FROM = 3;

    /** How long past its deletion timestamp a terminating pod counts as stuck, and is reported for a person. */
    public static final Duration STUCK_AFTER = Duration.ofMinutes(5);
    /** How many pods made again on its claim a member's etcd fails in before it is replaced (see rule 4). */
    public static final int RECREATIONS_BEFORE_REPLACING = 3;

    private final RandomGenerator random;
    private final VersionPolicy versions;

    public ClusterPlanner(RandomGenerator random) {
        this(random, new VersionPolicy());
    }

    public ClusterPlanner(RandomGenerator random, VersionPolicy versions) {
        this.random = Objects.requireNonNull(random, "random");
        this.versions = Objects.requireNonNull(versions, "versions");
    }

    /** One etcd member, the name it has or will have, and its live pod. */
    record Seat(EtcdMember member, String name, Optional<MemberPod> pod, boolean healthy, boolean leader,
            long raftIndex) {
        boolean learner() {
            return member.learner();
        }

        boolean started() {
            return member.started();
        }

        boolean podStopped() {
            return pod.map(MemberPod::stopped).orElse(false);
        }

        boolean podRunning() {
            return pod.map(MemberPod::running).orElse(false);
        }

        /** Its pod runs once: its etcd is not started again when it ends. */
        boolean runsOnce() {
            return pod.map(MemberPod::runsOnce).orElse(false);
        }

        /** The pod ended, or its etcd failed and waits to start again: either way the pod goes with the member. */
        boolean podFailed() {
            return pod.map(p -> p.stopped() || p.crashLooping() || p.dataMissing()).orElse(false);
        }

        /** Its pod was made again in place on its claim, which holds none of its data. */
        boolean dataMissing() {
            return pod.map(MemberPod::dataMissing).orElse(false);
        }
    }

    public Step plan(ClusterObservation o) {
        if (o.paused()) {
            return new Paused();
        }
        Optional<Step> recovering = QuorumRecoveryPlanner.inProgress(o);
        if (recovering.isPresent()) {
            return recovering.get();
        }
        Optional<Step> reimage = imageOfAnotherVersion(o);
        if (reimage.isPresent()) {
            return reimage.get();
        }
        List<EtcdMember> members = o.members().orElse(List.of());
        return members.isEmpty() ? planWithoutMembers(o) : planWithMembers(o, seats(o, members));
    }

    /**
     * A member pod whose etcd image the kubelet cannot get, made from other settings than spec.version and
     * spec.repository ask for now (an upgrade to an image that does not exist, then spec.version set back or to
     * another version, or the repository fixed): it gets the image spec asks for in place, as an upgrade does.
     * Otherwise nothing could move it on: a member whose pod does not run holds up every other step. Another version
     * only towards one its data may be opened with (see {@link #imageFloor}); while a downgrade through etcd's API
     * runs, only another patch of the minor the pod was given; never for a pod of the very version the cluster runs
     * (a pull that fails for a while).
     */
    private Optional<Step> imageOfAnotherVersion(ClusterObservation o) {
        String wanted = o.desiredVersion();
        Optional<Version> to = Version.parse(wanted);
        if (to.isEmpty()) {
            return Optional.empty();
        }
        Optional<Step> rollBack = crashLoopingOnAnotherVersion(o, to.get());
        if (rollBack.isPresent()) {
            return rollBack;
        }
        boolean downgrading = downgrading(o, to.get());
        for (MemberPod p : sortedByName(o.livePods())) {
            if (p.imageProblem() == null) {
                continue;
            }
            if (downgrading) {
                // a member given the older minor in a downgrade (its data rewritten in that minor's format first):
                // another patch of that minor, never another minor
                if (!Objects.equals(p.etcdVersion(), wanted)
                        && Version.parse(p.etcdVersion()).filter(to.get()::sameMinor).isPresent()) {
                    return Optional.of(new ResetMemberImage(p.name(), p.etcdVersion(), wanted, p.imageProblem()));
                }
                continue;
            }
            if (Objects.equals(p.etcdVersion(), wanted)) {
                if (p.otherRepository()) {
                    return Optional.of(new ResetMemberImage(p.name(), wanted, wanted, p.imageProblem()));
                }
                continue;
            }
            Optional<Version> from = Version.parse(p.etcdVersion());
            Optional<Version> floor = imageFloor(o, p);
            boolean allowed;
            if (floor.isPresent()) {
                allowed = !floor.equals(from) && to.get().compareTo(floor.get()) >= 0
                        && versions.check(floor.get().toString(), wanted).allowed();
            } else {
                // nothing says what opened its data last: within the minor of the image it was given, any patch can
                allowed = from.filter(to.get()::sameMinor).isPresent();
            }
            if (allowed) {
                return Optional.of(new ResetMemberImage(p.name(), p.etcdVersion(), wanted, p.imageProblem()));
            }
        }
        return Optional.empty();
    }

    /**
     * A member pod whose etcd crash-loops on another version than spec.version now asks for (an upgrade its data or
     * settings do not take, then spec.version set back): it gets spec's image in place. Without that, a cluster of
     * one or two members, or one without claims whose other voters are down, stays without quorum: a crash-looping
     * member cannot be removed then, and nothing else gives it another image. Within the minor it runs, always;
     * back to a lower minor only while a member that answers still runs that minor or a lower one, with no downgrade
     * through etcd's API under way and no member reporting data of a later minor: etcd's cluster version is then
     * still the lower minor, and the data the crash-looping release opened was not converted.
     */
    private Optional<Step> crashLoopingOnAnotherVersion(ClusterObservation o, Version to) {
        // the members that answer etcd's status call: without quorum none is healthy, yet each says its version
        List<MemberHealth> answering = o.health().values().stream()
                .filter(h -> h.version() != null && Version.parse(h.version()).isPresent()).toList();
        for (MemberPod p : sortedByName(o.livePods())) {
            if (!p.crashLooping() || p.imageProblem() != null || Objects.equals(p.etcdVersion(), to.toString())) {
                continue;
            }
            Optional<Version> from = Version.parse(p.etcdVersion());
            if (from.isEmpty() || from.get().major() != to.major()) {
                continue;
            }
            boolean allowed;
            if (from.get().sameMinor(to)) {
                allowed = true;
            } else if (from.get().minor() > to.minor()) {
                Optional<Version> lowest = answering.stream().map(MemberHealth::version).map(Version::parse)
                        .flatMap(Optional::stream).min(Comparator.naturalOrder());
                boolean noDowngrade = answering.stream().allMatch(h -> h.downgradeTarget().isEmpty());
                boolean dataOfTo = answering.stream().map(MemberHealth::storageVersion)
                        .filter(v -> v != null && !v.isEmpty()).map(Version::parse).flatMap(Optional::stream)
                        .allMatch(v -> v.major() < to.major() || v.major() == to.major() && v.minor() <= to.minor());
                allowed = lowest.isPresent() && noDowngrade && dataOfTo && lowest.get().major() == to.major()
                        && lowest.get().minor() <= to.minor() && to.compareTo(lowest.get()) >= 0
                        && versions.check(lowest.get().toString(), to.toString()).allowed();
            } else {
                allowed = false;
            }
            if (allowed) {
                return Optional.of(new ResetMemberImage(p.name(), p.etcdVersion(), to.toString(),
                        "its etcd crash-loops", true));
            }
        }
        return Optional.empty();
    }

    /** A member runs (or its pod's image names) a later minor than {@code wanted}: a downgrade, for DowngradePlanner. */
    private static boolean downgrading(ClusterObservation o, Version wanted) {
        return versionsRunning(o).anyMatch(v -> v.major() > wanted.major()
                || v.major() == wanted.major() && v.minor() > wanted.minor());
    }

    /** The versions the pods whose image the kubelet has name, and those healthy members report. */
    private static java.util.stream.Stream<Version> versionsRunning(ClusterObservation o) {
        List<String> running = new ArrayList<>();
        o.livePods().stream().filter(p -> p.imageProblem() == null).forEach(p -> running.add(p.etcdVersion()));
        o.health().values().stream().filter(MemberHealth::healthy).forEach(h -> running.add(h.version()));
        return running.stream().filter(Objects::nonNull).map(Version::parse).flatMap(Optional::stream);
    }

    /**
     * The lowest version that may have opened the data of {@code failing}, whose image cannot be had (so that image
     * never ran): the versions the other members report or their pods' images name, and {@code status.currentVersion}
     * unless that is the failing image's own version (a status written from the pods' images after the patch).
     */
    private static Optional<Version> imageFloor(ClusterObservation o, MemberPod failing) {
        Optional<Version> recorded = o.currentVersion() == null || o.currentVersion().equals(failing.etcdVersion())
                ? Optional.empty() : Version.parse(o.currentVersion());
        return java.util.stream.Stream.concat(versionsRunning(o), recorded.stream()).min(Comparator.naturalOrder());
    }

    /** Why a pod that does not run is held up, when its etcd image cannot be had; else empty. */
    static String imageNote(Optional<MemberPod> pod) {
        return pod.map(MemberPod::imageProblem).map(p -> " Its etcd image cannot be had (" + p + "): set"
                + " spec.version to a version whose image exists (or fix spec.repository); the pod is given that image"
                + " in place.").orElse("");
    }

    /** The seats of an observation, sorted by name; exposed for the status builder. */
    static List<Seat> seats(ClusterObservation o, List<EtcdMember> members) {
        MemberNaming naming = o.naming();
        List<Seat> seats = new ArrayList<>();
        for (EtcdMember m : members) {
            String name = m.started() ? m.name() : naming.memberOfPeerUrl(m.peerUrl()).orElse("");
            Optional<MemberPod> pod = name.isEmpty() ? Optional.empty() : o.livePod(name);
            Optional<MemberHealth> h = o.healthOf(m.id());
            seats.add(new Seat(m, name, pod, h.map(MemberHealth::healthy).orElse(false),
                    h.map(MemberHealth::leader).orElse(false), h.map(MemberHealth::raftIndex).orElse(0L)));
        }
        seats.sort(Comparator.comparing(Seat::name).thenComparingLong(s -> s.member().id()));
        return seats;
    }

    private Step planWithoutMembers(ClusterObservation o) {
        MemberNaming naming = o.naming();
        List<MemberPod> live = o.livePods();
        boolean ran = o.ran();
        List<String> claims = o.memberClaims();
        if (o.pods().isEmpty()) {
            if (!ran) {
                return seed(o, claims);
            }
            if (!claims.isEmpty()) {
                String first = claims.get(0);
                return new CreateMemberPod(first, naming.peerUrl(first), Step.STATE_EXISTING, runningVersion(o),
                        CreateMemberPod.RECREATING_IN_PLACE);
            }
            return o.reseedRequested() ? new RecordSeed(freshName(o, Set.of()), true)
                    : everyMemberLost(o, "no member pod and no data claim is left");
        }
        if (ran || seededOnEarlierClaims(o, claims)) {
            // members on claims come back with their data, one pod at a time, before any can answer (a seed on an
            // earlier cluster's claim waits for the peers its data names: they are its other claims)
            for (String claim : claims) {
                if (o.livePod(claim).isEmpty() && !o.terminatingPod(claim)) {
                    return new CreateMemberPod(claim, naming.peerUrl(claim), Step.STATE_EXISTING, runningVersion(o),
                            CreateMemberPod.RECREATING_IN_PLACE);
                }
            }
            for (MemberPod p : sortedByName(live)) {
                if ((p.stopped() || p.crashLooping()) && claims.contains(p.name())) {
                    return new DeletePod(p.name(), DeletePod.POD_STOPPED);
                }
            }
        }
        if (!ran) {
            Optional<Step> missing = missingInitialMembers(o).or(() -> endedSeed(o));
            if (missing.isPresent()) {
                return missing.get();
            }
        }
        if (live.isEmpty()) {
            return new Wait(Wait.POD_TERMINATING, "Waiting for pods " + names(o.pods()) + " to finish terminating.");
        }
        List<MemberPod> starting = live.stream().filter(p -> !p.running() && !p.stopped() && !p.crashLooping()
                && !p.dataMissing()).toList();
        if (ran && o.persistent() && live.stream().allMatch(MemberPod::dataMissing)) {
            return everyMemberLost(o, "the claims of every member hold none of its data (" + names(live) + "; wiped,"
                    + " or new volumes): delete those pods and claims before a reseed");
        }
        if (!ran || !starting.isEmpty()) {
            List<MemberPod> waiting = ran ? starting : live;
            return new Wait(Wait.MEMBERS_STARTING, "Waiting for the first members to answer; pods "
                    + names(waiting) + " are starting." + waiting.stream().filter(p -> p.imageProblem() != null)
                            .map(p -> " Pod " + p.name() + ":" + imageNote(Optional.of(p))).collect(Collectors.joining()));
        }
        // on claims, ended pods whose claims are gone (deleted with their data) start no more than without claims
        if (live.stream().allMatch(MemberPod::stopped)
                && (!o.persistent() || live.stream().noneMatch(p -> o.claims().contains(p.name())))) {
            if (o.reseedRequested()) {
                // a person asked to start it again empty: the ended pods go first, then a seed is recorded
                return new DeletePod(sortedByName(live).get(0).name(), DeletePod.POD_STOPPED);
            }
            return everyMemberLost(o, "every member pod has ended (" + names(live) + "); their data directories are"
                    + " not on claims" + (o.persistent() ? " (gone)" : "") + ", and a pod that ended does not start"
                    + " again");
        }
        List<MemberPod> ended = live.stream().filter(MemberPod::stopped).toList();
        List<MemberPod> failing = live.stream().filter(MemberPod::crashLooping).toList();
        List<MemberPod> running = live.stream().filter(MemberPod::running).toList();
        return QuorumRecoveryPlanner.noMemberAnswers(o, "No etcd member answers although pods " + names(running)
                + " are running" + (ended.isEmpty() ? "" : " (pods " + names(ended) + " have ended)")
                + (failing.isEmpty() ? "" : " (in pods " + names(failing) + " etcd failed and the kubelet starts it"
                        + " again after a back-off)") + ". The"
                + " operator changes nothing: check the pods' logs; if a majority of members is lost for good, restore"
                + " the cluster from a backup.", () -> freshName(o, Set.of()));
    }

    /**
     * The seed of a cluster that never ran: the one the status records, else a new one to record first (named after
     * a claim an earlier cluster of this name left, if any, so that it starts on that data).
     */
    private Step seed(ClusterObservation o, List<String> claims) {
        if (!o.initialMembers().isEmpty()) {
            return createInitialMembers(o, o.initialMembers());
        }
        String recorded = o.seedMember();
        if (recorded != null && !recorded.isBlank()) {
            return new CreateSeed(recorded, o.naming().peerUrl(recorded), o.desiredVersion());
        }
        if (claims.isEmpty() && !o.startsFromSeed() && o.desiredSize() >= INITIAL_MEMBERS_FROM) {
            Set<String> taken = new HashSet<>();
            List<String> names = new ArrayList<>();
            for (int i = 0; i < o.desiredSize(); i++) {
                String name = freshName(o, taken);
                taken.add(name);
                names.add(name);
            }
            return new RecordInitialMembers(names.stream().sorted().toList());
        }
        return new RecordSeed(claims.isEmpty() ? freshName(o, Set.of()) : claims.get(0), false);
    }

    /**
     * etcd's CORRUPT alarm: a member's data differs from the others'. Which copy is right only a person can tell; the
     * operator changes no membership until the alarm is disarmed.
     */
    private static Optional<Step> corruptAlarm(ClusterObservation o, List<Seat> seats) {
        if (seats.stream().noneMatch(Seat::leader)) {
            // etcd lists its alarms through its leader: without one the list is an earlier one, and a lost quorum
            // is what is known
            return Optional.empty();
        }
        List<String> raisedFor = o.space().alarms().stream().filter(MemberAlarm::corrupt).map(a -> seats.stream()
                .filter(s -> s.member().id() == a.memberId()).findFirst().map(ClusterPlanner::label)
                .orElse(Long.toHexString(a.memberId()))).distinct().sorted().toList();
        if (raisedFor.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new Wait(Wait.CORRUPT_ALARM, "etcd's CORRUPT alarm is raised for member"
                + (raisedFor.size() > 1 ? "s " : " ") + String.join(", ", raisedFor) + ": a member's data differs from"
                + " the others', and the members refuse requests until the alarm is disarmed. The operator changes no"
                + " membership meanwhile. Compare the members' data (etcdctl endpoint hashkv --cluster), remove the"
                + " member whose data differs (etcdctl member remove <id>), then disarm the alarm (etcdctl alarm"
                + " disarm): the operator deletes that member's pod and adds a fresh member."));
    }

    /**
     * A cluster that never ran, seeded on a claim an earlier cluster of this name left (some pod of it exists): the
     * seed's data names that cluster's members, and its etcd waits for them (the other claims) before it answers; a
     * seed whose pod went meanwhile is made again on its claim the same way.
     */
    private static boolean seededOnEarlierClaims(ClusterObservation o, List<String> claims) {
        String seed = o.seedMember();
        return o.initialMembers().isEmpty() && seed != null && claims.contains(seed) && claims.size() > 1;
    }

    /**
     * The recorded seed's pod ended (evicted, say) before the cluster first answered: deleted, so that the seed is
     * created again (on its claim, with its data, if it has one); otherwise nothing would start it again. Not a pod
     * that runs once (a restored cluster's seed: its restore reads why it ended).
     */
    private static Optional<Step> endedSeed(ClusterObservation o) {
        String seed = o.seedMember();
        if (seed == null || !o.initialMembers().isEmpty()) {
            return Optional.empty();
        }
        return o.livePod(seed).filter(p -> p.stopped() && !p.runsOnce())
                .map(p -> new DeletePod(p.name(), DeletePod.FIRST_MEMBER_FAILED));
    }

    /**
     * The recorded first members whose pods are missing, or ended before their etcd started (an init container
     * failed, the pod was evicted), before any member answered: deleted and created again only while no etcd of them
     * has started (each one's check-dns waits for a majority of their names, so none starts before a majority of pods
     * exists). A member whose etcd ran may have voted; one made again, empty, could vote a second time in the same
     * term, so once one ran a missing member waits for the others to answer, and is then replaced as a dead member.
     */
    private static Optional<Step> missingInitialMembers(ClusterObservation o) {
        List<String> initial = o.initialMembers();
        List<MemberPod> pods = initial.stream().map(o::anyPod).flatMap(Optional::stream).toList();
        if (pods.stream().anyMatch(MemberPod::etcdStarted)) {
            return Optional.empty();
        }
        Optional<MemberPod> ended = pods.stream().filter(p -> p.stopped() && !p.terminating()).findFirst();
        if (ended.isPresent()) {
            return Optional.of(new DeletePod(ended.get().name(), DeletePod.FIRST_MEMBER_FAILED));
        }
        List<String> missing = initial.stream().filter(n -> o.anyPod(n).isEmpty()).toList();
        return missing.isEmpty() ? Optional.empty() : Optional.of(createInitialMembers(o, missing));
    }

    private static CreateInitialMembers createInitialMembers(ClusterObservation o, List<String> names) {
        MemberNaming naming = o.naming();
        String initialCluster = String.join(",", o.initialMembers().stream()
                .map(n -> n + "=" + naming.peerUrl(n)).toList());
        return new CreateInitialMembers(names, initialCluster, o.desiredVersion());
    }

    /**
     * Until the first members started together first have a quorum (the status records them until then), those whose
     * pods have not ended are starting: with the healthy ones a majority, there was no quorum to lose.
     */
    private static Optional<Step> firstMembersStarting(ClusterObservation o, List<Seat> voters, int healthy) {
        List<String> starting = voters.stream().filter(s -> !s.healthy() && o.initialMembers().contains(s.name())
                && s.pod().map(p -> !p.stopped()).orElse(false)).map(Seat::name).toList();
        if (starting.isEmpty() || healthy + starting.size() < majority(voters.size())) {
            return Optional.empty();
        }
        return Optional.of(new Wait(Wait.MEMBERS_STARTING, "Waiting for the first members " + String.join(", ",
                starting) + " to start; etcd elects a leader once a majority of them runs."));
    }

    /**
     * A member started again in place on an empty data directory (wiped, or its volume lost) with the
     * {@code --initial-cluster-state=new} it was first started with makes a new cluster of its own under the same
     * IDs, and answers as its leader. A member the observer saw leading such a cluster beside the real one
     * ({@link MemberPod#splitOff}) has its pod and claim deleted: its member is then replaced as a dead one. While the
     * list the members answered lacks a majority of the members the pods and claims say the cluster has
     * ({@link #partialListLacks}), it may come from such a member alone, the others not answering: acting on it would
     * delete their pods and claims as no members' and add members to the wrong cluster, so nothing is changed until
     * they answer. Not during a quorum recovery, whose new member lists itself alone by design while the old pods
     * are retired.
     */
    static Optional<Step> splitOff(ClusterObservation o, List<Seat> seats) {
        for (Seat s : seats) {
            if (s.pod().filter(p -> p.splitOff() && !p.terminating()).isPresent()) {
                return Optional.of(new DeletePod(s.name(), DeletePod.SPLIT_OFF));
            }
        }
        List<String> unlisted = partialListLacks(o, seats);
        if (unlisted.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new Wait(Wait.MEMBER_LIST_PARTIAL, partialListMessage(o, seats, unlisted)));
    }

    /** What {@link Wait#MEMBER_LIST_PARTIAL} says: the list, the members it lacks, what the operator does. */
    static String partialListMessage(ClusterObservation o, List<Seat> seats, List<String> unlisted) {
        return "The members that answered list "
                + String.join(", ", seats.stream().map(ClusterPlanner::label).toList()) + ", but not "
                + String.join(", ", unlisted) + ", whose etcd has run or whose claim is kept: a member started again"
                + " on an empty data directory may lead a new cluster of its own. The operator changes nothing (no"
                + " pod is deleted as no member's, no member is added) until those members answer. Only if you"
                + " removed them from etcd yourself (etcdctl member remove), delete their pods and claims; if they"
                + " are lost for good, restore the cluster from a backup.";
    }

    /**
     * The members the pods and claims say the cluster has that the member list lacks, when the list cannot be the
     * cluster's ({@link MemberListCheck}): it may be one member's own new cluster (see {@link #splitOff}). Empty
     * otherwise, and during a quorum recovery.
     */
    static List<String> partialListLacks(ClusterObservation o, List<Seat> seats) {
        if (o.quorumLoss() != null && o.quorumLoss().recovery() != null) {
            return List.of();
        }
        Set<String> listed = new HashSet<>();
        seats.forEach(s -> listed.add(s.name()));
        return List.copyOf(MemberListCheck.lacking(listed, seats.size(), o.pods(), o.claims(), o.now()));
    }

    /**
     * Every member is lost with its data: with policy FromBackup the cluster is restored from its newest backup
     * after the grace period, as a quorum lost for good is; otherwise a person decides.
     */
    private static Step everyMemberLost(ClusterObservation o, String what) {
        AllMembersLost lost = allMembersLost(o, what);
        return QuorumRecoveryPlanner.onEveryMemberLost(o, lost.message()).orElse(lost);
    }

    private static AllMembersLost allMembersLost(ClusterObservation o, String what) {
        String c = o.cluster();
        return new AllMembersLost("Every member of the cluster is lost: it ran (etcd " + o.currentVersion()
                + "), and " + what + ". Its data is gone unless it is restored from a backup. A new seed would be an"
                + " empty etcd behind the same client Service, so the operator creates nothing. Restore it with an"
                + " EtcdRestore, or, to start it again empty, annotate it: kubectl annotate etcdcluster " + c + " "
                + ClusterAnnotations.RESEED + "=$(kubectl get etcdcluster " + c
                + " -o jsonpath='{.metadata.uid}')");
    }

    private Step planWithMembers(ClusterObservation o, List<Seat> seats) {
        MemberNaming naming = o.naming();
        // 2a. a member list that may be one member's own new cluster changes nothing; a member whose etcd leads
        // such a cluster beside the real one goes
        Optional<Step> splitOff = splitOff(o, seats);
        if (splitOff.isPresent()) {
            return splitOff.get();
        }
        // 3. members etcd knows that need a pod; not a membership change
        for (Seat s : seats) {
            if (s.pod().isPresent() || s.name().isEmpty()) {
                continue;
            }
            boolean addedNeverStarted = !s.started();
            boolean onClaim = s.started() && o.persistent() && o.claims().contains(s.name()) && !s.healthy();
            if (addedNeverStarted || onClaim) {
                if (o.terminatingPod(s.name())) {
                    // its name is taken until the old pod is gone; that blocks this member only (rule 15)
                    continue;
                }
                return new CreateMemberPod(s.name(), s.member().peerUrl(), Step.STATE_EXISTING, runningVersion(o),
                        addedNeverStarted ? CreateMemberPod.STARTING_ADDED_MEMBER : CreateMemberPod.RECREATING_IN_PLACE);
            }
        }
        // 4. persistent: a pod that ended or whose etcd crash-loops is deleted so that rule 3 recreates it on its
        // claim; no membership change, so done without quorum too: it is how quorum comes back. A member added but
        // never started whose pod was made as one on its data (no member answered then) is made again as the new
        // member it is, on its empty claim. One whose etcd failed in each of its last pods made on its claim goes,
        // claim and all, while every other member is healthy (a fresh member replaces it).
        if (o.persistent()) {
            for (Seat s : seats) {
                if (!s.started() && s.dataMissing() && !o.terminatingPod(s.name())) {
                    return new DeletePod(s.name(), DeletePod.POD_STOPPED);
                }
            }
            for (Seat s : seats) {
                if (s.started() && s.pod().isPresent() && s.podFailed() && !s.healthy() && !s.dataMissing()
                        && o.claims().contains(s.name())) {
                    return keepsFailingBesideHealthyPeers(s, seats)
                            ? new RemoveMember(s.member().id(), label(s), RemoveMember.KEEPS_FAILING, true)
                            : new DeletePod(s.name(), DeletePod.POD_STOPPED);
                }
            }
        }
        // 5. quorum (every member reports a CORRUPT alarm and counts as unhealthy: it is no lost quorum)
        Optional<Step> corrupt = corruptAlarm(o, seats);
        if (corrupt.isPresent()) {
            return corrupt.get();
        }
        List<Seat> voters = seats.stream().filter(s -> !s.learner()).toList();
        List<Seat> healthyVoters = voters.stream().filter(Seat::healthy).toList();
        if (healthyVoters.size() < majority(voters.size())) {
            Optional<Step> starting = firstMembersStarting(o, voters, healthyVoters.size());
            if (starting.isPresent()) {
                return starting.get();
            }
            List<String> down = voters.stream().filter(s -> !s.healthy()).map(ClusterPlanner::label).toList();
            String lost = "Only " + healthyVoters.size() + " of " + voters.size() + " voting members are"
                    + " healthy (not healthy: " + String.join(", ", down) + "); etcd needs " + majority(voters.size())
                    + ". The operator changes nothing until a majority is back; if those members are lost for good,"
                    + " restore the cluster from a backup or recover it from a survivor (see the QuorumRecovery"
                    + " condition).";
            Set<String> taken = new HashSet<>();
            seats.forEach(s -> taken.add(s.name()));
            Step recovery = QuorumRecoveryPlanner.onQuorumLost(o, seats, lost, () -> freshName(o, taken));
            if (recovery instanceof Step.RecordQuorumRecovery r && !r.approved()
                    && o.space().alarms().stream().anyMatch(MemberAlarm::corrupt)) {
                // the survivor the policy would copy may be the member whose data differs
                String m = "A CORRUPT alarm was last seen raised in this cluster: a member's data differs from the"
                        + " others', and the survivor the policy would recover from (" + r.survivor() + ") may be"
                        + " that member. The operator does not recover by itself: compare the members' data"
                        + " (etcdctl endpoint hashkv) and approve the recovery, or restore the cluster from a backup.";
                return new QuorumLost(lost, Wait.CORRUPT_ALARM, m);
            }
            return recovery;
        }
        // 6. dead members
        for (Seat s : seats) {
            if (dead(o, s)) {
                // its pod, if any, has ended or its etcd failed: it goes with the member
                return safeToRemove(s, seats)
                        ? new RemoveMember(s.member().id(), label(s), RemoveMember.DEAD_MEMBER, s.podFailed())
                        : quorumAtRisk(s, seats, "dead member");
            }
        }
        // 7. pods that are no member
        Set<String> seatNames = new HashSet<>();
        seats.forEach(s -> seatNames.add(s.name()));
        for (MemberPod p : sortedByName(o.livePods())) {
            if (!seatNames.contains(p.name())) {
                if (!o.listFromLeader() || seats.stream().noneMatch(Seat::leader)) {
                    // a list is the leader's only if it names the leader: a member still applying the leader's
                    // log lacks the members added since, whose pods would be taken for no member's
                    return new Wait(Wait.LEADER_NOT_LISTED, "Pod " + p.name() + " is no member of the member list"
                            + " that answered, which is not the leader's: it may be out of date. The pod is not"
                            + " deleted, nor a member added or removed to scale, until the leader's list is read.");
                }
                return new DeletePod(p.name(), DeletePod.NOT_A_MEMBER);
            }
        }
        // 7a. the NOSPACE alarm: free the space before anything else changes
        Optional<Step> space = SpacePlanner.plan(o, seats);
        if (space.isPresent()) {
            return space.get();
        }
        // members whose pod runs once are replaced by members whose pod restarts etcd in place, one at a time, while
        // they could take the quorum with them: one more member is wanted until one is gone (rules 13 and 13a)
        List<Seat> runOnce = RunOnceReplacement.toReplace(o, seats);
        int wanted = o.desiredSize() + (runOnce.isEmpty() ? 0 : 1);
        if (seats.size() != wanted && !o.listFromLeader()) {
            // a member still applying the leader's log lacks the members added since: the count would be wrong
            return new Wait(Wait.LEADER_NOT_LISTED, "The member list that answered (" + seats.size() + " members) is"
                    + " not the leader's: it may be out of date. No member is added or removed to scale until the"
                    + " leader's list is read.");
        }
        // 8. scaling down with a learner: the learner goes first
        List<Seat> learners = seats.stream().filter(Seat::learner).toList();
        if (seats.size() > wanted && !learners.isEmpty()) {
            Seat l = learners.get(0);
            return new RemoveMember(l.member().id(), label(l), RemoveMember.SCALE_DOWN);
        }
        // 9. learners
        for (Seat l : learners) {
            if (!l.started() && l.pod().map(p -> (p.stopped() || p.crashLooping()) && !p.terminating()).orElse(false)) {
                // an ended pod never runs again, and nothing else would make it anew; one whose etcd fails before it
                // ever joined may carry a member list that changed since its pod was made (a dead member removed
                // meanwhile): etcd refuses that for good, and rule 3 makes the pod anew from the list as it is
                return new DeletePod(l.name(), DeletePod.LEARNER_FAILED);
            }
            if (!l.podRunning()) {
                return o.terminatingPod(l.name()) && l.pod().isEmpty()
                        ? new Wait(Wait.POD_TERMINATING, "Waiting for the old pod " + l.name()
                                + " to finish terminating before creating the pod of learner " + l.name() + " again.")
                        : new Wait(Wait.MEMBER_STARTING, "Waiting for the pod of learner " + l.name() + " to run."
                                + imageNote(l.pod()));
            }
            long top = voters.stream().filter(Seat::healthy).mapToLong(Seat::raftIndex).max().orElse(0L);
            if (l.healthy() && caughtUp(l.raftIndex(), top)) {
                return new PromoteLearner(l.member().id(), l.name());
            }
            return new Wait(Wait.LEARNER_CATCHING_UP, "Learner " + l.name() + (l.healthy()
                    ? " is catching up with the leader (raft index " + l.raftIndex() + " of " + top + ")."
                    : " is not healthy yet.") + " It is promoted once it has caught up.");
        }
        // 10. a voter whose pod does not run yet (one whose old pod still terminates waits alone: rule 15); when the
        // cluster is to shrink, such a member is the one to remove (rule 11), not one to wait for
        for (Seat s : voters) {
            if (!s.podRunning() && !away(o, s) && voters.size() <= wanted) {
                return new Wait(Wait.MEMBER_STARTING, "Waiting for the pod of member " + s.name() + " to run."
                        + imageNote(s.pod()));
            }
        }
        // 11. scale down
        if (voters.size() > wanted) {
            Seat victim = pickForScaleDown(voters, seats.stream().filter(Seat::runsOnce).toList());
            return safeToRemove(victim, seats)
                    ? new RemoveMember(victim.member().id(), label(victim), RemoveMember.SCALE_DOWN)
                    : quorumAtRisk(victim, seats, "member");
        }
        // 12. wait for every member to be healthy before growing or upgrading
        List<String> sick = seats.stream().filter(s -> !s.healthy() && !away(o, s)).map(Seat::name).toList();
        if (!sick.isEmpty()) {
            return new Wait(Wait.MEMBER_NOT_HEALTHY, "Waiting for member" + (sick.size() > 1 ? "s " : " ")
                    + String.join(", ", sick) + " to become healthy before scaling or upgrading.");
        }
        // 13. grow
        if (seats.size() < wanted) {
            Set<String> taken = new HashSet<>(seatNames);
            String name = freshName(o, taken);
            return new AddMember(name, naming.peerUrl(name), runningVersion(o),
                    seats.size() >= o.desiredSize() ? RunOnceReplacement.next(runOnce).name() : null);
        }
        // 13a. the member added in its place votes: the member whose pod runs once goes, once it does not lead
        Optional<Step> replaced = RunOnceReplacement.remove(o, seats, runOnce);
        if (replaced.isPresent()) {
            return replaced.get();
        }
        // 14. version
        Step version = planVersion(o, seats);
        if (!(version instanceof Nothing)) {
            return version;
        }
        // 15. members whose old pod still terminates (a lost node): recreated on their claims once it is gone
        List<String> away = seats.stream().filter(s -> away(o, s)).map(Seat::name).toList();
        if (!away.isEmpty()) {
            return new Wait(Wait.POD_TERMINATING, "Waiting for the old pod" + (away.size() > 1 ? "s " : " ")
                    + String.join(", ", away) + " to finish terminating; " + (away.size() > 1 ? "their" : "its")
                    + " member" + (away.size() > 1 ? "s are" : " is") + " then recreated on " + (away.size() > 1
                    ? "their claims" : "its claim") + ". Everything else is done.");
        }
        // 16. TLS secrets that changed: members restarted on them one at a time
        Optional<Step> rollout = CertificateRolloutPlanner.plan(o, seats);
        if (rollout.isPresent()) {
            return rollout.get();
        }
        // 17. routine defragmentation, once nothing else is left to do
        return DefragmentationPlanner.plan(o, seats).orElse(version);
    }

    private Step planVersion(ClusterObservation o, List<Seat> seats) {
        String wanted = o.desiredVersion();
        List<Seat> behind = seats.stream()
                .filter(s -> !away(o, s) && !Objects.equals(podVersion(o, s), wanted)).toList();
        if (behind.isEmpty()) {
            return new Nothing();
        }
        Optional<Step> downgrade = DowngradePlanner.plan(o, seats);
        if (downgrade.isPresent()) {
            return downgrade.get();
        }
        String running = runningVersion(o);
        if (wanted.equals(o.failedUpgrade())) {
            return upgradeFailed(o, running);
        }
        VersionPolicy.Verdict verdict = versions.check(running, wanted);
        if (!verdict.allowed()) {
            return new Refuse(verdict.reason(), verdict.message());
        }
        Seat next = behind.stream().filter(s -> !s.leader()).findFirst().orElse(behind.get(0));
        // an upgrade restarts the member: with a member away, the others must keep a majority without it
        List<Seat> voters = seats.stream().filter(s -> !s.learner()).toList();
        long healthy = voters.stream().filter(Seat::healthy).count();
        if (healthy < voters.size() && healthy - (next.healthy() ? 1 : 0) < majority(voters.size())) {
            List<String> down = voters.stream().filter(s -> !s.healthy()).map(ClusterPlanner::label).toList();
            return new Wait(Wait.QUORUM_AT_RISK, "Not upgrading member " + next.name() + " yet: while "
                    + String.join(", ", down) + (down.size() > 1 ? " are" : " is") + " away, restarting it would"
                    + " leave fewer healthy voting members than a majority.");
        }
        return new UpgradeMember(next.name(), podVersion(o, next), wanted);
    }

    /** The upgrade to spec.version failed on a member before: it is not tried again, member after member. */
    static Refuse upgradeFailed(ClusterObservation o, String running) {
        return new Refuse(VersionPolicy.UPGRADE_FAILED, "The upgrade to " + o.desiredVersion() + " stopped: a member's"
                + " etcd crash-looped on it before it was ever healthy on it, and the member was taken back to "
                + running + ", which the cluster keeps running. Read why in that member's log (kubectl logs <pod>"
                + " --previous: a flag in spec.pod.etcdEnv the new release refuses, say). To try again, set"
                + " spec.version to " + running + ", wait until status.failedUpgradeVersion is cleared, then set "
                + o.desiredVersion() + " or another release.");
    }

    /**
     * A started member whose pod is gone but still terminating (its node may be lost), on a claim: it is recreated
     * in place once the old pod is gone, and blocks nothing else meanwhile. Without claims such a member is dead.
     */
    private static boolean away(ClusterObservation o, Seat s) {
        return o.persistent() && s.started() && s.pod().isEmpty() && o.terminatingPod(s.name());
    }

    /**
     * The pods that have been terminating for longer than {@link #STUCK_AFTER} past their deletion timestamp (the
     * end of their grace period), sorted by name: typically pods of a node that was lost.
     */
    public static List<MemberPod> stuckPods(ClusterObservation o) {
        if (o.now() == null) {
            return List.of();
        }
        return o.pods().stream().filter(p -> p.terminating() && p.deletionTimestamp() != null
                && o.now().isAfter(p.deletionTimestamp().plus(STUCK_AFTER)))
                .sorted(Comparator.comparing(MemberPod::name)).toList();
    }

    /**
     * The version the cluster runs: the lowest version among its member pods (etcd's cluster version is its
     * lowest member's), else the status's {@code currentVersion}, else {@code spec.version}.
     */
    static String runningVersion(ClusterObservation o) {
        List<EtcdMember> members = o.members().orElse(List.of());
        List<String> known = new ArrayList<>();
        if (members.isEmpty()) {
            o.livePods().forEach(p -> known.add(p.etcdVersion()));
            // a member on a claim without a pod may run the lowest: a pod made for it must not carry in a pending
            // upgrade
            if (o.currentVersion() != null && o.memberClaims().stream().anyMatch(c -> o.livePod(c).isEmpty())) {
                known.add(o.currentVersion());
            }
        } else {
            seats(o, members).forEach(s -> known.add(podVersion(o, s)));
            // a member whose version cannot be told (its pod gone) may run the lowest: the version recorded stands
            if (o.currentVersion() != null && known.stream().anyMatch(v -> v == null || Version.parse(v).isEmpty())) {
                known.add(o.currentVersion());
            }
        }
        return known.stream().map(Version::parse).flatMap(Optional::stream).min(Comparator.naturalOrder())
                .map(Version::toString)
                .orElse(o.currentVersion() != null ? o.currentVersion() : o.desiredVersion());
    }

    /** The version a seat runs: its pod's image tag, else what the member reports. */
    static String podVersion(ClusterObservation o, Seat s) {
        String tag = s.pod().map(MemberPod::etcdVersion).orElse(null);
        if (tag != null && Version.parse(tag).isPresent()) {
            return Version.parse(tag).get().toString();
        }
        return o.healthOf(s.member().id()).map(MemberHealth::version).filter(v -> Version.parse(v).isPresent())
                .orElse(tag);
    }

    /**
     * A member whose etcd failed in each of its last pods made on its claim, while every other member is healthy and
     * runs the same release on the current TLS material: its data is what fails, and the others hold every committed
     * write, so it is replaced, claim and all, rather than made again on it for ever. One that fails beside an
     * unhealthy member, on another release than the others (an upgrade its data does not take), or as the first
     * member on new TLS material, is made again in place: replacing it then could leave fewer members than the
     * others' failures allow, or repeat the failure on a fresh member.
     */
    private static boolean keepsFailingBesideHealthyPeers(Seat s, List<Seat> seats) {
        if (!s.pod().map(MemberPod::keepsFailing).orElse(false)) {
            return false;
        }
        String release = s.pod().get().etcdVersion();
        List<Seat> others = seats.stream().filter(other -> other != s).toList();
        return !others.isEmpty() && safeToRemove(s, seats) && others.stream().allMatch(other -> other.healthy()
                && other.pod().map(p -> Objects.equals(p.etcdVersion(), release) && !p.staleTls()).orElse(false));
    }

    private static boolean dead(ClusterObservation o, Seat s) {
        if (s.name().isEmpty()) {
            return true;
        }
        if (!s.started()) {
            return false;
        }
        if (o.persistent()) {
            // its pod made again on a claim without its data, or its pod gone or ended for good (evicted: it stays,
            // Failed) and its claim gone: nothing brings it back
            return s.dataMissing() && !s.healthy() || (s.pod().isEmpty() || s.podStopped())
                    && !o.claims().contains(s.name()) && !o.terminatingPod(s.name()) || pendingWithoutClaim(o, s);
        }
        return s.pod().isEmpty() || s.podFailed();
    }

    /**
     * On claims, a member's pod that never started etcd (pending: its node lost with a local volume, say) and whose
     * claim is gone: no node takes a pod whose claim does not exist, so it never starts.
     */
    static boolean pendingWithoutClaim(ClusterObservation o, Seat s) {
        return o.persistent() && !s.healthy() && !o.claims().contains(s.name()) && s.pod()
                .filter(p -> !p.running() && !p.stopped() && !p.etcdStarted() && !p.terminating()).isPresent();
    }

    private static Seat pickForScaleDown(List<Seat> voters, List<Seat> runOnce) {
        return voters.stream().filter(s -> !s.healthy() && !s.leader()).findFirst()
                .or(() -> runOnce.stream().filter(s -> !s.learner() && !s.leader()).findFirst())
                .or(() -> voters.stream().filter(s -> !s.leader()).findFirst())
                .orElse(voters.get(0));
    }

    static boolean safeToRemove(Seat victim, List<Seat> seats) {
        if (victim.learner()) {
            return true;
        }
        long voters = seats.stream().filter(s -> !s.learner()).count() - 1;
        long healthy = seats.stream().filter(s -> !s.learner() && s.healthy()).count() - (victim.healthy() ? 1 : 0);
        return voters >= 1 && healthy >= majority((int) voters);
    }

    static Wait quorumAtRisk(Seat victim, List<Seat> seats, String what) {
        return new Wait(Wait.QUORUM_AT_RISK, "Not removing " + what + " " + label(victim) + ": the healthy voting"
                + " members left would be fewer than a majority. Waiting for the other members to become healthy.");
    }

    static int majority(int voters) {
        return voters / 2 + 1;
    }

    /** etcd promotes a learner only once its progress reaches 90% of the leader's; ask no sooner. */
    static boolean caughtUp(long learnerIndex, long leaderIndex) {
        return learnerIndex * 10 >= leaderIndex * 9;
    }

    private String freshName(ClusterObservation o, Set<String> alsoTaken) {
        MemberNaming naming = o.naming();
        Set<String> taken = new HashSet<>(alsoTaken);
        o.pods().forEach(p -> taken.add(p.name()));
        taken.addAll(o.claims());
        for (int i = 0; i < NAME_ATTEMPTS; i++) {
            String name = naming.newMemberName(random);
            if (!taken.contains(name)) {
                return name;
            }
        }
        throw new IllegalStateException("no free member name after " + NAME_ATTEMPTS + " attempts");
    }

    static String label(Seat s) {
        return s.name().isEmpty() ? s.member().hexId() : s.name();
    }

    private static List<MemberPod> sortedByName(List<MemberPod> pods) {
        return pods.stream().sorted(Comparator.comparing(MemberPod::name)).toList();
    }

    private static String names(List<MemberPod> pods) {
        return String.join(", ", sortedByName(pods).stream().map(MemberPod::name).toList());
    }
}
