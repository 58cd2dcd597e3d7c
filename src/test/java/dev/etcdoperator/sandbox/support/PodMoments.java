package dev.etcdoperator.sandbox.support;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;

/**
 * When each watched pod was first seen created, running, ready, with its container ended and marked for deletion
 * ({@link System#nanoTime()} at the watch event): where the time of a member's replacement goes.
 */
public final class PodMoments implements Watcher<Pod> {
    public enum Moment { CREATED, RUNNING, READY, ENDED, DELETING }

    private final Map<String, Map<Moment, Long>> seen = new ConcurrentHashMap<>();

    @Override
    public void eventReceived(Action action, Pod pod) {
        long now = System.nanoTime();
        Map<Moment, Long> moments = seen.computeIfAbsent(pod.getMetadata().getName(), n -> new ConcurrentHashMap<>());
        moments.putIfAbsent(Moment.CREATED, now);
        if (action == Action.DELETED || pod.getMetadata().getDeletionTimestamp() != null) {
            moments.putIfAbsent(Moment.DELETING, now);
        }
        var status = pod.getStatus();
        if (status != null && status.getContainerStatuses() != null && status.getContainerStatuses().stream()
                .anyMatch(c -> c.getState() != null && c.getState().getRunning() != null)) {
            moments.putIfAbsent(Moment.RUNNING, now);
        }
        if (status != null && status.getContainerStatuses() != null && status.getContainerStatuses().stream()
                .anyMatch(c -> c.getState() != null && c.getState().getTerminated() != null)) {
            moments.putIfAbsent(Moment.ENDED, now);
        }
        if (status != null && status.getConditions() != null && status.getConditions().stream()
                .anyMatch(c -> c.getType().equals("Ready") && c.getStatus().equals("True"))) {
            moments.putIfAbsent(Moment.READY, now);
        }
    }

    public Optional<Long> of(String pod, Moment moment) {
        return Optional.ofNullable(seen.getOrDefault(pod, Map.of()).get(moment));
    }

    /** The pod first seen after {@code nanos}, other than {@code except}. */
    public Optional<String> createdAfter(long nanos, String except) {
        return seen.entrySet().stream().filter(e -> !e.getKey().equals(except))
                .filter(e -> e.getValue().getOrDefault(Moment.CREATED, Long.MIN_VALUE) > nanos)
                .min(Map.Entry.comparingByValue((a, b) -> Long.compare(a.get(Moment.CREATED), b.get(Moment.CREATED))))
                .map(Map.Entry::getKey);
    }

    @Override
    public void onClose(WatcherException cause) {
    }
}
