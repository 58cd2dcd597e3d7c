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
    void aSuccessIsRememberedAndAFailureDoesNotForgetIt() {
        EtcdBackupStatus status = new EtcdBackupStatus();
        assertThat(BackupStatusBuilder.lastBackup(status)).isEqualTo(BackupPlanner.LastBackup.none());

        builder.succeeded(status, taken(100), T, 1L);
        assertThat(status.getEtcdClusterID()).isEqualTo("abcd");
        assertThat(status.getClusterUID()).isEqualTo("uid-1");
        assertThat(BackupStatusBuilder.lastBackup(status)).isEqualTo(new BackupPlanner.LastBackup(100L, "abcd", "uid-1"));
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
        assertThat(BackupStatusBuilder.lastBackup(status)).isEqualTo(new BackupPlanner.LastBackup(100L, "abcd", "uid-1"));
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
}
