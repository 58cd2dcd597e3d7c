package dev.etcdoperator.core.restore;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import dev.etcdoperator.api.v1beta2.Condition;
import dev.etcdoperator.api.v1beta2.EtcdRestoreStatus;
import org.junit.jupiter.api.Test;

class RestoreEndTest {

    private static EtcdRestoreStatus status(String phase, Boolean succeeded, String reason, boolean conditions) {
        EtcdRestoreStatus s = new EtcdRestoreStatus();
        s.setPhase(phase);
        s.setSucceeded(succeeded);
        s.setReason(reason);
        if (conditions) {
            s.setConditions(List.of(new Condition("Valid", "True", "SpecAccepted", "The spec is valid.")));
        }
        return s;
    }

    /** What holds backups, templates and run-once pods for a restore: anything but an ended one. */
    @Test
    void endedAreDoneFailedAndThoseAnotherOperatorEnded() {
        assertThat(RestoreEnd.ended(null)).isFalse();
        assertThat(RestoreEnd.ended(status("Done", true, null, true))).isTrue();
        assertThat(RestoreEnd.ended(status("Failed", false, "BackupChanged: x", true))).isTrue();
        assertThat(RestoreEnd.ended(status(null, true, null, false))).as("the original operator's").isTrue();
        assertThat(RestoreEnd.ended(status(null, false, "timed out", false))).isTrue();
        assertThat(RestoreEnd.ended(status("Verifying", null, null, true))).as("another version's phase").isTrue();
        for (String going : List.of("Preflight", "Deleting", "Restoring", "Growing")) {
            assertThat(RestoreEnd.ended(status(going, false, "S3Unreachable: x", true))).as(going).isFalse();
        }
        assertThat(RestoreEnd.ended(status(null, null, null, false))).as("not looked at yet").isFalse();
        assertThat(RestoreEnd.ended(status(null, false, "InvalidSpec: spec.s3.path", true))).isFalse();
    }
}
