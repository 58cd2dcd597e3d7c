package dev.etcdoperator.backup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Consumer;

import dev.etcdoperator.core.backup.SourceChoice;
import dev.etcdoperator.api.v1beta2.EtcdBackupStatus;
import dev.etcdoperator.core.backup.BackupFailure;
import dev.etcdoperator.core.backup.BackupMetadata;
import dev.etcdoperator.core.backup.BackupNames;
import dev.etcdoperator.core.backup.BackupStatusBuilder;
import dev.etcdoperator.core.backup.BackupTaken;
import dev.etcdoperator.core.backup.KeyspaceFingerprint;
import dev.etcdoperator.core.backup.S3Location;
import dev.etcdoperator.core.backup.StoredBackup;
import dev.etcdoperator.core.status.Conditions;
import dev.etcdoperator.etcd.EtcdAdmin;
import dev.etcdoperator.etcd.EtcdAdminException;
import dev.etcdoperator.etcd.EtcdAdminFactory;
import dev.etcdoperator.etcd.EtcdTls;
import dev.etcdoperator.etcd.Member;
import dev.etcdoperator.etcd.MemberHealth;
import dev.etcdoperator.etcd.MemberStatus;
import dev.etcdoperator.storage.BackupStorage;
import dev.etcdoperator.storage.S3Settings;
import dev.etcdoperator.storage.Uploaded;
import dev.etcdoperator.storage.VerifiedBackup;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Backups one after the other, as the controller takes them, with the store, etcd and time as fakes: what is
 * refused, what is kept, and that the whole backup ends at its deadline.
 */
class BackupRunnerTest {
    static final String ME = "ns/me";
    static final Duration INTERVAL = Duration.ofHours(1);
    static final Duration TIMEOUT = Duration.ofSeconds(60);
    static final S3Settings S3 = new S3Settings("k", "s", null, "us-east-1", URI.create("http://s3:9000"), true);

    final MutableClock clock = new MutableClock(Instant.parse("2026-11-30T10:00:00Z"));
    final FakeEtcd etcd = new FakeEtcd();
    final FakeStore store = new FakeStore();
    /** Keys that restores are using, by bucket. */
    final Map<String, Set<String>> restoring = new java.util.HashMap<>();
    boolean restoresUnknown;
    final BackupRunner runner = new BackupRunner(new SnapshotSources(etcd, clock),
            (url, tls, deadline) -> {
                store.deadlines.add(deadline);
                return new ByteArrayInputStream(("snapshot of revision " + etcd.revision).getBytes());
            },
            settings -> store, clock, (bucket, namespace) -> {
                if (restoresUnknown) {
                    throw new IllegalStateException("forbidden");
                }
                return restoring.getOrDefault(bucket, Set.of());
            });
    final EtcdBackupStatus status = new EtcdBackupStatus();
    final BackupStatusBuilder statusBuilder = new BackupStatusBuilder(new Conditions(clock));
    String clusterUid = "uid-1";

    BackupRequest periodic() {
        return new BackupRequest(List.of("http://example-client:2379"), null, S3, new S3Location("b", "p/example"), ME,
                "example", clusterUid);
    }

    /** One reconcile's backup: run, then record the outcome in the status as the controller does. */
    Optional<BackupFailure> take(BackupRequest request, boolean periodic, int maxBackups) {
        try {
            BackupTaken taken = runner.run(request, periodic, maxBackups, TIMEOUT, BackupStatusBuilder.lastBackup(status));
            statusBuilder.succeeded(status, taken, clock.instant(), 1L);
            if (taken.deferred() != null) {
                // once the status names the new backup, the one it named before goes
                runner.deleteDeferred(request, taken.deferred(), TIMEOUT, BackupRunner.ForDrills.NONE,
                        BackupRunner.StillAsBegun.ALWAYS);
            }
            return Optional.empty();
        } catch (BackupFailure e) {
            statusBuilder.failed(status, e, clock.instant(), clock.instant().plusSeconds(5), 1L);
            return Optional.of(e);
        } finally {
            clock.advance(INTERVAL);
        }
    }

