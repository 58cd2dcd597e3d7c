package dev.etcdoperator.core.backup;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Set;
import java.util.Optional;

import dev.etcdoperator.core.backup.BackupPlanner.LastBackup;
import dev.etcdoperator.core.backup.BackupPlanner.Refusal;
import org.junit.jupiter.api.Test;

class BackupPlannerTest {
    static final String ME = "ns/me";
    static final long ID = 0xabcdL;

    static SourceChoice.Candidate member(long revision, long clusterId) {
        return new SourceChoice.Candidate("http://m:2379", 1, revision, "3.5.17", false, clusterId);
    }

    static Optional<String> reason(Optional<Refusal> refusal) {
        return refusal.map(Refusal::reason);
    }

    static Optional<Refusal> check(LastBackup last, SourceChoice.Candidate source, String uid) {
        return BackupPlanner.checkSource(last, List.of(source), source, uid);
    }

    @Test
    void theFirstBackupAndOneThatMovedOnAreTaken() {
        assertThat(check(LastBackup.none(), member(5, ID), "uid-1")).isEmpty();
        assertThat(check(new LastBackup(100L, "abcd", "uid-1"), member(100, ID), "uid-1")).isEmpty();
        assertThat(check(new LastBackup(100L, "abcd", "uid-1"), member(101, ID), "uid-1")).isEmpty();
    }

    @Test
    void aLowerRevisionThanTheLastBackupsIsRefused() {
        for (long revision : new long[] {0, 1, 99}) {
            assertThat(reason(check(new LastBackup(100L, "abcd", null), member(revision, ID), null)))
                    .as("revision %d", revision).contains(BackupFailure.REVISION_WENT_BACK);
        }
        assertThat(check(new LastBackup(100L, "abcd", null), member(3, ID), null).orElseThrow().message())
                .contains("3", "100");
    }

    @Test
    void anotherClusterIsRefusedWhateverItsRevision() {
        for (long revision : new long[] {1, 100, 1_000_000}) {
            assertThat(reason(check(new LastBackup(100L, "abcd", null), member(revision, 0x1234), null)))
                    .as("etcd cluster ID changed, revision %d", revision).contains(BackupFailure.CLUSTER_CHANGED);
            assertThat(reason(check(new LastBackup(100L, "abcd", "uid-1"), member(revision, ID), "uid-2")))
                    .as("EtcdCluster uid changed, revision %d", revision).contains(BackupFailure.CLUSTER_CHANGED);
        }
    }

    @Test
    void whatTheStatusDoesNotKnowIsNotHeldAgainstTheSource() {
        // a status written before these fields existed, or a backup that names endpoints (no uid)
        assertThat(check(new LastBackup(100L, null, null), member(100, ID), "uid-1")).isEmpty();
        assertThat(check(new LastBackup(100L, "abcd", "uid-1"), member(100, ID), null)).isEmpty();
        assertThat(check(new LastBackup(100L, "abcd", null), member(100, 0), null)).isEmpty();
    }

    /**
     * A recovery from a survivor makes the same EtcdCluster a new etcd cluster on the survivor's data: its backups go
     * on. Only for that EtcdCluster, and only when the recovery began after the last backup.
     */
    @Test
    void theNewEtcdClusterIdOfARecoveryFromASurvivorIsTakenForTheSameCluster() {
        LastBackup last = new LastBackup(100L, "abcd", "uid-1", "2026-12-01T10:00:00Z");
        java.time.Instant after = java.time.Instant.parse("2026-12-01T11:00:00Z");
        java.time.Instant before = java.time.Instant.parse("2026-12-01T09:00:00Z");
        var recovered = member(120, 0x1234);
        assertThat(BackupPlanner.checkSource(last, List.of(recovered), recovered, "uid-1", after)).isEmpty();
        assertThat(reason(BackupPlanner.checkSource(last, List.of(recovered), recovered, "uid-1", before)))
                .as("recovered before the last backup: another change since").contains(BackupFailure.CLUSTER_CHANGED);
        assertThat(reason(BackupPlanner.checkSource(last, List.of(recovered), recovered, "uid-1", null)))
                .as("no recovery recorded").contains(BackupFailure.CLUSTER_CHANGED);
        assertThat(reason(BackupPlanner.checkSource(last, List.of(recovered), recovered, "uid-2", after)))
                .as("another EtcdCluster").contains(BackupFailure.CLUSTER_CHANGED);
        assertThat(reason(BackupPlanner.checkSource(new LastBackup(100L, "abcd", "uid-1", null), List.of(recovered),
                recovered, "uid-1", after))).as("the last backup's time unknown").contains(BackupFailure.CLUSTER_CHANGED);
        var behind = member(90, 0x1234);
        assertThat(reason(BackupPlanner.checkSource(last, List.of(behind), behind, "uid-1", after)))
                .as("the survivor lacked writes the last backup has").contains(BackupFailure.REVISION_WENT_BACK);
    }

