package dev.etcdoperator.cluster;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

import io.fabric8.kubernetes.api.model.ContainerStateTerminated;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * How often each member pod's etcd was started again in it by the kubelet, as last seen, so that each restart is
 * reported once: a member that comes back by itself changes nothing the operator does, and would otherwise only show
 * in the pod's restart count. Not reported: a pod first seen (a new pod, or every pod after the operator started: what
 * happened before is not known), and a restart on another image (an upgrade or a downgrade changes the image of the
 * container in place, and the kubelet starts it again).
 */
@ApplicationScoped
public class MemberRestarts {

    /** The etcd of {@code pod} was started again; {@code restarts} in all, the last end as the kubelet reported it. */
    record Restart(String pod, int restarts, Integer exitCode, String reason) {
        String describe() {
            String how = exitCode == null ? ""
                    : " (exit code " + exitCode + (reason == null ? "" : ", " + reason) + ")";
            return "The etcd of member " + pod + " ended" + how + " and the kubelet started it again in its pod, on its"
                    + " data (" + restarts + (restarts == 1 ? " restart" : " restarts") + " of this pod).";
        }
    }

    private record Seen(int restarts, String image) {
    }

    private final Map<String, Map<String, Seen>> byCluster = new ConcurrentHashMap<>();

    /**
     * The restarts among {@code pods} of the cluster {@code key} (namespace/name) since it was last looked at; give it
     * the pods of members only (a removed member's etcd ends by itself and is started again until its pod goes).
     */
    List<Restart> since(String key, List<Pod> pods) {
        Map<String, Seen> before = byCluster.getOrDefault(key, Map.of());
        Map<String, Seen> now = new HashMap<>();
        List<Restart> restarts = new ArrayList<>();
        for (Pod pod : pods) {
            ContainerStatus etcd = ClusterObserver.etcdStatus(pod).orElse(null);
            if (etcd == null) {
                continue;
            }
            String uid = pod.getMetadata().getUid();
            int count = etcd.getRestartCount() == null ? 0 : etcd.getRestartCount();
            String image = etcd.getImage();
            now.put(uid, new Seen(count, image));
            Seen last = before.get(uid);
            if (last != null && count > last.restarts() && Objects.equals(image, last.image())) {
                ContainerStateTerminated ended = etcd.getLastState() == null ? null
                        : etcd.getLastState().getTerminated();
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
}