    List<String> periodicKeys() {
        return store.objects.keySet().stream().filter(k -> BackupNames.parsePeriodic("p/example", k).isPresent()).toList();
    }

    // ---- never trade good data for bad

    /** The ways a backup's source stops being the cluster that was backed up. */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"emptied", "replaced by a larger cluster", "re-created EtcdCluster", "restored from an older backup"})
    void backupsOfAnotherOrEmptiedClusterNeverPushOutTheGoodOnes(String change) {
        for (int i = 0; i < 5; i++) {
            etcd.revision = 1000 + 10 * i;
            assertThat(take(periodic(), true, 3)).isEmpty();
        }
        List<String> good = periodicKeys();
        assertThat(good).hasSize(3);
        String expected = switch (change) {
            case "emptied" -> {
                etcd.revision = 3;
                yield BackupFailure.REVISION_WENT_BACK;
            }
            case "replaced by a larger cluster" -> {
                etcd.clusterId = 0x77;
                etcd.revision = 50_000;
                yield BackupFailure.CLUSTER_CHANGED;
            }
            case "re-created EtcdCluster" -> {
                clusterUid = "uid-2";
                etcd.revision = 2_000;
                yield BackupFailure.CLUSTER_CHANGED;
            }
            default -> {
                etcd.clusterId = 0x78;
                etcd.revision = 900;
                yield BackupFailure.CLUSTER_CHANGED;
            }
        };
        for (int i = 0; i < 2 * 3 + 1; i++) {
            etcd.revision++;
            assertThat(take(periodic(), true, 3)).map(BackupFailure::reason).contains(expected);
            assertThat(status.getReason()).startsWith(expected + ": ");
        }
        assertThat(periodicKeys()).isEqualTo(good);
        assertThat(status.getEtcdRevision()).isEqualTo(1040L);
        assertThat(store.deleted).as("nothing deleted after the change").hasSize(2);
    }

    /**
     * The status that remembers the last backup is lost (the EtcdBackup made again on its path): an emptied cluster is
     * refused against the backups it took there; another cluster (one restored since) is backed up, and retention
     * never pushes out the first cluster's backups for it.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"emptied", "replaced by a larger cluster", "restored from an older backup"})
    void anEtcdBackupMadeAgainOnItsOldPathNeverPushesOutTheGoodOnes(String change) {
        for (int i = 0; i < 5; i++) {
            etcd.revision = 1000 + 10 * i;
            assertThat(take(periodic(), true, 3)).isEmpty();
        }
        List<String> good = periodicKeys();
        boolean emptied = change.equals("emptied");
        switch (change) {
            case "emptied" -> etcd.revision = 3;
            case "replaced by a larger cluster" -> {
                etcd.clusterId = 0x77;
                etcd.revision = 50_000;
            }
            default -> {
                etcd.clusterId = 0x78;
                etcd.revision = 900;
            }
        }
        clusterUid = "uid-2";
        status.setEtcdRevision(null);
        status.setEtcdClusterID(null);
        status.setClusterUID(null);
        for (int i = 0; i < 2 * 3 + 1; i++) {
            etcd.revision++;
            Optional<BackupFailure> failure = take(periodic(), true, 3);
            if (emptied) {
                assertThat(failure).map(BackupFailure::reason).contains(BackupFailure.REVISION_WENT_BACK);
                status.setEtcdRevision(null);
                status.setEtcdClusterID(null);
            } else {
                assertThat(failure).isEmpty();
            }
        }
        assertThat(periodicKeys()).as("the first cluster's backups all stay").containsAll(good);
        assertThat(store.deleted).as("only the deletions before the change, and the new cluster's own")
                .allMatch(k -> !good.contains(k));
    }

    /** maxBackups lowered, or the EtcdBackup deleted, while a backup ran: its retention deletes nothing. */
    /** The member at a user's endpoint may be any server: what it says of its version is kept only as a version. */
    @Test
    void aMembersVersionIsKeptOnlyWhenItIsOne() {
        for (String hostile : java.util.Arrays.asList(null, "", "3.5.17\r\nX-Amz-Meta-Owner: x", "$(id)", "3.5",
                "3.5.0-rc..1", "3.5.0-" + "a".repeat(80))) {
            assertThat(BackupRunner.versionOf(new SourceChoice.Candidate("http://m:2379", 1, 1, hostile, false)))
                    .as(String.valueOf(hostile)).isNull();
        }
        assertThat(BackupRunner.versionOf(new SourceChoice.Candidate("http://m:2379", 1, 1, "3.6.16", false)))
                .isEqualTo("3.6.16");
    }

    @Test
    void retentionWaitsWhenTheEtcdBackupChangedDuringTheBackup() {
        for (int i = 0; i < 4; i++) {
            etcd.revision = 100 + i;
            assertThat(take(periodic(), true, 0)).isEmpty();
        }
        BackupTaken taken = runner.run(periodic(), true, 1, TIMEOUT, BackupStatusBuilder.lastBackup(status),
                BackupRunner.ForDrills.NONE, () -> Optional.of("the EtcdBackup was deleted during the backup"));
        assertThat(taken.deleted()).isEmpty();
        assertThat(taken.retentionProblem()).contains("deleted nothing", "was deleted during the backup");
        assertThat(periodicKeys()).hasSize(5);

        BackupTaken unreadable = runner.run(periodic(), true, 1, TIMEOUT, BackupStatusBuilder.lastBackup(status),
                BackupRunner.ForDrills.NONE, () -> {
                    throw new IllegalStateException("connection refused");
                });
        assertThat(unreadable.deleted()).isEmpty();
        assertThat(unreadable.retentionProblem()).contains("could not be read again", "connection refused");

        BackupTaken current = runner.run(periodic(), true, 1, TIMEOUT, BackupStatusBuilder.lastBackup(status),
                BackupRunner.ForDrills.NONE, Optional::empty);
        assertThat(current.deleted()).hasSize(3);
        assertThat(current.deferred()).as("the one the status names").isEqualTo(status.getBackupPath());
        assertThat(periodicKeys()).hasSize(2);
    }

    @Test
    void theStatusRecordsTheClusterBackedUpAndTheObjectCarriesIt() {
        etcd.revision = 10;
        assertThat(take(periodic(), true, 3)).isEmpty();
        assertThat(status.getEtcdClusterID()).isEqualTo("abc1");
        assertThat(status.getClusterUID()).isEqualTo("uid-1");
        assertThat(store.metadata.get(periodicKeys().get(0))).containsEntry(BackupMetadata.CLUSTER_ID, "abc1")
                .containsEntry(BackupMetadata.CLUSTER_UID, "uid-1").containsEntry(BackupMetadata.OWNER, ME);
    }

    @Test
    void aPrefixWithAnotherEtcdBackupsBackupsIsRefused() {
        store.put(BackupNames.periodicKey("p/example", 5, clock.instant()), Map.of(BackupMetadata.OWNER, "ns/other"));
        assertThat(take(periodic(), true, 3)).map(BackupFailure::reason).contains(BackupFailure.PATH_IN_USE);
        assertThat(store.uploads).isZero();
    }

    @Test
    void aOneShotBackupNeverReplacesABetterOrForeignObjectAtItsKey() {
        BackupRequest once = new BackupRequest(List.of("http://example-client:2379"), null, S3,
                new S3Location("b", "once/snapshot.db"), ME, "", null);
        store.put("once/snapshot.db", Map.of(BackupMetadata.OWNER, ME, BackupMetadata.REVISION, "500",
                BackupMetadata.CLUSTER_ID, "abc1"));
        etcd.revision = 3;
        assertThat(take(once, false, 0)).map(BackupFailure::reason).contains(BackupFailure.REVISION_WENT_BACK);
        store.put("once/snapshot.db", Map.of(BackupMetadata.OWNER, "ns/other"));
        etcd.revision = 900;
        assertThat(take(once, false, 0)).map(BackupFailure::reason).contains(BackupFailure.PATH_IN_USE);
        assertThat(store.uploads).isZero();
        store.put("once/snapshot.db", Map.of(BackupMetadata.OWNER, ME, BackupMetadata.REVISION, "500",
                BackupMetadata.CLUSTER_ID, "abc1"));
        assertThat(take(once, false, 0)).isEmpty();
        assertThat(store.metadata.get("once/snapshot.db")).containsEntry(BackupMetadata.REVISION, "900");
    }

    // ---- timeoutInSecond bounds the whole backup

    @ParameterizedTest(name = "the time runs out in: {0}")
    @ValueSource(strings = {"checkBucket", "cleanUpInterrupted", "status", "periodicBackups", "upload"})
    void whenTheTimeRunsOutNoLaterStepStartsAndTheBackupTimesOut(String step) {
        etcd.revision = 10;
        Consumer<String> slow = s -> {
            if (s.equals(step)) {
                clock.advance(TIMEOUT.plusSeconds(1));
            }
        };
        store.onCall = slow;
        etcd.onCall = slow;
        Instant start = clock.instant();
        assertThat(take(periodic(), true, 3)).map(BackupFailure::reason).contains(BackupFailure.TIMEOUT);
        assertThat(store.calls).last().isEqualTo(step.equals("status") ? "cleanUpInterrupted" : step);
        assertThat(store.deadlines).as("every step is given the backup's deadline").isNotEmpty()
                .allMatch(d -> d.equals(start.plus(TIMEOUT)));
        assertThat(store.objects).isEmpty();
    }

    // ---- retention never deletes the backup the status names

    /**
     * With one backup kept, the one the status names (which a recovery from a backup would restore) stays until the
     * status names the new one; then it goes, unless a restore or a drill uses it by then.
     */
    @Test
    void theBackupTheStatusNamesGoesOnlyOnceTheNewOneIsRecorded() {
        etcd.revision = 10;
        assertThat(take(periodic(), true, 1)).isEmpty();
        String named = status.getBackupPath();
        etcd.revision = 11;
        BackupTaken taken = runner.run(periodic(), true, 1, TIMEOUT, BackupStatusBuilder.lastBackup(status));
        assertThat(taken.deferred()).isEqualTo(named);
        assertThat(taken.deleted()).isEmpty();
        assertThat(periodicKeys()).as("both, until the new one is recorded").hasSize(2);

        statusBuilder.succeeded(status, taken, clock.instant(), 1L);
        restoring.put("b", Set.of(named.substring(2)));
        assertThat(runner.deleteDeferred(periodic(), named, TIMEOUT, BackupRunner.ForDrills.NONE,
                BackupRunner.StillAsBegun.ALWAYS)).contains("kept", "restore");
        restoring.clear();
        assertThat(runner.deleteDeferred(periodic(), named, TIMEOUT, new BackupRunner.ForDrills(false,
                Set.of(named.substring(2))), BackupRunner.StillAsBegun.ALWAYS)).contains("kept", "drills");
        assertThatThrownBy(() -> runner.deleteDeferred(periodic(), named, TIMEOUT, BackupRunner.ForDrills.NONE,
                () -> Optional.of("the EtcdBackup's spec changed"))).hasMessageContaining("deleted nothing");
        assertThat(runner.deleteDeferred(periodic(), "b/elsewhere_v1_2026-01-01-00:00:00", TIMEOUT,
                BackupRunner.ForDrills.NONE, BackupRunner.StillAsBegun.ALWAYS)).contains("kept", "no periodic backup");
        assertThat(periodicKeys()).hasSize(2);

        assertThat(runner.deleteDeferred(periodic(), named, TIMEOUT, BackupRunner.ForDrills.NONE,
                BackupRunner.StillAsBegun.ALWAYS)).startsWith("deleted " + named);
        assertThat(periodicKeys()).containsExactly(taken.path().substring(2));
    }

    // ---- retention never deletes a backup a restore is using

    @Test
    void retentionKeepsEveryBackupThatARestoreIsUsingAndDeletesItOnceTheRestoreEnded() {
        for (int i = 0; i < 3; i++) {
            etcd.revision = 10 + i;
            assertThat(take(periodic(), true, 3)).isEmpty();
        }
        List<String> before = periodicKeys();
        restoring.put("b", Set.of(before.get(0), before.get(1)));
        restoring.put("other-bucket", Set.of(before.get(2)));
        etcd.revision = 20;
        assertThat(take(periodic(), true, 1)).isEmpty();
        assertThat(periodicKeys()).as("the two in use stay, the unused older one goes").contains(before.get(0),
                before.get(1)).doesNotContain(before.get(2)).hasSize(3);

        restoring.clear();
        etcd.revision = 21;
        assertThat(take(periodic(), true, 1)).isEmpty();
        assertThat(periodicKeys()).hasSize(1);
    }

    @Test
    void withDrillsTheKeyspaceAtTheBackupsRevisionIsRecordedAndABackupGoesOnWithoutIt() {
        BackupRunner.ForDrills drills = new BackupRunner.ForDrills(true, Set.of());
        etcd.revision = 10;
        BackupTaken taken = runner.run(periodic(), true, 0, TIMEOUT, BackupStatusBuilder.lastBackup(status), drills);
        assertThat(taken.keyspace()).isEqualTo(new KeyspaceFingerprint(10, 1010L, 1L, 30L));
        etcd.keyspaceFails = true;
        etcd.revision = 11;
        clock.advance(INTERVAL);
        taken = runner.run(periodic(), true, 0, TIMEOUT, BackupStatusBuilder.lastBackup(status), drills);
        assertThat(taken.keyspace()).isNull();
        assertThat(taken.revision()).isEqualTo(11);
    }

    @Test
    void withoutDrillsTheKeyspaceIsNotRead() {
        etcd.revision = 10;
        BackupTaken taken = runner.run(periodic(), true, 0, TIMEOUT, BackupStatusBuilder.lastBackup(status));
        assertThat(taken.keyspace()).isNull();
        assertThat(etcd.calls).doesNotContain("keyspace");
    }

    @Test
    void theBackupJustTakenStaysWhenTheOperatorsClockWentBack() {
        etcd.revision = 10;
        assertThat(take(periodic(), true, 1)).isEmpty();
        assertThat(take(periodic(), true, 1)).isEmpty();
        clock.advance(Duration.ofDays(-1));
        BackupTaken taken = runner.run(periodic(), true, 1, TIMEOUT, BackupStatusBuilder.lastBackup(status));
        assertThat(periodicKeys()).as("the one just taken, dated a day before the others")
                .contains(taken.path().substring("b/".length()));
    }

    @Test
    void retentionKeepsTheBackupsItIsToldToKeepForDrills() {
        for (int i = 0; i < 3; i++) {
            etcd.revision = 10 + i;
            assertThat(take(periodic(), true, 3)).isEmpty();
        }
        List<String> before = periodicKeys();
        etcd.revision = 20;
        BackupTaken taken = runner.run(periodic(), true, 1, TIMEOUT, BackupStatusBuilder.lastBackup(status),
                new BackupRunner.ForDrills(false, Set.of(before.get(0))));
        assertThat(periodicKeys()).as("the newest, the verified one and the one the status names stay")
                .contains(before.get(0), before.get(2)).doesNotContain(before.get(1)).hasSize(3);
        assertThat(taken.deleted()).hasSize(1);
        assertThat(taken.deferred()).isEqualTo("b/" + before.get(2));
    }

    /** A drill of an earlier backup that starts while this backup uploads: asked right before retention deletes. */
    @Test
    void retentionKeepsABackupADrillStartedOnDuringTheUpload() {
        for (int i = 0; i < 3; i++) {
            etcd.revision = 10 + i;
            assertThat(take(periodic(), true, 3)).isEmpty();
        }
        List<String> before = periodicKeys();
        Set<String> drilled = new java.util.HashSet<>();
        etcd.revision = 20;
        store.onCall = call -> {
            if (call.equals("upload")) {
                drilled.add(before.get(1));
            }
        };
        BackupTaken taken = runner.run(periodic(), true, 1, TIMEOUT, BackupStatusBuilder.lastBackup(status),
                new BackupRunner.ForDrills(false, () -> Set.copyOf(drilled)));
        assertThat(periodicKeys()).as("the newest, the one being drilled and the one the status names stay")
                .contains(before.get(1), before.get(2)).doesNotContain(before.get(0)).hasSize(3);
        assertThat(taken.deferred()).isEqualTo("b/" + before.get(2));
    }

    @Test
    void whenTheRestoresCannotBeListedRetentionDeletesNothingAndTheBackupStillCounts() {
        for (int i = 0; i < 3; i++) {
            etcd.revision = 10 + i;
            assertThat(take(periodic(), true, 3)).isEmpty();
        }
        restoresUnknown = true;
        etcd.revision = 20;
        BackupTaken taken = runner.run(periodic(), true, 1, TIMEOUT, BackupStatusBuilder.lastBackup(status));
        assertThat(taken.retentionProblem()).contains("could not be listed");
        assertThat(taken.deleted()).isEmpty();
        assertThat(periodicKeys()).hasSize(4);
    }

    @Test
    void retentionStopsAtTheDeadlineAndTheBackupStillCounts() {
        for (int i = 0; i < 3; i++) {
            etcd.revision = 10 + i;
            assertThat(take(periodic(), true, 3)).isEmpty();
        }
        store.onCall = s -> {
            if (s.equals("delete")) {
                clock.advance(TIMEOUT.plusSeconds(1));
            }
        };
        etcd.revision = 20;
        BackupTaken taken = runner.run(periodic(), true, 1, TIMEOUT, BackupStatusBuilder.lastBackup(status));
        assertThat(taken.retentionProblem()).contains("timeoutInSecond");
        assertThat(taken.deleted()).hasSize(1);
        assertThat(store.deleted).hasSize(1);
    }

    @Test
    void membersThatDoNotAnswerCannotHoldTheSearchPastTheDeadline() {
        FakeEtcd hanging = new FakeEtcd() {
            @Override
            public List<Member> members() {
                hangUntilInterrupted();
                return List.of();
            }
        };
        SnapshotSources sources = new SnapshotSources(hanging, Clock.systemUTC());
        long began = System.nanoTime();
        assertThatThrownBy(() -> sources.find(List.of("http://m1:2379"), null, Instant.now().plusMillis(300)))
                .isInstanceOf(BackupFailure.class).extracting(e -> ((BackupFailure) e).reason())
                .isEqualTo(BackupFailure.TIMEOUT);
        assertThat(Duration.ofNanos(System.nanoTime() - began)).isLessThan(Duration.ofSeconds(3));
    }

    // ---- fakes

    /** A call to a member that never answers: it ends only when the caller gives up on it (interrupts it). */
    static void hangUntilInterrupted() {
        try {
            new java.util.concurrent.CountDownLatch(1).await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    static final class MutableClock extends Clock {
        private Instant now;

        MutableClock(Instant now) {
            this.now = now;
        }

        synchronized void advance(Duration d) {
            now = now.plus(d);
        }

        @Override
        public synchronized Instant instant() {
            return now;
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }
    }

    /** One etcd member at http://m1:2379 of cluster 0xabc1, behind the Service the backup names. */
    static class FakeEtcd implements EtcdAdmin, EtcdAdminFactory {
        volatile long revision = 1;
        volatile long clusterId = 0xabc1;
        Consumer<String> onCall = s -> { };
        final List<String> calls = new ArrayList<>();

        @Override
        public EtcdAdmin open(List<String> clientUrls, EtcdTls tls) {
            return this;
        }

        private void called(String what) {
            calls.add(what);
            onCall.accept(what);
        }

        @Override
        public List<Member> members() {
            called("members");
            return List.of(new Member(1, "m1", List.of("http://m1:2380"), List.of("http://m1:2379"), false));
        }

        @Override
        public MemberStatus status(String clientUrl) {
            called("status");
            return new MemberStatus(clientUrl, 1, "3.5.17", 1, 1, 1, 1, 1, 1, false, List.of(), clusterId);
        }

        @Override
        public MemberHealth health(String clientUrl) {
            throw new UnsupportedOperationException();
        }

        @Override
        public Member addMember(String peerUrl, boolean asLearner) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void promote(long memberId) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void removeMember(long memberId) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void moveLeader(String leaderClientUrl, long targetId) {
            throw new UnsupportedOperationException("a backup moves no leadership");
        }

        @Override
        public long revision(String clientUrl) {
            called("revision");
            return revision;
        }

        volatile boolean keyspaceFails;

        @Override
        public KeyspaceFingerprint keyspace(String clientUrl, long at) {
            called("keyspace");
            if (keyspaceFails) {
                throw new EtcdAdminException(EtcdAdminException.Kind.UNAVAILABLE, "HashKV: connection refused", null);
            }
            return new KeyspaceFingerprint(at, 1000 + at, 1L, 30L);
        }

        @Override
        public List<dev.etcdoperator.etcd.Alarm> alarms() {
            throw new UnsupportedOperationException("a backup reads no alarms");
        }

        @Override
        public void disarm(dev.etcdoperator.etcd.Alarm alarm) {
            throw new UnsupportedOperationException("a backup disarms nothing");
        }

        @Override
        public void compact(long revision) {
            throw new UnsupportedOperationException("a backup compacts nothing");
        }

        @Override
        public void defragment(String clientUrl) {
            throw new UnsupportedOperationException("a backup defragments nothing");
        }

        @Override
        public String enableDowngrade(String targetVersion) {
            throw new UnsupportedOperationException("a backup downgrades nothing");
        }

        @Override
        public void close() {
        }
    }

    /** A store in memory that keeps what the runner wrote and the calls it made; like S3, it ends at the deadline. */
    final class FakeStore implements BackupStorage.Store {
        final Map<String, byte[]> objects = new TreeMap<>();
        final Map<String, Map<String, String>> metadata = new TreeMap<>();
        final List<String> deleted = new ArrayList<>();
        final List<String> calls = new ArrayList<>();
        final List<Instant> deadlines = new ArrayList<>();
        Consumer<String> onCall = s -> { };
        int uploads;

        void put(String key, Map<String, String> meta) {
            objects.put(key, new byte[] {1});
            metadata.put(key, meta);
        }

        private void called(String what, Instant deadline) {
            calls.add(what);
            deadlines.add(deadline);
            onCall.accept(what);
        }

        @Override
        public void checkBucket(String bucket, Instant deadline) {
            called("checkBucket", deadline);
        }

        @Override
        public int cleanUpInterrupted(S3Location target, boolean periodic, String owner, Instant startedBefore,
                Instant deadline) {
            called("cleanUpInterrupted", deadline);
            return 0;
        }

        @Override
        public Optional<StoredBackup> find(S3Location location, Instant deadline) {
            called("find", deadline);
            return Optional.ofNullable(metadata.get(location.key())).map(m -> StoredBackup.of(location.key(), m));
        }

        @Override
        public List<StoredBackup> periodicBackups(S3Location prefix, Instant deadline) {
            called("periodicBackups", deadline);
            return metadata.entrySet().stream().filter(e -> BackupNames.parsePeriodic(prefix.key(), e.getKey()).isPresent())
                    .map(e -> StoredBackup.of(e.getKey(), e.getValue())).toList();
        }

        @Override
        public Uploaded upload(InputStream snapshot, S3Location target, Map<String, String> meta, Instant deadline) {
            called("upload", deadline);
            if (clock.instant().isAfter(deadline)) {
                throw new BackupFailure(BackupFailure.TIMEOUT, "the upload did not finish in time", true);
            }
            byte[] data;
            try {
                data = snapshot.readAllBytes();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            uploads++;
            objects.put(target.key(), data);
            metadata.put(target.key(), Map.copyOf(meta));
            return new Uploaded(target.bucket(), target.key(), data.length, "sha");
        }

        @Override
        public void delete(S3Location location, Instant deadline) {
            called("delete", deadline);
            objects.remove(location.key());
            metadata.remove(location.key());
            deleted.add(location.key());
        }

        @Override
        public VerifiedBackup verify(S3Location location) {
            throw new UnsupportedOperationException();
        }

        @Override
        public Optional<dev.etcdoperator.storage.ObjectVersion> head(S3Location location, Instant deadline) {
            throw new UnsupportedOperationException();
        }

        @Override
        public String presignedGet(S3Location location, dev.etcdoperator.storage.ObjectVersion object,
                Duration validFor) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void close() {
        }
    }
}
