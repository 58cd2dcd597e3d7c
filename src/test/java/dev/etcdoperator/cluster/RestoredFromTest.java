package dev.etcdoperator.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;

import dev.etcdoperator.api.v1beta2.Condition;
import dev.etcdoperator.api.v1beta2.EtcdCluster;
import dev.etcdoperator.api.v1beta2.EtcdClusterStatus;
import dev.etcdoperator.api.v1beta2.RestoreAnnotations;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import org.junit.jupiter.api.Test;

/** The clusters a restored cluster replaced count only while its status says its seed restored the snapshot. */
class RestoredFromTest {

    static EtcdCluster cluster(String annotation, String reason) {
        EtcdCluster c = new EtcdCluster();
        c.setMetadata(new ObjectMetaBuilder().withName("a").withUid("uid-3")
                .withAnnotations(annotation == null ? Map.of() : Map.of(RestoreAnnotations.RESTORED_FROM_UID, annotation))
                .build());
        if (reason != null) {
            c.setStatus(new EtcdClusterStatus());
            c.getStatus().setConditions(List.of(new Condition("RestoreSnapshot",
                    reason.equals("RestoreSnapshotConfirmed") ? "True" : "False", reason, "")));
        }
        return c;
    }

    @Test
    void onlyAConfirmedRestoreNamesTheClustersItReplaced() {
        assertThat(RestoredFrom.uids(cluster("uid-2, uid-1", "RestoreSnapshotConfirmed")))
                .containsExactly("uid-2", "uid-1");
        assertThat(RestoredFrom.uids(cluster("uid-2", null))).as("a copied manifest").isEmpty();
        assertThat(RestoredFrom.uids(cluster("uid-2", "RestoreSnapshotRefused"))).as("started empty").isEmpty();
        assertThat(RestoredFrom.uids(cluster("uid-2", "RestoreSnapshotSuperseded"))).as("reseeded").isEmpty();
        assertThat(RestoredFrom.uids(cluster(null, "RestoreSnapshotConfirmed"))).isEmpty();
    }

    @Test
    void aChainKeepsTheNewestFiveWithoutRepeats() {
        assertThat(RestoredFrom.value("uid-9", null)).isEqualTo("uid-9");
        assertThat(RestoredFrom.value("uid-9", "uid-9,uid-8")).isEqualTo("uid-9,uid-8");
        assertThat(RestoredFrom.parse(" , uid-1 ,,uid-2")).containsExactly("uid-1", "uid-2");
    }
}