    /**
     * An EtcdRestore (by hand, or a recovery from a backup) replaces the EtcdCluster by a new one of the same name: a
     * new uid, a new etcd cluster ID, the revision of the backup it restored. Its backups go on, once, from a last
     * backup of the cluster it replaced.
     */
    @Test
    void theClusterAnEtcdRestoreRebuiltIsBackedUpOnAfterItsPredecessor() {
        LastBackup last = new LastBackup(100L, "abcd", "uid-1", "2026-12-01T10:00:00Z");
        var restored = member(80, 0x1234);
        assertThat(BackupPlanner.checkSource(last, List.of(restored), restored, "uid-2", null, List.of("uid-1")))
                .isEmpty();
        assertThat(BackupPlanner.checkSource(last, List.of(restored), restored, "uid-3", null,
                List.of("uid-2", "uid-1"))).as("restored twice before a backup").isEmpty();
        assertThat(reason(BackupPlanner.checkSource(last, List.of(restored), restored, "uid-2", null, List.of())))
                .as("not restored").contains(BackupFailure.CLUSTER_CHANGED);
        assertThat(reason(BackupPlanner.checkSource(last, List.of(restored), restored, "uid-2", null,
                List.of("uid-0")))).as("restored in place of another cluster").contains(BackupFailure.CLUSTER_CHANGED);
        LastBackup ownSince = new LastBackup(120L, "1234", "uid-2", "2026-12-01T12:00:00Z");
        var behind = member(110, 0x1234);
        assertThat(reason(BackupPlanner.checkSource(ownSince, List.of(behind), behind, "uid-2", null, List.of("uid-1"))))
                .as("once backed up itself, the usual checks").contains(BackupFailure.REVISION_WENT_BACK);
        var other = member(130, 0x5678);
        assertThat(reason(BackupPlanner.checkSource(ownSince, List.of(other), other, "uid-2", null, List.of("uid-1"))))
                .contains(BackupFailure.CLUSTER_CHANGED);
    }

    @Test
    void endpointsThatReachTwoClustersAreRefused() {
        var a = member(10, 0x1);
        var b = new SourceChoice.Candidate("http://n:2379", 2, 20, "3.5.17", false, 0x2);
        assertThat(reason(BackupPlanner.checkSource(LastBackup.none(), List.of(a, b), b, null)))
                .contains(BackupFailure.CLUSTER_CHANGED);
    }

    @Test
    void aOneShotKeyIsReplacedOnlyByItsOwnerWithTheSameClusterNoOlder() {
        assertThat(BackupPlanner.checkOneShotKey(null, ME, member(5, ID), "b/k")).isEmpty();
        assertThat(BackupPlanner.checkOneShotKey(new StoredBackup("k", ME, 5L, "abcd"), ME, member(5, ID), "b/k")).isEmpty();
        assertThat(reason(BackupPlanner.checkOneShotKey(new StoredBackup("k", "ns/other", 1L, "abcd"), ME, member(5, ID), "b/k")))
                .contains(BackupFailure.PATH_IN_USE);
        assertThat(reason(BackupPlanner.checkOneShotKey(new StoredBackup("k", null, null, null), ME, member(5, ID), "b/k")))
                .contains(BackupFailure.PATH_IN_USE);
        assertThat(reason(BackupPlanner.checkOneShotKey(new StoredBackup("k", ME, 50L, "abcd"), ME, member(5, ID), "b/k")))
                .contains(BackupFailure.REVISION_WENT_BACK);
        assertThat(reason(BackupPlanner.checkOneShotKey(new StoredBackup("k", ME, 1L, "ffff"), ME, member(5, ID), "b/k")))
                .contains(BackupFailure.CLUSTER_CHANGED);
    }

