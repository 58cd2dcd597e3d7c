package dev.etcdoperator.core.backup;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;

import dev.etcdoperator.api.v1beta2.Condition;
import dev.etcdoperator.api.v1beta2.EtcdBackupStatus;
import dev.etcdoperator.core.status.Conditions;
import org.junit.jupiter.api.Test;

class BackupStatusBuilderTest {
    static final Instant T = Instant.parse("2026-11-30T10:00:00Z");
    final BackupStatusBuilder builder = new BackupStatusBuilder(new Conditions(Clock.fixed(T, ZoneOffset.UTC)));

    static BackupTaken taken(long revision) {
        return new BackupTaken("b/k", 544, "aa", revision, "3.5.17", "http://m:2379", "abcd", "uid-1",
                Duration.ofSeconds(1), List.of(), null);
    }

    @Test
    void aFailureOfAnyLengthIsRecordedInAStatusThatFits() {
        EtcdBackupStatus status = new EtcdBackupStatus();
        builder.failed(status, new BackupFailure(BackupFailure.ETCD_UNREACHABLE, "x".repeat(2_000_000), true), T,
                T.plusSeconds(5), 1L);
        assertThat(status.getReason()).hasSizeLessThan(dev.etcdoperator.core.status.Messages.MAX + 100)
                .endsWith("more characters)");
        assertThat(status.getConditions()).isNotEmpty().allSatisfy(c -> assertThat(c.getMessage())
                .hasSizeLessThan(dev.etcdoperator.core.status.Messages.MAX + 100));
    }

    @Test
    void aSuccessIsRememberedAndAFailureDoesNotForgetIt() {
        EtcdBackupStatus status = new EtcdBackupStatus();
        assertThat(BackupStatusBuilder.lastBackup(status)).isEqualTo(BackupPlanner.LastBackup.none());

        builder.succeeded(status, taken(100), T, 1L);
        assertThat(status.getEtcdClusterID()).isEqualTo("abcd");
        assertThat(status.getClusterUID()).isEqualTo("uid-1");
        assertThat(BackupStatusBuilder.lastBackup(status)).isEqualTo(new BackupPlanner.LastBackup(100L, "abcd", "uid-1",
                T.toString(), "b/k"));
        assertThat(status.getConditions()).extracting(Condition::getType).containsExactly("BackupSucceeded", "Ready");
        assertThat(status.getConditions()).allSatisfy(c -> {
            assertThat(c.getStatus()).isEqualTo(Conditions.TRUE);
            assertThat(c.getReason()).isEqualTo(BackupStatusBuilder.REASON_TAKEN);
        });

        BackupFailure refused = new BackupFailure(BackupFailure.REVISION_WENT_BACK, "revision 3 < 100", true);
        String message = builder.failed(status, refused, T.plusSeconds(60), T.plusSeconds(65), 1L);
        assertThat(message).contains("revision 3 < 100", "2026-11-30T10:01:05Z");
        assertThat(status.getSucceeded()).isFalse();
        assertThat(status.getReason()).isEqualTo("RevisionWentBack: revision 3 < 100");
        assertThat(status.getConsecutiveFailures()).isEqualTo(1);
        assertThat(BackupStatusBuilder.lastBackup(status)).isEqualTo(new BackupPlanner.LastBackup(100L, "abcd", "uid-1",
                T.toString(), "b/k"));
        assertThat(status.getConditions()).hasSize(2).allSatisfy(c -> {
            assertThat(c.getStatus()).isEqualTo(Conditions.FALSE);
            assertThat(c.getReason()).isEqualTo(BackupFailure.REVISION_WENT_BACK);
            assertThat(c.getMessage()).contains("revision 3 < 100");
        });
    }

    @Test
    void readyFollowsTheLastAttemptAndKeepsItsTransitionTimeWhileItHolds() {
        EtcdBackupStatus status = new EtcdBackupStatus();
        builder.succeeded(status, taken(100), T, 1L);
        new BackupStatusBuilder(new Conditions(Clock.fixed(T.plusSeconds(600), ZoneOffset.UTC)))
                .succeeded(status, taken(200), T.plusSeconds(600), 1L);
        Condition ready = Conditions.find(status.getConditions(), "Ready").orElseThrow();
        assertThat(ready.getStatus()).isEqualTo(Conditions.TRUE);
        assertThat(ready.getLastTransitionTime()).isEqualTo("2026-11-30T10:00:00Z");
        assertThat(ready.getMessage()).contains("200");
    }

    static BackupTaken takenWithKeyspace(String path, long revision) {
        return new BackupTaken(path, 544, "aa", revision, "3.5.17", "http://m:2379", "abcd", "uid-1",
                Duration.ofSeconds(1), List.of(), null, new KeyspaceFingerprint(revision, 77L, 3L, 30L));
    }

    @Test
    void aBackupRecordsItsKeyspaceAndCountsTowardTheNextDrill() {
        EtcdBackupStatus status = new EtcdBackupStatus();
        builder.succeeded(status, takenWithKeyspace("b/k1", 100), T, 1L);
        assertThat(BackupStatusBuilder.recordedKeyspace(status)).isEqualTo(new KeyspaceFingerprint(100, 77L, 3L, 30L));
        assertThat(status.getBackupsSinceDrill()).isEqualTo(1);
        assertThat(BackupStatusBuilder.drillDue(null, status)).as("drills off").isEmpty();
        assertThat(BackupStatusBuilder.drillDue(2, status)).as("never drilled: the first is").contains("b/k1");

        builder.succeeded(status, taken(101), T.plusSeconds(60), 1L);
        assertThat(BackupStatusBuilder.recordedKeyspace(status)).as("not read this time").isNull();
        assertThat(status.getBackupsSinceDrill()).isEqualTo(2);
    }

