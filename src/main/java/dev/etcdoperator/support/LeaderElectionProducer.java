package dev.etcdoperator.support;

import java.util.Optional;

import jakarta.enterprise.inject.Produces;

import io.fabric8.kubernetes.client.extended.leaderelection.LeaderCallbacks;
import io.javaoperatorsdk.operator.api.config.LeaderElectionConfiguration;
import io.quarkus.runtime.Quarkus;
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
        return configuration(enabled, leaseName, leaseNamespace, identity, () -> Quarkus.asyncExit(1));
    }

    static LeaderElectionConfiguration configuration(boolean enabled, String leaseName, Optional<String> leaseNamespace,
            Optional<String> identity) {
        return configuration(enabled, leaseName, leaseNamespace, identity, () -> Quarkus.asyncExit(1));
    }

    /**
     * @param exit stops the application; called on a thread of its own when the lease is lost, so that a pod that
     *             lost it never goes on reconciling beside the new leader. Not the SDK's exit-on-stop-leading: it
     *             calls System.exit on the thread that stops leading, and on SIGTERM that is the shutdown hook's
     *             (the SDK stops the election while shutting down), where System.exit blocks for good and the pod
     *             hangs until it is killed, its workers still running beside the next leader.
     */
    static LeaderElectionConfiguration configuration(boolean enabled, String leaseName, Optional<String> leaseNamespace,
            Optional<String> identity, Runnable exit) {
        if (!enabled) {
            return null;
        }
        LeaderCallbacks callbacks = new LeaderCallbacks(() -> { }, () -> {
            Leadership.markLost();
            Thread exiting = new Thread(exit, "lease-lost-exit");
            exiting.setDaemon(true);
            exiting.start();
        }, leader -> { });
        // Without a namespace the SDK takes the client's (in a pod, its own).
        return new LeaderElectionConfiguration(leaseName, leaseNamespace.filter(ns -> !ns.isBlank()).orElse(null),
                LeaderElectionConfiguration.LEASE_DURATION_DEFAULT_VALUE,
                LeaderElectionConfiguration.RENEW_DEADLINE_DEFAULT_VALUE,
                LeaderElectionConfiguration.RETRY_PERIOD_DEFAULT_VALUE,
                identity.filter(id -> !id.isBlank()).orElse(null), callbacks, false);
    }
}