    @Test
    void aPeriodicPrefixBelongsToOneEtcdBackup() {
        var mine = new StoredBackup("p_v1_2026-11-30-08:00:00", ME, 1L, "abcd");
        assertThat(BackupPlanner.checkPrefix(List.of(mine), ME, "b/p")).isEmpty();
        assertThat(BackupPlanner.checkPrefix(List.of(), ME, "b/p")).isEmpty();
        assertThat(reason(BackupPlanner.checkPrefix(List.of(mine, new StoredBackup("p_v2_2026-11-30-09:00:00", "ns/x", 2L, null)),
                ME, "b/p"))).contains(BackupFailure.PATH_IN_USE);
        // the CoreOS operator's periodic backups, same naming, no owner: kept as they are, no refusal
        var coreos = new StoredBackup("p_v2_2026-11-30-09:00:00", null, null, null);
        assertThat(BackupPlanner.checkPrefix(List.of(mine, coreos), ME, "b/p")).isEmpty();
        assertThat(BackupPlanner.retention("p", List.of(mine, coreos), ME, 1, Set.of())).isEmpty();
    }

    @Test
    void withoutAStatusThePrefixsBackupsOfTheSameClusterHoldTheRevisionBack() {
        var mine = new StoredBackup("p_v100_2026-11-30-08:00:00", ME, 100L, "abcd");
        var legacy = new StoredBackup("p_v90_2026-11-30-07:00:00", ME, 90L, null);
        var others = new StoredBackup("p_v900_2026-11-30-09:00:00", "ns/x", 900L, "abcd");
        LastBackup none = LastBackup.none();
        assertThat(BackupPlanner.checkOwnBackups(none, List.of(), ME, member(1, ID), "b/p")).isEmpty();
        assertThat(BackupPlanner.checkOwnBackups(none, List.of(mine, legacy, others), ME, member(100, ID), "b/p"))
                .isEmpty();
        assertThat(reason(BackupPlanner.checkOwnBackups(none, List.of(legacy, mine), ME, member(99, ID), "b/p")))
                .contains(BackupFailure.REVISION_WENT_BACK);
        // another cluster (a restored one) is no refusal: retention neither counts nor deletes the older ones
        for (long revision : new long[] {1, 100, 1_000_000}) {
            assertThat(BackupPlanner.checkOwnBackups(none, List.of(legacy, mine), ME, member(revision, 0x77), "b/p"))
                    .as("revision %d", revision).isEmpty();
        }
        // the status, when it remembers a backup, is what the source is checked against
        assertThat(BackupPlanner.checkOwnBackups(new LastBackup(5L, "abcd", null), List.of(mine), ME, member(99, ID),
                "b/p")).isEmpty();
    }

    @Test
    void retentionCountsAndDeletesOnlyBackupsOfTheClusterJustBackedUp() {
        var a1 = new StoredBackup("p_v1000_2026-11-30-01:00:00", ME, 1000L, "aaaa");
        var a2 = new StoredBackup("p_v1010_2026-11-30-02:00:00", ME, 1010L, "aaaa");
        var b1 = new StoredBackup("p_v5_2026-11-30-03:00:00", ME, 5L, "bbbb");
        var b2 = new StoredBackup("p_v6_2026-11-30-04:00:00", ME, 6L, "bbbb");
        var b3 = new StoredBackup("p_v7_2026-11-30-05:00:00", ME, 7L, "bbbb");
        var legacy = new StoredBackup("p_v1_2026-11-30-00:00:00", ME, 1L, null);
        List<StoredBackup> all = List.of(a1, a2, b1, b2, b3, legacy);
        assertThat(BackupPlanner.retention("p", all, ME, 2, Set.of(), Set.of(), "BBBB"))
                .extracting(BackupNames.Periodic::key).containsExactly(b1.key(), legacy.key());
        assertThat(BackupPlanner.retention("p", all, ME, 1, Set.of(), Set.of(), "aaaa"))
                .extracting(BackupNames.Periodic::key).containsExactly(a1.key(), legacy.key());
    }

