package dev.etcdoperator.cluster;

import java.time.Clock;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

import dev.etcdoperator.api.v1beta2.ClusterAnnotations;
import dev.etcdoperator.api.v1beta2.Defragmentation;
import dev.etcdoperator.api.v1beta2.DefragmentationStatus;
import dev.etcdoperator.api.v1beta2.EtcdBackup;
import dev.etcdoperator.api.v1beta2.EtcdCluster;
import dev.etcdoperator.api.v1beta2.EtcdClusterSpec;
import dev.etcdoperator.api.v1beta2.EtcdClusterStatus;
import dev.etcdoperator.api.v1beta2.PodPolicy;
import dev.etcdoperator.api.v1beta2.RestoreAnnotations;
import dev.etcdoperator.core.cluster.ClusterStatusBuilder;
import dev.etcdoperator.core.cluster.ClusterObservation;
import dev.etcdoperator.core.cluster.DatabaseSpace;
import dev.etcdoperator.core.cluster.DefragmentationRound;
import dev.etcdoperator.core.cluster.FragmentationThreshold;
import dev.etcdoperator.core.cluster.MemberAlarm;
import dev.etcdoperator.core.cluster.EtcdMember;
import dev.etcdoperator.core.cluster.MemberHealth;
import dev.etcdoperator.core.cluster.MemberListCheck;
import dev.etcdoperator.core.cluster.MemberNaming;
import dev.etcdoperator.core.cluster.MemberPod;
import dev.etcdoperator.core.cluster.QuorumLoss;
import dev.etcdoperator.core.cluster.TlsMaterial;
import dev.etcdoperator.core.schedule.CronSchedule;
import dev.etcdoperator.etcd.EtcdAdmin;
import dev.etcdoperator.etcd.EtcdAdminException;
import dev.etcdoperator.etcd.EtcdTls;
import dev.etcdoperator.etcd.Member;
import dev.etcdoperator.etcd.MemberStatus;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.Pod;
import org.jboss.logging.Logger;

/**
 * Gathers what the planner needs into one immutable observation: the member pods as Kubernetes shows them and
 * the member list and health as etcd reports them. The operator talks to members by pod IP, or by DNS name over
 * https.
 */
final class ClusterObserver {
    /** A DNS label: a member's name is its pod's name and host name. */
    private static final java.util.regex.Pattern MEMBER_NAME = java.util.regex.Pattern.compile(
            "[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?");
    private static final Logger LOG = Logger.getLogger(ClusterObserver.class);
    private static final String QUOTA_ENV = "ETCD_QUOTA_BACKEND_BYTES";
    private static final String CRASH_LOOP_BACK_OFF = "CrashLoopBackOff";

    private final EtcdAdmins admins;
    private final Clock clock;
    private final SpaceRecoveries space;

    ClusterObserver(EtcdAdmins admins, Clock clock, SpaceRecoveries space) {
        this.admins = admins;
        this.clock = clock;
        this.space = space;
    }

    ClusterObserver(EtcdAdmins admins, Clock clock) {
        this(admins, clock, new SpaceRecoveries());
    }

    /** The observation, and the admin connection used for it (absent when no pod has an address yet). */
    record Observed(ClusterObservation observation, Optional<EtcdAdmin> admin, Map<String, String> clientUrlByPod) {
    }

    Observed observe(EtcdCluster cluster, List<Pod> pods, Set<String> claims) {
        return observe(cluster, pods, claims, null);
    }

    Observed observe(EtcdCluster cluster, List<Pod> pods, Set<String> claims, EtcdTls clientTls) {
        return observe(cluster, pods, claims, clientTls, List.of());
    }

    /**
     * @param clientTls the operator's client TLS when members serve https, else null. Over https the operator
     *                  connects by the member's DNS name, which the members' certificates cover (pod IPs are not
     *                  known when certificates are made); over http by pod IP.
     * @param backups   the EtcdBackups of the cluster's namespace, read only when its quorum-loss policy is
     *                  FromBackup
     */
    Observed observe(EtcdCluster cluster, List<Pod> pods, Set<String> claims, EtcdTls clientTls,
            List<EtcdBackup> backups) {
        return observe(cluster, pods, claims, clientTls, backups, null, true);
    }

