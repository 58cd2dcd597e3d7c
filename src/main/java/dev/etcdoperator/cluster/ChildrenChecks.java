package dev.etcdoperator.cluster;

import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/**
 * When each cluster's Services and PodDisruptionBudget were last found as wanted. They are looked up on the API
 * server again only when {@link #RECHECK} has passed, or the cluster (its uid) or its size changed: not on every
 * reconcile, which would cost three requests per cluster every reconcile interval. A Service deleted by hand is seen
 * by the reconciler's Service informer and made again at once; a PodDisruptionBudget comes back within
 * {@link #RECHECK}.
 */
@ApplicationScoped
public class ChildrenChecks {
    static final Duration RECHECK = Duration.ofMinutes(1);

    private record Checked(String uid, int size, long atMillis) {
    }

    private final Map<String, Checked> byCluster = new ConcurrentHashMap<>();
    private final Clock clock;

    @Inject
    public ChildrenChecks(Clock clock) {
        this.clock = clock;
    }

    /** Whether the children of the cluster {@code key} (namespace/name) are to be looked up now. */
    boolean due(String key, String uid, int size) {
        Checked last = byCluster.get(key);
        return last == null || !last.uid().equals(uid) || last.size() != size
                || clock.millis() - last.atMillis() >= RECHECK.toMillis();
    }

    /** The children were found as wanted (or made so) for this uid and size. */
    void checked(String key, String uid, int size) {
        byCluster.put(key, new Checked(uid, size, clock.millis()));
    }

    void forget(String key) {
        byCluster.remove(key);
    }
}
