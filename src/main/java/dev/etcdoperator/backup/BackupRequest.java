package dev.etcdoperator.backup;

import java.time.Instant;
import java.util.List;

import dev.etcdoperator.core.backup.S3Location;
import dev.etcdoperator.etcd.EtcdTls;
import dev.etcdoperator.storage.S3Settings;

/**
 * Everything a backup needs, resolved from the EtcdBackup and the Secrets and EtcdCluster it names.
 *
 * @param endpoints the etcd client URLs to start from
 * @param tls       client TLS for etcd, or null
 * @param location  the object (one-shot) or the key prefix (periodic)
 * @param owner     namespace/name of the EtcdBackup, stored with each object so retention deletes only its own
 * @param cluster   the EtcdCluster's name when the backup names one, else empty (a metrics label)
 * @param clusterUid the EtcdCluster's uid when the backup names one, else null
 * @param survivorRecovery when that EtcdCluster last began a recovery from a survivor, or null
 * @param restoredFrom the uids of the EtcdClusters that one was restored in place of ({@code RestoredFrom})
 */
record BackupRequest(List<String> endpoints, EtcdTls tls, S3Settings s3, S3Location location, String owner, String cluster,
        String clusterUid, Instant survivorRecovery, List<String> restoredFrom) {
    BackupRequest(List<String> endpoints, EtcdTls tls, S3Settings s3, S3Location location, String owner,
            String cluster, String clusterUid) {
        this(endpoints, tls, s3, location, owner, cluster, clusterUid, null, List.of());
    }
}