    /**
     * @param tlsFingerprint the fingerprint of the cluster's TLS Secrets as they are now, or null without TLS: a pod
     *                       started on another (or not saying which) runs on stale TLS material
     * @param restoreEnded   no EtcdRestore is still restoring this cluster (see {@link #runOncePodsReplaceable})
     */
    Observed observe(EtcdCluster cluster, List<Pod> pods, Set<String> claims, EtcdTls clientTls,
            List<EtcdBackup> backups, String tlsFingerprint, boolean restoreEnded) {
        EtcdClusterSpec spec = cluster.getSpec();
        String name = cluster.getMetadata().getName();
        String namespace = cluster.getMetadata().getNamespace();
        MemberNaming naming = ClusterResources.naming(cluster);
        String domain = spec.getPod() == null || spec.getPod().getClusterDomain() == null ? ""
                : spec.getPod().getClusterDomain();
        boolean peerTls = naming.tls();

        List<MemberPod> memberPods = new ArrayList<>();
        Map<String, String> clientUrlByPod = new HashMap<>();
        Set<String> addresses = new HashSet<>();
        for (Pod pod : pods) {
            MemberPod memberPod = memberPod(pod, tlsFingerprint);
            if (memberPod.imageProblem() != null && !ClusterResources.image(spec, memberPod.etcdVersion())
                    .equals(etcdImage(pod))) {
                memberPod = memberPod.ofOtherRepository();
            }
            memberPods.add(memberPod);
            String ip = pod.getStatus() == null ? null : pod.getStatus().getPodIP();
            if (ip != null && !ip.isBlank() && memberPod.running() && !memberPod.terminating()) {
                addresses.add(ip);
                clientUrlByPod.put(pod.getMetadata().getName(), clientTls != null
                        ? "https://" + naming.dnsName(pod.getMetadata().getName()) + ":" + ClusterResources.CLIENT_PORT
                        : "http://" + ip + ":" + ClusterResources.CLIENT_PORT);
            }
        }

        Optional<EtcdAdmin> admin = Optional.empty();
        Optional<List<EtcdMember>> members = Optional.empty();
        Map<Long, MemberHealth> health = new HashMap<>();
        List<MemberAlarm> alarms = null;
        long revision = 0;
        boolean listFromLeader = false;
        if (!clientUrlByPod.isEmpty()) {
            EtcdAdmin a = admins.forCluster(key(namespace, name), new EtcdAdmins.Target(cluster.getMetadata().getUid(),
                    Set.copyOf(clientUrlByPod.values()), addresses, clientTls));
            admin = Optional.of(a);
            try {
                Known known = new Known(List.copyOf(memberPods), claims, clock.instant());
                EtcdAdmin.Members listed = a.memberList();
                Map<Long, String> urlById = new HashMap<>();
                revision = askHealth(a, listed.members(), clientUrlByPod, naming, health, urlById);
                boolean plausible = plausible(listed.members(), known, naming);
                if (!plausible || health.values().stream().noneMatch(MemberHealth::leader)) {
                    // a list that names no leader may be a member's still applying the leader's log: the leader,
                    // added since, may be a pod the list lacks
                    Optional<EtcdAdmin.Members> wider = fromUnlisted(a, listed.members(), clientUrlByPod, naming, known,
                            plausible);
                    if (wider.isPresent()) {
                        listed = wider.get();
                        Set<Long> ids = listed.members().stream().map(Member::id).collect(Collectors.toSet());
                        health.keySet().retainAll(ids);
                        revision = Math.max(revision, askHealth(a, listed.members(), clientUrlByPod, naming, health,
                                urlById));
                    }
                }
                LeaderList leaders = fromLeader(a, listed, health, urlById, known, naming, namespace, name);
                List<Member> list = leaders.members();
                listFromLeader = leaders.leaders();
                if (list != listed.members()) {
                    // members only the leader's list has (added since) are asked too; those it lacks are no more
                    Set<Long> ids = list.stream().map(Member::id).collect(Collectors.toSet());
                    health.keySet().retainAll(ids);
                    revision = Math.max(revision, askHealth(a, list, clientUrlByPod, naming, health, urlById));
                }
                List<Member> seen = list;
                for (long id : splitOff(a, seen, health, urlById)) {
                    // its answers are its own cluster's: it counts as no healthy member of this one
                    health.put(id, new MemberHealth(id, false, false, null, 0));
                    seen.stream().filter(m -> m.id() == id).map(m -> memberName(m, naming)).findFirst()
                            .ifPresent(n -> memberPods.replaceAll(p -> p.name().equals(n) ? p.withSplitOff() : p));
                }
                members = Optional.of(list.stream().map(m -> new EtcdMember(m.id(), m.name(),
                        m.peerUrls().isEmpty() ? "" : m.peerUrls().get(0), m.learner())).toList());
                // etcd answers the alarm list through raft: with no leader the call would wait out its deadline,
                // and a reconcile of a cluster that lost its quorum would come every call timeout, not every second
                if (health.values().stream().anyMatch(h -> h.healthy() || h.leader())) {
                    alarms = alarms(a, namespace, name);
                }
            } catch (EtcdAdminException e) {
                LOG.debugf("no member of %s/%s answered: %s", namespace, name, e.getMessage());
            }
        }
        if (!runOncePodsReplaceable(cluster, restoreEnded)) {
            memberPods.replaceAll(ClusterObserver::notReplaceable);
        }
        EtcdClusterStatus status = cluster.getStatus();
        String current = status == null ? null : status.getCurrentVersion();
        ClusterObservation observation = new ClusterObservation(name, namespace, spec.getSize(),
                ClusterResources.version(spec), Boolean.TRUE.equals(spec.getPaused()),
                spec.getPod() != null && spec.getPod().getPersistentVolumeClaimSpec() != null, memberPods, members,
                health, current, domain, peerTls, claims, seedMember(cluster, naming),
                reseedRequested(cluster), clock.instant(), space(cluster, alarms, revision),
                quorumLoss(cluster, backups, admin, clientUrlByPod), Boolean.TRUE.equals(spec.getAllowDowngrade()),
                status == null ? null : status.getInitialMembers(), startsFromSeed(cluster),
                status == null ? null : status.getFailedUpgradeVersion(), listFromLeader);
        return new Observed(observation, admin, clientUrlByPod);
    }

