package dev.etcdoperator.restore;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

import dev.etcdoperator.api.v1beta2.EtcdCluster;
import dev.etcdoperator.api.v1beta2.EtcdRestore;
import dev.etcdoperator.api.v1beta2.EtcdRestoreStatus;
import dev.etcdoperator.api.v1beta2.RestoreAnnotations;
import dev.etcdoperator.core.backup.S3Location;
import dev.etcdoperator.storage.S3Clients;
import dev.etcdoperator.storage.S3Credentials;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.utils.Serialization;

/** The changes a restore makes, each only after its phase is recorded: delete the template, create the restored cluster. */
final class RestoreActions {
    /** How long the seed member may take to fetch the snapshot. */
    static final Duration URL_VALIDITY = Duration.ofHours(6);

    private final KubernetesClient client;

    RestoreActions(KubernetesClient client) {
        this.client = client;
    }

    void deleteTemplate(EtcdRestore restore) {
        client.resources(EtcdCluster.class).inNamespace(restore.getMetadata().getNamespace())
                .withName(restore.getSpec().getEtcdCluster().getName()).delete();
    }

    /** The name of the Secret with the snapshot's URL that a restore creates. */
    static String snapshotSecret(EtcdRestore restore) {
        return restore.getMetadata().getName() + "-snapshot";
    }

    /**
     * The Secret with the snapshot's URL, then the cluster from the saved template, marked as restored by this
     * restore. Returns the cluster this restore created, whose uid the caller records; when a cluster of that name
     * exists already (this restore created it before an operator restart), it is taken only if it is exactly what
     * this restore would create, else an {@link IllegalStateException} says why.
     */
    EtcdCluster createCluster(EtcdRestore restore) {
        String namespace = restore.getMetadata().getNamespace();
        EtcdRestoreStatus status = restore.getStatus();
        String secretName = snapshotSecret(restore);
        String url = S3Clients.presignedGet(S3Credentials.settings(client, namespace, restore.getSpec().getS3()),
                S3Location.parse(restore.getSpec().getS3().getPath()), URL_VALIDITY);
        Secret secret = new SecretBuilder()
                .withMetadata(new ObjectMetaBuilder().withName(secretName).withNamespace(namespace)
                        .withOwnerReferences(new OwnerReferenceBuilder().withApiVersion(restore.getApiVersion())
                                .withKind(restore.getKind()).withName(restore.getMetadata().getName())
                                .withUid(restore.getMetadata().getUid()).build())
                        .build())
                .withType("Opaque")
                .withStringData(Map.of(RestoreAnnotations.URL_KEY, url, RestoreAnnotations.SHA256_KEY, status.getBackupSha256()))
                .build();
        client.secrets().inNamespace(namespace).resource(secret).createOr(existing -> existing.update());

        Map<String, String> annotations = status.getClusterAnnotations() == null ? new HashMap<>()
                : new HashMap<>(status.getClusterAnnotations());
        annotations.put(RestoreAnnotations.RESTORED_BY, restore.getMetadata().getName());
        annotations.put(RestoreAnnotations.SNAPSHOT_SECRET, secretName);
        EtcdCluster cluster = new EtcdCluster();
        cluster.setMetadata(new ObjectMetaBuilder().withName(restore.getSpec().getEtcdCluster().getName())
                .withNamespace(namespace).withLabels(status.getClusterLabels()).withAnnotations(annotations).build());
        cluster.setSpec(status.getClusterSpec().toClusterSpec());
        try {
            return client.resources(EtcdCluster.class).inNamespace(namespace).resource(cluster).create();
        } catch (KubernetesClientException e) {
            if (e.getCode() == 409) {
                EtcdCluster existing = client.resources(EtcdCluster.class).inNamespace(namespace)
                        .withName(cluster.getMetadata().getName()).get();
                if (existing == null || !sameAs(existing, cluster)) {
                    // someone else created a cluster of this name, perhaps with our annotations: it must not get
                    // the snapshot
                    throw new IllegalStateException("an EtcdCluster " + cluster.getMetadata().getName()
                            + " that this restore did not create exists");
                }
                return existing;
            }
            throw e;
        }
    }

    /** The restore's annotations and a spec equal to the saved one: what this restore creates. */
    static boolean sameAs(EtcdCluster existing, EtcdCluster wanted) {
        Map<String, String> a = existing.getMetadata().getAnnotations() == null ? Map.of()
                : existing.getMetadata().getAnnotations();
        Map<String, String> w = wanted.getMetadata().getAnnotations();
        return java.util.Objects.equals(a.get(RestoreAnnotations.RESTORED_BY), w.get(RestoreAnnotations.RESTORED_BY))
                && java.util.Objects.equals(a.get(RestoreAnnotations.SNAPSHOT_SECRET),
                        w.get(RestoreAnnotations.SNAPSHOT_SECRET))
                && Serialization.asJson(existing.getSpec()).equals(Serialization.asJson(wanted.getSpec()));
    }
}
