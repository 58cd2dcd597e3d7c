package dev.etcdoperator.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Optional;

import org.junit.jupiter.api.Test;

class LeaderElectionProducerTest {

    @Test
    void offMeansNoConfigurationSoTheSdkRunsWithoutElection() {
        assertThat(LeaderElectionProducer.configuration(false, "lease", Optional.of("ns"), Optional.empty())).isNull();
    }

    @Test
    void onUsesTheLeaseNameNamespaceAndIdentityGiven() {
        var config = LeaderElectionProducer.configuration(true, "etcd-operator-leader", Optional.of("etcd-system"),
                Optional.of("etcd-operator-7d9f-abcde"));
        assertThat(config.getLeaseName()).isEqualTo("etcd-operator-leader");
        assertThat(config.getLeaseNamespace()).hasValue("etcd-system");
        assertThat(config.getIdentity()).hasValue("etcd-operator-7d9f-abcde");
    }

    /**
     * A pod that loses the lease stops (and is restarted), from a thread of its own: the SDK also stops leading
     * while the application shuts down, on the shutdown hook's thread, where an exit would block for good.
     */
    @Test
    void losingTheLeaseExitsTheApplicationFromAThreadOfItsOwn() throws Exception {
        java.util.concurrent.CompletableFuture<Thread> exitedOn = new java.util.concurrent.CompletableFuture<>();
        var config = LeaderElectionProducer.configuration(true, "lease", Optional.empty(), Optional.empty(),
                () -> exitedOn.complete(Thread.currentThread()));
        assertThat(config.isExitOnStopLeading()).isFalse();
        try {
            assertThatCode(() -> Leadership.check("a step")).doesNotThrowAnyException();
            config.getLeaderCallbacks().orElseThrow().onStopLeading();
            // reconciles already running take no further step while the process stops
            assertThatThrownBy(() -> Leadership.check("removing member a"))
                    .isInstanceOf(Leadership.Lost.class).hasMessageContaining("removing member a");
            assertThat(exitedOn.get(5, java.util.concurrent.TimeUnit.SECONDS)).isNotSameAs(Thread.currentThread())
                    .satisfies(t -> assertThat(t.getName()).isEqualTo("lease-lost-exit"));
        } finally {
            Leadership.reset();
        }
    }

    @Test
    void aBlankNamespaceLeavesItToTheClientsNamespace() {
        var config = LeaderElectionProducer.configuration(true, "lease", Optional.of(" "), Optional.empty());
        assertThat(config.getLeaseNamespace()).isEmpty();
        assertThat(config.getIdentity()).isEmpty();
    }
}
