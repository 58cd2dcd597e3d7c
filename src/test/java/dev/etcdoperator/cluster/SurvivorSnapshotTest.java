package dev.etcdoperator.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import dev.etcdoperator.api.v1beta2.EtcdCluster;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.Test;

class SurvivorSnapshotTest {
    private static final String SURVIVOR = "http://example-old.example.prod.svc:2379";

    private static EtcdCluster cluster(String spec) {
        return Serialization.unmarshal("""
                apiVersion: etcd.database.coreos.com/v1beta2
                kind: EtcdCluster
                metadata: {name: example, namespace: prod, uid: 1234}
                spec:
                """ + spec.indent(2), EtcdCluster.class);
    }

    private static final ClusterResources.MemberPodSpec MEMBER = new ClusterResources.MemberPodSpec("example-new",
            "http://example-new.example.prod.svc:2380", "http://example-new.example.prod.svc:2379",
            "example-new=http://example-new.example.prod.svc:2380", "new", "example-new.example.prod.svc");

    @Test
    void theRecoveryMemberCopiesTheSurvivorsSnapshotAndRestoresItAsAOneMemberClusterOfItself() {
        Pod pod = SurvivorSnapshot.pod(cluster("size: 3\nversion: 3.5.35"), MEMBER, "3.5.35", MemberTlsKeys.COREOS,
                SURVIVOR);
        List<Container> init = pod.getSpec().getInitContainers();
        assertThat(init).extracting(Container::getName).containsExactly("check-dns", "clear-data",
                "copy-survivor-snapshot", "restore-snapshot", "place-restored-data");
        // a data directory placed before on the claim is kept: the member's etcd may have taken writes on it
        assertThat(init.get(1).getCommand()).last().asString().contains("rm -rf /var/etcd/restoring ")
                .doesNotContain("/var/etcd/data");
        assertThat(init.get(4).getCommand()).last().asString()
                .contains("if [ -d /var/etcd/data ]; then rm -rf /var/etcd/restoring; else mv");
        assertThat(init.get(2).getImage()).isEqualTo("quay.io/coreos/etcd:v3.5.35");
        assertThat(init.get(2).getCommand()).containsSequence("--endpoints=" + SURVIVOR)
                .endsWith("snapshot", "save", "/var/etcd/survivor-snapshot.db");
        assertThat(init.get(3).getCommand()).contains("/usr/local/bin/etcdctl", "/var/etcd/survivor-snapshot.db",
                "--name=example-new", "--initial-cluster=example-new=http://example-new.example.prod.svc:2380",
                "--initial-cluster-token=1234");
        assertThat(init.get(4).getCommand()).last().asString().contains("/var/etcd/survivor-snapshot.db");
        assertThat(pod.getSpec().getContainers().get(0).getCommand()).contains("--initial-cluster-state=new");
        assertThat(init).allSatisfy(c -> assertThat(c.getSecurityContext().getAllowPrivilegeEscalation()).isFalse());
        // clear-data runs once: a sandbox of the pod made again would clear the recovered data
        assertThat(pod.getSpec().getRestartPolicy()).isEqualTo("Never");
        // nor is its etcd killed for not answering: that would end the pod
        assertThat(pod.getSpec().getContainers().get(0).getLivenessProbe()).isNull();
        assertThat(pod.getSpec().getContainers().get(0).getStartupProbe()).isNull();
        // from 3.6 only etcdutl restores
        Pod next = SurvivorSnapshot.pod(cluster("size: 3\nversion: 3.6.16"), MEMBER, "3.6.16", MemberTlsKeys.COREOS,
                SURVIVOR);
        assertThat(next.getSpec().getInitContainers().get(3).getCommand()).first()
                .isEqualTo("/usr/local/bin/etcdutl");
    }

