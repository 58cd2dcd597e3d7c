package dev.etcdoperator.core.restore;

import java.util.Objects;

/**
 * What a failed restore tells a person: whether the template cluster is still there as it was, and when it is not,
 * that its data is now only in the backup and what to do. "Nothing was changed" is said only while it is true.
 */
public final class FailureReport {

    private FailureReport() {
    }

    /**
     * Whether the template cluster is as the preflight found it: always before the preflight passed; after, only
     * while the cluster of the recorded uid exists and is not being deleted.
     */
    public static boolean templateUntouched(RestorePhase phase, String templateUid, ClusterSeen cluster) {
        if (phase == null || phase == RestorePhase.Preflight) {
            return true;
        }
        return phase == RestorePhase.Deleting && cluster.exists() && !cluster.deleting()
                && Objects.equals(cluster.uid(), templateUid);
    }

    /**
     * @param what            why the restore stopped
     * @param templateUntouched see {@link #templateUntouched}
     * @param cluster         the name of the cluster being restored
     * @param restore         the EtcdRestore's name
     */
    public static String message(String what, boolean templateUntouched, String cluster, String restore) {
        if (templateUntouched) {
            return what + "; nothing was changed";
        }
        return what + ". " + clusterGone(cluster, restore);
    }

    /** The template is gone: where its spec is, and the two ways back. */
    public static String clusterGone(String cluster, String restore) {
        return "The template EtcdCluster " + cluster + " was deleted by this restore: its data is in the backup"
                + " only. Its spec, labels and annotations are saved in the status of EtcdRestore " + restore
                + " (status.clusterSpec, status.clusterLabels, status.clusterAnnotations). To recover: if an"
                + " EtcdCluster " + cluster + " exists, create a new EtcdRestore naming it; if none exists, create"
                + " EtcdCluster " + cluster + " with the saved spec (it starts empty), then a new EtcdRestore naming"
                + " it and the backup";
    }
}
