package dev.etcdoperator.cluster;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import io.fabric8.kubernetes.api.model.ContainerStateTerminated;
import io.fabric8.kubernetes.api.model.Pod;
import jakarta.enterprise.context.ApplicationScoped;

import dev.etcdoperator.core.cluster.ClusterObservation;
import dev.etcdoperator.core.cluster.ClusterPlanner;
import dev.etcdoperator.core.cluster.EtcdMember;
import dev.etcdoperator.core.cluster.MemberHealth;
import dev.etcdoperator.core.cluster.MemberPod;
import dev.etcdoperator.core.cluster.Step;

/**
 * The member pods the operator deleted to make them again on their claims because their etcd crash-looped while every
 * other member was healthy, by cluster uid and member, since each member was last healthy. A member whose etcd fails
 * again in each new pod fails on what its claim holds (a damaged database, a data directory that became a cluster of
 * its own), and its next failing pod is marked for the planner to replace it ({@link MemberPod#keepsFailing}).
 * <p>
 * Not counted: a pod that ended (evicted, its node shut down: not its data), an etcd the kernel killed for memory (a
 * fresh member given the same data and limit would be killed too), a failure while another member was not healthy
 * (an outage of the whole cluster's storage or network). Nothing is marked while the cluster answers at a lower
 * revision than it was seen at (the members that answer may be the ones that lost their data), nor within
 * {@link #WINDOW} of the last member replaced this way (what fails may be what every new pod is given).
 * <p>
 * Kept in memory: after a restart (or on another replica) a member is made again a few more times before it is
 * replaced, which is harmless.
 */
@ApplicationScoped
public class InPlaceRecreations {
    /** Recreations older than this are not counted: a member that failed now and then over a day is not failing. */
    static final Duration WINDOW = Duration.ofMinutes(30);

    private static final class Recreations {
        final String uid;
        /** The uids of each member's pods deleted, and when. */
        final Map<String, Map<String, Instant>> byMember = new HashMap<>();
        long highestRevision;
        Instant lastReplaced;

        Recreations(String uid) {
            this.uid = uid;
        }
    }

    private final Map<String, Recreations> byCluster = new ConcurrentHashMap<>();

    /**
     * Records {@code step}, carried out for the cluster {@code key} (namespace/name) of {@code uid}, as planned on
     * {@code o} and {@code pods}.
     */
    void done(String key, String uid, Step step, ClusterObservation o, List<Pod> pods) {
        if (o.now() == null) {
            return;
        }
        if (step instanceof Step.RemoveMember remove && Step.RemoveMember.KEEPS_FAILING.equals(remove.reason())) {
            Recreations r = of(key, uid);
            r.byMember.remove(remove.name());
            r.lastReplaced = o.now();
            return;
        }
        if (!(step instanceof Step.DeletePod delete) || !Step.DeletePod.POD_STOPPED.equals(delete.reason())) {
            return;
        }
        boolean crashLooping = o.livePod(delete.name()).map(MemberPod::crashLooping).orElse(false);
        Optional<Pod> pod = pods.stream().filter(p -> delete.name().equals(p.getMetadata().getName())).findFirst();
        if (!crashLooping || pod.isEmpty() || oomKilled(pod.get()) || !othersHealthy(o, delete.name())) {
            return;
        }
        of(key, uid).byMember.computeIfAbsent(delete.name(), n -> new HashMap<>())
                .putIfAbsent(pod.get().getMetadata().getUid(), o.now());
    }

    /**
     * {@code o} with the failing pod of each member marked whose etcd crash-looped in
     * {@link ClusterPlanner#RECREATIONS_BEFORE_REPLACING} of its pods deleted since it was last healthy, and fails in
     * one made after them; a member healthy now is forgotten.
     */
    ClusterObservation marked(String key, String uid, ClusterObservation o, List<Pod> pods) {
        if (o.now() == null) {
            return o;
        }
        Recreations r = of(key, uid);
        // one cluster is reconciled by one thread at a time
        long revision = o.space() == null ? 0 : o.space().revision();
        boolean rolledBack = revision > 0 && revision < r.highestRevision;
        r.highestRevision = Math.max(r.highestRevision, revision);
        Instant since = o.now().minus(WINDOW);
        healthyNames(o).forEach(r.byMember::remove);
        r.byMember.values().forEach(times -> times.values().removeIf(t -> t.isBefore(since)));
        r.byMember.values().removeIf(Map::isEmpty);
        boolean replacedLately = r.lastReplaced != null && r.lastReplaced.isAfter(since);
        if (rolledBack || replacedLately) {
            return o;
        }
        Set<String> failing = new HashSet<>();
        for (MemberPod p : o.pods()) {
            Map<String, Instant> deleted = r.byMember.getOrDefault(p.name(), Map.of());
            String podUid = pods.stream().filter(pod -> p.name().equals(pod.getMetadata().getName()))
                    .map(pod -> pod.getMetadata().getUid()).findFirst().orElse(null);
            if (deleted.size() >= ClusterPlanner.RECREATIONS_BEFORE_REPLACING && podUid != null
                    && !deleted.containsKey(podUid) && p.crashLooping() && !p.terminating()) {
                failing.add(p.name());
            }
        }
        return failing.isEmpty() ? o
                : o.withPods(o.pods().stream().map(p -> failing.contains(p.name()) ? p.withKeepsFailing() : p)
                        .toList());
    }

    private Recreations of(String key, String uid) {
        return byCluster.compute(key, (k, r) -> r == null || !r.uid.equals(uid) ? new Recreations(uid) : r);
    }

    private static boolean oomKilled(Pod pod) {
        return ClusterObserver.etcdStatus(pod).map(s -> s.getLastState() == null ? null
                : s.getLastState().getTerminated()).map(ContainerStateTerminated::getReason)
                .filter("OOMKilled"::equals).isPresent();
    }

    private static boolean othersHealthy(ClusterObservation o, String member) {
        List<EtcdMember> others = o.members().orElse(List.of()).stream().filter(m -> !member.equals(m.name()))
                .toList();
        return !others.isEmpty() && others.stream()
                .allMatch(m -> o.healthOf(m.id()).map(MemberHealth::healthy).orElse(false));
    }

    private static Set<String> healthyNames(ClusterObservation o) {
        Set<String> names = new HashSet<>();
        o.members().ifPresent(members -> members.forEach(m -> {
            if (o.healthOf(m.id()).map(MemberHealth::healthy).orElse(false)) {
                names.add(m.name());
            }
        }));
        return names;
    }

    void forget(String key) {
        byCluster.remove(key);
    }
}