    /**
     * An operator whose clock ran hours ahead named two backups in the future; once the clock is right again, the
     * backups it takes are newer by revision, and those two must not push them out.
     */
    @Test
    void retentionOfOneClusterGoesByRevisionNotByAClockThatRanAhead() {
        var ahead1 = new StoredBackup("p_v100_2026-11-30-20:00:00", ME, 100L, "aaaa");
        var ahead2 = new StoredBackup("p_v110_2026-11-30-21:00:00", ME, 110L, "aaaa");
        var now1 = new StoredBackup("p_v120_2026-11-30-10:00:00", ME, 120L, "aaaa");
        var now2 = new StoredBackup("p_v130_2026-11-30-11:00:00", ME, 130L, "aaaa");
        var now3 = new StoredBackup("p_v140_2026-11-30-12:00:00", ME, 140L, "aaaa");
        List<StoredBackup> all = List.of(ahead1, ahead2, now1, now2, now3);
        assertThat(BackupPlanner.retention("p", all, ME, 3, Set.of(), Set.of(now3.key()), "aaaa"))
                .extracting(BackupNames.Periodic::key).containsExactly(ahead2.key(), ahead1.key());
        // a backup that records no cluster: the time in the names is all there is to go by
        var legacy = new StoredBackup("p_v1_2026-11-30-00:00:00", ME, 1L, null);
        assertThat(BackupPlanner.retention("p", List.of(ahead1, ahead2, now1, now2, now3, legacy), ME, 3, Set.of(),
                Set.of(now3.key()), "aaaa")).extracting(BackupNames.Periodic::key)
                .containsExactly(now2.key(), now1.key(), legacy.key());
    }

    @Test
    void retentionCountsOnlyThisOwnersBackups() {
        var mine1 = new StoredBackup("p_v1_2026-11-30-08:00:00", ME, 1L, null);
        var mine2 = new StoredBackup("p_v2_2026-11-30-09:00:00", ME, 2L, null);
        var mine3 = new StoredBackup("p_v3_2026-11-30-10:00:00", ME, 3L, null);
        var other = new StoredBackup("p_v9_2026-11-30-07:00:00", "ns/x", 9L, null);
        assertThat(BackupPlanner.retention("p", List.of(mine1, mine2, mine3, other), ME, 2, Set.of()))
                .extracting(BackupNames.Periodic::key).containsExactly("p_v1_2026-11-30-08:00:00");
    }

    @Test
    void retentionNeverDeletesABackupARestoreIsUsing() {
        var mine1 = new StoredBackup("p_v1_2026-11-30-08:00:00", ME, 1L, null);
        var mine2 = new StoredBackup("p_v2_2026-11-30-09:00:00", ME, 2L, null);
        var mine3 = new StoredBackup("p_v3_2026-11-30-10:00:00", ME, 3L, null);
        var mine4 = new StoredBackup("p_v4_2026-11-30-11:00:00", ME, 4L, null);
        List<StoredBackup> all = List.of(mine1, mine2, mine3, mine4);
        assertThat(BackupPlanner.retention("p", all, ME, 1, Set.of(mine1.key(), mine3.key())))
                .extracting(BackupNames.Periodic::key).containsExactly(mine2.key());
        assertThat(BackupPlanner.retention("p", all, ME, 1, Set.of(mine1.key(), mine2.key(), mine3.key()))).isEmpty();
        assertThat(BackupPlanner.retention("p", all, ME, 1, Set.of("p_v9_2026-11-30-12:00:00")))
                .hasSize(3);
    }
}
