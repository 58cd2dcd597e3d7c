package dev.etcdoperator.restore;

import java.time.Clock;
import java.util.List;
import java.util.Map;

import dev.etcdoperator.api.v1beta2.ApiGroup;
import dev.etcdoperator.api.v1beta2.Condition;
import dev.etcdoperator.api.v1beta2.EtcdCluster;
import dev.etcdoperator.api.v1beta2.EtcdClusterStatus;
import dev.etcdoperator.api.v1beta2.EtcdRestore;
import dev.etcdoperator.api.v1beta2.RestoreAnnotations;
import dev.etcdoperator.cluster.ClusterResources;
import dev.etcdoperator.cluster.EtcdClusterReconciler;
import dev.etcdoperator.cluster.MemberPlacement;
import dev.etcdoperator.cluster.SnapshotFetch;
import dev.etcdoperator.cluster.StuckPods;
import dev.etcdoperator.core.cluster.ClusterStatusBuilder;
import dev.etcdoperator.core.restore.ClusterSeen;
import dev.etcdoperator.core.status.Conditions;
import io.fabric8.kubernetes.api.model.ContainerStateTerminated;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;

/** Reads what a restore needs to know of the EtcdCluster it restores and of that cluster's pods. */
final class RestoreObserver {
    private final KubernetesClient client;
    private final Clock clock;

    RestoreObserver(KubernetesClient client, Clock clock) {
        this.client = client;
        this.clock = clock;
    }

    EtcdCluster cluster(String namespace, String name) {
        return client.resources(EtcdCluster.class).inNamespace(namespace).withName(name).get();
    }

    ClusterSeen see(String namespace, String name) {
        List<Pod> labelled = client.pods().inNamespace(namespace).withLabel(ClusterResources.LABEL_CLUSTER, name).list()
                .getItems();
        EtcdCluster cluster = cluster(namespace, name);
        List<Pod> pods = madeBy(labelled, name, cluster == null ? null : cluster.getMetadata().getUid());
        if (cluster == null) {
            return ClusterSeen.absent(pods.size(), StuckPods.hint(namespace, pods, clock.instant()).orElse(null));
        }
        Map<String, String> annotations = cluster.getMetadata().getAnnotations() == null ? Map.of()
                : cluster.getMetadata().getAnnotations();
        EtcdClusterStatus status = cluster.getStatus() == null ? new EtcdClusterStatus() : cluster.getStatus();
        int healthy = status.getMemberDetails() == null ? 0
                : (int) status.getMemberDetails().stream().filter(m -> Boolean.TRUE.equals(m.getHealthy())
                        && !Boolean.TRUE.equals(m.getLearner())).count();
        boolean available = status.getConditions() != null && status.getConditions().stream()
                .anyMatch(c -> "Available".equals(c.getType()) && "True".equals(c.getStatus()));
        int ready = status.getReadyMembers() == null ? 0 : status.getReadyMembers();
        int size = cluster.getSpec() == null || cluster.getSpec().getSize() == null ? 0 : cluster.getSpec().getSize();
        String lockedBy = annotations.get(RestoreAnnotations.RESTORING);
        String unplaced = status.getConditions() == null ? null : status.getConditions().stream()
                .filter(c -> MemberPlacement.CONDITION.equals(c.getType()) && Conditions.FALSE.equals(c.getStatus()))
                .map(Condition::getMessage).findFirst().orElse(null);
        return new ClusterSeen(true, cluster.getMetadata().getUid(), annotations.get(RestoreAnnotations.RESTORED_BY),
                lockedBy != null && restoreActive(namespace, lockedBy) ? lockedBy : null,
                cluster.getMetadata().getDeletionTimestamp() != null,
                pods.size(), healthy, ready, size, available, healthy > 0 ? null : seedFailure(pods),
                healthy > 0 ? null : seedDownloadFailed(pods),
                unplaced != null || healthy > 0 ? unplaced : seedHeld(pods, status),
                ClusterStatusBuilder.REASON_ALL_MEMBERS_LOST.equals(status.getReason()) ? status.getConditions()
                        .stream().filter(c -> ClusterStatusBuilder.AVAILABLE.equals(c.getType()))
                        .map(Condition::getMessage).findFirst().orElse("every member is lost") : null,
                status.getConditions() == null ? null : status.getConditions().stream()
                        .filter(c -> EtcdClusterReconciler.CONDITION_RESTORE.equals(c.getType())
                                && Conditions.FALSE.equals(c.getStatus())
                                && EtcdClusterReconciler.REASON_RESTORE_REFUSED.equals(c.getReason()))
                        .map(Condition::getMessage).findFirst().orElse(null));
    }

    /**
     * The pods an EtcdCluster of that name made (their owner), of the one with {@code uid} when it is given: a pod
     * that only bears the cluster's label, another application's, is neither waited for nor taken for a failed seed.
     */
    static List<Pod> madeBy(List<Pod> labelled, String name, String uid) {
        return labelled.stream().filter(p -> p.getMetadata().getOwnerReferences() != null && p.getMetadata()
                .getOwnerReferences().stream().anyMatch(o -> "EtcdCluster".equals(o.getKind())
                        && o.getApiVersion() != null && o.getApiVersion().startsWith(ApiGroup.GROUP + "/")
                        && name.equals(o.getName()) && (uid == null || uid.equals(o.getUid()))))
                .toList();
    }

    /**
     * Whether the EtcdRestore of that name exists and still runs (a deleted one finishing what its template's
     * deletion began does): only such a restore holds a cluster. A mark left by one that was deleted, or that ended
     * while the operator was down, holds nothing.
     */
    boolean restoreActive(String namespace, String restore) {
        if (RestoreAnnotations.objectName(restore).isEmpty()) {
            return false;
        }
        EtcdRestore other = client.resources(EtcdRestore.class).inNamespace(namespace).withName(restore).get();
        return other != null && dev.etcdoperator.core.restore.RestoreHold.stillRuns(other.getStatus(),
                other.getMetadata().getDeletionTimestamp() != null);
    }