    @Test
    void aVerifiedDrillIsRememberedAndAFailedOneDoesNotForgetIt() {
        EtcdBackupStatus status = new EtcdBackupStatus();
        builder.succeeded(status, takenWithKeyspace("b/k1", 100), T, 1L);
        builder.drilled(status, "b/k1", 1, new DrillVerdict.Outcome(true, DrillVerdict.VERIFIED, "matched"),
                T.plusSeconds(5), 1L);
        assertThat(status.getLastVerifiedDate()).isEqualTo("2026-11-30T10:00:05Z");
        assertThat(status.getLastVerifiedBackupPath()).isEqualTo("b/k1");
        assertThat(status.getBackupsSinceDrill()).isZero();
        assertThat(BackupStatusBuilder.drillDue(1, status)).as("drilled once").isEmpty();
        Condition verified = Conditions.find(status.getConditions(), BackupStatusBuilder.CONDITION_VERIFIED).orElseThrow();
        assertThat(verified.getStatus()).isEqualTo("True");
        assertThat(verified.getReason()).isEqualTo("Verified");

        builder.succeeded(status, takenWithKeyspace("b/k2", 200), T.plusSeconds(60), 1L);
        assertThat(BackupStatusBuilder.drillDue(1, status)).contains("b/k2");
        builder.drilled(status, "b/k2", 1, DrillVerdict.Outcome.failed(DrillVerdict.DIGEST_MISMATCH, "changed"),
                T.plusSeconds(65), 1L);
        assertThat(status.getLastVerifiedBackupPath()).isEqualTo("b/k1");
        assertThat(status.getLastVerifiedDate()).isEqualTo("2026-11-30T10:00:05Z");
        assertThat(status.getLastDrilledBackupPath()).isEqualTo("b/k2");
        assertThat(BackupStatusBuilder.drillDue(1, status)).as("not repeated on the same object").isEmpty();
        verified = Conditions.find(status.getConditions(), BackupStatusBuilder.CONDITION_VERIFIED).orElseThrow();
        assertThat(verified.getStatus()).isEqualTo("False");
        assertThat(verified.getReason()).isEqualTo("DigestMismatch");
        assertThat(verified.getMessage()).isEqualTo("changed");
        assertThat(Conditions.find(status.getConditions(), "Ready").orElseThrow().getStatus())
                .as("Ready follows the backups").isEqualTo("True");
    }

    @Test
    void retentionKeepsTheLastVerifiedBackupAndOneDueForADrill() {
        EtcdBackupStatus status = new EtcdBackupStatus();
        assertThat(BackupStatusBuilder.keptForDrills(status, "b", 1)).isEmpty();
        builder.succeeded(status, takenWithKeyspace("b/p_v1", 1), T, 1L);
        assertThat(BackupStatusBuilder.keptForDrills(status, "b", null)).isEmpty();
        assertThat(BackupStatusBuilder.keptForDrills(status, "b", 1)).containsExactly("p_v1");
        builder.drilled(status, "b/p_v1", 1, new DrillVerdict.Outcome(true, DrillVerdict.VERIFIED, "ok"), T, 1L);
        builder.succeeded(status, takenWithKeyspace("b/p_v2", 2), T, 1L);
        assertThat(BackupStatusBuilder.keptForDrills(status, "b", 1)).containsExactlyInAnyOrder("p_v1", "p_v2");
        // a drill still restoring an older backup (scheduled, or due before later backups were taken) keeps it
        assertThat(BackupStatusBuilder.keptForDrills(status, "b", null, "b/p_v0"))
                .containsExactlyInAnyOrder("p_v1", "p_v0");
        assertThat(BackupStatusBuilder.keptForDrills(status, "b", null, "other-bucket/p_v0")).containsExactly("p_v1");
        assertThat(BackupStatusBuilder.keptForDrills(status, "b", null)).as("drills switched off: still kept")
                .containsExactly("p_v1");
        assertThat(BackupStatusBuilder.keptForDrills(status, "other", 1)).as("another bucket").isEmpty();
    }

    @Test
    void backupsTakenWhileADrillRanCountTowardTheNextDrill() {
        EtcdBackupStatus status = new EtcdBackupStatus();
        builder.succeeded(status, takenWithKeyspace("b/k1", 100), T, 1L);
        int counted = status.getBackupsSinceDrill();
        // the drill of k1 begins; k2 is taken before it ends
        builder.succeeded(status, takenWithKeyspace("b/k2", 200), T.plusSeconds(60), 1L);
        builder.drilled(status, "b/k1", counted, new DrillVerdict.Outcome(true, DrillVerdict.VERIFIED, "ok"),
                T.plusSeconds(70), 1L);
        assertThat(status.getBackupsSinceDrill()).isEqualTo(1);
        assertThat(BackupStatusBuilder.drillDue(1, status)).contains("b/k2");
    }
}
