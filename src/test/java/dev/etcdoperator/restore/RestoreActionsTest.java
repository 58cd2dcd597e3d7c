package dev.etcdoperator.restore;

import static org.assertj.core.api.Assertions.assertThat;

import dev.etcdoperator.api.v1beta2.EtcdCluster;
import dev.etcdoperator.api.v1beta2.EtcdRestore;
import dev.etcdoperator.api.v1beta2.RestoreAnnotations;
import dev.etcdoperator.cluster.RestoredFrom;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.Test;

/** A cluster that exists under the restored name is taken as the restore's own only if it is exactly what it creates. */
class RestoreActionsTest {

    private static EtcdCluster cluster(String annotations, String pod) {
        return Serialization.unmarshal("""
                apiVersion: etcd.database.coreos.com/v1beta2
                kind: EtcdCluster
                metadata:
                  name: example
                  annotations: %s
                spec:
                  size: 3
                  pod: %s
                """.formatted(annotations, pod), EtcdCluster.class);
    }

    static final String MINE = "{etcd.database.coreos.com/restored-by: r1, etcd.database.coreos.com/restore-snapshot-secret: r1-snapshot}";

    @Test
    void onlyAnIdenticalClusterIsTaken() {
        EtcdCluster wanted = cluster(MINE, "{busyboxImage: 'busybox:1.36'}");
        assertThat(RestoreActions.sameAs(cluster(MINE, "{busyboxImage: 'busybox:1.36'}"), wanted)).isTrue();
        assertThat(RestoreActions.sameAs(cluster(MINE, "{busyboxImage: 'attacker.example/x:1'}"), wanted)).isFalse();
        assertThat(RestoreActions.sameAs(cluster(MINE, "{busyboxImage: 'busybox:1.36', etcdEnv: [{name: X, "
                + "valueFrom: {secretKeyRef: {name: db, key: password}}}]}"), wanted)).isFalse();
        assertThat(RestoreActions.sameAs(cluster("{etcd.database.coreos.com/restored-by: r1, "
                + "etcd.database.coreos.com/restore-snapshot-secret: db-password}", "{busyboxImage: 'busybox:1.36'}"),
                wanted)).isFalse();
        assertThat(RestoreActions.sameAs(cluster("{}", "{busyboxImage: 'busybox:1.36'}"), wanted)).isFalse();
    }

    @Test
    void theRestoredClusterNamesTheClusterItReplacesFirstThenThoseThatOneWasRestoredFrom() {
        EtcdRestore restore = Serialization.unmarshal("""
                apiVersion: etcd.database.coreos.com/v1beta2
                kind: EtcdRestore
                metadata: {name: r2, namespace: prod}
                spec: {etcdCluster: {name: example}}
                status:
                  templateUid: uid-2
                  clusterSpec: {size: 3}
                  clusterAnnotations: {team: storage, etcd.database.coreos.com/restored-from-uid: uid-1}
                """, EtcdRestore.class);
        EtcdCluster wanted = RestoreActions.wanted(restore, "example", null);
        assertThat(wanted.getMetadata().getAnnotations()).containsEntry("team", "storage")
                .containsEntry(RestoreAnnotations.RESTORED_FROM_UID, "uid-2,uid-1")
                .containsEntry(RestoreAnnotations.RESTORED_BY, "r2");
        assertThat(RestoredFrom.value("uid-9", "uid-8,uid-7,uid-6,uid-5,uid-4,uid-3")).isEqualTo(
                "uid-9,uid-8,uid-7,uid-6,uid-5");

        // what is saved of the template: its own chain only where its status confirms it
        EtcdCluster copied = cluster("{team: storage, etcd.database.coreos.com/restored-from-uid: uid-0}", "{}");
        assertThat(EtcdRestoreReconciler.savedAnnotations(copied)).isEqualTo(java.util.Map.of("team", "storage"));
        EtcdCluster confirmed = cluster("{etcd.database.coreos.com/restored-from-uid: 'uid-1,uid-0'}", "{}");
        confirmed.setStatus(new dev.etcdoperator.api.v1beta2.EtcdClusterStatus());
        confirmed.getStatus().setConditions(java.util.List.of(new dev.etcdoperator.api.v1beta2.Condition(
                "RestoreSnapshot", "True", "RestoreSnapshotConfirmed", "")));
        assertThat(EtcdRestoreReconciler.savedAnnotations(confirmed))
                .containsEntry(RestoreAnnotations.RESTORED_FROM_UID, "uid-1,uid-0");
    }
}
