package dev.etcdoperator.cluster;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Optional;

import dev.etcdoperator.core.cluster.ClusterPlanner;
import io.fabric8.kubernetes.api.model.Pod;

/**
 * Pods still there {@link ClusterPlanner#STUCK_AFTER} after their deletion timestamp (the end of their grace period):
 * typically pods of a lost node, which only a person (or the node's removal) can end.
 */
public final class StuckPods {
    private StuckPods() {
    }

    /** Their names, sorted. */
    public static List<String> of(List<Pod> pods, Instant now) {
        return pods.stream().filter(p -> stuckSince(p).map(t -> now.isAfter(t.plus(ClusterPlanner.STUCK_AFTER)))
                .orElse(false)).map(p -> p.getMetadata().getName()).sorted().toList();
    }

    /** What to tell a person of them, or empty when none is stuck. */
    public static Optional<String> hint(String namespace, List<Pod> pods, Instant now) {
        List<String> names = of(pods, now);
        if (names.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of("Pod(s) " + String.join(", ", names) + " have been terminating for more than "
                + ClusterPlanner.STUCK_AFTER.toMinutes() + " minutes past their deletion: their node may be lost. Once"
                + " you know it is (or that their etcd no longer runs), delete them by force: kubectl delete pod -n "
                + namespace + " --grace-period=0 --force " + String.join(" ", names));
    }

    private static Optional<Instant> stuckSince(Pod pod) {
        String deletion = pod.getMetadata().getDeletionTimestamp();
        if (deletion == null) {
            return Optional.empty();
        }
        try {
            return Optional.of(Instant.parse(deletion));
        } catch (DateTimeParseException e) {
            return Optional.empty();
        }
    }
}