    /**
     * Asks each listed member that has a pod and no answer in {@code health} yet; records the answers and the members'
     * client URLs.
     *
     * @return the highest revision a member answered with
     */
    private static long askHealth(EtcdAdmin a, List<Member> list, Map<String, String> clientUrlByPod, MemberNaming naming,
            Map<Long, MemberHealth> health, Map<Long, String> urlById) {
        long revision = 0;
        for (Member m : list) {
            String url = clientUrlByPod.get(memberName(m, naming));
            if (url != null && !health.containsKey(m.id())) {
                urlById.put(m.id(), url);
                Answer answer = health(a, m, url);
                health.put(m.id(), answer.health());
                revision = Math.max(revision, answer.revision());
            }
        }
        return revision;
    }

    private static String memberName(Member m, MemberNaming naming) {
        return m.started() ? m.name()
                : naming.memberOfPeerUrl(m.peerUrls().isEmpty() ? null : m.peerUrls().get(0)).orElse("");
    }

    /** What {@link #plausible} checks a list against: the cluster's pods and claims, now. */
    record Known(List<MemberPod> pods, Set<String> claims, java.time.Instant now) {
    }

    /** Whether {@code list} can be the cluster's ({@link MemberListCheck}). */
    static boolean plausible(List<Member> list, Known known, MemberNaming naming) {
        Set<String> names = list.stream().map(m -> memberName(m, naming)).collect(Collectors.toSet());
        return MemberListCheck.lacking(names, list.size(), known.pods(), known.claims(), known.now()).isEmpty();
    }

    /**
     * The member list the observation goes by, and whether it is a leader's own answer (a list that can be the
     * cluster's, from a member whose etcd says it leads): only such a list may make a pod no member's, or a member be
     * added or removed to scale.
     */
    record LeaderList(List<Member> members, boolean leaders) {
    }

