package dev.etcdoperator.sandbox.support;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A client that keeps writing, one key at a time, and remembers for every write etcd acknowledged the revision it
 * was given: what a recovery keeps can then be told by revision. Endpoints are asked afresh for each write.
 */
public final class RevisionWriter implements AutoCloseable {
    private static final Pattern REVISION = Pattern.compile("\"revision\":(\\d+)");
    private final Supplier<List<String>> endpoints;
    private final String prefix;
    private final Map<String, Long> acknowledged = new ConcurrentHashMap<>();
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final Thread thread;

    public RevisionWriter(String prefix, Supplier<List<String>> endpoints) {
        this.prefix = prefix;
        this.endpoints = endpoints;
        this.thread = new Thread(this::run, "revision-writer-" + prefix);
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
                current = List.of();
            }
            if (current.isEmpty()) {
                LockSupport.parkNanos(Duration.ofMillis(50).toNanos());
                continue;
            }
            String key = prefix + String.format("%06d", n++);
            Kubectl.Result result = new Etcdctl(String.join(",", current)).run("put", key, "v", "-w", "json");
            Matcher m = REVISION.matcher(result.output());
            if (result.ok() && m.find()) {
                acknowledged.put(key, Long.parseLong(m.group(1)));
            }
        }
    }

    /** Every acknowledged key with the revision etcd gave its write. */
    public Map<String, Long> acknowledged() {
        return Map.copyOf(acknowledged);
    }

    public int acknowledgedCount() {
        return acknowledged.size();
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
