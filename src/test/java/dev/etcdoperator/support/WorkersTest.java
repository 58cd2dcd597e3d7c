package dev.etcdoperator.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

class WorkersTest {

    /** Backups that hold every backup worker (a slow store, a huge snapshot) leave restore preflights free to run. */
    @Test
    void aRestorePreflightRunsWhileBackupsHoldEveryBackupWorker() {
        Workers workers = new Workers();
        try {
            WorkerPool backups = workers.workerPool(1, Clock.systemUTC());
            WorkerPool restores = workers.restoreWorkerPool(1, Clock.systemUTC());
            CountDownLatch release = new CountDownLatch(1);
            backups.submit("ns/slow", "uid-1", () -> {
                try {
                    release.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return "backup";
            }, () -> { });
            backups.submit("ns/next", "uid-2", () -> "backup", () -> { });
            await().atMost(Duration.ofSeconds(5)).until(() -> backups.running() == 1 && backups.queued() == 1);

            restores.submit("ns/restore", "uid-3", () -> "preflight passed", () -> { });

            await().atMost(Duration.ofSeconds(5)).until(() -> restores.take("ns/restore", "uid-3").isPresent());
            assertThat(backups.queued()).as("the backup behind the slow one still waits").isEqualTo(1);
            release.countDown();
        } finally {
            workers.stop();
        }
    }

    @Test
    void eachPoolHasAtLeastOneWorker() {
        Workers workers = new Workers();
        assertThatThrownBy(() -> workers.restoreWorkerPool(0, Clock.systemUTC()))
                .hasMessageContaining("etcd-operator.restore.workers must be at least 1");
        assertThatThrownBy(() -> workers.workerPool(0, Clock.systemUTC()))
                .hasMessageContaining("etcd-operator.backup.workers must be at least 1");
    }
}
