package dev.etcdoperator.cluster;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.enterprise.context.ApplicationScoped;

import dev.etcdoperator.core.cluster.ClusterObservation;
import dev.etcdoperator.core.cluster.ClusterPlanner;
import dev.etcdoperator.core.cluster.MemberHealth;
import dev.etcdoperator.core.cluster.MemberPod;
import dev.etcdoperator.core.cluster.Step;

/**
 * The member pods the operator deleted to make them again on their claims (their etcd ended or crash-looped), by
 * cluster uid and member, since each member was last healthy. A member whose etcd fails again in each new pod fails on
 * what its claim holds (a data directory that is no longer the cluster's), and is marked for the planner to replace it
 * ({@link MemberPod#keepsFailing}). Kept in memory: after a restart (or on another replica) a member is made again a
 * few more times before it is replaced, which is harmless.
 */
@ApplicationScoped
public class InPlaceRecreations {
    /** Recreations older than this are not counted: a member that failed now and then over a day is not failing. */
    static final Duration WINDOW = Duration.ofMinutes(30);

    private record Recreations(String uid, Map<String, List<Instant>> byMember) {
    }

    private final Map<String, Recreations> byCluster = new ConcurrentHashMap<>();

    /** Records a step that was carried out for the cluster {@code key} (namespace/name) of {@code uid}. */
    void done(String key, String uid, Step step, Instant now) {
        if (step instanceof Step.DeletePod delete && Step.DeletePod.POD_STOPPED.equals(delete.reason())) {
            byCluster.compute(key, (k, r) -> {
                Recreations of = r == null || !r.uid().equals(uid) ? new Recreations(uid, new HashMap<>()) : r;
                of.byMember().computeIfAbsent(delete.name(), n -> new ArrayList<>()).add(now);
                return of;
            });
        }
    }

    /**
     * {@code o} with each failing pod marked whose member was made again on its claim
     * {@link ClusterPlanner#RECREATIONS_BEFORE_REPLACING} times since it was last healthy; a member healthy now is
     * forgotten.
     */
    ClusterObservation marked(String key, String uid, ClusterObservation o) {
        Recreations r = byCluster.get(key);
        if (r == null) {
            return o;
        }
        if (!r.uid().equals(uid)) {
            byCluster.remove(key);
            return o;
        }
        Instant since = o.now().minus(WINDOW);
        // one cluster is reconciled by one thread at a time
        healthyNames(o).forEach(r.byMember()::remove);
        r.byMember().values().forEach(times -> times.removeIf(t -> t.isBefore(since)));
        r.byMember().values().removeIf(List::isEmpty);
        Set<String> failing = new HashSet<>();
        r.byMember().forEach((member, times) -> {
            if (times.size() >= ClusterPlanner.RECREATIONS_BEFORE_REPLACING) {
                failing.add(member);
            }
        });
        if (failing.isEmpty()) {
            return o;
        }
        return o.withPods(o.pods().stream().map(p -> failing.contains(p.name()) && !p.terminating()
                && (p.crashLooping() || p.stopped()) && p.etcdStarted() ? p.withKeepsFailing() : p).toList());
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
