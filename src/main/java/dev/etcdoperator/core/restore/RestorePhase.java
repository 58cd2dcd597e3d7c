package dev.etcdoperator.core.restore;

/** Where a restore stands; recorded in {@code status.phase} before the action of the phase is taken. */
public enum RestorePhase {
    /** Checking the template cluster and the backup; nothing has been changed. */
    Preflight,
    /** The preflight passed and the template's spec is saved in the status: deleting the template cluster. */
    Deleting,
    /** The restored cluster exists: its seed member restores the snapshot. */
    Restoring,
    /** The seed runs with the restored data: the cluster grows to its size. */
    Growing,
    /** The restored cluster is available at full size. */
    Done,
    /** The restore stopped; the reason says why and what was (not) changed. */
    Failed
}
