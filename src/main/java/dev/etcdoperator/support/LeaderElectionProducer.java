package dev.etcdoperator.support;

import java.util.Optional;

import jakarta.enterprise.inject.Produces;

import io.javaoperatorsdk.operator.api.config.LeaderElectionConfiguration;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Leader election through a coordination.k8s.io Lease, so that several operator pods can run and only one acts.
 * quarkus-operator-sdk asks for this bean in the profiles of {@code quarkus.operator-sdk.activate-leader-election-for-profiles}
 * (prod by default); it is off unless {@code etcd-operator.leader-election.enabled} is true, which the Helm chart sets.
 */
public class LeaderElectionProducer {
    public static final String DEFAULT_LEASE_NAME = "etcd-operator-leader";

    /** Dependent scope: the only scope whose producer may answer null, which means "no leader election". */
    @Produces
    LeaderElectionConfiguration leaderElection(
            @ConfigProperty(name = "etcd-operator.leader-election.enabled", defaultValue = "false") boolean enabled,
            @ConfigProperty(name = "etcd-operator.leader-election.lease-name", defaultValue = DEFAULT_LEASE_NAME) String leaseName,
            @ConfigProperty(name = "etcd-operator.leader-election.lease-namespace") Optional<String> leaseNamespace,
            @ConfigProperty(name = "etcd-operator.leader-election.identity") Optional<String> identity) {
        return configuration(enabled, leaseName, leaseNamespace, identity);
    }

    static LeaderElectionConfiguration configuration(boolean enabled, String leaseName, Optional<String> leaseNamespace,
            Optional<String> identity) {
        if (!enabled) {
            return null;
        }
        // Not the SDK's builder: its build() turns exit-on-stop-leading off, and a pod that lost the lease would go
        // on reconciling beside the new leader. Without a namespace the SDK takes the client's (in a pod, its own).
        return new LeaderElectionConfiguration(leaseName, leaseNamespace.filter(ns -> !ns.isBlank()).orElse(null),
                LeaderElectionConfiguration.LEASE_DURATION_DEFAULT_VALUE,
                LeaderElectionConfiguration.RENEW_DEADLINE_DEFAULT_VALUE,
                LeaderElectionConfiguration.RETRY_PERIOD_DEFAULT_VALUE,
                identity.filter(id -> !id.isBlank()).orElse(null), null, true);
    }
}
