package dev.etcdoperator.backup;

import java.util.List;

import dev.etcdoperator.api.v1beta2.EtcdBackup;
import dev.etcdoperator.api.v1beta2.EtcdBackupSpec;
import dev.etcdoperator.api.v1beta2.EtcdCluster;
import dev.etcdoperator.cluster.ClusterResources;
import dev.etcdoperator.cluster.RestoredFrom;
import dev.etcdoperator.cluster.TlsSecretKeys;
import dev.etcdoperator.core.backup.EndpointNames;
import dev.etcdoperator.core.backup.BackupFailure;
import dev.etcdoperator.core.backup.S3Location;
import dev.etcdoperator.etcd.EtcdTls;
import dev.etcdoperator.storage.S3Credentials;
import dev.etcdoperator.storage.S3Settings;
import dev.etcdoperator.support.SecretData;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;

/**
 * Resolves an EtcdBackup into a {@link BackupRequest}: reads the AWS Secret (files {@code credentials} and
 * {@code config}), the etcd client TLS Secret ({@code etcd-client.crt}, {@code etcd-client.key},
 * {@code etcd-client-ca.crt}) and, when the backup names an EtcdCluster, that cluster's client Service and TLS.
 */
final class BackupRequests {
    private final KubernetesClient client;

    BackupRequests(KubernetesClient client) {
        this.client = client;
    }

    BackupRequest resolve(EtcdBackup backup) {
        EtcdBackupSpec spec = backup.getSpec();
        String namespace = backup.getMetadata().getNamespace();
        S3Location location = S3Location.parse(spec.getS3().getPath());
        S3Settings s3 = S3Credentials.settings(client, namespace, spec.getS3());
        String owner = namespace + "/" + backup.getMetadata().getName();
        EtcdTls tls = spec.getClientTLSSecret() == null ? null : clientTls(namespace, spec.getClientTLSSecret(),
                "spec.clientTLSSecret");
        if (spec.getEtcdEndpoints() != null && !spec.getEtcdEndpoints().isEmpty()) {
            List<String> endpoints = spec.getEtcdEndpoints().stream().map(e -> EndpointNames.resolve(e, namespace)).toList();
            return new BackupRequest(endpoints, tls, s3, location, owner, "", null);
        }
        String clusterName = spec.getEtcdCluster().getName();
        EtcdCluster cluster = client.resources(EtcdCluster.class).inNamespace(namespace).withName(clusterName).get();
        if (cluster == null) {
            throw new BackupFailure(BackupFailure.CLUSTER_NOT_FOUND, "EtcdCluster " + namespace + "/" + clusterName
                    + " (spec.etcdCluster.name) does not exist", true);
        }
        boolean https = ClusterResources.serverSecret(cluster.getSpec()) != null;
        if (https && tls == null) {
            String operatorSecret = ClusterResources.operatorSecret(cluster.getSpec());
            if (operatorSecret == null) {
                throw new BackupFailure(BackupFailure.CLIENT_TLS_SECRET_NOT_FOUND, "EtcdCluster " + clusterName
                        + " serves TLS and has no operatorSecret: set spec.clientTLSSecret", true);
            }
            tls = clientTls(namespace, operatorSecret, "the cluster's spec.TLS.static.operatorSecret");
        }
        String endpoint = (https ? "https" : "http") + "://" + ClusterResources.clientServiceName(clusterName) + "."
                + namespace + ".svc:" + ClusterResources.CLIENT_PORT;
        return new BackupRequest(List.of(endpoint), tls, s3, location, owner, clusterName, cluster.getMetadata().getUid(),
                survivorRecovery(cluster), RestoredFrom.uids(cluster));
    }

    private static java.time.Instant survivorRecovery(EtcdCluster cluster) {
        String date = cluster.getStatus() == null ? null : cluster.getStatus().getLastSurvivorRecoveryDate();
        try {
            return date == null ? null : java.time.Instant.parse(date);
        } catch (java.time.format.DateTimeParseException e) {
            return null;
        }
    }

    private EtcdTls clientTls(String namespace, String name, String field) {
        Secret secret = client.secrets().inNamespace(namespace).withName(name).get();
        if (secret == null) {
            throw new BackupFailure(BackupFailure.CLIENT_TLS_SECRET_NOT_FOUND, "Secret " + namespace + "/" + name
                    + " (" + field + ") does not exist", true);
        }
        TlsSecretKeys keys = TlsSecretKeys.of(secret, TlsSecretKeys.CLIENT).orElseThrow(() -> new BackupFailure(
                BackupFailure.CLIENT_TLS_SECRET_INVALID, "Secret " + namespace + "/" + name + " (" + field
                        + ") must hold " + TlsSecretKeys.accepted(TlsSecretKeys.CLIENT), true));
        return new EtcdTls(SecretData.value(secret, keys.ca()), SecretData.value(secret, keys.cert()),
                SecretData.value(secret, keys.key()));
    }

    /** Users write endpoints as in etcdctl, with or without a scheme. */
}
