package dev.etcdoperator.core.restore;

/**
 * What a deleted EtcdRestore does before it goes (every EtcdRestore carries {@link #FINALIZER} while it exists, so
 * that this is asked). From the template's deletion until the seed member runs on the restored data, the restore's
 * status holds the only copy of the template's spec, and its Secret the seed's link to the backup: an EtcdRestore
 * that went then would leave no cluster, or an empty one. Deleted before the template's deletion was asked for, a
 * restore stops and changes nothing; deleted later, it first finishes what the template's deletion began. It gives up
 * only when its namespace is being deleted (nothing can be created there any more); any other wait, a store that keeps
 * failing included, is shown in its status, and a person may remove the finalizer.
 */
public final class RestoreHold {
    /** The finalizer every EtcdRestore carries while the operator runs it. */
    public static final String FINALIZER = "etcd.database.coreos.com/restore";
    private RestoreHold() {
    }

    /**
     * @param phase                 the recorded phase (null: not started)
     * @param templateDeletionAsked the template was deleted or is being deleted (read from the API server, not a
     *                              cache), or another cluster has its name
     * @return whether the deleted restore goes on until its seed runs on the restored data, before it goes
     */
    public static boolean finishesFirst(RestorePhase phase, boolean templateDeletionAsked) {
        return phase == RestorePhase.Restoring || phase == RestorePhase.Deleting && templateDeletionAsked;
    }

    /**
     * Whether a restore still runs, as whatever waits on restores reads it (another restore of its cluster, the
     * cluster's own seed): not ended, and when deleted, still finishing (see {@link #finishesFirst}; one in
     * {@code Deleting} counts as finishing until it let go).
     *
     * @param status  null when it has none yet
     * @param deleted it has a deletion timestamp
     */
    public static boolean stillRuns(dev.etcdoperator.api.v1beta2.EtcdRestoreStatus status, boolean deleted) {
        if (RestoreEnd.ended(status)) {
            return false;
        }
        if (!deleted) {
            return true;
        }
        RestorePhase phase;
        try {
            phase = status == null || status.getPhase() == null ? null : RestorePhase.valueOf(status.getPhase());
        } catch (IllegalArgumentException e) {
            return false;
        }
        return finishesFirst(phase, true);
    }
}
