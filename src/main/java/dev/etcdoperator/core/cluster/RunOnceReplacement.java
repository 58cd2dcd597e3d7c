package dev.etcdoperator.core.cluster;

import java.util.List;
import java.util.Optional;

import dev.etcdoperator.core.cluster.ClusterPlanner.Seat;
import dev.etcdoperator.core.cluster.Step.MoveLeader;
import dev.etcdoperator.core.cluster.Step.RemoveMember;

/**
 * Replacing members whose pod runs once (rules 13 and 13a of {@link ClusterPlanner}): when their etcd ends it is not
 * started again, and without a claim their data goes with the pod. While they could take the quorum with them, one
 * member more than {@code spec.size} is wanted; once it votes, one of them is removed, a follower first, the leader
 * only after it handed the leadership to a member whose pod restarts in place.
 */
final class RunOnceReplacement {
    private RunOnceReplacement() {
    }

    /**
     * The voters without claims whose pod runs, and runs once, when they are to be replaced: when the voters that
     * restart in place, counted at {@code spec.size} (with the members still to add, without those over it), are
     * fewer than a majority of it, so that their etcds killed together would lose the quorum for good. Empty
     * otherwise: a restored or recovered cluster of three or more keeps its one seed, which is replaced like any
     * member whose pod ended should its etcd end. A cluster on claims keeps them all: a pod of theirs that ends is
     * made again on its claim, restarting in place. (The observer shows such pods as any other while the restore
     * that made the cluster is not over, and when the pods have placement rules.)
     */
    static List<Seat> toReplace(ClusterObservation o, List<Seat> seats) {
        if (o.persistent()) {
            return List.of();
        }
        List<Seat> voters = seats.stream().filter(s -> !s.learner()).toList();
        List<Seat> once = voters.stream().filter(s -> s.started() && !s.podFailed() && s.runsOnce()).toList();
        int missing = Math.max(0, o.desiredSize() - voters.size());
        int over = Math.max(0, voters.size() - o.desiredSize());
        return voters.size() - once.size() + missing - over < ClusterPlanner.majority(o.desiredSize()) ? once
                : List.of();
    }

    /** The member of {@code runOnce} that is replaced first: a follower, the leader last. */
    static Seat next(List<Seat> runOnce) {
        return runOnce.stream().filter(s -> !s.leader()).findFirst().orElse(runOnce.get(0));
    }

    /**
     * With more voters than {@code spec.size} (all healthy: the planner checked), the step that takes the next
     * member of {@code runOnce} out: {@link MoveLeader} while it leads, then {@link RemoveMember}
     * {@code RunOncePodReplaced}; empty when there is none to replace or no voter over the size.
     */
    static Optional<Step> remove(ClusterObservation o, List<Seat> seats, List<Seat> runOnce) {
        List<Seat> voters = seats.stream().filter(s -> !s.learner()).toList();
        if (runOnce.isEmpty() || voters.size() <= o.desiredSize()) {
            return Optional.empty();
        }
        Seat victim = next(runOnce);
        if (victim.leader()) {
            Optional<Seat> heir = voters.stream().filter(s -> s.healthy() && !runOnce.contains(s)).findFirst();
            if (heir.isPresent()) {
                return Optional.of(new MoveLeader(victim.member().id(), victim.name(), heir.get().member().id(),
                        heir.get().name()));
            }
        }
        return Optional.of(ClusterPlanner.safeToRemove(victim, seats)
                ? new RemoveMember(victim.member().id(), ClusterPlanner.label(victim), RemoveMember.RUNS_ONCE)
                : ClusterPlanner.quorumAtRisk(victim, seats, "member"));
    }
}
