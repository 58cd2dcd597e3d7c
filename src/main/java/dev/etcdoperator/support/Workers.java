package dev.etcdoperator.support;

import java.time.Clock;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The {@link WorkerPool} of backups and restore drills, on {@code etcd-operator.backup.workers} threads, and the one
 * of restore preflights, on {@code etcd-operator.restore.workers} threads of their own: a restore (one that
 * recovers a cluster that lost its quorum, say) never waits for backups that hold every backup worker.
 */
@ApplicationScoped
public class Workers {
    private final List<ExecutorService> threads = new CopyOnWriteArrayList<>();

    @Produces
    @Singleton
    WorkerPool workerPool(@ConfigProperty(name = "etcd-operator.backup.workers", defaultValue = "2") int workers,
            Clock clock) {
        return pool("etcd-operator.backup.workers", workers, "backup-worker-", clock);
    }

    @Produces
    @Singleton
    @ForRestores
    WorkerPool restoreWorkerPool(@ConfigProperty(name = "etcd-operator.restore.workers", defaultValue = "2") int workers,
            Clock clock) {
        return pool("etcd-operator.restore.workers", workers, "restore-worker-", clock);
    }

    private WorkerPool pool(String property, int workers, String names, Clock clock) {
        if (workers < 1) {
            throw new IllegalArgumentException(property + " must be at least 1, not " + workers);
        }
        AtomicInteger number = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(workers, r -> {
            Thread t = new Thread(r, names + number.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        threads.add(pool);
        return new WorkerPool(pool, clock);
    }

    @PreDestroy
    void stop() {
        threads.forEach(ExecutorService::shutdownNow);
    }
}
