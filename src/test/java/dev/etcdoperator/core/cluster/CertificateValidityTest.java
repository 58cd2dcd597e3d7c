package dev.etcdoperator.core.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import org.junit.jupiter.api.Test;

class CertificateValidityTest {
    private static final Instant NOW = Instant.parse("2026-12-01T00:00:00Z");

    private static CertificateValidity in(Duration d, String key) {
        return new CertificateValidity("tls", key, "CN=x", NOW.plus(d));
    }

    @Test
    void soonIsWithinFourteenDaysAndExpiredIsFromNotAfterOn() {
        assertThat(in(Duration.ofDays(15), "a").expiresSoon(NOW)).isFalse();
        assertThat(in(Duration.ofDays(13), "a").expiresSoon(NOW)).isTrue();
        assertThat(in(Duration.ZERO, "a").expired(NOW)).isTrue();
        assertThat(in(Duration.ZERO, "a").expiresSoon(NOW)).isFalse();
        assertThat(in(Duration.ofSeconds(1), "a").expired(NOW)).isFalse();
    }

    @Test
    void theFirstToExpireIsTheEarliest() {
        assertThat(CertificateValidity.firstToExpire(List.of(in(Duration.ofDays(90), "a"), in(Duration.ofDays(3), "b"),
                in(Duration.ofDays(30), "c")))).map(CertificateValidity::key).hasValue("b");
        assertThat(CertificateValidity.firstToExpire(List.of())).isEmpty();
    }
}
