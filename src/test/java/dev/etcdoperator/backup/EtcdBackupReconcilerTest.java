package dev.etcdoperator.backup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import dev.etcdoperator.api.v1beta2.Condition;
import dev.etcdoperator.api.v1beta2.EtcdBackup;
import dev.etcdoperator.core.backup.BackupFailure;
import dev.etcdoperator.core.backup.BackupTaken;
import dev.etcdoperator.core.status.Conditions;
import dev.etcdoperator.core.status.SpecValidity;
import dev.etcdoperator.support.EventRecorder;
import dev.etcdoperator.support.WorkerPool;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The backup controller hands backups to its workers and records what they did, without a cluster or a store. */
@EnableKubernetesMockClient(crud = true)
class EtcdBackupReconcilerTest {
    private static final Instant NOW = Instant.parse("2026-11-30T10:00:00Z");
    private static final Clock CLOCK = Clock.fixed(NOW, ZoneOffset.UTC);

    KubernetesClient client;

    private final ExecutorService two = Executors.newFixedThreadPool(2);
    private final WorkerPool pool = new WorkerPool(two, CLOCK);
    private final Conditions conditions = new Conditions(CLOCK);

    @AfterEach
    void stop() {
        two.shutdownNow();
    }

    private EtcdBackupReconciler reconciler(BackupTaker taker) {
        return new EtcdBackupReconciler(new SpecValidity(conditions), new EventRecorder(client, CLOCK), conditions,
                CLOCK, new BackupMetrics(new SimpleMeterRegistry()), pool, taker);
    }

    /** A periodic backup whose last success was ten hours ago: overdue, as after an operator outage. */
    private static EtcdBackup overdue(int i) {
        return Serialization.unmarshal("""
                apiVersion: etcd.database.coreos.com/v1beta2
                kind: EtcdBackup
                metadata: {name: hourly-%d, namespace: prod, uid: uid-%d, generation: 1}
                spec:
                  etcdEndpoints: [http://example-client:2379]
                  storageType: S3
                  backupPolicy: {backupIntervalInSecond: 3600}
                  s3: {path: etcd-backups/hourly-%d, awsSecret: aws}
                status:
                  succeeded: true
                  lastSuccessDate: "2026-11-30T00:00:00Z"
                  lastAttemptDate: "2026-11-30T00:00:00Z"
                  consecutiveFailures: 0
                """.formatted(i, i, i), EtcdBackup.class);
    }

    private static BackupTaken taken(EtcdBackup backup) {
        return new BackupTaken(backup.getSpec().getS3().getPath() + "_v7", 1024, "ab", 7, "3.5.35",
                "http://127.0.1.1:2379", "c1", null, Duration.ofSeconds(1), List.of(), null);
    }

    private static Condition condition(EtcdBackup backup, String type) {
        return Conditions.find(backup.getStatus().getConditions(), type).orElseThrow();
    }

    @Test
    void tenOverdueBackupsQueueRunTwoAtATimeOffTheReconcileThreadAndAreRecordedWhenDone() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger running = new AtomicInteger();
        AtomicInteger most = new AtomicInteger();
        EtcdBackupReconciler reconciler = reconciler((backup, interval) -> {
            most.accumulateAndGet(running.incrementAndGet(), Math::max);
            try {
                release.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            running.decrementAndGet();
            return taken(backup);
        });

        List<EtcdBackup> backups = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            EtcdBackup backup = overdue(i);
            backups.add(backup);
            // returns while the workers are held: the backup does not run on this thread
            UpdateControl<EtcdBackup> control = reconciler.reconcile(backup, null);
            assertThat(control.getScheduleDelay()).hasValue(EtcdBackupReconciler.WHILE_WORKING.toMillis());
            assertThat(condition(backup, EtcdBackupReconciler.CONDITION_IN_PROGRESS).getStatus()).isEqualTo("True");
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> pool.running() == 2 && pool.queued() == 8);
        assertThat(condition(backups.get(9), EtcdBackupReconciler.CONDITION_IN_PROGRESS).getReason())
                .isEqualTo(EtcdBackupReconciler.REASON_QUEUED);
        // a reconcile while queued submits nothing more
        reconciler.reconcile(backups.get(9), null);
        assertThat(pool.queued()).isEqualTo(8);

        release.countDown();
        await().atMost(Duration.ofSeconds(10)).until(() -> pool.running() == 0 && pool.queued() == 0);
        assertThat(most).hasValue(2);
        for (EtcdBackup backup : backups) {
            UpdateControl<EtcdBackup> control = reconciler.reconcile(backup, null);
            assertThat(backup.getStatus().getSucceeded()).isTrue();
            assertThat(backup.getStatus().getBackupPath()).isEqualTo(backup.getSpec().getS3().getPath() + "_v7");
            assertThat(backup.getStatus().getLastSuccessDate()).isEqualTo("2026-11-30T10:00:00Z");
            assertThat(condition(backup, EtcdBackupReconciler.CONDITION_IN_PROGRESS).getStatus()).isEqualTo("False");
            assertThat(control.getScheduleDelay()).hasValueSatisfying(d -> assertThat(d)
                    .isGreaterThanOrEqualTo(Duration.ofHours(1).toMillis()));
        }
        List<Event> events = client.v1().events().inNamespace("prod").list().getItems();
        assertThat(events).filteredOn(e -> e.getReason().equals(EtcdBackupReconciler.REASON_MISSED)).hasSize(10)
                .allSatisfy(e -> assertThat(e.getCount()).as("told once, when queued").isEqualTo(1));
        assertThat(events).filteredOn(e -> e.getReason().equals(EtcdBackupReconciler.REASON_TAKEN)).hasSize(10);
    }

    @Test
    void aFailedBackupIsRecordedWithItsReasonAndRetriedLater() {
        EtcdBackupReconciler reconciler = reconciler((backup, interval) -> {
            throw new BackupFailure(BackupFailure.S3_UNREACHABLE, "the store did not answer", true);
        });
        EtcdBackup backup = overdue(0);
        reconciler.reconcile(backup, null);
        await().atMost(Duration.ofSeconds(10)).until(() -> pool.running() == 0 && pool.queued() == 0);

        UpdateControl<EtcdBackup> control = reconciler.reconcile(backup, null);
        assertThat(backup.getStatus().getSucceeded()).isFalse();
        assertThat(backup.getStatus().getConsecutiveFailures()).isEqualTo(1);
        assertThat(backup.getStatus().getReason()).startsWith(BackupFailure.S3_UNREACHABLE);
        assertThat(condition(backup, EtcdBackupReconciler.CONDITION).getReason()).isEqualTo(BackupFailure.S3_UNREACHABLE);
        assertThat(control.getScheduleDelay()).isPresent();
        assertThat(pool.running() + pool.queued()).as("the retry waits for its time").isZero();
    }
}
