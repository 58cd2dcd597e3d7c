package dev.etcdoperator.etcd;

import java.util.ArrayList;
import java.util.List;

/**
 * The order in which a cluster-wide call tries a cluster's endpoints: the one that answered last first, then the
 * others as given. A dead member then costs one failed attempt, not one per call.
 */
final class EndpointOrder {
    private final List<String> endpoints;
    private volatile String answering;

    EndpointOrder(List<String> endpoints) {
        if (endpoints.isEmpty()) {
            throw new IllegalArgumentException("no etcd endpoint given");
        }
        this.endpoints = List.copyOf(endpoints);
        this.answering = this.endpoints.get(0);
    }

    List<String> next() {
        String first = answering;
        List<String> ordered = new ArrayList<>(endpoints.size());
        ordered.add(first);
        endpoints.stream().filter(e -> !e.equals(first)).forEach(ordered::add);
        return ordered;
    }

    /** {@code endpoint} answered a call; one that is not the cluster's is ignored. */
    void answered(String endpoint) {
        if (endpoints.contains(endpoint)) {
            answering = endpoint;
        }
    }
}
