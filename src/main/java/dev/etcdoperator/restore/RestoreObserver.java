package dev.etcdoperator.restore;

import java.util.List;
import java.util.Map;

import dev.etcdoperator.api.v1beta2.EtcdCluster;
import dev.etcdoperator.api.v1beta2.EtcdClusterStatus;
import dev.etcdoperator.api.v1beta2.EtcdRestore;
import dev.etcdoperator.api.v1beta2.RestoreAnnotations;
import dev.etcdoperator.cluster.ClusterResources;
import dev.etcdoperator.core.restore.ClusterSeen;
import dev.etcdoperator.core.restore.RestorePhase;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;

/** Reads what a restore needs to know of the EtcdCluster it restores and of that cluster's pods. */
final class RestoreObserver {
    private final KubernetesClient client;

    RestoreObserver(KubernetesClient client) {
        this.client = client;
    }

    EtcdCluster cluster(String namespace, String name) {
        return client.resources(EtcdCluster.class).inNamespace(namespace).withName(name).get();
    }

    ClusterSeen see(String namespace, String name) {
        List<Pod> pods = client.pods().inNamespace(namespace).withLabel(ClusterResources.LABEL_CLUSTER, name).list().getItems();
        EtcdCluster cluster = cluster(namespace, name);
        if (cluster == null) {
            return ClusterSeen.absent(pods.size());
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
        return new ClusterSeen(true, cluster.getMetadata().getUid(), annotations.get(RestoreAnnotations.RESTORED_BY),
                lockedBy != null && restoreActive(namespace, lockedBy) ? lockedBy : null,
                cluster.getMetadata().getDeletionTimestamp() != null,
                pods.size(), healthy, ready, size, available, healthy > 0 ? null : seedFailure(pods));
    }

    /**
     * Whether the EtcdRestore of that name exists and has not ended: only such a restore holds a cluster. A mark
     * left by one that was deleted, or that ended while the operator was down, holds nothing.
     */
    boolean restoreActive(String namespace, String restore) {
        EtcdRestore other = client.resources(EtcdRestore.class).inNamespace(namespace).withName(restore).get();
        if (other == null || other.getMetadata().getDeletionTimestamp() != null) {
            return false;
        }
        String phase = other.getStatus() == null ? null : other.getStatus().getPhase();
        return !RestorePhase.Done.name().equals(phase) && !RestorePhase.Failed.name().equals(phase);
    }

    /** Why a pod of a cluster without a healthy member failed: an init container or etcd that exited with an error. */
    static String seedFailure(List<Pod> pods) {
        for (Pod pod : pods) {
            if (pod.getStatus() == null) {
                continue;
            }
            for (List<ContainerStatus> statuses : List.of(nonNull(pod.getStatus().getInitContainerStatuses()),
                    nonNull(pod.getStatus().getContainerStatuses()))) {
                for (ContainerStatus s : statuses) {
                    var terminated = s.getState() == null ? null : s.getState().getTerminated();
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

    private static List<ContainerStatus> nonNull(List<ContainerStatus> list) {
        return list == null ? List.of() : list;
    }

}
