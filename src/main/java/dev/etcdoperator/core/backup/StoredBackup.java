package dev.etcdoperator.core.backup;

import java.util.Map;

/**
 * An object in the store and what its metadata says about it ({@link BackupMetadata}).
 *
 * @param owner     {@code <namespace>/<name>} of the EtcdBackup that wrote it, or null (not written by one)
 * @param revision  the etcd revision it holds, or null when it records none
 * @param clusterId etcd's cluster ID (hex) it came from, or null when it records none
 */
public record StoredBackup(String key, String owner, Long revision, String clusterId) {

    /** Reads the metadata of the object at {@code key} (keys in lower case, as S3 returns them). */
    public static StoredBackup of(String key, Map<String, String> metadata) {
        return new StoredBackup(key, blankToNull(metadata.get(BackupMetadata.OWNER)),
                parseLong(metadata.get(BackupMetadata.REVISION)), blankToNull(metadata.get(BackupMetadata.CLUSTER_ID)));
    }

    private static String blankToNull(String value) {
        return value == null || value.isBlank() ? null : value.strip();
    }

    private static Long parseLong(String value) {
        try {
            return value == null ? null : Long.valueOf(value.strip());
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