    /**
     * The member list as the leader has it, when another member answered: a member cut off from the leader answers
     * from what it applied before, which may lack a member added since, whose pod would then look like no member's
     * and be deleted. Of members that say they lead, the newest log is asked first (a leader cut off from the others
     * may still say it leads until it steps down), but only a list that {@linkplain #plausible can be the
     * cluster's} is taken: a member leading a new cluster of its own may have the longer log. Kept as answered when
     * no leader is known or none answers with such a list.
     */
    static LeaderList fromLeader(EtcdAdmin admin, EtcdAdmin.Members listed, Map<Long, MemberHealth> health,
            Map<Long, String> urlById, Known known, MemberNaming naming, String namespace, String name) {
        List<Long> leaders = health.entrySet().stream().filter(e -> e.getValue().leader())
                .sorted(java.util.Comparator.comparingLong(
                        (Map.Entry<Long, MemberHealth> e) -> e.getValue().raftIndex()).reversed())
                .map(Map.Entry::getKey).toList();
        for (long leader : leaders) {
            if (listed.answeredBy() == leader) {
                if (plausible(listed.members(), known, naming)) {
                    return new LeaderList(listed.members(), true);
                }
                continue;
            }
            String url = urlById.get(leader);
            if (url == null) {
                continue;
            }
            try {
                List<Member> theirs = admin.members(url);
                if (plausible(theirs, known, naming)) {
                    return new LeaderList(theirs, true);
                }
            } catch (EtcdAdminException e) {
                LOG.debugf("%s/%s: leader %x did not list the members (%s)", namespace, name, leader, e.getMessage());
            }
        }
        return new LeaderList(listed.members(), false);
    }

    /**
     * When the list that answered cannot be the cluster's ({@link #plausible}), or names no leader: the list of a
     * running pod it lacks whose etcd has a leader ({@code leadersOnly}: that is the leader), and whose list can be
     * the cluster's (the one with the newest log, if several). The list may come from a member whose data was wiped
     * and that started a new cluster of its own (under the same IDs), or that is being sent the leader's log again,
     * the members of the cluster not asked. Empty when no such pod answers.
     */
    static Optional<EtcdAdmin.Members> fromUnlisted(EtcdAdmin admin, List<Member> list,
            Map<String, String> clientUrlByPod, MemberNaming naming, Known known) {
        return fromUnlisted(admin, list, clientUrlByPod, naming, known, false);
    }

    static Optional<EtcdAdmin.Members> fromUnlisted(EtcdAdmin admin, List<Member> list,
            Map<String, String> clientUrlByPod, MemberNaming naming, Known known, boolean leadersOnly) {
        Set<String> listed = list.stream().map(m -> memberName(m, naming)).collect(Collectors.toSet());
        EtcdAdmin.Members best = null;
        long bestIndex = -1;
        for (Map.Entry<String, String> pod : new java.util.TreeMap<>(clientUrlByPod).entrySet()) {
            if (listed.contains(pod.getKey())) {
                continue;
            }
            try {
                MemberStatus status = admin.status(pod.getValue());
                if (status == null || status.leaderId() == 0 || status.raftIndex() <= bestIndex
                        || leadersOnly && status.leaderId() != status.memberId()) {
                    continue;
                }
                List<Member> theirs = admin.members(pod.getValue());
                if (plausible(theirs, known, naming)) {
                    best = new EtcdAdmin.Members(status.memberId(), theirs);
                    bestIndex = status.raftIndex();
                }
            } catch (EtcdAdminException e) {
                LOG.debugf("pod %s, which the member list lacks, does not answer: %s", pod.getKey(), e.getMessage());
            }
        }
        return Optional.ofNullable(best);
    }

    /**
     * The listed members that answer as a leader while another does too, and whose own member list lacks a majority
     * of the list's members (a leader merely cut off from the others lists them all). Such a member was started again
     * on an empty data directory with its first {@code --initial-cluster-state=new}: it leads a new cluster of its
     * own and serves none of the cluster's data.
     */
    static Set<Long> splitOff(EtcdAdmin admin, List<Member> list, Map<Long, MemberHealth> health,
            Map<Long, String> urlById) {
        List<Long> leaders = health.entrySet().stream().filter(e -> e.getValue().leader()).map(Map.Entry::getKey)
                .sorted().toList();
        if (leaders.size() < 2) {
            return Set.of();
        }
        Set<Long> ids = list.stream().map(Member::id).collect(Collectors.toSet());
        Set<Long> split = new java.util.TreeSet<>();
        for (long leader : leaders) {
            String url = urlById.get(leader);
            if (url == null) {
                continue;
            }
            try {
                long known = admin.members(url).stream().filter(m -> ids.contains(m.id())).count();
                if (known < list.size() / 2 + 1) {
                    split.add(leader);
                }
            } catch (EtcdAdminException e) {
                LOG.debugf("member %x, which answers as a leader beside another, did not list the members: %s",
                        leader, e.getMessage());
            }
        }
        return split;
    }

