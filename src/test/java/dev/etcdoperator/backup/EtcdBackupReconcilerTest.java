package dev.etcdoperator.backup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import dev.etcdoperator.api.v1beta2.Condition;
import dev.etcdoperator.api.v1beta2.EtcdBackup;
import dev.etcdoperator.api.v1beta2.RestoreDrillPolicy;
import dev.etcdoperator.core.backup.BackupFailure;
import dev.etcdoperator.core.backup.BackupTaken;
import dev.etcdoperator.core.backup.DrillVerdict;
import dev.etcdoperator.core.status.Conditions;
import dev.etcdoperator.core.status.SpecValidity;
import dev.etcdoperator.support.EventRecorder;
import dev.etcdoperator.support.MovingClock;
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

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final FakeDrills drills = new FakeDrills();

    private EtcdBackupReconciler reconciler(BackupTaker taker) {
        return new EtcdBackupReconciler(new SpecValidity(conditions), new EventRecorder(client, CLOCK), conditions,
                CLOCK, new BackupMetrics(registry), pool, taker, drills);
    }

    /** Drills that end as told, once released; remembers what it drilled and which backups it swept. */
    static final class FakeDrills implements RestoreDrillTaker {
        final List<String> drilled = new CopyOnWriteArrayList<>();
        final List<String> swept = new CopyOnWriteArrayList<>();
        volatile DrillVerdict.Outcome outcome = new DrillVerdict.Outcome(true, DrillVerdict.VERIFIED, "matched");
        volatile CountDownLatch release = new CountDownLatch(0);
        volatile RuntimeException throwing;

        @Override
        public DrillVerdict.Outcome drill(EtcdBackup backup, String path) {
            if (throwing != null) {
                drilled.add(path);
                throw throwing;
            }
            try {
                release.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            drilled.add(path);
            return outcome;
        }

        @Override
        public void removeLeftovers(EtcdBackup backup) {
            swept.add(backup.getMetadata().getName());
        }
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

    /**
     * The backup retention left because the status named it goes once a reconcile reads the status naming the new
     * backup (the status patch landed), not before; a deletion that fails says so in a Warning Event.
     */
    @Test
    void theBackupRetentionLeftGoesOnceTheStatusNamesTheNewOne() {
        List<String> deleted = new CopyOnWriteArrayList<>();
        java.util.concurrent.atomic.AtomicBoolean failing = new java.util.concurrent.atomic.AtomicBoolean();
        AtomicInteger taken = new AtomicInteger();
        EtcdBackup backup = overdue(0);
        backup.getSpec().getBackupPolicy().setMaxBackups(1);
        backup.getStatus().setBackupPath("etcd-backups/hourly-0_v5");
        EtcdBackupReconciler reconciler = new EtcdBackupReconciler(new SpecValidity(conditions),
                new EventRecorder(client, CLOCK), conditions, CLOCK, new BackupMetrics(registry), pool,
                (b, interval) -> {
                    BackupTaken t = taken(b);
                    String path = taken.incrementAndGet() == 1 ? t.path() : t.path() + "-" + taken.get();
                    return new BackupTaken(path, t.size(), t.sha256(), t.revision(), t.etcdVersion(), t.member(),
                            t.etcdClusterId(), t.clusterUid(), t.took(), List.of(), null, null, null,
                            b.getStatus().getBackupPath());
                }, drills, new DrillsRunning(), (b, path) -> {
                    if (failing.get()) {
                        throw new IllegalStateException("retention could not delete " + path + ": AccessDenied");
                    }
                    deleted.add(path);
                    return "deleted " + path;
                });
        reconciler.reconcile(backup, null);
        await().atMost(Duration.ofSeconds(10)).until(() -> pool.running() == 0 && pool.queued() == 0);

        // the reconcile that records the new backup: the status patch has not landed yet
        EtcdBackup recorded = Serialization.clone(backup);
        UpdateControl<EtcdBackup> control = reconciler.reconcile(recorded, null);
        assertThat(recorded.getStatus().getBackupPath()).isEqualTo("etcd-backups/hourly-0_v7");
        assertThat(registry.find(BackupMetrics.RETENTION_FAILURES).counter().count()).as("a series from the first"
                + " success").isZero();
        assertThat(control.getScheduleDelay()).hasValue(EtcdBackupReconciler.DEFERRED_LOOK.toMillis());
        EtcdBackup notLanded = Serialization.clone(recorded);
        notLanded.getStatus().setBackupPath("etcd-backups/hourly-0_v5");
        reconciler.reconcile(notLanded, null);
        assertThat(pool.running() + pool.queued()).as("the status still names the old one: nothing yet").isZero();
        assertThat(deleted).isEmpty();

        reconciler.reconcile(Serialization.clone(recorded), null);
        await().atMost(Duration.ofSeconds(10)).until(() -> deleted.equals(List.of("etcd-backups/hourly-0_v5")));
        await().atMost(Duration.ofSeconds(10)).until(() -> pool.running() == 0 && pool.queued() == 0);
        reconciler.reconcile(Serialization.clone(recorded), null);
        reconciler.reconcile(Serialization.clone(recorded), null);
        assertThat(deleted).as("once").hasSize(1);

        // the next backup leaves the one this status names; its deletion fails
        failing.set(true);
        EtcdBackup next = Serialization.clone(recorded);
        next.getStatus().setLastSuccessDate("2026-11-30T00:00:00Z");
        reconciler.reconcile(next, null);
        await().atMost(Duration.ofSeconds(10)).until(() -> pool.running() == 0 && pool.queued() == 0);
        reconciler.reconcile(next, null);
        reconciler.reconcile(Serialization.clone(next), null);
        await().atMost(Duration.ofSeconds(10)).until(() -> pool.running() == 0 && pool.queued() == 0);
        reconciler.reconcile(Serialization.clone(next), null);
        assertThat(client.v1().events().inNamespace("prod").list().getItems())
                .filteredOn(e -> e.getReason().equals(EtcdBackupReconciler.REASON_RETENTION)).singleElement()
                .satisfies(e -> assertThat(e.getMessage()).contains("AccessDenied", "next backup's retention"));
        assertThat(registry.find(BackupMetrics.RETENTION_FAILURES).counter().count()).isEqualTo(1.0);
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

    /**
     * A one-shot backup whose path is edited while it uploads: what it wrote to the old path is not recorded as the
     * new spec's backup; the next reconcile runs one to the new path.
     */
    @Test
    void aBackupThatEndsAfterItsSpecChangedIsNotRecordedAndTheNewSpecRuns() {
        CountDownLatch release = new CountDownLatch(1);
        List<String> paths = new CopyOnWriteArrayList<>();
        EtcdBackupReconciler reconciler = reconciler((backup, interval) -> {
            paths.add(backup.getSpec().getS3().getPath());
            try {
                release.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return taken(backup);
        });
        EtcdBackup backup = overdue(0);
        backup.getSpec().setBackupPolicy(null);
        backup.setStatus(null);
        reconciler.reconcile(backup, null);
        await().atMost(Duration.ofSeconds(10)).until(() -> pool.running() == 1);

        backup.getSpec().getS3().setPath("etcd-backups/elsewhere");
        backup.getMetadata().setGeneration(2L);
        release.countDown();
        await().atMost(Duration.ofSeconds(10)).until(() -> pool.running() == 0 && paths.size() == 1);
        reconciler.reconcile(backup, null);
        assertThat(backup.getStatus().getBackupPath()).as("the old path's backup is not this spec's").isNull();
        assertThat(condition(backup, EtcdBackupReconciler.CONDITION_IN_PROGRESS).getStatus())
                .as("the new spec's backup runs").isEqualTo("True");
        awaitIdle();
        reconciler.reconcile(backup, null);
        assertThat(paths).containsExactly("etcd-backups/hourly-0", "etcd-backups/elsewhere");
        assertThat(backup.getStatus().getSucceeded()).isTrue();
        assertThat(backup.getStatus().getBackupPath()).isEqualTo("etcd-backups/elsewhere_v7");
    }

    /** A one-shot backup taken, its spec then made invalid and fixed: Ready says again that the backup was taken. */
    @Test
    void aSpecFixedAfterItWasInvalidIsReadyAgainAsTheLastAttemptLeftIt() {
        EtcdBackupReconciler reconciler = reconciler((backup, interval) -> taken(backup));
        EtcdBackup backup = overdue(0);
        backup.getSpec().setBackupPolicy(null);
        backup.setStatus(null);
        reconciler.reconcile(backup, null);
        awaitIdle();
        reconciler.reconcile(backup, null);
        assertThat(condition(backup, "Ready").getStatus()).isEqualTo("True");

        String path = backup.getSpec().getS3().getPath();
        backup.getSpec().getS3().setPath("no-key-at-all/");
        backup.getMetadata().setGeneration(2L);
        reconciler.reconcile(backup, null);
        assertThat(condition(backup, "Ready").getReason()).isEqualTo("InvalidSpec");

        backup.getSpec().getS3().setPath(path);
        backup.getMetadata().setGeneration(3L);
        reconciler.reconcile(backup, null);
        assertThat(condition(backup, "Valid").getStatus()).isEqualTo("True");
        assertThat(condition(backup, "Ready").getStatus()).isEqualTo("True");
        assertThat(backup.getStatus().getSucceeded()).isTrue();
        assertThat(condition(backup, EtcdBackupReconciler.CONDITION_IN_PROGRESS).getStatus()).isEqualTo("False");
    }

    /** Retention asks the API server, right before it deletes, whether the EtcdBackup is still as the backup began. */
    @Test
    void whatChangedSinceABackupBeganIsReadFromTheApiServer() {
        EtcdBackup began = overdue(0);
        began.setStatus(null);
        assertThat(EtcdBackupReconciler.changedSince(client, began)).hasValueSatisfying(m -> assertThat(m)
                .contains("deleted"));
        client.resource(began).create();
        EtcdBackup stored = client.resource(began).get();
        began.getMetadata().setUid(stored.getMetadata().getUid());
        began.getMetadata().setGeneration(stored.getMetadata().getGeneration());
        assertThat(EtcdBackupReconciler.changedSince(client, began)).isEmpty();
        began.getMetadata().setGeneration(stored.getMetadata().getGeneration() - 1);
        assertThat(EtcdBackupReconciler.changedSince(client, began)).hasValueSatisfying(m -> assertThat(m)
                .contains("spec changed"));
        began.getMetadata().setUid("another");
        assertThat(EtcdBackupReconciler.changedSince(client, began)).hasValueSatisfying(m -> assertThat(m)
                .contains("made again"));
    }

    /**
     * A backup that began before a drill verified another backup keeps that one too: retention reads the status the
     * API server holds right before it deletes, besides the one the backup began with.
     */
    @Test
    void retentionKeepsWhatADrillVerifiedAfterTheBackupBegan() {
        EtcdBackup began = overdue(0);
        began.getStatus().setLastVerifiedBackupPath("etcd-backups/hourly-0_v3");
        EtcdBackup stored = client.resource(Serialization.clone(began)).create();
        began.getMetadata().setUid(stored.getMetadata().getUid());
        stored.getStatus().setLastVerifiedBackupPath("etcd-backups/hourly-0_v5");
        client.resource(stored).updateStatus();
        DrillsRunning drilling = new DrillsRunning();
        assertThat(EtcdBackupReconciler.keptForDrills(client, began, "etcd-backups", null, drilling))
                .containsExactlyInAnyOrder("hourly-0_v3", "hourly-0_v5");

        drilling.started(began.getMetadata().getUid(), "etcd-backups/hourly-0_v6");
        drilling.ended(began.getMetadata().getUid(), "etcd-backups/hourly-0_v6", true);
        assertThat(EtcdBackupReconciler.keptForDrills(client, began, "etcd-backups", null, drilling))
                .as("drilled, its verdict not written yet").contains("hourly-0_v6");

        client.resource(stored).delete();
        assertThat(EtcdBackupReconciler.keptForDrills(client, began, "etcd-backups", null, drilling))
                .containsExactlyInAnyOrder("hourly-0_v3", "hourly-0_v6");
    }

    /** A verified drill's backup stays kept after the drill ended, until the status the reconcile reads names it. */
    @Test
    void aDrilledBackupIsKeptUntilTheStatusReadRecordsTheDrill() {
        DrillsRunning drilling = new DrillsRunning();
        EtcdBackupReconciler reconciler = new EtcdBackupReconciler(new SpecValidity(conditions),
                new EventRecorder(client, CLOCK), conditions, CLOCK, new BackupMetrics(registry), pool,
                (backup, interval) -> taken(backup), drills, drilling);
        EtcdBackup backup = drilled(0, 1);
        String uid = backup.getMetadata().getUid();
        reconciler.reconcile(backup, null);
        awaitIdle();
        EtcdBackup read = Serialization.clone(backup);
        reconciler.reconcile(backup, null);
        awaitIdle();
        String path = backup.getSpec().getS3().getPath() + "_v7";
        assertThat(drills.drilled).containsExactly(path);
        assertThat(drilling.path(uid)).as("ended, not recorded").isEqualTo(path);
        reconciler.reconcile(backup, null);
        assertThat(backup.getStatus().getLastVerifiedBackupPath()).isEqualTo(path);
        assertThat(drilling.path(uid)).as("recorded by this reconcile, not written yet").isEqualTo(path);

        reconciler.reconcile(read, null);
        assertThat(drilling.path(uid)).as("the status write was lost: the status read does not record it")
                .isEqualTo(path);
        reconciler.reconcile(backup, null);
        assertThat(drilling.path(uid)).isNull();
    }

    private static EtcdBackup drilled(int i, int every) {
        EtcdBackup backup = overdue(i);
        RestoreDrillPolicy policy = new RestoreDrillPolicy();
        policy.setEvery(every);
        backup.getSpec().setRestoreDrill(policy);
        return backup;
    }

    private void awaitIdle() {
        await().atMost(Duration.ofSeconds(10)).until(() -> pool.running() == 0 && pool.queued() == 0);
    }

    /** After an operator restart the last-verified series is there at once: its alert sees drills that keep failing. */
    @Test
    void theLastVerifiedBackupTheStatusRemembersIsInTheMetricsAfterARestart() {
        EtcdBackupReconciler reconciler = reconciler((backup, interval) -> taken(backup));
        EtcdBackup backup = drilled(0, 1);
        backup.getStatus().setLastVerifiedDate("2026-11-29T10:00:00Z");
        backup.getStatus().setLastVerifiedBackupPath("etcd-backups/hourly-0_v3");
        reconciler.reconcile(backup, null);
        assertThat(registry.get(BackupMetrics.LAST_VERIFIED).tag("backup", "hourly-0").gauge().value())
                .isEqualTo(Instant.parse("2026-11-29T10:00:00Z").getEpochSecond());
        awaitIdle();
    }

    @Test
    void aBackupWithADrillIsRestoredAfterwardsAndVerifiedWithAnEventAndTheTimeItWasVerified() {
        EtcdBackupReconciler reconciler = reconciler((backup, interval) -> taken(backup));
        EtcdBackup backup = drilled(0, 1);
        reconciler.reconcile(backup, null);
        awaitIdle();
        UpdateControl<EtcdBackup> control = reconciler.reconcile(backup, null);
        assertThat(control.getScheduleDelay()).as("back soon for the drill's outcome")
                .hasValue(EtcdBackupReconciler.WHILE_WORKING.toMillis());
        awaitIdle();
        reconciler.reconcile(backup, null);

        String path = backup.getSpec().getS3().getPath() + "_v7";
        assertThat(drills.drilled).containsExactly(path);
        assertThat(backup.getStatus().getLastVerifiedDate()).isEqualTo("2026-11-30T10:00:00Z");
        assertThat(backup.getStatus().getLastVerifiedBackupPath()).isEqualTo(path);
        Condition verified = condition(backup, EtcdBackupReconciler.CONDITION_VERIFIED);
        assertThat(verified.getStatus()).isEqualTo("True");
        assertThat(verified.getReason()).isEqualTo("Verified");
        assertThat(client.v1().events().inNamespace("prod").list().getItems())
                .filteredOn(e -> e.getReason().equals("Verified")).singleElement()
                .satisfies(e -> assertThat(e.getType()).isEqualTo("Normal"));
        assertThat(registry.get(BackupMetrics.LAST_VERIFIED).tag("backup", "hourly-0").gauge().value())
                .isEqualTo(NOW.getEpochSecond());
        assertThat(registry.get(BackupMetrics.DRILLS).tag("reason", "Verified").counter().count()).isEqualTo(1);

        reconciler.reconcile(backup, null);
        awaitIdle();
        assertThat(drills.drilled).as("a backup is drilled once").hasSize(1);
        assertThat(drills.swept).as("leftovers are looked for once").containsExactly("hourly-0");
    }

    /** A drill whose pod lost its download (the operator restarted while serving it) is run again, not recorded. */
    @Test
    void anInterruptedDrillIsRunAgainOnceAndRecordedOnlyWhenInterruptedAgain() {
        drills.outcome = DrillVerdict.Outcome.failed(DrillVerdict.INTERRUPTED, "the download broke off");
        EtcdBackupReconciler reconciler = reconciler((backup, interval) -> taken(backup));
        EtcdBackup backup = drilled(0, 1);
        reconciler.reconcile(backup, null);
        awaitIdle();
        reconciler.reconcile(backup, null);
        awaitIdle();
        drills.outcome = new DrillVerdict.Outcome(true, DrillVerdict.VERIFIED, "matched");
        reconciler.reconcile(backup, null);
        assertThat(backup.getStatus().getLastDrilledBackupPath()).as("interrupted: not recorded").isNull();
        assertThat(client.v1().events().inNamespace("prod").list().getItems())
                .filteredOn(e -> e.getReason().equals(DrillVerdict.INTERRUPTED)).singleElement()
                .satisfies(e -> assertThat(e.getMessage()).contains("the drill runs again"));
        awaitIdle();
        reconciler.reconcile(backup, null);
        String path = backup.getSpec().getS3().getPath() + "_v7";
        assertThat(drills.drilled).as("run again").containsExactly(path, path);
        assertThat(condition(backup, EtcdBackupReconciler.CONDITION_VERIFIED).getStatus()).isEqualTo("True");

        // interrupted twice in a row: recorded, so that a download that always fails is not retried forever
        EtcdBackup other = drilled(1, 1);
        drills.outcome = DrillVerdict.Outcome.failed(DrillVerdict.INTERRUPTED, "the download broke off");
        reconciler.reconcile(other, null);
        awaitIdle();
        reconciler.reconcile(other, null);
        awaitIdle();
        reconciler.reconcile(other, null);
        awaitIdle();
        reconciler.reconcile(other, null);
        Condition verified = condition(other, EtcdBackupReconciler.CONDITION_VERIFIED);
        assertThat(verified.getStatus()).isEqualTo("False");
        assertThat(verified.getReason()).isEqualTo(DrillVerdict.INTERRUPTED);
        assertThat(other.getStatus().getSucceeded()).as("the backup itself stays a success").isTrue();
    }

    @Test
    void aFailedDrillSaysWhyWithAWarningAndNoVerifiedTime() {
        drills.outcome = DrillVerdict.Outcome.failed(DrillVerdict.DIGEST_MISMATCH, "the object was changed");
        EtcdBackupReconciler reconciler = reconciler((backup, interval) -> taken(backup));
        EtcdBackup backup = drilled(0, 1);
        reconciler.reconcile(backup, null);
        awaitIdle();
        reconciler.reconcile(backup, null);
        awaitIdle();
        reconciler.reconcile(backup, null);

        Condition verified = condition(backup, EtcdBackupReconciler.CONDITION_VERIFIED);
        assertThat(verified.getStatus()).isEqualTo("False");
        assertThat(verified.getReason()).isEqualTo("DigestMismatch");
        assertThat(verified.getMessage()).isEqualTo("the object was changed");
        assertThat(backup.getStatus().getLastVerifiedDate()).isNull();
        assertThat(backup.getStatus().getSucceeded()).as("the backup itself stays a success").isTrue();
        assertThat(client.v1().events().inNamespace("prod").list().getItems())
                .filteredOn(e -> e.getReason().equals("DigestMismatch")).singleElement()
                .satisfies(e -> assertThat(e.getType()).isEqualTo("Warning"));
        assertThat(registry.find(BackupMetrics.LAST_VERIFIED).gauge()).as("no series until one is verified").isNull();
        assertThat(registry.get(BackupMetrics.DRILLS).tag("reason", "DigestMismatch").counter().count()).isEqualTo(1);
    }

    @Test
    void aScheduledDrillRestoresTheLastBackupAtEachOfItsTimesDrilledBeforeOrNot() {
        MovingClock clock = new MovingClock(NOW);
        Conditions moving = new Conditions(clock);
        AtomicInteger revision = new AtomicInteger();
        EtcdBackupReconciler reconciler = new EtcdBackupReconciler(new SpecValidity(moving),
                new EventRecorder(client, clock), moving, clock, new BackupMetrics(registry),
                new WorkerPool(two, clock), (backup, interval) -> new BackupTaken("etcd-backups/hourly-0_v"
                        + revision.incrementAndGet(), 1024, "ab", revision.get(), "3.5.35", "http://127.0.1.1:2379",
                        "c1", null, Duration.ofSeconds(1), List.of(), null), drills);
        EtcdBackup backup = overdue(0);
        RestoreDrillPolicy policy = new RestoreDrillPolicy();
        policy.setSchedule("0 12 * * *");
        backup.getSpec().setRestoreDrill(policy);
        Runnable settle = () -> {
            for (int i = 0; i < 3; i++) {
                reconciler.reconcile(backup, null);
                awaitIdle();
            }
        };
        settle.run();
        assertThat(backup.getStatus().getBackupPath()).isEqualTo("etcd-backups/hourly-0_v1");
        assertThat(drills.drilled).as("a schedule alone: no drill after each backup").isEmpty();
        assertThat(backup.getStatus().getDrillSchedule()).isEqualTo("0 12 * * *");
        assertThat(backup.getStatus().getNextDrillDate()).isEqualTo("2026-11-30T12:00:00Z");

        backup.getSpec().getBackupPolicy().setBackupIntervalInSecond(7 * 86400L);
        UpdateControl<EtcdBackup> control = reconciler.reconcile(backup, null);
        assertThat(control.getScheduleDelay()).as("woken for the drill, not the next backup a week later")
                .hasValueSatisfying(d -> assertThat(d).isBetween(Duration.ofHours(2).toMillis(),
                        Duration.ofHours(2).toMillis() + 100));

        clock.set(Instant.parse("2026-11-30T12:00:05Z"));
        settle.run();
        assertThat(drills.drilled).containsExactly("etcd-backups/hourly-0_v1");
        assertThat(backup.getStatus().getLastVerifiedDate()).isEqualTo("2026-11-30T12:00:05Z");
        assertThat(backup.getStatus().getNextDrillDate()).isEqualTo("2026-12-01T12:00:00Z");
        settle.run();
        assertThat(drills.drilled).as("once per scheduled time").hasSize(1);

        clock.set(Instant.parse("2026-12-01T12:00:00Z"));
        settle.run();
        assertThat(drills.drilled).as("the same backup again: it must still restore")
                .containsExactly("etcd-backups/hourly-0_v1", "etcd-backups/hourly-0_v1");
        assertThat(backup.getStatus().getNextDrillDate()).isEqualTo("2026-12-02T12:00:00Z");

        backup.getSpec().setRestoreDrill(null);
        reconciler.reconcile(backup, null);
        assertThat(backup.getStatus().getDrillSchedule()).isNull();
        assertThat(backup.getStatus().getNextDrillDate()).isNull();
    }

    @Test
    void everyNthBackupIsDrilled() {
        AtomicInteger revision = new AtomicInteger();
        EtcdBackupReconciler reconciler = reconciler((backup, interval) -> new BackupTaken(
                "etcd-backups/hourly-0_v" + revision.incrementAndGet(), 1024, "ab", revision.get(), "3.5.35",
                "http://127.0.1.1:2379", "c1", null, Duration.ofSeconds(1), List.of(), null));
        EtcdBackup backup = drilled(0, 2);
        for (int i = 0; i < 4; i++) {
            // each backup is due again: the fixed clock never reaches the next one, so the last success is moved back
            backup.getStatus().setLastSuccessDate("2026-11-30T00:00:00Z");
            reconciler.reconcile(backup, null);
            awaitIdle();
            reconciler.reconcile(backup, null);
            awaitIdle();
            reconciler.reconcile(backup, null);
        }
        assertThat(drills.drilled).as("the first backup (never drilled), then every second one")
                .containsExactly("etcd-backups/hourly-0_v1", "etcd-backups/hourly-0_v3");
    }

    @Test
    void aRunningDrillNeverHoldsTheNextBackupBack() {
        drills.release = new CountDownLatch(1);
        AtomicInteger backups = new AtomicInteger();
        EtcdBackupReconciler reconciler = reconciler((backup, interval) -> {
            backups.incrementAndGet();
            return taken(backup);
        });
        EtcdBackup backup = drilled(0, 1);
        reconciler.reconcile(backup, null);
        await().atMost(Duration.ofSeconds(10)).until(() -> backups.get() == 1 && pool.running() == 0);
        reconciler.reconcile(backup, null);
        await().atMost(Duration.ofSeconds(10)).until(() -> pool.running() == 1);

        backup.getStatus().setLastSuccessDate("2026-11-30T00:00:00Z");
        reconciler.reconcile(backup, null);
        await().atMost(Duration.ofSeconds(10)).until(() -> backups.get() == 2);
        assertThat(drills.drilled).as("the drill still runs").isEmpty();
        drills.release.countDown();
        awaitIdle();
    }

    @Test
    void noDrillWithoutARestoreDrillPolicy() {
        EtcdBackupReconciler reconciler = reconciler((backup, interval) -> taken(backup));
        EtcdBackup backup = overdue(0);
        reconciler.reconcile(backup, null);
        awaitIdle();
        reconciler.reconcile(backup, null);
        awaitIdle();
        assertThat(drills.drilled).isEmpty();
        assertThat(Conditions.find(backup.getStatus().getConditions(), EtcdBackupReconciler.CONDITION_VERIFIED))
                .isEmpty();
    }

    @Test
    void aDrillThatThrowsCountsAsAFailedDrillAndIsNotStartedAgainAtOnce() {
        drills.throwing = new IllegalStateException("boom");
        EtcdBackupReconciler reconciler = reconciler((backup, interval) -> taken(backup));
        EtcdBackup backup = drilled(0, 1);
        reconciler.reconcile(backup, null);
        awaitIdle();
        reconciler.reconcile(backup, null);
        awaitIdle();
        reconciler.reconcile(backup, null);
        awaitIdle();
        Condition verified = condition(backup, EtcdBackupReconciler.CONDITION_VERIFIED);
        assertThat(verified.getReason()).isEqualTo(DrillVerdict.DRILL_FAILED);
        assertThat(verified.getMessage()).contains("boom");
        assertThat(drills.drilled).hasSize(1);
    }
}