    @Test
    void fromTheSurvivorsClaimTheDatabaseIsCopiedFromItsDataDirectoryMountedReadOnly() {
        Pod pod = SurvivorSnapshot.fromClaim(cluster("""
                size: 3
                version: 3.5.35
                pod:
                  persistentVolumeClaimSpec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}
                """), MEMBER, "3.5.35", MemberTlsKeys.COREOS, "example-old");
        List<Container> init = pod.getSpec().getInitContainers();
        assertThat(init).extracting(Container::getName).containsExactly("check-dns", "clear-data",
                "copy-survivor-database", "restore-snapshot", "place-restored-data");
        assertThat(pod.getSpec().getVolumes()).anySatisfy(v -> {
            assertThat(v.getPersistentVolumeClaim().getClaimName()).isEqualTo("example-old");
            assertThat(v.getPersistentVolumeClaim().getReadOnly()).isTrue();
        });
        assertThat(pod.getSpec().getVolumes()).anySatisfy(v -> assertThat(v.getPersistentVolumeClaim().getClaimName())
                .isEqualTo("example-new"));
        Container copy = init.get(2);
        assertThat(copy.getVolumeMounts()).anySatisfy(m -> {
            assertThat(m.getMountPath()).isEqualTo("/var/survivor");
            assertThat(m.getReadOnly()).isTrue();
        });
        // the survivor's name is no part of a shell command: only the volume names its claim
        assertThat(copy.getCommand()).last().asString().isEqualTo("cp /var/survivor/data/member/snap/db"
                + " /var/etcd/survivor-snapshot.db.part && mv /var/etcd/survivor-snapshot.db.part"
                + " /var/etcd/survivor-snapshot.db");
        // a database out of a data directory carries no snapshot hash
        assertThat(init.get(3).getCommand()).contains("/var/etcd/survivor-snapshot.db", "--name=example-new",
                "--skip-hash-check");
        assertThat(SurvivorSnapshot.pod(cluster("size: 3\nversion: 3.5.35"), MEMBER, "3.5.35", MemberTlsKeys.COREOS,
                SURVIVOR).getSpec().getInitContainers().get(3).getCommand()).doesNotContain("--skip-hash-check");
        assertThat(pod.getSpec().getRestartPolicy()).isEqualTo("Never");
        assertThat(pod.getSpec().getContainers().get(0).getLivenessProbe()).isNull();
        assertThat(init).allSatisfy(c -> assertThat(c.getSecurityContext().getAllowPrivilegeEscalation()).isFalse());
        // the observer tells it apart: the planner makes it again on its own claim once it answered
        assertThat(ClusterObserver.memberPod(pod).mountsSurvivorClaim()).isTrue();
        assertThat(ClusterObserver.memberPod(SurvivorSnapshot.pod(cluster("size: 3\nversion: 3.5.35"), MEMBER,
                "3.5.35", MemberTlsKeys.COREOS, SURVIVOR)).mountsSurvivorClaim()).isFalse();
    }

    @Test
    void overTlsTheCopyUsesTheOperatorsClientCertificate() {
        Pod pod = SurvivorSnapshot.pod(cluster("""
                size: 3
                TLS:
                  static:
                    member: {peerSecret: p, serverSecret: s}
                    operatorSecret: o
                """), MEMBER, "3.5.35", MemberTlsKeys.COREOS, "https://example-old.example.prod.svc:2379");
        Container copy = pod.getSpec().getInitContainers().get(2);
        assertThat(copy.getCommand()).contains("--endpoints=https://example-old.example.prod.svc:2379",
                "--cacert=/etc/etcdtls/operator/etcd-tls/etcd-client-ca.crt",
                "--cert=/etc/etcdtls/operator/etcd-tls/etcd-client.crt",
                "--key=/etc/etcdtls/operator/etcd-tls/etcd-client.key");
        assertThat(copy.getVolumeMounts()).anySatisfy(m -> assertThat(m.getMountPath())
                .isEqualTo("/etc/etcdtls/operator/etcd-tls"));
        assertThat(pod.getSpec().getVolumes()).anySatisfy(v -> assertThat(v.getName())
                .isEqualTo(ClusterResources.OPERATOR_TLS_VOLUME));
    }
}
