package dev.etcdoperator.cluster;

import java.net.HttpURLConnection;
import java.util.Map;

import dev.etcdoperator.api.v1beta2.EtcdBackup;
import dev.etcdoperator.api.v1beta2.EtcdCluster;
import dev.etcdoperator.api.v1beta2.EtcdClusterRef;
import dev.etcdoperator.api.v1beta2.EtcdRestore;
import dev.etcdoperator.api.v1beta2.EtcdRestoreSpec;
import dev.etcdoperator.api.v1beta2.S3Source;
import dev.etcdoperator.api.v1beta2.StorageType;
import dev.etcdoperator.api.v1beta2.RestoreAnnotations;
import dev.etcdoperator.core.cluster.Step;
import dev.etcdoperator.core.restore.RestoreHold;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;

/**
 * Creates the EtcdRestore of a cluster whose quorum is lost for good, from its newest successful backup: the restore
 * controller then checks the backup whole before it deletes anything, as for any restore.
 */
final class QuorumRestores {
    static final String LABEL_CLUSTER = "etcd_cluster";

    private final KubernetesClient client;

    QuorumRestores(KubernetesClient client) {
        this.client = client;
    }

    /** @return whether the EtcdRestore exists now; not while the restore that made this cluster still runs */
    boolean create(EtcdCluster cluster, Step.CreateRestore step) {
        String namespace = cluster.getMetadata().getNamespace();
        String restoredBy = cluster.getMetadata().getAnnotations() == null ? null
                : cluster.getMetadata().getAnnotations().get(RestoreAnnotations.RESTORED_BY);
        if (restoredBy != null && !restoredBy.equals(step.restore())
                && RestoreAnnotations.objectName(restoredBy).isPresent()) {
            EtcdRestore holding = client.resources(EtcdRestore.class).inNamespace(namespace).withName(restoredBy).get();
            if (holding != null && RestoreHold.stillRuns(holding.getStatus(),
                    holding.getMetadata().getDeletionTimestamp() != null)) {
                // it made this cluster and fails it once it sees every member lost; a second restore of the cluster
                // would be refused meanwhile
                return false;
            }
        }
        EtcdBackup backup = client.resources(EtcdBackup.class).inNamespace(namespace).withName(step.backup().name())
                .get();
        if (backup == null || backup.getSpec() == null || backup.getSpec().getS3() == null) {
            throw new IllegalStateException("EtcdBackup " + step.backup().name() + " is gone or not on S3");
        }
        S3Source source = backup.getSpec().getS3();
        S3Source s3 = new S3Source();
        s3.setPath(step.backup().path());
        s3.setAwsSecret(source.getAwsSecret());
        s3.setEndpoint(source.getEndpoint());
        s3.setForcePathStyle(source.getForcePathStyle());
        // the key the backups were encrypted with, when they were
        s3.setClientSideEncryption(source.getClientSideEncryption());
        EtcdRestoreSpec spec = new EtcdRestoreSpec();
        EtcdClusterRef ref = new EtcdClusterRef();
        ref.setName(cluster.getMetadata().getName());
        spec.setEtcdCluster(ref);
        spec.setBackupStorageType(StorageType.S3);
        spec.setS3(s3);
        EtcdRestore restore = new EtcdRestore();
        restore.setMetadata(new ObjectMetaBuilder().withName(step.restore()).withNamespace(namespace)
                .withLabels(Map.of(LABEL_CLUSTER, cluster.getMetadata().getName())).build());
        restore.setSpec(spec);
        try {
            client.resources(EtcdRestore.class).inNamespace(namespace).resource(restore).create();
        } catch (KubernetesClientException e) {
            // an earlier reconcile created it and could not record it
            if (e.getCode() != HttpURLConnection.HTTP_CONFLICT) {
                throw e;
            }
        }
        return true;
    }
}
