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
import dev.etcdoperator.core.cluster.Step;
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

    void create(EtcdCluster cluster, Step.CreateRestore step) {
        String namespace = cluster.getMetadata().getNamespace();
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
    }
}
