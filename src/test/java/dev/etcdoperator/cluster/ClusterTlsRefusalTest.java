package dev.etcdoperator.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.etcdoperator.api.v1beta2.EtcdClusterSpec;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.Test;

/**
 * Secrets a reader fails on in a way it was not written for are refused as invalid, with what failed, instead of a
 * reconcile that throws at every pass; an API server that cannot be read is not the Secrets' fault.
 */
class ClusterTlsRefusalTest {
    private static final EtcdClusterSpec SPEC = Serialization.unmarshal("""
            size: 3
            TLS:
              static:
                member: {peerSecret: etcd-peer-tls}
            """, EtcdClusterSpec.class);

    @Test
    void aReaderThatFailsUnexpectedlyIsAnInvalidSecret() {
        ClusterTls.Loaded loaded = ClusterTls.loadOrRefuse(SPEC, "prod", name -> {
            throw new StringIndexOutOfBoundsException("begin 27, end 22, length 1700");
        });
        assertThat(loaded.ok()).isFalse();
        assertThat(loaded.reason()).isEqualTo(ClusterTls.REASON_INVALID);
        assertThat(loaded.problem()).contains("cannot be read", "begin 27, end 22", "changes nothing");
    }

    @Test
    void anApiServerThatCannotBeReadIsThrown() {
        assertThatThrownBy(() -> ClusterTls.loadOrRefuse(SPEC, "prod", name -> {
            throw new KubernetesClientException("connection refused");
        })).isInstanceOf(KubernetesClientException.class);
    }
}
