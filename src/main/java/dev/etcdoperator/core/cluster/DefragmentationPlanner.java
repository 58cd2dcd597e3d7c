package dev.etcdoperator.core.cluster;

import java.util.Comparator;
import java.util.List;
import java.util.Optional;

import dev.etcdoperator.core.cluster.ClusterPlanner.Seat;
import dev.etcdoperator.core.cluster.Step.DefragmentMember;

/**
 * Routine defragmentation ({@code spec.etcd.defragmentation}), planned only once nothing else is left to do: the
 * cluster has its size and version, every member is healthy, and no NOSPACE recovery, scaling, upgrade or member
 * replacement is under way ({@link ClusterPlanner} asks last). Pure.
 *
 * <p>The members whose free space passes the threshold are defragmented one per step, followers first (by name) and
 * the leader last. A member serves nothing while it is defragmented, so one is defragmented only while the other
 * healthy voting members are a majority of the voters without it: never in a cluster of one or two voters.
 */
final class DefragmentationPlanner {
    private DefragmentationPlanner() {
    }

    static Optional<Step> plan(ClusterObservation o, List<Seat> seats) {
        FragmentationThreshold threshold = o.space().defragmentation();
        if (threshold == null || !safe(seats)) {
            return Optional.empty();
        }
        return fragmented(o, seats).stream().findFirst().map(s -> new DefragmentMember(s.member().id(), s.name(),
                s.leader(), DefragmentMember.FRAGMENTED, o.healthOf(s.member().id()).orElseThrow().fragmentedBytes()));
    }

    /** The healthy voting members with a running pod whose free space passes the threshold, followers first. */
    static List<Seat> fragmented(ClusterObservation o, List<Seat> seats) {
        FragmentationThreshold threshold = o.space().defragmentation();
        if (threshold == null) {
            return List.of();
        }
        return seats.stream()
                .filter(s -> s.started() && !s.learner() && s.healthy() && s.podRunning())
                .filter(s -> o.healthOf(s.member().id()).map(threshold::passedBy).orElse(false))
                .sorted(Comparator.comparing(Seat::leader).thenComparing(Seat::name))
                .toList();
    }

    /** Every voter is healthy, and would still be a majority without any one of them. */
    static boolean safe(List<Seat> seats) {
        List<Seat> voters = seats.stream().filter(s -> !s.learner()).toList();
        return !voters.isEmpty() && voters.stream().allMatch(Seat::healthy)
                && voters.size() - 1 >= ClusterPlanner.majority(voters.size());
    }
}
