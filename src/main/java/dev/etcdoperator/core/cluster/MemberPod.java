package dev.etcdoperator.core.cluster;

import java.util.Objects;

/**
 * One member pod as Kubernetes shows it. The pod name is the etcd member name ({@code <cluster>-<suffix>}).
 *
 * @param name        pod name, equal to the etcd member name
 * @param running     the etcd container runs (pod phase Running)
 * @param ready       the pod is ready
 * @param terminating the pod has a deletion timestamp
 * @param etcdVersion the version from the pod's image tag, without a leading {@code v}; may be null
 * @param hasClaim    the pod mounts a PersistentVolumeClaim for its data
 */
public record MemberPod(String name, boolean running, boolean ready, boolean terminating, String etcdVersion,
        boolean hasClaim) {
    public MemberPod {
        Objects.requireNonNull(name, "name");
        etcdVersion = Version.strip(etcdVersion);
    }
}