    /**
     * A person asked to start a cluster that lost every member again, empty: the reseed annotation names this
     * cluster's uid (a copied manifest cannot ask it for another cluster of the same name), and the status reports
     * the loss (an annotation put on early is not a standing order for a later loss).
     */
    static boolean reseedRequested(EtcdCluster cluster) {
        Map<String, String> annotations = cluster.getMetadata().getAnnotations();
        String uid = cluster.getMetadata().getUid();
        EtcdClusterStatus status = cluster.getStatus();
        return annotations != null && uid != null && uid.equals(annotations.get(ClusterAnnotations.RESEED))
                && status != null && ClusterStatusBuilder.PHASE_FAILED.equals(status.getPhase())
                && ClusterStatusBuilder.REASON_ALL_MEMBERS_LOST.equals(status.getReason());
    }

    /** The key of a cluster's connection in {@link EtcdAdmins}. */
    static String key(String namespace, String name) {
        return namespace + "/" + name;
    }

    /**
     * The quorum loss the status records; with a recovery from a survivor, whether its member answers as a healthy
     * one-member cluster, asked directly (the member list may be read from an old member while the old pods are there).
     */
    private static QuorumLoss quorumLoss(EtcdCluster cluster, List<EtcdBackup> backups, Optional<EtcdAdmin> admin,
            Map<String, String> clientUrlByPod) {
        QuorumLoss loss = QuorumLossView.of(cluster, backups);
        QuorumLoss.Recovery recovery = loss.recovery();
        String url = recovery == null || recovery.member() == null ? null : clientUrlByPod.get(recovery.member());
        if (url == null || admin.isEmpty()) {
            return loss;
        }
        try {
            MemberStatus status = admin.get().status(url);
            if (status.isLeader() && !status.learner() && admin.get().health(url).healthy()) {
                return loss.withRecovery(recovery.answeredAt(status.revision()));
            }
        } catch (EtcdAdminException e) {
            LOG.debugf("the recovery member %s does not answer yet: %s", recovery.member(), e.getMessage());
        }
        return loss;
    }

    /** What one member answered, and the store revision it reported (0 when it did not answer). */
    private record Answer(MemberHealth health, long revision) {
    }

    private static Answer health(EtcdAdmin admin, Member member, String url) {
        try {
            MemberStatus status = admin.status(url);
            boolean healthy = admin.health(url).healthy();
            return new Answer(new MemberHealth(member.id(), healthy, status.isLeader(), status.version(),
                    status.raftIndex(), status.dbSize(), status.dbSizeInUse(), status.revision(),
                    status.storageVersion(), status.downgradeTarget()), status.revision());
        } catch (EtcdAdminException e) {
            return new Answer(new MemberHealth(member.id(), false, false, null, 0), 0);
        }
    }

    /** The alarms, or null when they could not be read. */
    private static List<MemberAlarm> alarms(EtcdAdmin admin, String namespace, String name) {
        try {
            return admin.alarms().stream().map(a -> new MemberAlarm(a.memberId(), a.type())).toList();
        } catch (EtcdAdminException e) {
            LOG.debugf("the alarms of %s/%s are unknown: %s", namespace, name, e.getMessage());
            return null;
        }
    }

    /** @param alarms as just read, or null when they were not: the last ones read stand for them */
    private DatabaseSpace space(EtcdCluster cluster, List<MemberAlarm> alarms, long revision) {
        String key = key(cluster.getMetadata().getNamespace(), cluster.getMetadata().getName());
        SpaceRecoveries.Progress done = space.of(key, cluster.getMetadata().getUid());
        List<MemberAlarm> known = space.alarms(key, cluster.getMetadata().getUid(), alarms);
        return new DatabaseSpace(known, quotaBytes(cluster.getSpec()), revision, done.compactedRevision(),
                done.defragmented(), fragmentationThreshold(cluster.getSpec()), defragmentationRound(cluster));
    }

    /** The thresholds of {@code spec.etcd.defragmentation} with their defaults; null when not set or schedule only. */
    static FragmentationThreshold fragmentationThreshold(EtcdClusterSpec spec) {
        Defragmentation d = spec.getEtcd() == null ? null : spec.getEtcd().getDefragmentation();
        return d == null || !d.thresholdsOn() ? null : new FragmentationThreshold(d.minFragmentedBytesOrDefault(),
                d.minFragmentedPercentOrDefault());
    }

