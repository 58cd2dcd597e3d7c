package dev.etcdoperator.cluster;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import io.fabric8.kubernetes.api.model.ContainerStateTerminated;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * How often each member pod's etcd was started again in it by the kubelet, as last seen, so that each restart is
 * reported once: a member that comes back by itself changes nothing the operator does, and would otherwise only show
 * in the pod's restart count. A pod first seen (a new pod, or every pod after the operator started) is not reported.
 */
@ApplicationScoped
public class MemberRestarts {

    /** The etcd of {@code pod} was started again; {@code restarts} in all, the last end as the kubelet reported it. */
    record Restart(String pod, int restarts, Integer exitCode, String reason) {
        String describe() {
            String how = exitCode == null ? "" : " (exit code " + exitCode + (reason == null ? "" : ", " + reason) + ")";
            return "The etcd of member " + pod + " ended" + how + " and the kubelet started it again in its pod, on its"
                    + " data (" + restarts + (restarts == 1 ? " restart" : " restarts") + " of this pod).";
        }
    }

    private final Map<String, Map<String, Integer>> byCluster = new ConcurrentHashMap<>();

    /** The restarts among {@code pods} of the cluster {@code key} (namespace/name) since it was last looked at. */
    List<Restart> since(String key, List<Pod> pods) {
        Map<String, Integer> before = byCluster.getOrDefault(key, Map.of());
        Map<String, Integer> now = new HashMap<>();
        List<Restart> restarts = new ArrayList<>();
        for (Pod pod : pods) {
            ContainerStatus etcd = etcdStatus(pod);
            if (etcd == null) {
                continue;
            }
            String uid = pod.getMetadata().getUid();
            int count = etcd.getRestartCount() == null ? 0 : etcd.getRestartCount();
            now.put(uid, count);
            Integer last = before.get(uid);
            if (last != null && count > last) {
                ContainerStateTerminated ended = etcd.getLastState() == null ? null : etcd.getLastState().getTerminated();
                restarts.add(new Restart(pod.getMetadata().getName(), count,
                        ended == null ? null : ended.getExitCode(), ended == null ? null : ended.getReason()));
            }
        }
        byCluster.put(key, now);
        return restarts;
    }

    void forget(String key) {
        byCluster.remove(key);
    }

    private static ContainerStatus etcdStatus(Pod pod) {
        if (pod.getStatus() == null || pod.getStatus().getContainerStatuses() == null) {
            return null;
        }
        return pod.getStatus().getContainerStatuses().stream()
                .filter(s -> ClusterResources.ETCD_CONTAINER.equals(s.getName())).findFirst().orElse(null);
    }
}
