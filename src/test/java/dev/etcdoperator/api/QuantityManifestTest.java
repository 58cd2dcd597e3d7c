package dev.etcdoperator.api;

import static org.assertj.core.api.Assertions.assertThat;

import dev.etcdoperator.api.v1beta2.EtcdCluster;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.Test;

/** Quantities given as numbers, as a manifest for the CoreOS operator may give them, read as the same quantities. */
class QuantityManifestTest {

    @Test
    void aNumericQuantityReadsAsTheQuantityItSays() {
        EtcdCluster cluster = Serialization.unmarshal("""
                apiVersion: etcd.database.coreos.com/v1beta2
                kind: EtcdCluster
                metadata: {name: numeric, namespace: default}
                spec:
                  size: 3
                  pod:
                    resources: {requests: {cpu: 0.5, memory: 1Gi}, limits: {cpu: 2}}
                """, EtcdCluster.class);
        var resources = cluster.getSpec().getPod().getResources();
        assertThat(resources.getRequests().get("cpu").toString()).isEqualTo("0.5");
        assertThat(resources.getRequests().get("memory").toString()).isEqualTo("1Gi");
        assertThat(resources.getLimits().get("cpu").toString()).isEqualTo("2");
    }
}
