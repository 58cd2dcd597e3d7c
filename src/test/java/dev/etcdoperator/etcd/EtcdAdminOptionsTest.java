package dev.etcdoperator.etcd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;

import org.junit.jupiter.api.Test;

class EtcdAdminOptionsTest {
    @Test
    void theGuardIsRetriedMoreOftenThanOtherRefusals() {
        EtcdAdminOptions defaults = EtcdAdminOptions.defaults();
        assertThat(defaults.guardBackoff()).isEqualTo(Duration.ofMillis(250)).isLessThan(defaults.maxBackoff());
        assertThat(defaults.withCallTimeout(Duration.ofSeconds(2)).guardBackoff()).isEqualTo(defaults.guardBackoff());
        assertThat(defaults.withReconfigurationDeadline(Duration.ZERO).guardBackoff()).isEqualTo(defaults.guardBackoff());
    }

    @Test
    void aNegativePauseIsRefused() {
        assertThatThrownBy(() -> new EtcdAdminOptions(Duration.ofSeconds(1), Duration.ofSeconds(1), Duration.ZERO,
                Duration.ZERO, Duration.ofMillis(-1))).isInstanceOf(IllegalArgumentException.class);
    }
}
