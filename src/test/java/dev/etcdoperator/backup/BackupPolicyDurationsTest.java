package dev.etcdoperator.backup;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;

import dev.etcdoperator.api.v1beta2.BackupPolicy;
import org.junit.jupiter.api.Test;

/** The policy's seconds become durations the schedule and the upload deadline can add to a time without overflow. */
class BackupPolicyDurationsTest {

    private static BackupPolicy policy(long seconds) {
        BackupPolicy policy = new BackupPolicy();
        policy.setTimeoutInSecond(seconds);
        policy.setBackupIntervalInSecond(seconds);
        return policy;
    }

    @Test
    void hugeSecondsAreCappedAtTheApiMaxima() {
        for (long seconds : new long[] { 86_401, Integer.MAX_VALUE, Long.MAX_VALUE / 1000 + 1, Long.MAX_VALUE }) {
            Duration timeout = EtcdBackupReconciler.timeout(policy(seconds));
            Duration interval = EtcdBackupReconciler.interval(policy(seconds));
            assertThat(timeout).as("%d", seconds).isLessThanOrEqualTo(Duration.ofDays(1));
            assertThat(interval).as("%d", seconds).isLessThanOrEqualTo(Duration.ofDays(366));
            assertThat(Instant.now().plus(timeout).plus(interval)).isAfter(Instant.now());
            assertThat(timeout.toMillis() + interval.toMillis()).isPositive();
        }
        assertThat(EtcdBackupReconciler.timeout(policy(30))).isEqualTo(Duration.ofSeconds(30));
        assertThat(EtcdBackupReconciler.interval(policy(600))).isEqualTo(Duration.ofMinutes(10));
        assertThat(EtcdBackupReconciler.timeout(policy(0))).isEqualTo(EtcdBackupReconciler.DEFAULT_TIMEOUT);
        assertThat(EtcdBackupReconciler.interval(policy(-5))).isZero();
    }
}
