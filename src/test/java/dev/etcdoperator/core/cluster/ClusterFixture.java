package dev.etcdoperator.core.cluster;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A mutable picture of one cluster for tests: pods, etcd members and their health, keyed by member name. Builds
 * {@link ClusterObservation}s, and {@link #apply(Step)} plays a step out the way a healthy environment would.
 */
final class ClusterFixture {
    static final String CLUSTER = "demo";
    static final String NAMESPACE = "prod";
    static final MemberNaming NAMING = new MemberNaming(CLUSTER, NAMESPACE);
    static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");
    /** What a member holds in use after a compaction in {@link #apply(Step)}. */
    static final long COMPACTED_IN_USE = 100_000;

    private final Map<String, MemberPod> pods = new LinkedHashMap<>();
    private final Map<String, EtcdMember> members = new LinkedHashMap<>();
    private final Map<Long, MemberHealth> health = new LinkedHashMap<>();
    private final Set<String> claims = new LinkedHashSet<>();
    private int size;
    private String version;
    private String current;
    private boolean paused;
    private boolean persistent;
    private boolean answering = true;
    private String seed;
    private List<String> initialMembers = List.of();
    private boolean startsFromSeed;
    private String failedUpgrade;
    private boolean listFromLeader = true;
    private boolean reseed;
    private Instant now = NOW;
    private long nextId = 0x1001;
    private DatabaseSpace space = DatabaseSpace.NONE;
    private boolean downgradeAllowed;
    private QuorumLoss quorumLoss = QuorumLoss.NONE;

    private ClusterFixture(int size, String version) {
        this.size = size;
        this.version = version;
    }

    /** A cluster that never ran: no pods, no members, no current version. */
    static ClusterFixture fresh(int size, String version) {
        ClusterFixture f = new ClusterFixture(size, version);
        f.answering = false;
        return f;
    }

    /**
     * A converged cluster of {@code n} healthy voters {@code demo-a}, {@code demo-b}, ... running {@code version};
     * {@code demo-a} leads.
     */
    static ClusterFixture running(int n, String version) {
        ClusterFixture f = new ClusterFixture(n, version);
        for (int i = 0; i < n; i++) {
            f.voter(name(i), i == 0, version);
        }
        f.current = version;
        f.seed = name(0);
        return f;
    }

    static String name(int i) {
        return CLUSTER + "-" + (char) ('a' + i);
    }

    ClusterFixture voter(String name, boolean leader, String podVersion) {
        long id = nextId++;
        members.put(name, new EtcdMember(id, name, NAMING.peerUrl(name), false));
        pods.put(name, new MemberPod(name, true, true, false, podVersion, persistent));
        health.put(id, new MemberHealth(id, true, leader, podVersion, 1000));
        if (persistent) {
            claims.add(name);
        }
        return this;
    }

    /** A learner that started, whose pod runs, at {@code raftIndex} (voters are at 1000). */
    ClusterFixture learner(String name, boolean healthy, long raftIndex) {
        long id = nextId++;
        members.put(name, new EtcdMember(id, name, NAMING.peerUrl(name), true));
        pods.put(name, new MemberPod(name, true, healthy, false, version, persistent));
        health.put(id, new MemberHealth(id, healthy, false, version, raftIndex));
        return this;
    }

    /** A member added to etcd (as a learner) whose pod was never created: it has no name yet. */
    ClusterFixture addedNotStarted(String name) {
        long id = nextId++;
        members.put(name, new EtcdMember(id, "", NAMING.peerUrl(name), true));
        return this;
    }

    ClusterFixture size(int n) {
        size = n;
        return this;
    }

    ClusterFixture version(String v) {
        version = v;
        return this;
    }

    ClusterFixture current(String v) {
        current = v;
        return this;
    }

    /** The seed member the status records. */
    /** The status records an upgrade to {@code v} as failed. */
    ClusterFixture failedUpgrade(String v) {
        failedUpgrade = v;
        return this;
    }

    ClusterFixture seed(String name) {
        seed = name;
        return this;
    }

    String seed() {
        return seed;
    }

    /** The first members the status records for a cluster that starts them together. */
    ClusterFixture initialMembers(List<String> names) {
        initialMembers = List.copyOf(names);
        return this;
    }

    List<String> initialMembers() {
        return initialMembers;
    }

    /** The cluster starts from a restored snapshot. */
    ClusterFixture startsFromSeed() {
        startsFromSeed = true;
        return this;
    }

    /** A person put the reseed annotation (with the cluster's uid) on a cluster that reports every member lost. */
    ClusterFixture reseedRequested() {
        reseed = true;
        return this;
    }

    ClusterFixture now(Instant t) {
        now = t;
        return this;
    }

    /**
     * The member list was answered by a member that does not lead (the leader did not list the members). Without
     * an answer, or with no member leading, it is no leader's list either, as the observer has it.
     */
    ClusterFixture listNotFromLeader() {
        listFromLeader = false;
        return this;
    }

    ClusterFixture paused() {
        paused = true;
        return this;
    }

    /** {@code spec.allowDowngrade}. */
    ClusterFixture allowDowngrade() {
        downgradeAllowed = true;
        return this;
    }

    /** What {@code name} reports as its storage version (etcd 3.6 and later). */
    ClusterFixture storageVersion(String name, String storageVersion) {
        MemberHealth h = health.get(id(name));
        health.put(h.id(), new MemberHealth(h.id(), h.healthy(), h.leader(), h.version(), h.raftIndex(), h.dbSize(),
                h.dbSizeInUse(), storageVersion, h.downgradeTarget()));
        return this;
    }

    /** Every member that answers reports a downgrade to {@code target} as enabled. */
    ClusterFixture downgradeEnabled(String target) {
        health.replaceAll((id, h) -> new MemberHealth(id, h.healthy(), h.leader(), h.version(), h.raftIndex(),
                h.dbSize(), h.dbSizeInUse(), h.storageVersion(), target));
        return this;
    }

    /** Every member, present and future, has a data claim named after it. */
    ClusterFixture persistent() {
        persistent = true;
        claims.addAll(members.keySet());
        pods.replaceAll((n, p) -> new MemberPod(n, p.running(), p.ready(), p.terminating(), p.etcdVersion(), true));
        return this;
    }

    ClusterFixture claim(String name) {
        claims.add(name);
        return this;
    }

    ClusterFixture withoutClaim(String name) {
        claims.remove(name);
        return this;
    }

    /** No member answers: the member list is unknown and nothing reports health. */
    ClusterFixture noAnswer() {
        answering = false;
        return this;
    }

    ClusterFixture pod(String name, boolean running, boolean ready, String podVersion) {
        pods.put(name, new MemberPod(name, running, ready, false, podVersion, persistent));
        return this;
    }

    ClusterFixture podGone(String name) {
        pods.remove(name);
        return this;
    }

    ClusterFixture podTerminating(String name) {
        MemberPod p = pods.get(name);
        pods.put(name, new MemberPod(name, p == null || p.running(), false, true,
                p == null ? version : p.etcdVersion(), persistent, p != null && !p.running() && p.stopped()));
        return this;
    }

    /** The pod has been terminating since {@code deletion} (its deletion timestamp), its node lost. */
    ClusterFixture podTerminatingSince(String name, Instant deletion) {
        MemberPod p = pods.get(name);
        pods.put(name, new MemberPod(name, false, false, true, p == null ? version : p.etcdVersion(), persistent,
                false, deletion));
        return this;
    }

    /** Its pod is being deleted, its etcd still running until its grace period ends at {@code graceEnds}. */
    ClusterFixture podTerminatingUntil(String name, Instant graceEnds) {
        MemberPod p = pods.get(name);
        pods.put(name, new MemberPod(name, true, false, true, p == null ? version : p.etcdVersion(), persistent,
                false, graceEnds, false, true));
        return this;
    }

    ClusterFixture podStopped(String name) {
        MemberPod p = pods.get(name);
        MemberPod stopped = new MemberPod(name, false, false, false, p == null ? version : p.etcdVersion(),
                p == null ? persistent : p.hasClaim());
        pods.put(name, p != null && p.runsOnce() ? stopped.runningOnce() : stopped);
        return this;
    }

    /** The pod runs, but its etcd container failed and waits out the kubelet's back-off to start again in it. */
    ClusterFixture podCrashLooping(String name) {
        MemberPod p = pods.get(name);
        pods.put(name, new MemberPod(name, false, false, false, p == null ? version : p.etcdVersion(),
                p == null ? persistent : p.hasClaim(), false, null, false, true, true));
        return this;
    }

    /** The member's etcd failed in each of its last pods made on its claim, and fails in this one too. */
    ClusterFixture keepsFailing(String name) {
        pods.put(name, pods.get(name).withKeepsFailing());
        return this;
    }

    /** The pods of {@code names} run once: their etcd is not started again when it ends. */
    ClusterFixture runsOnce(String... names) {
        for (String name : names) {
            pods.put(name, pods.get(name).runningOnce());
        }
        return this;
    }

    /** The names of the live pods that run once, sorted. */
    List<String> runOncePods() {
        return pods.values().stream().filter(MemberPod::runsOnce).map(MemberPod::name).sorted().toList();
    }

    /** The pod ended before its etcd container started (an init container failed, the pod was evicted). */
    ClusterFixture podEndedBeforeEtcd(String name) {
        pods.put(name, new MemberPod(name, false, false, false, version, persistent, true, null, false, false));
        return this;
    }

    /** The pod exists but its container is not running yet (pending, initializing, restarting on a new image). */
    ClusterFixture podStarting(String name) {
        MemberPod p = pods.get(name);
        pods.put(name, MemberPod.starting(name, p == null ? version : p.etcdVersion(),
                p == null ? persistent : p.hasClaim()));
        return this;
    }

    /** The quorum-loss policy, the loss's start, an approval and a recovery, as the observer reports them. */
    ClusterFixture quorumLoss(QuorumLoss q) {
        quorumLoss = q;
        return this;
    }

    /**
     * The member answers etcd's status call without a leader: not healthy, at {@code raftIndex} and {@code revision}
     * (what a survivor of a lost majority says). The member list stays readable from it.
     */
    ClusterFixture survivor(String name, long raftIndex, long revision) {
        long id = id(name);
        MemberHealth h = health.get(id);
        health.put(id, new MemberHealth(id, false, false, h == null ? version : h.version(), raftIndex, 0, 0,
                revision));
        answering = true;
        return this;
    }

    /** etcd's alarms, the quota and the recovery so far, as the observer reports them. */
    ClusterFixture space(DatabaseSpace s) {
        space = s;
        return this;
    }

    DatabaseSpace space() {
        return space;
    }

    /** {@code spec.etcd.defragmentation} with these thresholds. */
    ClusterFixture defragmentation(long minBytes, int minPercent) {
        space = new DatabaseSpace(space.alarms(), space.quotaBytes(), space.revision(), space.compactedRevision(),
                space.defragmented(), new FragmentationThreshold(minBytes, minPercent), space.round());
        return this;
    }

    /** {@code spec.etcd.defragmentation.schedule} and its round as {@code status.defragmentation} records it. */
    ClusterFixture round(DefragmentationRound round) {
        space = new DatabaseSpace(space.alarms(), space.quotaBytes(), space.revision(), space.compactedRevision(),
                space.defragmented(), space.defragmentation(), round);
        return this;
    }

    /** The member's database file is {@code size} bytes, {@code inUse} of them in use. */
    ClusterFixture database(String name, long size, long inUse) {
        MemberHealth h = health.get(id(name));
        health.put(h.id(), new MemberHealth(h.id(), h.healthy(), h.leader(), h.version(), h.raftIndex(), size, inUse));
        return this;
    }

    MemberHealth healthOf(String name) {
        return health.get(id(name));
    }

    /** The member stops answering (its health entry goes). */
    /**
     * A first member of a cluster started together that does not answer yet: named in the member list from the start,
     * its pod starting.
     */
    ClusterFixture firstMemberStarting(String name) {
        health.remove(id(name));
        return podStarting(name);
    }

    ClusterFixture unhealthy(String name) {
        health.remove(id(name));
        return this;
    }

    /** The member answers but reports itself unhealthy. */
    ClusterFixture sick(String name) {
        MemberHealth h = health.get(id(name));
        health.put(h.id(), new MemberHealth(h.id(), false, h.leader(), h.version(), h.raftIndex()));
        return this;
    }

    /** The member answers again and is healthy ({@code leader}: it is the leader). */
    ClusterFixture answers(String name, boolean leader) {
        long id = id(name);
        health.put(id, new MemberHealth(id, true, leader, version, 1000));
        return this;
    }

    /** Pod gone and member silent: what a crashed non-persistent member looks like. */
    ClusterFixture dead(String name) {
        return podGone(name).unhealthy(name);
    }

    ClusterFixture leader(String name) {
        health.replaceAll((id, h) -> new MemberHealth(id, h.healthy(), id == id(name), h.version(), h.raftIndex()));
        return this;
    }

    /** The pod was given the image of {@code v}, which the kubelet cannot get: its etcd waits, not running. */
    ClusterFixture podImageUnavailable(String name, String v) {
        MemberPod p = pods.get(name);
        pods.put(name, new MemberPod(name, false, false, false, v, p.hasClaim(), false, null, false, true, false,
                p.runsOnce(), "ImagePullBackOff: Back-off pulling image \"quay.io/coreos/etcd:v" + v + "\"", false));
        health.remove(id(name));
        return this;
    }

    /** As {@link #podImageUnavailable}, the image of another repository than spec.repository names now. */
    ClusterFixture podImageOfOtherRepositoryUnavailable(String name, String v) {
        podImageUnavailable(name, v);
        pods.put(name, pods.get(name).ofOtherRepository());
        return this;
    }

    ClusterFixture podVersion(String name, String v) {
        MemberPod p = pods.get(name);
        MemberPod changed = new MemberPod(name, p.running(), p.ready(), p.terminating(), v, p.hasClaim());
        pods.put(name, p.runsOnce() ? changed.runningOnce() : changed);
        MemberHealth h = health.get(id(name));
        if (h != null) {
            health.put(h.id(), new MemberHealth(h.id(), h.healthy(), h.leader(), v, h.raftIndex()));
        }
        return this;
    }

    /**
     * Makes health follow the pods as etcd would: when the pods of a majority of voters run, each member whose pod
     * runs answers healthy (the leader stays, or the first of them leads); without such a majority no member
     * answers.
     */
    ClusterFixture settle() {
        List<String> voters = members.entrySet().stream().filter(e -> !e.getValue().learner()).map(Map.Entry::getKey)
                .toList();
        long up = voters.stream().filter(this::podRuns).count();
        boolean quorum = !voters.isEmpty() && up >= ClusterPlanner.majority(voters.size());
        String leader = leaderName().filter(this::podRuns)
                .orElse(quorum ? voters.stream().filter(this::podRuns).findFirst().orElse(null) : null);
        for (Map.Entry<String, EtcdMember> e : members.entrySet()) {
            long id = e.getValue().id();
            if (quorum && podRuns(e.getKey())) {
                MemberHealth h = health.get(id);
                String v = pods.get(e.getKey()).etcdVersion();
                boolean sameBinary = h != null && v != null && v.equals(h.version());
                health.put(id, new MemberHealth(id, true, e.getKey().equals(leader), v, h == null ? 1000 : h.raftIndex(),
                        0, 0, sameBinary ? h.storageVersion() : "", sameBinary ? h.downgradeTarget() : ""));
            } else {
                health.remove(id);
            }
        }
        answering = quorum;
        if (answering) {
            ClusterObservation o = observe();
            current = ClusterStatusBuilder.currentVersion(o, ClusterPlanner.seats(o, o.members().orElse(List.of())));
        }
        return this;
    }

    private boolean podRuns(String name) {
        MemberPod p = pods.get(name);
        return p != null && p.running() && !p.terminating();
    }

    long id(String name) {
        return members.get(name).id();
    }

    Optional<String> leaderName() {
        return members.values().stream().filter(m -> health.containsKey(m.id()) && health.get(m.id()).leader())
                .map(EtcdMember::name).findFirst();
    }

    List<String> memberNames() {
        return new ArrayList<>(members.keySet());
    }

    boolean isLearner(String name) {
        return members.get(name).learner();
    }

    ClusterObservation observe() {
        Optional<List<EtcdMember>> list = answering && !members.isEmpty()
                ? Optional.of(List.copyOf(members.values())) : Optional.empty();
        return new ClusterObservation(CLUSTER, NAMESPACE, size, version, paused, persistent,
                List.copyOf(pods.values()), list, answering ? Map.copyOf(health) : Map.of(), current, "", false,
                Set.copyOf(claims), seed, reseed, now, space, quorumLoss, downgradeAllowed, initialMembers,
                startsFromSeed, failedUpgrade, listFromLeader && list.isPresent() && leaderName().isPresent());
    }

    /** Plays {@code step} out as a healthy environment would, and settles the current version as status would. */
    ClusterFixture apply(Step step) {
        if (step instanceof Step.RecordInitialMembers r) {
            initialMembers = r.names();
            seed = r.names().get(0);
        } else if (step instanceof Step.CreateInitialMembers c) {
            answering = true;
            for (String name : c.names()) {
                persistentClaim(name);
                voter(name, name.equals(c.names().get(0)), c.version());
            }
        } else if (step instanceof Step.RecordSeed r) {
            seed = r.name();
            initialMembers = List.of();
            if (r.reseed()) {
                // the lost cluster's members are gone with it; the new seed starts a cluster of its own
                reseed = false;
                current = null;
                members.clear();
                health.clear();
            }
        } else if (step instanceof Step.CreateSeed s) {
            answering = true;
            persistentClaim(s.name());
            voter(s.name(), true, s.version());
        } else if (step instanceof Step.AddMember a) {
            persistentClaim(a.name());
            learner(a.name(), true, 1000);
            podVersion(a.name(), a.version());
        } else if (step instanceof Step.MoveLeader m) {
            leader(m.to());
        } else if (step instanceof Step.PromoteLearner p) {
            EtcdMember m = members.get(p.name());
            members.put(p.name(), new EtcdMember(m.id(), m.name(), m.peerUrl(), false));
        } else if (step instanceof Step.RemoveMember r) {
            EtcdMember m = members.remove(r.name());
            // the actuator deletes a removed member's claim
            claims.remove(r.name());
            boolean wasLeader = health.containsKey(m.id()) && health.get(m.id()).leader();
            health.remove(m.id());
            if (r.deleteFailedPod()) {
                pods.remove(r.name());
            } else if (pods.containsKey(r.name()) && !pods.get(r.name()).terminating()) {
                podStopped(r.name());
            }
            if (wasLeader && !members.isEmpty()) {
                leader(members.keySet().iterator().next());
            }
        } else if (step instanceof Step.DeletePod d) {
            pods.remove(d.name());
        } else if (step instanceof Step.CreateMemberPod c) {
            EtcdMember m = members.get(c.name());
            members.put(c.name(), new EtcdMember(m.id(), c.name(), m.peerUrl(), m.learner()));
            pods.put(c.name(), new MemberPod(c.name(), true, true, false, c.version(), persistent));
            health.put(m.id(), new MemberHealth(m.id(), true, false, c.version(), 1000));
        } else if (step instanceof Step.RestartMember r) {
            EtcdMember m = members.get(r.name());
            boolean wasLeader = health.containsKey(m.id()) && health.get(m.id()).leader();
            health.remove(m.id());
            if (r.inPlace()) {
                // its pod is deleted; CreateMemberPod brings it back on its claim
                pods.remove(r.name());
            } else {
                // removed from etcd: its etcd stops, and its pod is left for DeletePod
                members.remove(r.name());
                podStopped(r.name());
            }
            if (wasLeader && members.size() > 1) {
                leader(members.keySet().stream().filter(n -> !n.equals(r.name())).findFirst().orElseThrow());
            }
        } else if (step instanceof Step.UpgradeMember u) {
            podVersion(u.name(), u.toVersion());
        } else if (step instanceof Step.EnableDowngrade d) {
            downgradeEnabled(d.targetVersion());
        } else if (step instanceof Step.DowngradeMember d) {
            podVersion(d.name(), d.toVersion());
        } else if (step instanceof Step.CompactKeyspace c) {
            // the old revisions leave every member's pages: they are free, and stay in the file
            health.replaceAll((id, h) -> new MemberHealth(id, h.healthy(), h.leader(), h.version(), h.raftIndex(),
                    h.dbSize(), Math.min(h.dbSize(), COMPACTED_IN_USE)));
            space = new DatabaseSpace(space.alarms(), space.quotaBytes(), space.revision(), c.revision(), Set.of(),
                    space.defragmentation(), space.round());
        } else if (step instanceof Step.DefragmentMember d) {
            MemberHealth h = health.get(d.id());
            health.put(d.id(), new MemberHealth(d.id(), h.healthy(), h.leader(), h.version(), h.raftIndex(),
                    h.dbSizeInUse(), h.dbSizeInUse()));
            if (Step.DefragmentMember.NO_SPACE.equals(d.reason())) {
                Set<Long> done = new LinkedHashSet<>(space.defragmented());
                done.add(d.id());
                space = new DatabaseSpace(space.alarms(), space.quotaBytes(), space.revision(),
                        space.compactedRevision(), done, space.defragmentation(), space.round());
            }
        } else if (step instanceof Step.DisarmNoSpace) {
            space = new DatabaseSpace(List.of(), space.quotaBytes(), space.revision(), 0, Set.of(),
                    space.defragmentation(), space.round());
        }
        if (answering) {
            ClusterObservation o = observe();
            current = ClusterStatusBuilder.currentVersion(o, ClusterPlanner.seats(o, o.members().orElse(List.of())));
        }
        return this;
    }

    /** The pods of {@code names} were started on TLS material their Secrets no longer hold. */
    ClusterFixture staleTls(String... names) {
        for (String name : names) {
            pods.put(name, pods.get(name).withStaleTls());
        }
        return this;
    }

    /** The names of the live pods started on TLS material their Secrets no longer hold, sorted. */
    List<String> staleTlsPods() {
        return pods.values().stream().filter(p -> p.staleTls() && !p.terminating()).map(MemberPod::name).sorted()
                .toList();
    }

    /** A pod of {@code name} that runs, or is starting, or has ended (no member of etcd knows it). */
    ClusterFixture podOnly(String name, boolean running, boolean stopped) {
        pods.put(name, new MemberPod(name, running, running, false, version, persistent, stopped));
        return this;
    }

    /** The member's pod mounts a survivor's claim besides its own (a quorum recovery's member, from a claim). */
    ClusterFixture survivorClaimMounted(String name) {
        pods.put(name, pods.get(name).withSurvivorClaimMounted());
        return this;
    }

    /** The member's pod was made again in place on a claim without its data: its data check fails. */
    ClusterFixture podDataMissing(String name) {
        pods.put(name, new MemberPod(name, false, false, false, version, persistent, false, null, false, false)
                .withDataMissing());
        return unhealthy(name);
    }

    /** The pod's data check failed; nothing else about the member changes. */
    ClusterFixture podDataMissingOnly(String name) {
        pods.put(name, pods.get(name).withDataMissing());
        return this;
    }

    /** A pod whose etcd container never started: in its init containers, or ended in one of them. */
    ClusterFixture podOnlyBeforeEtcd(String name, boolean stopped) {
        pods.put(name, new MemberPod(name, false, false, false, version, persistent, stopped, null, false, false));
        return this;
    }

    /**
     * The survivor's data runs as a new one-member cluster of {@code member}: the member list is that member alone,
     * healthy and leading.
     */
    ClusterFixture oneMemberCluster(String member) {
        members.clear();
        health.clear();
        long id = nextId++;
        members.put(member, new EtcdMember(id, member, NAMING.peerUrl(member), false));
        pods.put(member, new MemberPod(member, true, true, false, version, persistent));
        health.put(id, new MemberHealth(id, true, true, version, 1000));
        answering = true;
        return this;
    }

    /**
     * The member list answered comes from {@code member} alone, leading a new cluster of its own (its data wiped):
     * the other members are not in it, their pods stay as they are.
     */
    ClusterFixture listedByAlone(String member) {
        EtcdMember m = members.get(member);
        members.clear();
        health.clear();
        members.put(member, m);
        health.put(m.id(), new MemberHealth(m.id(), true, true, version, 8));
        return this;
    }

    /** The member's etcd leads a cluster of its own beside this one: it counts as no healthy member of it. */
    ClusterFixture splitOff(String member) {
        pods.put(member, pods.get(member).withSplitOff());
        return unhealthy(member);
    }

    private void persistentClaim(String name) {
        if (persistent) {
            claims.add(name);
        }
    }
}
