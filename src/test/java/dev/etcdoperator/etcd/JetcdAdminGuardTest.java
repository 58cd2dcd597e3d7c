package dev.etcdoperator.etcd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

/**
 * etcd's reconfiguration guard ("unhealthy cluster") opens 5 s after the last voter connected: one that stays shut
 * means a voter is down or quorum is lost, and a reconfiguration gives up after the guard patience, not after the
 * whole reconfiguration deadline (a reconcile blocked a minute on a lost quorum, saying nothing).
 */
class JetcdAdminGuardTest {
    private static EtcdAdminException guard() {
        return new EtcdAdminException(EtcdAdminException.Kind.NOT_READY, "etcdserver: unhealthy cluster", null);
    }

    @Test
    void aGuardThatStaysShutIsGivenUpOnAfterItsPatienceNotTheWholeDeadline() {
        EtcdAdminOptions options = EtcdAdminOptions.defaults().withGuardPatience(Duration.ofMillis(600));
        assertThat(options.reconfigurationDeadline()).isEqualTo(Duration.ofSeconds(60));
        try (JetcdAdmin admin = new JetcdAdmin(List.of("http://127.0.0.1:1"), null, options)) {
            AtomicInteger calls = new AtomicInteger();
            long start = System.nanoTime();
            assertThatThrownBy(() -> admin.retrying("add learner", () -> {
                calls.incrementAndGet();
                throw guard();
            })).isInstanceOfSatisfying(EtcdAdminException.class, e -> {
                assertThat(e.kind()).isEqualTo(EtcdAdminException.Kind.NOT_READY);
                assertThat(e.getMessage()).contains("unhealthy cluster", "did not open within",
                        "a voting member is down");
            });
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(10));
            assertThat(calls.get()).isGreaterThan(1);
        }
    }

    @Test
    void aGuardThatOpensWithinItsPatienceLetsTheCallThrough() {
        try (JetcdAdmin admin = new JetcdAdmin(List.of("http://127.0.0.1:1"), null, EtcdAdminOptions.defaults())) {
            AtomicInteger calls = new AtomicInteger();
            assertThat(admin.<String>retrying("add learner", () -> {
                if (calls.incrementAndGet() < 3) {
                    throw guard();
                }
                return "added";
            })).isEqualTo("added");
        }
        assertThat(EtcdAdminOptions.defaults().guardPatience()).isEqualTo(Duration.ofSeconds(15));
    }
}
