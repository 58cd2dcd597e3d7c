package dev.etcdoperator.storage;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Consumer;

/** Calls to the store that do not depend on each other, a few at a time. */
final class Parallel {

    private Parallel() {
    }

    /**
     * Runs {@code action} on each item, at most {@code atOnce} at a time, and returns when all are done; the first
     * failure is thrown once the others were stopped.
     */
    static <T> void each(List<T> items, int atOnce, Consumer<T> action) {
        if (items.size() <= 1 || atOnce <= 1) {
            items.forEach(action);
            return;
        }
        ExecutorService pool = Executors.newFixedThreadPool(Math.min(atOnce, items.size()), r -> {
            Thread t = new Thread(r, "backup-store-read");
            t.setDaemon(true);
            return t;
        });
        try {
            List<Future<?>> running = new ArrayList<>();
            for (T item : items) {
                running.add(pool.submit(() -> action.accept(item)));
            }
            for (Future<?> f : running) {
                f.get();
            }
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            if (e.getCause() instanceof Error err) {
                throw err;
            }
            throw new IllegalStateException(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while reading the store", e);
        } finally {
            pool.shutdownNow();
        }
    }
}
