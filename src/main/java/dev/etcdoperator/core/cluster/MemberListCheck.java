package dev.etcdoperator.core.cluster;

import java.time.Instant;
import java.util.Collection;
import java.util.Set;
import java.util.TreeSet;

/**
 * Whether a member list etcd answered can be the cluster's. A member started again on an empty data directory with
 * its first {@code --initial-cluster-state=new} makes a new cluster of its own under the same IDs and lists itself
 * alone; acting on that list would delete the real members' pods and claims as no members' and add members to the
 * wrong cluster. The members the cluster is known to have are its pods whose etcd has run (live, or terminating and
 * within their grace period: a pod stuck terminating on a lost node stays for as long as nobody deletes it) and its
 * claims. The operator deletes a member's claim when it removes the member, before its pod; a member that has not yet
 * applied an addition or a removal lacks one member, not most.
 */
public final class MemberListCheck {

    private MemberListCheck() {
    }

    /**
     * The known members {@code listed} lacks, when the list cannot be the cluster's: they are a majority of it and
     * them together, or the claims among them are half of it and them (a kept claim is a member nobody removed: in a
     * cluster of two, the other's alone). Empty when the list can be the cluster's.
     */
    public static Set<String> lacking(Collection<String> listed, int listSize, Collection<MemberPod> pods,
            Collection<String> claims, Instant now) {
        Set<String> lacking = new TreeSet<>();
        for (MemberPod p : pods) {
            boolean counted = p.etcdStarted() && (!p.terminating()
                    || p.deletionTimestamp() != null && now != null && now.isBefore(p.deletionTimestamp()));
            if (counted && !listed.contains(p.name())) {
                lacking.add(p.name());
            }
        }
        int claimsLacking = 0;
        for (String claim : claims) {
            if (!listed.contains(claim)) {
                lacking.add(claim);
                claimsLacking++;
            }
        }
        int all = listSize + lacking.size();
        boolean partial = lacking.size() >= ClusterPlanner.majority(all) || claimsLacking > 0 && 2 * claimsLacking >= all;
        return partial ? lacking : Set.of();
    }
}
