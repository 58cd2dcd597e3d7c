package dev.etcdoperator.core.cluster;

import java.util.List;

/**
 * How one observation finds a cluster's members, counted: the figures the operator exports as metrics.
 *
 * <p>Each member is counted once: a learner as {@code learners} whatever its health, a voter as {@code healthy}
 * or {@code unhealthy}. When no member answered, the member list is unknown and every live pod counts as an
 * unhealthy member, as the status then lists them.
 *
 * @param healthy   voting members that answered and said they are healthy
 * @param unhealthy voting members that did not answer or said they are not healthy
 * @param learners  non-voting learners
 * @param ready     live member pods that are ready
 * @param desired   {@code spec.size}
 * @param quorum    a majority of the voters is healthy
 * @param leader    a member says it leads
 */
public record ClusterHealth(int healthy, int unhealthy, int learners, int ready, int desired, boolean quorum,
        boolean leader) {

    public static ClusterHealth of(ClusterObservation o) {
        List<EtcdMember> members = o.members().orElse(List.of());
        int ready = (int) o.livePods().stream().filter(MemberPod::ready).count();
        if (members.isEmpty()) {
            return new ClusterHealth(0, o.livePods().size(), 0, ready, o.desiredSize(), false, false);
        }
        List<ClusterPlanner.Seat> seats = ClusterPlanner.seats(o, members);
        int learners = (int) seats.stream().filter(ClusterPlanner.Seat::learner).count();
        int healthy = (int) seats.stream().filter(s -> !s.learner() && s.healthy()).count();
        int voters = seats.size() - learners;
        boolean leader = seats.stream().anyMatch(ClusterPlanner.Seat::leader);
        // the members that answered may be one member's own new cluster: the members they lack count as unhealthy voters
        int unlisted = ClusterPlanner.partialListLacks(o, seats).size();
        return new ClusterHealth(healthy, voters - healthy + unlisted, learners, ready, o.desiredSize(),
                unlisted == 0 && voters > 0 && healthy >= ClusterPlanner.majority(voters), leader && unlisted == 0);
    }
}