    /**
     * Why a pod of a cluster without a healthy member failed: an init container or etcd that exited with an error. A
     * pod being deleted is left out: the restore may have deleted it to start the seed again.
     */
    static String seedFailure(List<Pod> pods) {
        for (Pod pod : pods) {
            if (pod.getStatus() == null || pod.getMetadata().getDeletionTimestamp() != null) {
                continue;
            }
            if (endedByItsNode(pod)) {
                return "pod " + pod.getMetadata().getName() + " was ended by its node (" + pod.getStatus().getReason()
                        + (pod.getStatus().getMessage() == null ? "" : ": " + pod.getStatus().getMessage()) + ")";
            }
            for (List<ContainerStatus> statuses : List.of(nonNull(pod.getStatus().getInitContainerStatuses()),
                    nonNull(pod.getStatus().getContainerStatuses()))) {
                for (ContainerStatus s : statuses) {
                    var terminated = lastExit(s);
                    if (terminated != null && terminated.getExitCode() != null && terminated.getExitCode() != 0) {
                        return "container " + s.getName() + " of pod " + pod.getMetadata().getName() + " exited with "
                                + terminated.getExitCode()
                                + (terminated.getMessage() == null ? "" : ": " + terminated.getMessage());
                    }
                }
            }
        }
        return null;
    }

    private static final java.util.Set<String> CANNOT_START = java.util.Set.of("ErrImagePull", "ImagePullBackOff",
            "InvalidImageName", "CreateContainerConfigError", "CreateContainerError", "RunContainerError");

    /**
     * What holds a cluster without a healthy member from starting its seed, as its pods or its status say: a
     * container that cannot start (an image that cannot be pulled, say), or, with no pod, the cluster's failure.
     */
    static String seedHeld(List<Pod> pods, EtcdClusterStatus status) {
        for (Pod pod : pods) {
            if (pod.getStatus() == null || pod.getMetadata().getDeletionTimestamp() != null) {
                continue;
            }
            for (List<ContainerStatus> statuses : List.of(nonNull(pod.getStatus().getInitContainerStatuses()),
                    nonNull(pod.getStatus().getContainerStatuses()))) {
                for (ContainerStatus s : statuses) {
                    var waiting = s.getState() == null ? null : s.getState().getWaiting();
                    if (waiting != null && CANNOT_START.contains(waiting.getReason())) {
                        return "container " + s.getName() + " of pod " + pod.getMetadata().getName() + " cannot start: "
                                + waiting.getReason() + (waiting.getMessage() == null ? "" : " (" + waiting.getMessage()
                                        + ")");
                    }
                }
            }
        }
        if (pods.isEmpty() && status.getReason() != null && "Failed".equals(status.getPhase())) {
            return "it makes no pod: " + status.getReason() + (status.getConditions() == null ? ""
                    : status.getConditions().stream()
                    .filter(c -> ClusterStatusBuilder.AVAILABLE.equals(c.getType()) && c.getMessage() != null)
                    .map(c -> " (" + c.getMessage() + ")").findFirst().orElse(""));
        }
        return null;
    }

    /** The name of the first pod not being deleted whose snapshot download failed (see {@link #downloadFailed}). */
    static String seedDownloadFailed(List<Pod> pods) {
        return pods.stream().filter(p -> p.getMetadata().getDeletionTimestamp() == null)
                .filter(RestoreObserver::downloadFailed).map(p -> p.getMetadata().getName()).findFirst().orElse(null);
    }

    /**
     * Whether the pod's {@code fetch-snapshot} ended because the download itself failed (a refused link, a
     * download broken off), or the pod was ended by its node before (evicted, refused at admission): a fresh link,
     * or a pod made again, may cure that, unlike a file that could not be written or other data.
     */
    static boolean downloadFailed(Pod pod) {
        return pod.getStatus() != null && (endedByItsNode(pod) || nonNull(pod.getStatus().getInitContainerStatuses())
                .stream().anyMatch(s -> SnapshotFetch.CONTAINER.equals(s.getName()) && lastExit(s) != null
                        && Integer.valueOf(SnapshotFetch.DOWNLOAD_FAILED).equals(lastExit(s).getExitCode())));
    }

    /**
     * The pod failed as a whole, with a reason of the node's (Evicted, OutOfcpu, NodeAffinity, a node shut down):
     * not because a container of it exited with an error, which leaves no reason on the pod. It ran once, so nothing
     * starts it again.
     */
    static boolean endedByItsNode(Pod pod) {
        return pod.getStatus() != null && "Failed".equals(pod.getStatus().getPhase())
                && pod.getStatus().getReason() != null && !pod.getStatus().getReason().isBlank();
    }

    /**
     * How the container ended: its state, or, while the kubelet backs off before starting it again in the same pod
     * (member pods restart their containers: it failed again right after a first restart), its last state.
     */
    private static ContainerStateTerminated lastExit(ContainerStatus s) {
        if (s.getState() == null) {
            return null;
        }
        if (s.getState().getTerminated() != null) {
            return s.getState().getTerminated();
        }
        boolean backingOff = s.getState().getWaiting() != null
                && "CrashLoopBackOff".equals(s.getState().getWaiting().getReason());
        return backingOff && s.getLastState() != null ? s.getLastState().getTerminated() : null;
    }

    private static List<ContainerStatus> nonNull(List<ContainerStatus> list) {
        return list == null ? List.of() : list;
    }

}
