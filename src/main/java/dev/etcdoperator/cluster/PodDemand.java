package dev.etcdoperator.cluster;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;

/**
 * Whether a pod asks no more of a namespace's quota than another: a pod that takes a running pod's place fits a full
 * quota only then.
 */
final class PodDemand {
    private PodDemand() {
    }

    /** Each container's requests and limits of {@code asked} are at most those of the same container of {@code running}. */
    static boolean noMoreThan(Pod asked, Pod running) {
        return containers(asked).stream().allMatch(c -> {
            Optional<Container> before = containers(running).stream().filter(r -> r.getName().equals(c.getName()))
                    .findFirst();
            ResourceRequirements now = c.getResources();
            ResourceRequirements then = before.map(Container::getResources).orElse(null);
            return atMost(now == null ? null : now.getRequests(), then == null ? null : then.getRequests())
                    && atMost(now == null ? null : now.getLimits(), then == null ? null : then.getLimits());
        });
    }

    private static boolean atMost(Map<String, Quantity> asked, Map<String, Quantity> running) {
        if (asked == null || asked.isEmpty()) {
            return true;
        }
        return asked.entrySet().stream().allMatch(e -> running != null && running.containsKey(e.getKey())
                && amount(e.getValue()).compareTo(amount(running.get(e.getKey()))) <= 0);
    }

    private static BigDecimal amount(Quantity q) {
        return Quantity.getAmountInBytes(q);
    }

    private static List<Container> containers(Pod pod) {
        if (pod.getSpec() == null) {
            return List.of();
        }
        return java.util.stream.Stream.concat(
                pod.getSpec().getContainers() == null ? java.util.stream.Stream.empty()
                        : pod.getSpec().getContainers().stream(),
                pod.getSpec().getInitContainers() == null ? java.util.stream.Stream.empty()
                        : pod.getSpec().getInitContainers().stream())
                .toList();
    }
}
