package dev.etcdoperator.support;

import static org.assertj.core.api.Assertions.assertThat;

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
        assertThat(config.isExitOnStopLeading()).as("a pod that loses the lease stops, and is restarted").isTrue();
    }

    @Test
    void aBlankNamespaceLeavesItToTheClientsNamespace() {
        var config = LeaderElectionProducer.configuration(true, "lease", Optional.of(" "), Optional.empty());
        assertThat(config.getLeaseNamespace()).isEmpty();
        assertThat(config.getIdentity()).isEmpty();
    }
}
