package dev.etcdoperator.support;

import java.time.Clock;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import org.eclipse.microprofile.config.inject.ConfigProperty;

/** The {@link WorkerPool} of backups and restore preflights, on {@code etcd-operator.backup.workers} threads. */
@ApplicationScoped
public class Workers {
    private ExecutorService threads;

    @Produces
    @Singleton
    WorkerPool workerPool(@ConfigProperty(name = "etcd-operator.backup.workers", defaultValue = "2") int workers,
            Clock clock) {
        if (workers < 1) {
            throw new IllegalArgumentException("etcd-operator.backup.workers must be at least 1, not " + workers);
        }
        AtomicInteger number = new AtomicInteger();
        threads = Executors.newFixedThreadPool(workers, r -> {
            Thread t = new Thread(r, "backup-worker-" + number.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        return new WorkerPool(threads, clock);
    }

    @PreDestroy
    void stop() {
        if (threads != null) {
            threads.shutdownNow();
        }
    }
}
