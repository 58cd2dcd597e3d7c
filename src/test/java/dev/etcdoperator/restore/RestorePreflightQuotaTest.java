package dev.etcdoperator.restore;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.etcdoperator.api.v1beta2.EtcdCluster;
import dev.etcdoperator.core.backup.BackupFailure;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimListBuilder;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodListBuilder;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.Test;

/**
 * A quota the seed member's pod or claim would exceed is passed over only where deleting the template frees what it
 * holds: its own pods and the claims it owns, not claims it keeps (persistentVolumeClaimRetention: Retain).
 */
@EnableKubernetesMockClient
class RestorePreflightQuotaTest {
    private static final String PODS = "/api/v1/namespaces/ns/pods";
    private static final String CLAIMS = "/api/v1/namespaces/ns/persistentvolumeclaims";
    KubernetesClient client;
    KubernetesMockServer server;

    private static EtcdCluster template(String retention) {
        return Serialization.unmarshal("""
                apiVersion: etcd.database.coreos.com/v1beta2
                kind: EtcdCluster
                metadata: {name: alpha, namespace: ns, uid: u-template}
                spec:
                  size: 3
                  version: 3.5.17
                  pod:
                    persistentVolumeClaimRetention: %s
                    persistentVolumeClaimSpec:
                      accessModes: [ReadWriteOnce]
                      resources: {requests: {storage: 1Gi}}
                """.formatted(retention), EtcdCluster.class);
    }

    private void quotaRefuses(String path) {
        server.expect().post().withPath(path + "?dryRun=All").andReturn(403, new StatusBuilder().withCode(403)
                .withStatus("Failure").withReason("Forbidden").withMessage("persistentvolumeclaims x is"
                        + " forbidden: exceeded quota: q, requested: persistentvolumeclaims=1, used:"
                        + " persistentvolumeclaims=3, limited: persistentvolumeclaims=3").build()).always();
    }

    private void templateHolds(String claimOwnerUid) {
        server.expect().post().withPath(PODS + "?dryRun=All").andReturn(201, new PodBuilder().withNewMetadata()
                .withName("p").endMetadata().build()).always();
        var claim = new PersistentVolumeClaimBuilder().withNewMetadata().withName("alpha-abc").addToLabels(
                "etcd_cluster", "alpha");
        if (claimOwnerUid != null) {
            claim.addNewOwnerReference().withApiVersion("etcd.database.coreos.com/v1beta2").withKind("EtcdCluster")
                    .withName("alpha").withUid(claimOwnerUid).endOwnerReference();
        }
        server.expect().get().withPath(CLAIMS + "?labelSelector=etcd_cluster%3Dalpha").andReturn(200,
                new PersistentVolumeClaimListBuilder().addToItems(claim.endMetadata().build()).build()).always();
        server.expect().get().withPath(PODS + "?labelSelector=etcd_cluster%3Dalpha").andReturn(200,
                new PodListBuilder().build()).always();
    }

    private void podsOverQuota(boolean templateOwnsAPod) {
        quotaRefuses(PODS);
        server.expect().post().withPath(CLAIMS + "?dryRun=All").andReturn(201, new PersistentVolumeClaimBuilder()
                .withNewMetadata().withName("c").endMetadata().build()).always();
        var pods = new PodListBuilder();
        if (templateOwnsAPod) {
            pods.addToItems(new PodBuilder().withNewMetadata().withName("alpha-abc").addToLabels("etcd_cluster", "alpha")
                    .addNewOwnerReference().withApiVersion("etcd.database.coreos.com/v1beta2").withKind("EtcdCluster")
                    .withName("alpha").withUid("u-template").endOwnerReference().endMetadata().build());
        }
        server.expect().get().withPath(PODS + "?labelSelector=etcd_cluster%3Dalpha").andReturn(200, pods.build())
                .always();
    }

    @Test
    void aPodOverQuotaIsPassedOverOnlyWhenTheTemplateOwnsPodsThatGoWithIt() {
        podsOverQuota(true);
        assertThatCode(() -> new RestorePreflight(client, null, null).acceptedByTheApiServer(template("Delete")))
                .doesNotThrowAnyException();
    }

    @Test
    void aPodOverQuotaIsARefusalWhenTheTemplateHasNoPodLeft() {
        podsOverQuota(false);
        assertThatThrownBy(() -> new RestorePreflight(client, null, null).acceptedByTheApiServer(template("Delete")))
                .isInstanceOf(BackupFailure.class).hasMessageContaining("exceeded quota");
    }

    @Test
    void aClaimOverQuotaIsPassedOverWhenTheTemplatesOwnClaimsGoWithIt() {
        quotaRefuses(CLAIMS);
        templateHolds("u-template");
        assertThatCode(() -> new RestorePreflight(client, null, null).acceptedByTheApiServer(template("Delete")))
                .doesNotThrowAnyException();
    }

    @Test
    void aClaimOverQuotaIsARefusalWhenTheTemplatesClaimsAreKept() {
        quotaRefuses(CLAIMS);
        templateHolds(null);
        assertThatThrownBy(() -> new RestorePreflight(client, null, null).acceptedByTheApiServer(template("Retain")))
                .isInstanceOfSatisfying(BackupFailure.class, e -> org.assertj.core.api.Assertions.assertThat(e.reason())
                        .isEqualTo(RestorePreflight.TEMPLATE_REFUSED))
                .hasMessageContaining("exceeded quota");
    }
}
