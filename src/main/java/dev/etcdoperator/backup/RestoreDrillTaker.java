package dev.etcdoperator.backup;

import dev.etcdoperator.api.v1beta2.EtcdBackup;
import dev.etcdoperator.core.backup.DrillVerdict;

/** Runs restore drills for the backup controller; a test gives it a fake. */
interface RestoreDrillTaker {

    /**
     * Drills the backup at {@code path} ({@code <bucket>/<key>}) of an EtcdBackup as it was when the drill became
     * due; runs on a worker and ends by its timeout, with every pod and Secret it made deleted.
     */
    DrillVerdict.Outcome drill(EtcdBackup backup, String path);

    /** Deletes what a drill of this EtcdBackup left behind (an operator that stopped in the middle of one). */
    void removeLeftovers(EtcdBackup backup);
}
