package dev.etcdoperator.core.restore;

/**
 * What the restore sees of the EtcdCluster of the name it restores.
 *
 * @param exists         an EtcdCluster of that name exists
 * @param uid            its uid, or null
 * @param restoredBy     its {@code restored-by} annotation, or null
 * @param restoringBy    its {@code restoring} annotation (a restore's lock on a template), or null
 * @param deleting       it has a deletion timestamp
 * @param podsLeft       member pods of that cluster name still present
 * @param healthyMembers healthy members in its status
 * @param readyMembers   ready members in its status
 * @param size           its spec.size
 * @param available      its Available condition is True
 * @param seedFailure    why its seed pod failed (an init container or etcd exited with an error), or null
 * @param seedDownloadFailed the name of the pod whose {@code fetch-snapshot} failed to download the snapshot (a
 *                       refused link, a broken-off download: what a fresh link may cure), when that is the failure;
 *                       else null
 * @param unplaced       what holds its seed from starting: what the cluster says of its member pods that fit no node
 *                       (its {@code MembersScheduled} condition, when False), a container that cannot start (an image
 *                       that cannot be pulled), or, with no pod, the cluster's failure; or null
 * @param everyMemberLost what the cluster says when it has lost every member (status reason AllMembersLost: it
 *                       ran, and no pod or claim is left), or null
 * @param seedStartedEmpty what the cluster says when it made its seed member without the snapshot (its
 *                       {@code RestoreSnapshot} condition False, {@code RestoreSnapshotRefused}), or null
 * @param stuckPods      what to tell a person of pods of that cluster name stuck terminating (a lost node's), or null
 */
public record ClusterSeen(boolean exists, String uid, String restoredBy, String restoringBy, boolean deleting,
        int podsLeft, int healthyMembers, int readyMembers, int size, boolean available, String seedFailure,
        String seedDownloadFailed, String unplaced, String everyMemberLost, String seedStartedEmpty, String stuckPods) {

    public ClusterSeen(boolean exists, String uid, String restoredBy, String restoringBy, boolean deleting,
            int podsLeft, int healthyMembers, int readyMembers, int size, boolean available, String seedFailure,
            String seedDownloadFailed, String unplaced, String everyMemberLost, String seedStartedEmpty) {
        this(exists, uid, restoredBy, restoringBy, deleting, podsLeft, healthyMembers, readyMembers, size, available,
                seedFailure, seedDownloadFailed, unplaced, everyMemberLost, seedStartedEmpty, null);
    }

    public ClusterSeen(boolean exists, String uid, String restoredBy, String restoringBy, boolean deleting,
            int podsLeft, int healthyMembers, int readyMembers, int size, boolean available, String seedFailure,
            String seedDownloadFailed, String unplaced, String everyMemberLost) {
        this(exists, uid, restoredBy, restoringBy, deleting, podsLeft, healthyMembers, readyMembers, size, available,
                seedFailure, seedDownloadFailed, unplaced, everyMemberLost, null);
    }

    public ClusterSeen(boolean exists, String uid, String restoredBy, String restoringBy, boolean deleting,
            int podsLeft, int healthyMembers, int readyMembers, int size, boolean available, String seedFailure,
            String seedDownloadFailed, String unplaced) {
        this(exists, uid, restoredBy, restoringBy, deleting, podsLeft, healthyMembers, readyMembers, size, available,
                seedFailure, seedDownloadFailed, unplaced, null);
    }

    public ClusterSeen(boolean exists, String uid, String restoredBy, String restoringBy, boolean deleting,
            int podsLeft, int healthyMembers, int readyMembers, int size, boolean available, String seedFailure,
            String seedDownloadFailed) {
        this(exists, uid, restoredBy, restoringBy, deleting, podsLeft, healthyMembers, readyMembers, size, available,
                seedFailure, seedDownloadFailed, null);
    }

    public ClusterSeen(boolean exists, String uid, String restoredBy, String restoringBy, boolean deleting,
            int podsLeft, int healthyMembers, int readyMembers, int size, boolean available, String seedFailure) {
        this(exists, uid, restoredBy, restoringBy, deleting, podsLeft, healthyMembers, readyMembers, size, available,
                seedFailure, null);
    }

    public static ClusterSeen absent(int podsLeft) {
        return absent(podsLeft, null);
    }

    /** @param stuckPods what to tell a person of those of the pods left that are stuck terminating, or null */
    public static ClusterSeen absent(int podsLeft, String stuckPods) {
        return new ClusterSeen(false, null, null, null, false, podsLeft, 0, 0, 0, false, null, null, null, null, null,
                stuckPods);
    }
}
