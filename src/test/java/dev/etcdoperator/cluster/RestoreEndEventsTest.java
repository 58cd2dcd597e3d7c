package dev.etcdoperator.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import dev.etcdoperator.api.v1beta2.EtcdRestore;
import dev.etcdoperator.api.v1beta2.EtcdRestoreStatus;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import org.junit.jupiter.api.Test;

/** Which cluster a restore wakes, when, and when a restore counts as ended for the cluster it made. */
class RestoreEndEventsTest {

    @Test
    void aRestoreWakesTheClusterItsPreflightVerifiedNotOneItsSpecNamesLater() {
        EtcdRestore restore = restore("r1", "alpha", null);
        assertThat(RestoreEndEvents.clusterOf(restore)).containsExactly(new ResourceID("alpha", "ns"));

        restore.setStatus(new EtcdRestoreStatus());
        restore.getStatus().setVerifiedSpec(Serialization.clone(restore.getSpec()));
        restore.getSpec().getEtcdCluster().setName("beta");
        assertThat(RestoreEndEvents.clusterOf(restore)).containsExactly(new ResourceID("alpha", "ns"));
    }

    @Test
    void aRestoreWithoutAClusterNameWakesNothing() {
        EtcdRestore restore = restore("r1", "alpha", null);
        restore.getSpec().getEtcdCluster().setName(null);
        assertThat(RestoreEndEvents.clusterOf(restore)).isEmpty();
    }

    @Test
    void onlyAChangeOfPhaseWakesTheCluster() {
        assertThat(RestoreEndEvents.phaseChanged(restore("r1", "alpha", "Done"), restore("r1", "alpha", "Growing")))
                .isTrue();
        assertThat(RestoreEndEvents.phaseChanged(restore("r1", "alpha", "Restoring"),
                restore("r1", "alpha", "Restoring"))).isFalse();
        assertThat(RestoreEndEvents.phaseChanged(restore("r1", "alpha", "Preflight"), restore("r1", "alpha", null)))
                .isTrue();
    }

    @Test
    void aRestoreHasEndedWhenItIsGoneDoneFailedOrBeingDeleted() {
        assertThat(RestoreEndEvents.ended(List.of(), "r1")).isTrue();
        assertThat(RestoreEndEvents.ended(List.of(restore("other", "alpha", "Growing")), "r1")).isTrue();
        assertThat(RestoreEndEvents.ended(List.of(restore("r1", "alpha", "Done")), "r1")).isTrue();
        assertThat(RestoreEndEvents.ended(List.of(restore("r1", "alpha", "Failed")), "r1")).isTrue();
        EtcdRestore deleting = restore("r1", "alpha", "Growing");
        deleting.getMetadata().setDeletionTimestamp("2026-12-02T04:00:00Z");
        assertThat(RestoreEndEvents.ended(List.of(deleting), "r1")).isTrue();

        assertThat(RestoreEndEvents.ended(List.of(restore("r1", "alpha", "Growing")), "r1")).isFalse();
        assertThat(RestoreEndEvents.ended(List.of(restore("r1", "alpha", "Restoring")), "r1")).isFalse();
        assertThat(RestoreEndEvents.ended(List.of(restore("r1", "alpha", null)), "r1")).isFalse();
    }

    static EtcdRestore restore(String name, String cluster, String phase) {
        EtcdRestore restore = Serialization.unmarshal("""
                apiVersion: etcd.database.coreos.com/v1beta2
                kind: EtcdRestore
                metadata: {name: %s, namespace: ns}
                spec:
                  etcdCluster: {name: %s}
                  backupStorageType: S3
                  s3: {path: "b/k", awsSecret: aws}
                """.formatted(name, cluster), EtcdRestore.class);
        if (phase != null) {
            restore.setStatus(new EtcdRestoreStatus());
            restore.getStatus().setPhase(phase);
        }
        return restore;
    }
}
