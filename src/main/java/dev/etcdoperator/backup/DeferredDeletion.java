package dev.etcdoperator.backup;

import dev.etcdoperator.api.v1beta2.EtcdBackup;

/**
 * Deletes the backup that retention left because the status still named it (see
 * {@link dev.etcdoperator.core.backup.BackupTaken#deferred}), once the status names the newer one; runs on a worker.
 */
@FunctionalInterface
interface DeferredDeletion {
    DeferredDeletion NONE = (backup, path) -> {
        throw new IllegalStateException("no store to delete " + path + " from");
    };

    /**
     * @return what was done, for a person
     * @throws IllegalStateException when nothing could be deleted
     */
    String delete(EtcdBackup backup, String path);
}
