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
 * the leader last; then, while a scheduled round is due, the voting members it has not defragmented yet, in the same
 * order. A member serves nothing while it is defragmented, so one is defragmented only while the other healthy
 * voting members are a majority of the voters without it: never in a cluster of one or two voters.
 */
final class DefragmentationPlanner {
    private DefragmentationPlanner() {
    }

    static Optional<Step> plan(ClusterObservation o, List<Seat> seats) {
        if (!o.space().defragmentationOn() || !safe(seats)) {
            return Optional.empty();
        }
        Optional<Step> fragmented = fragmented(o, seats).stream().findFirst()
                .map(s -> step(o, s, DefragmentMember.FRAGMENTED));
        if (fragmented.isPresent()) {
            return fragmented;
        }
        DefragmentationRound round = o.space().round();
        if (round == null || !round.dueAt(o.now())) {
            return Optional.empty();
        }
        return roundRemaining(o, seats).stream().filter(s -> s.healthy() && s.podRunning()).findFirst()
                .map(s -> step(o, s, DefragmentMember.SCHEDULED));
    }

    private static Step step(ClusterObservation o, Seat s, String reason) {
        return new DefragmentMember(s.member().id(), s.name(), s.leader(), reason,
                o.healthOf(s.member().id()).map(MemberHealth::fragmentedBytes).orElse(0L));
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

    /**
     * The voting members the due round has not defragmented yet, healthy or not, followers first; empty when no round
     * is due or the members are not known.
     */
    static List<Seat> roundRemaining(ClusterObservation o, List<Seat> seats) {
        DefragmentationRound round = o.space().round();
        if (round == null || !round.dueAt(o.now())) {
            return List.of();
        }
        return seats.stream()
                .filter(s -> !s.learner() && !round.done().contains(s.name()))
                .sorted(Comparator.comparing(Seat::leader).thenComparing(Seat::name))
                .toList();
    }

    /** Whether a cluster of these members can ever be defragmented by the operator: three voters or more. */
    static boolean enoughVoters(List<Seat> seats) {
        long voters = seats.stream().filter(s -> !s.learner()).count();
        return voters > 0 && voters - 1 >= ClusterPlanner.majority((int) voters);
    }

    /** Every voter is healthy, and would still be a majority without any one of them. */
    static boolean safe(List<Seat> seats) {
        List<Seat> voters = seats.stream().filter(s -> !s.learner()).toList();
        return !voters.isEmpty() && voters.stream().allMatch(Seat::healthy)
                && voters.size() - 1 >= ClusterPlanner.majority(voters.size());
    }
}
