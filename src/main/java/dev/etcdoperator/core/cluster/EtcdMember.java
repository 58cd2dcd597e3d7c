package dev.etcdoperator.core.cluster;

import java.util.Objects;

/**
 * One member as the etcd member list shows it.
 *
 * @param id      the member id
 * @param name    the member name; empty until the member has started (an added member that never ran has none)
 * @param peerUrl the first peer URL
 * @param learner a non-voting learner
 */
public record EtcdMember(long id, String name, String peerUrl, boolean learner) {
    public EtcdMember {
        name = name == null ? "" : name;
        Objects.requireNonNull(peerUrl, "peerUrl");
    }

    /** True once the member has started and published its name. */
    public boolean started() {
        return !name.isEmpty();
    }

    public String hexId() {
        return Long.toHexString(id);
    }
}
