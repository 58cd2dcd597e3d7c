package dev.etcdoperator.backup;

import java.util.Set;

/**
 * The backup objects that restores are using: retention deletes none of them. Asked right before retention
 * deletes anything.
 */
public interface BackupsInUse {
    BackupsInUse NONE = (bucket, namespace) -> Set.of();

    /**
     * @param namespace the EtcdBackup's namespace (restores there are always seen; in other namespaces, when the
     *                  operator may list them)
     * @return keys in {@code bucket} that a restore that has not ended reads or is about to read
     */
    Set<String> keys(String bucket, String namespace);
}
