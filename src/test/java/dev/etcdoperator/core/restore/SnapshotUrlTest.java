package dev.etcdoperator.core.restore;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;

import org.junit.jupiter.api.Test;

class SnapshotUrlTest {
    static final Instant NOW = Instant.parse("2026-12-01T10:00:00Z");

    @Test
    void aUrlIsSignedWhenThereIsNoneAndAgainOnceHalfOfItsValidityHasPassed() {
        assertThat(SnapshotUrl.needsSigning(null, NOW)).isTrue();
        assertThat(SnapshotUrl.needsSigning(NOW.plus(SnapshotUrl.VALIDITY), NOW)).isFalse();
        assertThat(SnapshotUrl.needsSigning(NOW.plus(SnapshotUrl.VALIDITY.dividedBy(2)).plusSeconds(1), NOW)).isFalse();
        assertThat(SnapshotUrl.needsSigning(NOW.plus(SnapshotUrl.VALIDITY.dividedBy(2)), NOW)).isTrue();
        assertThat(SnapshotUrl.needsSigning(NOW.minus(Duration.ofMinutes(1)), NOW)).isTrue();
    }

    @Test
    void aLinkToTheOperatorThatAnotherProcessMadeIsMadeAgainWhateverItsExpiry() {
        Instant fresh = NOW.plus(SnapshotUrl.VALIDITY);
        assertThat(SnapshotUrl.needsSigning(fresh, NOW, true)).isTrue();
        assertThat(SnapshotUrl.needsSigning(fresh, NOW, false)).isFalse();
        assertThat(SnapshotUrl.needsSigning(null, NOW, false)).isTrue();
    }
}