    /**
     * {@code spec.etcd.defragmentation.schedule} and the round {@code status.defragmentation} recorded for it; null
     * without a schedule (or with one validation refuses).
     */
    static DefragmentationRound defragmentationRound(EtcdCluster cluster) {
        EtcdClusterSpec spec = cluster.getSpec();
        Defragmentation d = spec.getEtcd() == null ? null : spec.getEtcd().getDefragmentation();
        if (d == null || d.getSchedule() == null) {
            return null;
        }
        CronSchedule schedule;
        try {
            schedule = CronSchedule.parse(d.getSchedule());
        } catch (IllegalArgumentException e) {
            return null;
        }
        DefragmentationStatus recorded = cluster.getStatus() == null ? null : cluster.getStatus().getDefragmentation();
        if (recorded == null || !schedule.text().equals(recorded.getSchedule()) || recorded.getNextRoundTime() == null) {
            return new DefragmentationRound(schedule, null, List.of());
        }
        Instant due;
        try {
            due = Instant.parse(recorded.getNextRoundTime());
        } catch (DateTimeParseException e) {
            return new DefragmentationRound(schedule, null, List.of());
        }
        return new DefragmentationRound(schedule, due, recorded.getRoundMembers());
    }

    /**
     * The members' quota: {@code spec.etcd.quotaBackendBytes}, else a number {@code spec.pod.etcdEnv} gives
     * {@code ETCD_QUOTA_BACKEND_BYTES}, else etcd's default.
     */
    static long quotaBytes(EtcdClusterSpec spec) {
        if (spec.getEtcd() != null && spec.getEtcd().getQuotaBackendBytes() != null) {
            return spec.getEtcd().getQuotaBackendBytes();
        }
        if (spec.getPod() != null && spec.getPod().getEtcdEnv() != null) {
            for (EnvVar env : spec.getPod().getEtcdEnv()) {
                if (env != null && QUOTA_ENV.equals(env.getName()) && env.getValue() != null) {
                    try {
                        long quota = Long.parseLong(env.getValue().trim());
                        if (quota > 0) {
                            return quota;
                        }
                    } catch (NumberFormatException e) {
                        // etcd would refuse it too; keep the default
                    }
                }
            }
        }
        return DatabaseSpace.DEFAULT_QUOTA_BYTES;
    }

    /**
     * The TLS material each live pod says it was started on (its fingerprint, the CAs it trusted and the CAs that
     * issued its certificates), by pod name; pods without a fingerprint are left out.
     */
    static Map<String, TlsMaterial> tlsStartedOn(List<Pod> pods) {
        Map<String, TlsMaterial> started = new HashMap<>();
        for (Pod pod : pods) {
            Map<String, String> a = pod.getMetadata().getAnnotations();
            if (pod.getMetadata().getDeletionTimestamp() != null || a == null
                    || a.get(ClusterResources.TLS_FINGERPRINT_ANNOTATION) == null) {
                continue;
            }
            started.put(pod.getMetadata().getName(), new TlsMaterial(a.get(ClusterResources.TLS_FINGERPRINT_ANNOTATION),
                    ids(a.get(ClusterResources.TLS_TRUSTED_CAS_ANNOTATION)),
                    ids(a.get(ClusterResources.TLS_ISSUING_CAS_ANNOTATION))));
        }
        return started;
    }

    private static Set<String> ids(String list) {
        return list == null || list.isBlank() ? Set.of()
                : java.util.Arrays.stream(list.split(",")).map(String::strip).filter(s -> !s.isEmpty())
                        .collect(Collectors.toSet());
    }

    /** The pod as the planner sees it; stale when it was started on other TLS material than {@code tlsFingerprint}. */
    static MemberPod memberPod(Pod pod, String tlsFingerprint) {
        MemberPod seen = memberPod(pod);
        if (tlsFingerprint == null) {
            return seen;
        }
        Map<String, String> annotations = pod.getMetadata().getAnnotations();
        String started = annotations == null ? null : annotations.get(ClusterResources.TLS_FINGERPRINT_ANNOTATION);
        return tlsFingerprint.equals(started) ? seen : seen.withStaleTls();
    }

