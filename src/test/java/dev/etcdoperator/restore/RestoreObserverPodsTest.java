package dev.etcdoperator.restore;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;

import dev.etcdoperator.api.v1beta2.EtcdCluster;
import dev.etcdoperator.core.restore.ClusterSeen;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.Test;

/**
 * The pods a restore waits for and reads a seed's failure from are those the cluster of that name made: a pod of
 * another application that bears the cluster's label holds no restore up and fails none.
 */
@EnableKubernetesMockClient(crud = true)
class RestoreObserverPodsTest {
    KubernetesClient client;

    private static Pod pod(String name, String owner, String exitCode) {
        return Serialization.unmarshal("""
                apiVersion: v1
                kind: Pod
                metadata:
                  name: %s
                  namespace: prod
                  labels: {etcd_cluster: demo}
                  %s
                spec: {containers: [{name: etcd, image: "quay.io/coreos/etcd:v3.5.17"}]}
                status:
                  phase: Running
                  containerStatuses: [{name: etcd, ready: false, restartCount: 1, image: x, imageID: x,
                    state: {waiting: {reason: CrashLoopBackOff}}, lastState: {terminated: {exitCode: %s}}}]
                """.formatted(name, owner, exitCode), Pod.class);
    }

    private static String ownedBy(String kind, String apiVersion, String name, String uid) {
        return "ownerReferences: [{apiVersion: %s, kind: %s, name: %s, uid: %s, controller: true}]"
                .formatted(apiVersion, kind, name, uid);
    }

    private void create(Pod pod) {
        client.pods().inNamespace("prod").resource(pod).create();
    }

    @Test
    void aForeignPodWithTheClustersLabelIsNotWaitedFor() {
        create(pod("job-1", "", "1"));
        create(pod("copy-1", ownedBy("Deployment", "apps/v1", "demo", "u-1"), "1"));
        create(pod("other-1", ownedBy("EtcdCluster", "etcd.database.coreos.com/v1beta2", "other", "u-2"), "1"));
        RestoreObserver observer = new RestoreObserver(client, Clock.systemUTC());

        assertThat(observer.see("prod", "demo").podsLeft()).isZero();

        create(pod("demo-old", ownedBy("EtcdCluster", "etcd.database.coreos.com/v1beta2", "demo", "u-old"), "0"));
        ClusterSeen seen = observer.see("prod", "demo");
        assertThat(seen.exists()).isFalse();
        assertThat(seen.podsLeft()).as("the deleted template's pod, whatever its uid").isEqualTo(1);
    }

    @Test
    void onlyThePodsOfTheRestoredClusterItselfFailItsSeed() {
        EtcdCluster cluster = Serialization.unmarshal("""
                apiVersion: etcd.database.coreos.com/v1beta2
                kind: EtcdCluster
                metadata: {name: demo, namespace: prod}
                spec: {size: 3}
                """, EtcdCluster.class);
        String uid = client.resources(EtcdCluster.class).inNamespace("prod").resource(cluster).create().getMetadata()
                .getUid();
        create(pod("job-1", "", "1"));
        create(pod("demo-old", ownedBy("EtcdCluster", "etcd.database.coreos.com/v1beta2", "demo", "u-old"), "1"));
        RestoreObserver observer = new RestoreObserver(client, Clock.systemUTC());

        ClusterSeen seen = observer.see("prod", "demo");
        assertThat(seen.exists()).isTrue();
        assertThat(seen.podsLeft()).isZero();
        assertThat(seen.seedFailure()).isNull();

        create(pod("demo-seed", ownedBy("EtcdCluster", "etcd.database.coreos.com/v1beta2", "demo", uid), "1"));
        seen = observer.see("prod", "demo");
        assertThat(seen.podsLeft()).isEqualTo(1);
        assertThat(seen.seedFailure()).contains("demo-seed", "exited with 1");
    }
}
