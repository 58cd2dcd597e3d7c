package dev.etcdoperator.cluster;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import dev.etcdoperator.api.v1beta2.EtcdClusterStatus;
import dev.etcdoperator.core.status.Conditions;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;

/**
 * Whether the scheduler could place every member pod. A pod that fits no node stays Pending for good, and its member
 * with it: the {@code MembersScheduled} condition (set once a pod could not be placed) says which pod and the
 * scheduler's own reason, and what a person can do. A pod's placement rules never change once it is made: a pod that
 * fits no node is made again once spec.pod's placement rules change ({@link #outdated}).
 */
public final class MemberPlacement {
    public static final String CONDITION = "MembersScheduled";
    static final String REASON_UNSCHEDULABLE = "PodUnschedulable";
    static final String REASON_SCHEDULED = "AllPodsScheduled";
    static final String REASON_REMADE = "UnplacedPodRemade";

    private MemberPlacement() {
    }

    /** The pods (not being deleted) the scheduler found no node for, by name, with its message. */
    static Map<String, String> unschedulable(List<Pod> pods) {
        Map<String, String> found = new TreeMap<>();
        for (Pod pod : pods) {
            if (pod.getMetadata().getDeletionTimestamp() != null || pod.getStatus() == null
                    || pod.getStatus().getConditions() == null) {
                continue;
            }
            for (PodCondition c : pod.getStatus().getConditions()) {
                if ("PodScheduled".equals(c.getType()) && Conditions.FALSE.equals(c.getStatus())
                        && "Unschedulable".equals(c.getReason())) {
                    found.put(pod.getMetadata().getName(), c.getMessage() == null ? "no reason given" : c.getMessage());
                }
            }
        }
        return found;
    }

    /**
     * The pods the scheduler could not place whose placement rules (see {@link ClusterResources#placement}) are no
     * longer those of spec.pod: made again from it, they may fit. Such a pod never ran, so nothing is lost with it. A
     * pod that does not say what it was made from (an earlier operator version made it) is left to a person.
     */
    static List<Pod> outdated(List<Pod> pods, String placement) {
        Map<String, String> stuck = unschedulable(pods);
        return pods.stream().filter(p -> stuck.containsKey(p.getMetadata().getName()))
                // the scheduler has evicted pods to make room for it: it is about to be placed
                .filter(p -> p.getStatus().getNominatedNodeName() == null
                        || p.getStatus().getNominatedNodeName().isEmpty())
                .filter(p -> p.getMetadata().getAnnotations() != null)
                .filter(p -> {
                    String madeFrom = p.getMetadata().getAnnotations().get(ClusterResources.PLACEMENT_ANNOTATION);
                    return madeFrom != null && !madeFrom.equals(placement);
                })
                .toList();
    }

    /**
     * Deletes each pod as it was seen (its resourceVersion the delete's precondition): a pod that changed meanwhile
     * (placed after all, or made again) is left for the next look.
     *
     * @return the pods deleted; not those already gone
     */
    static List<String> deleteAsSeen(KubernetesClient client, List<Pod> pods) {
        List<String> deleted = new ArrayList<>();
        for (Pod pod : pods) {
            try {
                if (!client.pods().inNamespace(pod.getMetadata().getNamespace()).withName(pod.getMetadata().getName())
                        .lockResourceVersion(pod.getMetadata().getResourceVersion()).delete().isEmpty()) {
                    deleted.add(pod.getMetadata().getName());
                }
            } catch (KubernetesClientException e) {
                if (e.getCode() != 404 && e.getCode() != 409) {
                    throw e;
                }
            }
        }
        return deleted;
    }

    /**
     * Sets the condition: False while a pod cannot be placed; True again once none is left, when it was set before.
     * Clusters whose pods were always placed do not carry it.
     */
    static void record(Conditions conditions, EtcdClusterStatus status, String namespace, List<Pod> pods,
            boolean paused, Long generation) {
        Map<String, String> stuck = unschedulable(pods);
        if (!stuck.isEmpty()) {
            StringBuilder message = new StringBuilder();
            stuck.forEach((pod, why) -> message.append("Pod ").append(pod).append(" fits no node: ").append(why)
                    .append(why.endsWith(".") ? " " : ". "));
            message.append("Its member waits meanwhile. Make room or nodes that fit, or change spec.pod (nodeSelector,"
                    + " affinity, antiAffinity, tolerations, resources): the pod is then made again from it")
                    .append(paused ? " once the cluster is no longer paused" : "")
                    .append(" (a pod made by an earlier operator version only when deleted: kubectl delete pod -n ")
                    .append(namespace).append(' ').append(String.join(" ", stuck.keySet()))
                    .append("). A pod keeps its claim: a claim that cannot bind needs its StorageClass fixed.");
            conditions.put(status, CONDITION, Conditions.FALSE, REASON_UNSCHEDULABLE, message.toString(), generation);
        } else if (Conditions.find(status.getConditions(), CONDITION).isPresent()) {
            conditions.put(status, CONDITION, Conditions.TRUE, REASON_SCHEDULED, "Every member pod is placed on a node.",
                    generation);
        }
    }
}
