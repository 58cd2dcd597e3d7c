package dev.etcdoperator.core.restore;

/**
 * What a deleted EtcdRestore does before it goes (every EtcdRestore carries {@link #FINALIZER} while it exists, so
 * that this is asked). From the template's deletion until the seed member runs on the restored data, the restore's
 * status holds the only copy of the template's spec, and its Secret the seed's link to the backup: an EtcdRestore
 * that went then would leave no cluster, or an empty one. Deleted before the template's deletion was asked for, a
 * restore stops and changes nothing; deleted later, it first finishes what the template's deletion began.
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
}
