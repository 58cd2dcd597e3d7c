package dev.etcdoperator.restore;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.stream.Stream;

import dev.etcdoperator.api.v1beta2.EtcdClusterRef;
import dev.etcdoperator.api.v1beta2.EtcdRestore;
import dev.etcdoperator.api.v1beta2.EtcdRestoreSpec;
import dev.etcdoperator.api.v1beta2.EtcdRestoreStatus;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import org.junit.jupiter.api.Test;

class RestoredClusterEventsTest {

    @Test
    void aChangeOfAClusterWakesTheRunningRestoresOfThatClusterInItsNamespaceOnly() {
        EtcdRestore running = restore("a", "ns", "prod", "Restoring");
        EtcdRestore notStarted = restore("b", "ns", "prod", null);
        EtcdRestore otherCluster = restore("c", "ns", "staging", "Deleting");
        EtcdRestore otherNamespace = restore("d", "other", "prod", "Deleting");
        EtcdRestore done = restore("e", "ns", "prod", "Done");
        EtcdRestore failed = restore("f", "ns", "prod", "Failed");

        assertThat(RestoredClusterEvents.running(Stream.of(running, notStarted, otherCluster, otherNamespace, done,
                failed), "ns", "prod")).containsExactlyInAnyOrder(new ResourceID("a", "ns"), new ResourceID("b", "ns"));
    }

    @Test
    void aPodWithoutAClusterLabelOrARestoreWithoutATargetWakesNothing() {
        EtcdRestore noTarget = restore("a", "ns", null, "Deleting");
        noTarget.getSpec().setEtcdCluster(null);

        assertThat(RestoredClusterEvents.running(Stream.of(restore("b", "ns", "prod", "Deleting")), "ns", null))
                .isEmpty();
        assertThat(RestoredClusterEvents.running(Stream.of(noTarget), "ns", "prod")).isEmpty();
    }

    private static EtcdRestore restore(String name, String namespace, String cluster, String phase) {
        EtcdRestore restore = new EtcdRestore();
        restore.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(namespace).build());
        EtcdRestoreSpec spec = new EtcdRestoreSpec();
        spec.setEtcdCluster(new EtcdClusterRef());
        spec.getEtcdCluster().setName(cluster);
        restore.setSpec(spec);
        if (phase != null) {
            restore.setStatus(new EtcdRestoreStatus());
            restore.getStatus().setPhase(phase);
        }
        return restore;
    }
}
