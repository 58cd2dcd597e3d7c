package dev.etcdoperator.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;

import dev.etcdoperator.api.v1beta2.EtcdCluster;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.Test;

class ClusterResourcesTest {

    private static EtcdCluster cluster(String spec) {
        EtcdCluster c = Serialization.unmarshal("""
                apiVersion: etcd.database.coreos.com/v1beta2
                kind: EtcdCluster
                metadata: {name: example, namespace: prod, uid: 1234}
                spec:
                """ + spec.indent(2), EtcdCluster.class);
        return c;
    }

    private static ClusterResources.MemberPodSpec member(String state) {
        return new ClusterResources.MemberPodSpec("example-abc", "http://example-abc.example.prod.svc:2380",
                "http://example-abc.example.prod.svc:2379", "example-abc=http://example-abc.example.prod.svc:2380",
                state, "example-abc.example.prod.svc");
    }

    @Test
    void servicesAreNamedAndSelectAsTheOriginalDid() {
        EtcdCluster c = cluster("size: 3");
        Service client = ClusterResources.clientService(c);
        Service peer = ClusterResources.peerService(c);
        assertThat(client.getMetadata().getName()).isEqualTo("example-client");
        assertThat(client.getSpec().getPorts()).extracting(p -> p.getPort()).containsExactly(2379);
        assertThat(peer.getMetadata().getName()).isEqualTo("example");
        assertThat(peer.getSpec().getClusterIP()).isEqualTo("None");
        assertThat(peer.getSpec().getPublishNotReadyAddresses()).isTrue();
        assertThat(peer.getSpec().getPorts()).extracting(p -> p.getPort()).containsExactly(2379, 2380);
        for (Service s : new Service[] { client, peer }) {
            assertThat(s.getSpec().getSelector()).isEqualTo(Map.of("app", "etcd", "etcd_cluster", "example"));
            assertThat(s.getMetadata().getOwnerReferences()).singleElement()
                    .satisfies(o -> assertThat(o.getUid()).isEqualTo("1234"));
        }
    }

    @Test
    void aMemberPodCarriesItsIdentityLabelsAndDnsName() {
        Pod pod = ClusterResources.memberPod(cluster("""
                size: 3
                version: v3.5.17
                pod:
                  labels: {team: storage}
                  annotations: {a: b}
                  etcdEnv: [{name: ETCD_QUOTA_BACKEND_BYTES, value: "1"}]
                """), member("new"));
        assertThat(pod.getMetadata().getLabels()).containsEntry("app", "etcd").containsEntry("etcd_cluster", "example")
                .containsEntry("etcd_node", "example-abc").containsEntry("team", "storage");
        assertThat(pod.getMetadata().getAnnotations()).containsEntry("a", "b");
        assertThat(pod.getSpec().getHostname()).isEqualTo("example-abc");
        assertThat(pod.getSpec().getSubdomain()).isEqualTo("example");
        assertThat(pod.getSpec().getContainers().get(0).getImage()).isEqualTo("quay.io/coreos/etcd:v3.5.17");
        assertThat(pod.getSpec().getContainers().get(0).getCommand()).contains("--initial-cluster-state=new",
                "--name=example-abc", "--initial-cluster-token=1234",
                "--initial-advertise-peer-urls=http://example-abc.example.prod.svc:2380");
        assertThat(pod.getSpec().getContainers().get(0).getEnv()).extracting(e -> e.getName())
                .containsExactly("ETCD_QUOTA_BACKEND_BYTES");
        assertThat(pod.getSpec().getInitContainers().get(0).getCommand().get(2))
                .contains("example-abc.example.prod.svc").startsWith("until ");
        assertThat(pod.getSpec().getVolumes().get(0).getEmptyDir()).isNotNull();
        assertThat(ClusterResources.podVersion(pod)).isEqualTo("3.5.17");
    }

    @Test
    void aPersistentMemberMountsItsOwnClaimAndAJoiningMemberHasNoToken() {
        EtcdCluster c = cluster("""
                size: 3
                pod:
                  persistentVolumeClaimSpec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}
                  antiAffinity: true
                  DNSTimeoutInSecond: 30
                """);
        Pod pod = ClusterResources.memberPod(c, member("existing"));
        assertThat(pod.getSpec().getVolumes().get(0).getPersistentVolumeClaim().getClaimName())
                .isEqualTo("example-abc");
        assertThat(pod.getSpec().getContainers().get(0).getCommand()).contains("--initial-cluster-state=existing")
                .noneMatch(a -> a.startsWith("--initial-cluster-token"));
        assertThat(pod.getSpec().getAffinity().getPodAntiAffinity()
                .getRequiredDuringSchedulingIgnoredDuringExecution().get(0).getTopologyKey())
                .isEqualTo("kubernetes.io/hostname");
        assertThat(pod.getSpec().getInitContainers().get(0).getCommand().get(2)).contains("-ge 30");
        assertThat(ClusterResources.memberClaim(c, "example-abc").getSpec().getResources().getRequests())
                .containsKey("storage");
        assertThat(ClusterResources.disruptionBudget(c, 3).getSpec().getMinAvailable().getIntVal()).isEqualTo(2);
        assertThat(ClusterResources.disruptionBudget(c, 5).getSpec().getMinAvailable().getIntVal()).isEqualTo(3);
    }
}
