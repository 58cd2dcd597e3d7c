package dev.etcdoperator.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;

import dev.etcdoperator.api.v1beta2.EtcdCluster;
import dev.etcdoperator.api.v1beta2.RestoreAnnotations;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import org.junit.jupiter.api.Test;

/** Anyone may write a cluster's restore annotations: only a value that can name an object is ever looked up. */
class RestoreAnnotationValuesTest {
    @Test
    void onlyObjectNamesAreNames() {
        for (String good : new String[] { "r1", "restore-2026.12.02", "a".repeat(253) }) {
            assertThat(RestoreAnnotations.objectName(good)).as(good).contains(good);
        }
        for (String hostile : new String[] { null, "", " ", "a b", "x?watch=true", "../secrets", "R1", "r1/status",
                "-r", "r-", "a".repeat(254), "r1\n", "%2e%2e" }) {
            assertThat(RestoreAnnotations.objectName(hostile)).as(String.valueOf(hostile)).isEmpty();
        }
    }

    @Test
    void aSnapshotSecretThatCannotBeANameIsNoSnapshot() {
        EtcdCluster cluster = new EtcdCluster();
        cluster.setMetadata(new ObjectMetaBuilder().withName("c").withNamespace("ns").withAnnotations(
                Map.of(RestoreAnnotations.SNAPSHOT_SECRET, "x?labelSelector=a")).build());
        assertThat(RestoreSeed.snapshotSecret(cluster)).isEmpty();
        cluster.getMetadata().setAnnotations(Map.of(RestoreAnnotations.SNAPSHOT_SECRET, "r1-snapshot"));
        assertThat(RestoreSeed.snapshotSecret(cluster)).contains("r1-snapshot");
    }
}
