package dev.etcdoperator.backup;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

import dev.etcdoperator.api.v1beta2.EtcdRestore;
import dev.etcdoperator.api.v1beta2.EtcdRestoreSpec;
import dev.etcdoperator.core.backup.S3Location;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;

/**
 * {@link BackupsInUse} read from the EtcdRestores themselves, from the API server (not a cache): every restore that
 * has not ended ({@code Done} or {@code Failed}) uses the object its preflight verified ({@code status.verifiedSpec}),
 * or, before that, the one its spec names. Objects are matched by bucket and key whatever the endpoint: sparing one
 * object too many is safe. Restores in every namespace are seen when the operator may list them cluster-wide, else
 * those in the backup's own namespace.
 */
final class RestoresInProgress implements BackupsInUse {
    private final KubernetesClient client;

    RestoresInProgress(KubernetesClient client) {
        this.client = client;
    }

    @Override
    public Set<String> keys(String bucket, String namespace) {
        List<EtcdRestore> restores;
        try {
            restores = client.resources(EtcdRestore.class).inAnyNamespace().list().getItems();
        } catch (KubernetesClientException e) {
            if (e.getCode() != 403) {
                throw e;
            }
            restores = client.resources(EtcdRestore.class).inNamespace(namespace).list().getItems();
        }
        Set<String> keys = new HashSet<>();
        for (EtcdRestore restore : restores) {
            if (dev.etcdoperator.core.restore.RestoreEnd.ended(restore.getStatus())) {
                continue;
            }
            EtcdRestoreSpec spec = restore.getStatus() != null && restore.getStatus().getVerifiedSpec() != null
                    ? restore.getStatus().getVerifiedSpec() : restore.getSpec();
            if (spec == null || spec.getS3() == null || spec.getS3().getPath() == null) {
                continue;
            }
            try {
                S3Location location = S3Location.parse(spec.getS3().getPath());
                if (location.bucket().equals(bucket)) {
                    keys.add(location.key());
                }
            } catch (RuntimeException e) {
                // a path that does not parse names no object
            }
        }
        return keys;
    }
}
