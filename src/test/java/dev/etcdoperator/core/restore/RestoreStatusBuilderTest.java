package dev.etcdoperator.core.restore;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;

import dev.etcdoperator.api.v1beta2.Condition;
import dev.etcdoperator.api.v1beta2.EtcdRestoreStatus;
import dev.etcdoperator.core.status.Conditions;
import org.junit.jupiter.api.Test;

class RestoreStatusBuilderTest {
    static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    static RestoreStatusBuilder at(Instant t) {
        return new RestoreStatusBuilder(new Conditions(Clock.fixed(t, ZoneOffset.UTC)));
    }

    static Condition ready(EtcdRestoreStatus s) {
        return Conditions.find(s.getConditions(), "Ready").orElseThrow();
    }

    static EtcdRestoreStatus in(String phase, String conditionStatus, String reason, String message) {
        EtcdRestoreStatus s = new EtcdRestoreStatus();
        s.setPhase(phase);
        s.getConditions().add(new Condition(phase, conditionStatus, reason, message));
        return s;
    }

    @Test
    void nothingBeforeTheFirstPhase() {
        EtcdRestoreStatus s = new EtcdRestoreStatus();
        at(T0).ready(s, 1L);
        assertThat(s.getConditions()).isEmpty();
    }

    @Test
    void notReadyWhileRunningWithWhatThePhaseWaitsFor() {
        EtcdRestoreStatus s = in("Restoring", "Unknown", "InProgress", "the seed member fetches and restores the snapshot");
        at(T0).ready(s, 1L);
        assertThat(ready(s).getStatus()).isEqualTo("False");
        assertThat(ready(s).getReason()).isEqualTo("RestoreInProgress");
        assertThat(ready(s).getMessage()).isEqualTo("Phase Restoring: the seed member fetches and restores the snapshot");

        EtcdRestoreStatus retrying = in("Preflight", "False", "S3Unreachable", "connection refused; nothing was changed");
        at(T0).ready(retrying, 1L);
        assertThat(ready(retrying).getReason()).isEqualTo("S3Unreachable");
        assertThat(ready(retrying).getMessage()).contains("Phase Preflight", "connection refused");
    }

    @Test
    void readyOnceDoneAndTheTransitionTimeStays() {
        EtcdRestoreStatus s = in("Growing", "Unknown", "InProgress", "growing to 3 members");
        at(T0).ready(s, 1L);
        s.setPhase("Done");
        s.setRestoredRevision(42L);
        at(T0.plusSeconds(10)).ready(s, 1L);
        at(T0.plusSeconds(20)).ready(s, 1L);
        assertThat(ready(s).getStatus()).isEqualTo("True");
        assertThat(ready(s).getReason()).isEqualTo("Restored");
        assertThat(ready(s).getMessage()).contains("revision 42");
        assertThat(ready(s).getLastTransitionTime()).isEqualTo("2026-01-01T00:00:10Z");
    }

    @Test
    void aFailedRestoreIsNotReadyWithItsReason() {
        EtcdRestoreStatus s = in("Failed", "False", "BackupNotFound", "no object");
        s.setReason("BackupNotFound: no object at etcd-backups/x; nothing was changed");
        at(T0).ready(s, 1L);
        assertThat(ready(s).getStatus()).isEqualTo("False");
        assertThat(ready(s).getReason()).isEqualTo("BackupNotFound");
        assertThat(ready(s).getMessage()).isEqualTo("no object at etcd-backups/x; nothing was changed");
    }
}
