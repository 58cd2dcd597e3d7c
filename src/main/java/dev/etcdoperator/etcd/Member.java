package dev.etcdoperator.etcd;

import java.util.List;

/**
 * One entry of the etcd member list.
 *
 * @param id         the member ID (etcd prints it in hex: see {@link #hexId()})
 * @param name       the member's name; empty while the member has been added but not started yet
 * @param peerUrls   the peer URLs it was added with (the only reliable key before it starts)
 * @param clientUrls the client URLs it advertises; empty while not started
 * @param learner    whether it is a raft learner (a non-voting member)
 */
public record Member(long id, String name, List<String> peerUrls, List<String> clientUrls, boolean learner) {

    public Member {
        name = name == null ? "" : name;
        peerUrls = List.copyOf(peerUrls);
        clientUrls = List.copyOf(clientUrls);
    }

    /** A member added to the list whose process has not joined yet has no name and no client URLs. */
    public boolean started() {
        return !name.isEmpty();
    }

    public String hexId() {
        return Long.toHexString(id);
    }
}
