package dev.etcdoperator.restore;

import java.util.HashMap;
import java.util.Map;

import dev.etcdoperator.api.v1beta2.EtcdCluster;
import dev.etcdoperator.api.v1beta2.EtcdRestore;
import dev.etcdoperator.api.v1beta2.EtcdRestoreStatus;
import dev.etcdoperator.api.v1beta2.RestoreAnnotations;
import dev.etcdoperator.cluster.RestoredFrom;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.utils.Serialization;

/** The changes a restore makes, each only after its phase is recorded: delete the template, create the restored cluster. */
final class RestoreActions {
    private final KubernetesClient client;

    RestoreActions(KubernetesClient client) {
        this.client = client;
    }

    /** The template's spec changed after the preflight saved it: deleting it would drop that change. */
    static final class TemplateEdited extends RuntimeException {
        TemplateEdited(String message) {
            super(message);
        }
    }

    /**
     * Deletes the template: the cluster of that name only if its uid is the recorded one, with its resourceVersion
     * as the delete's precondition, so a cluster created under the same name meanwhile (another uid, another
     * resourceVersion) is never deleted.
     *
     * @param templateGeneration the template's generation when the preflight saved its spec, or null (recorded by
     *                           an earlier operator version)
     * @return whether the delete was made; false when the cluster is gone, is another one, or changed since it was
     *         read (then the next reconcile looks again)
     * @throws TemplateEdited when its spec changed since the preflight saved it
     */
    boolean deleteTemplate(String namespace, String name, String templateUid, Long templateGeneration) {
        EtcdCluster current = client.resources(EtcdCluster.class).inNamespace(namespace).withName(name).get();
        if (current == null || templateUid == null || !templateUid.equals(current.getMetadata().getUid())) {
            return false;
        }
        if (templateGeneration != null && current.getMetadata().getDeletionTimestamp() == null
                && !templateGeneration.equals(current.getMetadata().getGeneration())) {
            throw new TemplateEdited("EtcdCluster " + name + "'s spec changed after the preflight saved it (generation "
                    + templateGeneration + ", now " + current.getMetadata().getGeneration() + "): the restored cluster"
                    + " would not have that change, so the template was not deleted");
        }
        try {
            client.resources(EtcdCluster.class).inNamespace(namespace).withName(name)
                    .lockResourceVersion(current.getMetadata().getResourceVersion()).delete();
            return true;
        } catch (KubernetesClientException e) {
            if (e.getCode() == 409 || e.getCode() == 404) {
                return false;
            }
            throw e;
        }
    }

    /**
     * Deletes the restored cluster's seed pod of that name when its snapshot download failed, with its
     * resourceVersion as the delete's precondition: a pod made again under the same name meanwhile is never deleted.
     * The cluster controller then creates the seed again, which reads the snapshot Secret anew.
     *
     * @return whether the delete was made
     */
    boolean deleteFailedSeed(String namespace, String pod) {
        Pod current = client.pods().inNamespace(namespace).withName(pod).get();
        if (current == null || current.getMetadata().getDeletionTimestamp() != null
                || !RestoreObserver.downloadFailed(current)) {
            return false;
        }
        try {
            client.pods().inNamespace(namespace).withName(pod)
                    .lockResourceVersion(current.getMetadata().getResourceVersion()).delete();
            return true;
        } catch (KubernetesClientException e) {
            if (e.getCode() == 409 || e.getCode() == 404) {
                return false;
            }
            throw e;
        }
    }

    /**
     * The cluster from the saved template, marked as restored by this restore, its seed to restore the snapshot
     * from the Secret {@link SnapshotSecrets#name}. Returns the cluster this restore created, whose uid the caller
     * records; when a cluster of that name exists already (this restore created it before an operator restart), it
     * is taken only if it is exactly what this restore would create, else an {@link IllegalStateException} says why.
     */
    EtcdCluster createCluster(EtcdRestore restore, String clusterName) {
        return createCluster(restore, clusterName, null);
    }

    /** As {@link #createCluster(EtcdRestore, String)}; {@code seedMember}, when not null, names the staged seed. */
    EtcdCluster createCluster(EtcdRestore restore, String clusterName, String seedMember) {
        String namespace = restore.getMetadata().getNamespace();
        EtcdCluster cluster = wanted(restore, clusterName, seedMember);
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

    /** The restored cluster as this restore creates it (without a uid until it is created). */
    static EtcdCluster wanted(EtcdRestore restore, String clusterName, String seedMember) {
        String namespace = restore.getMetadata().getNamespace();
        EtcdRestoreStatus status = restore.getStatus();
        String secretName = SnapshotSecrets.name(restore);
        Map<String, String> annotations = status.getClusterAnnotations() == null ? new HashMap<>()
                : new HashMap<>(status.getClusterAnnotations());
        annotations.put(RestoreAnnotations.RESTORED_BY, restore.getMetadata().getName());
        annotations.put(RestoreAnnotations.SNAPSHOT_SECRET, secretName);
        if (status.getTemplateUid() != null) {
            annotations.put(RestoreAnnotations.RESTORED_FROM_UID, RestoredFrom.value(status.getTemplateUid(),
                    annotations.get(RestoreAnnotations.RESTORED_FROM_UID)));
        } else {
            annotations.remove(RestoreAnnotations.RESTORED_FROM_UID);
        }
        if (seedMember != null) {
            annotations.put(RestoreAnnotations.SEED_MEMBER, seedMember);
        }
        EtcdCluster cluster = new EtcdCluster();
        cluster.setMetadata(new ObjectMetaBuilder().withName(clusterName)
                .withNamespace(namespace).withLabels(status.getClusterLabels()).withAnnotations(annotations).build());
        cluster.setSpec(status.getClusterSpec().toClusterSpec());
        return cluster;
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
