package dev.etcdoperator.sandbox.support;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A client that keeps writing while an operation runs, as an application would, and remembers every write
 * etcd acknowledged. Endpoints are asked afresh for each write, since members come and go.
 */
public final class ContinuousWriter implements AutoCloseable {
    private final Supplier<List<String>> endpoints;
    private final Supplier<List<String>> flags;
    private final String prefix;
    private static final Pattern REVISION = Pattern.compile("\"revision\":(\\d+)");
    /** Each acknowledged key with the revision etcd gave its write. */
    private final Map<String, Long> acknowledged = new ConcurrentHashMap<>();
    private final AtomicInteger failures = new AtomicInteger();
    private final AtomicBoolean running = new AtomicBoolean(true);
    private volatile long lastAck = System.nanoTime();
    private long longestGap;
    private final Thread thread;

    public ContinuousWriter(String prefix, Supplier<List<String>> endpoints) {
        this(prefix, endpoints, List::of);
    }

    /**
     * @param flags etcdctl flags asked afresh for each write, such as the client certificate of a TLS cluster,
     *              which may change while the writer runs
     */
    public ContinuousWriter(String prefix, Supplier<List<String>> endpoints, Supplier<List<String>> flags) {
        this.prefix = prefix;
        this.endpoints = endpoints;
        this.flags = flags;
        this.thread = new Thread(this::run, "continuous-writer-" + prefix);
        thread.setDaemon(true);
        thread.start();
    }

    private void run() {
        int n = 0;
        while (running.get()) {
            List<String> current;
            try {
                current = endpoints.get();
            } catch (RuntimeException e) {
                // where the endpoints come from (the API server) may be down for a while; etcd need not be
                current = List.of();
            }
            if (current.isEmpty()) {
                failures.incrementAndGet();
                LockSupport.parkNanos(Duration.ofMillis(50).toNanos());
                continue;
            }
            String key = prefix + String.format("%06d", n++);
            List<String> args = new java.util.ArrayList<>(List.of("put", key, "v", "-w", "json"));
            args.addAll(flags.get());
            Kubectl.Result result = new Etcdctl(String.join(",", current)).run(args.toArray(String[]::new));
            Matcher revision = REVISION.matcher(result.output());
            if (result.ok() && revision.find()) {
                acknowledged.put(key, Long.parseLong(revision.group(1)));
                acknowledgedNow();
            } else {
                failures.incrementAndGet();
            }
        }
    }

    private synchronized void acknowledgedNow() {
        long now = System.nanoTime();
        longestGap = Math.max(longestGap, now - lastAck);
        lastAck = now;
    }

    /**
     * The longest time between two acknowledged writes since the last call (a stall still going on counts up to
     * now), and starts measuring afresh.
     */
    public synchronized Duration takeLongestStall() {
        long stall = Math.max(longestGap, System.nanoTime() - lastAck);
        longestGap = 0;
        return Duration.ofNanos(stall);
    }

    /** How many writes etcd has acknowledged so far. */
    public int acknowledgedCount() {
        return acknowledged.size();
    }

    public Set<String> acknowledged() {
        return Set.copyOf(acknowledged.keySet());
    }

    /** Every acknowledged key with the revision etcd gave its write: what a recovery keeps is told by revision. */
    public Map<String, Long> acknowledgedRevisions() {
        return Map.copyOf(acknowledged);
    }

    public int failures() {
        return failures.get();
    }

    @Override
    public void close() {
        running.set(false);
        try {
            thread.join(30_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
