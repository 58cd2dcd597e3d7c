package dev.etcdoperator.etcd;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

import io.grpc.ManagedChannel;

/**
 * One gRPC channel per member endpoint of a cluster, opened on first use and reused by every later call, so that a
 * reconcile that asks each member for its status and health opens no connection. A channel whose call failed is
 * closed and dropped: the next call opens a fresh one, which resolves the member's name again and does not wait out
 * the reconnect backoff of a member that restarted. Endpoints outside the cluster's set (a member's advertised URL
 * found in the member list) get a channel for one call only, so the number of channels stays that of the endpoints.
 */
final class MemberChannels implements AutoCloseable {
    /** A channel for one call: the caller ends it with {@link MemberChannels#done}. */
    record Lease(String endpoint, ManagedChannel channel, boolean shared) {
    }

    private final Set<String> endpoints;
    private final Function<String, ManagedChannel> open;
    private final Map<String, ManagedChannel> channels = new ConcurrentHashMap<>();
    private volatile boolean closed;

    MemberChannels(Set<String> endpoints, Function<String, ManagedChannel> open) {
        this.endpoints = Set.copyOf(endpoints);
        this.open = open;
    }

    Lease lease(String endpoint) {
        if (closed) {
            throw new IllegalStateException("the connections to " + endpoints + " are closed");
        }
        if (!endpoints.contains(endpoint)) {
            return new Lease(endpoint, open.apply(endpoint), false);
        }
        return new Lease(endpoint, channels.computeIfAbsent(endpoint, open), true);
    }

    /** Ends a call: a one-call channel is closed, and so is a shared one whose call failed. */
    void done(Lease lease, boolean failed) {
        if (!lease.shared()) {
            EtcdClientFactory.close(lease.channel());
        } else if (failed && channels.remove(lease.endpoint(), lease.channel())) {
            EtcdClientFactory.close(lease.channel());
        }
    }

    int open() {
        return channels.size();
    }

    @Override
    public void close() {
        closed = true;
        List<ManagedChannel> all = new ArrayList<>(channels.values());
        channels.clear();
        all.forEach(ManagedChannel::shutdownNow);
        all.forEach(EtcdClientFactory::close);
    }
}
