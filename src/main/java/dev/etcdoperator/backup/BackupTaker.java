package dev.etcdoperator.backup;

import java.time.Duration;

import dev.etcdoperator.api.v1beta2.EtcdBackup;
import dev.etcdoperator.core.backup.BackupTaken;

/** Takes one backup of an EtcdBackup as it was when the backup became due; runs on a worker. */
@FunctionalInterface
interface BackupTaker {

    /**
     * @param interval the backup interval, zero for a one-shot backup
     * @throws dev.etcdoperator.core.backup.BackupFailure when the backup failed, with the reason
     */
    BackupTaken take(EtcdBackup backup, Duration interval);
}