    static MemberPod memberPod(Pod pod) {
        boolean running = pod.getStatus() != null && "Running".equals(pod.getStatus().getPhase())
                && containerRunning(pod);
        boolean ready = pod.getStatus() != null && pod.getStatus().getConditions() != null
                && pod.getStatus().getConditions().stream()
                        .anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()));
        boolean claim = pod.getSpec().getVolumes() != null && pod.getSpec().getVolumes().stream()
                .anyMatch(v -> v.getPersistentVolumeClaim() != null);
        boolean stopped = pod.getStatus() != null
                && ("Failed".equals(pod.getStatus().getPhase()) || "Succeeded".equals(pod.getStatus().getPhase()));
        String deletion = pod.getMetadata().getDeletionTimestamp();
        MemberPod seen = new MemberPod(pod.getMetadata().getName(), running, ready, deletion != null,
                ClusterResources.podVersion(pod), claim, stopped, instant(deletion), false, etcdStarted(pod),
                !stopped && deletion == null && etcdCrashLooping(pod),
                ClusterResources.RUNS_ONCE.equals(pod.getSpec().getRestartPolicy()), etcdImageProblem(pod), false);
        seen = dataCheckFailed(pod) ? seen.withDataMissing() : seen;
        return pod.getSpec().getVolumes() != null && pod.getSpec().getVolumes().stream()
                .anyMatch(v -> SurvivorSnapshot.SURVIVOR_VOLUME.equals(v.getName())) ? seen.withSurvivorClaimMounted()
                        : seen;
    }

    /** The pod's check of its member's data directory ({@link ClusterResources#CHECK_DATA}) failed, now or before. */
    static boolean dataCheckFailed(Pod pod) {
        if (pod.getStatus() == null || pod.getStatus().getInitContainerStatuses() == null) {
            return false;
        }
        return pod.getStatus().getInitContainerStatuses().stream()
                .filter(s -> ClusterResources.CHECK_DATA.equals(s.getName()))
                .anyMatch(s -> failed(s.getState()) || failed(s.getLastState()));
    }

    private static boolean failed(io.fabric8.kubernetes.api.model.ContainerState state) {
        return state != null && state.getTerminated() != null && state.getTerminated().getExitCode() != null
                && state.getTerminated().getExitCode() == ClusterResources.CHECK_DATA_MISSING;
    }

    /** The image of the pod's etcd container, or null. */
    static String etcdImage(Pod pod) {
        return pod.getSpec().getContainers().stream().filter(c -> ClusterResources.ETCD_CONTAINER.equals(c.getName()))
                .map(c -> c.getImage()).findFirst().orElse(null);
    }

    /** The kubelet's reasons for an image it cannot get; it keeps trying with a back-off. */
    static final Set<String> IMAGE_PROBLEMS = Set.of("ErrImagePull", "ImagePullBackOff", "InvalidImageName",
            "ErrImageNeverPull", "RegistryUnavailable");

    /** Why the kubelet cannot get the etcd container's image, with its message; null when it can. */
    static String etcdImageProblem(Pod pod) {
        return etcdStatus(pod).filter(s -> s.getState() != null && s.getState().getWaiting() != null
                && IMAGE_PROBLEMS.contains(s.getState().getWaiting().getReason()))
                .map(s -> s.getState().getWaiting().getReason() + (s.getState().getWaiting().getMessage() == null
                        ? "" : ": " + s.getState().getWaiting().getMessage()))
                .orElse(null);
    }

    /** The etcd container failed and waits out the kubelet's back-off before it starts again in the same pod. */
    static boolean etcdCrashLooping(Pod pod) {
        return etcdStatus(pod).filter(s -> s.getState() != null && s.getState().getWaiting() != null
                && CRASH_LOOP_BACK_OFF.equals(s.getState().getWaiting().getReason())).isPresent();
    }

    private static Instant instant(String timestamp) {
        if (timestamp == null) {
            return null;
        }
        try {
            return Instant.parse(timestamp);
        } catch (DateTimeParseException e) {
            return null;
        }
    }

    /**
     * Whether the planner may replace members whose pod runs once (by adding a member over {@code spec.size}, then
     * removing one of them): once the EtcdRestore that made the cluster has ended (a seed sending its data to the
     * member that replaces it would keep the restore from seeing its cluster healthy), and not when its pods have
     * (anti-)affinity rules (the extra pod might find no node, and would hold up everything after it). Otherwise
     * their pods are shown as any other.
     */
    static boolean runOncePodsReplaceable(EtcdCluster cluster, boolean restoreEnded) {
        PodPolicy pod = cluster.getSpec().getPod();
        boolean placed = pod != null && (Boolean.TRUE.equals(pod.getAntiAffinity()) || pod.getAffinity() != null);
        return restoreEnded && !placed;
    }

    /**
     * The seed the status records; before one is recorded, a restored cluster's seed is the member its restore
     * started beside the template (its annotation), when that can be a member of this cluster.
     */
    static String seedMember(EtcdCluster cluster, MemberNaming naming) {
        String recorded = cluster.getStatus() == null ? null : cluster.getStatus().getSeedMember();
        if (recorded != null && !recorded.isBlank()) {
            return recorded;
        }
        Map<String, String> annotations = cluster.getMetadata().getAnnotations();
        String staged = annotations == null ? null : annotations.get(RestoreAnnotations.SEED_MEMBER);
        return RestoreSeed.snapshotSecret(cluster).isPresent() && naming.isMemberName(staged)
                && MEMBER_NAME.matcher(staged).matches() ? staged : recorded;
    }

    /**
     * A pod that runs once, seen as one that restarts in place while such pods may not be replaced yet (a restore
     * still finishing); one that ended stays as it is: a restored seed that failed is its restore's to retry or
     * report, not the planner's to make again.
     */
    static MemberPod notReplaceable(MemberPod p) {
        return p.runsOnce() && !p.stopped() ? p.restartingInPlace() : p;
    }

    /** See {@link ClusterObservation#startsFromSeed()}. */
    static boolean startsFromSeed(EtcdCluster cluster) {
        EtcdClusterSpec spec = cluster.getSpec();
        return RestoreSeed.snapshotSecret(cluster).isPresent() || spec.getPod() != null
                && (Boolean.TRUE.equals(spec.getPod().getAntiAffinity()) || spec.getPod().getAffinity() != null);
    }

    /** The etcd container runs, or ended after it had started (a container that never started has no start time). */
    static boolean etcdStarted(Pod pod) {
        return etcdStatus(pod).filter(s -> s.getState() != null && (s.getState().getRunning() != null
                || s.getState().getTerminated() != null && s.getState().getTerminated().getStartedAt() != null)
                || s.getLastState() != null && s.getLastState().getTerminated() != null).isPresent();
    }

    private static boolean containerRunning(Pod pod) {
        return etcdStatus(pod).filter(s -> s.getState() != null && s.getState().getRunning() != null
                && runsSpecVersion(pod, s)).isPresent();
    }

    /**
     * Whether the etcd container runs the version its pod's spec names: after the operator changes a member's image
     * its old etcd runs on, and answers, until the node restarts the container; until then the member is not
     * counted as running the new version, so that the next member is not changed beside it. Only versions are
     * compared (a tag the status reports in another form, a digest, says nothing either way).
     */
    static boolean runsSpecVersion(Pod pod, ContainerStatus status) {
        String wanted = ClusterResources.podVersion(pod);
        String running = status.getImage() == null || !status.getImage().contains(":") ? null
                : status.getImage().substring(status.getImage().lastIndexOf(':') + 1);
        if (running != null && running.startsWith("v")) {
            running = running.substring(1);
        }
        if (wanted == null || running == null || dev.etcdoperator.core.cluster.Version.parse(wanted).isEmpty()
                || dev.etcdoperator.core.cluster.Version.parse(running).isEmpty()) {
            return true;
        }
        return wanted.equals(running);
    }

    /** The status of the pod's etcd container, once the node reported one. */
    static Optional<ContainerStatus> etcdStatus(Pod pod) {
        List<ContainerStatus> statuses = pod.getStatus() == null ? null : pod.getStatus().getContainerStatuses();
        return statuses == null ? Optional.empty() : statuses.stream()
                .filter(s -> ClusterResources.ETCD_CONTAINER.equals(s.getName())).findFirst();
    }

    static Set<String> names(List<Pod> pods) {
        return pods.stream().map(p -> p.getMetadata().getName()).collect(Collectors.toSet());
    }
}
