package dev.etcdoperator.core.cluster;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import dev.etcdoperator.api.v1beta2.DefragmentationStatus;
import dev.etcdoperator.api.v1beta2.EtcdClusterStatus;
import dev.etcdoperator.core.cluster.ClusterPlanner.Seat;
import dev.etcdoperator.core.cluster.Step.DefragmentMember;

/**
 * {@code status.defragmentation}: when the next round of {@code spec.etcd.defragmentation.schedule} is due, the
 * members the round in progress has defragmented, and the last round completed. Pure.
 *
 * <p>A round is recorded when due, counted member by member as each is defragmented (past the threshold or for the
 * round), and completed once no voting member is left; the next round is then the schedule's first time after the
 * completion, so rounds missed meanwhile run once, not one after another. A cluster of fewer than three voting members
 * is never defragmented by the operator: its rounds are passed over.
 */
final class DefragmentationRoundReport {
    private DefragmentationRoundReport() {
    }

    static void apply(EtcdClusterStatus status, ClusterObservation o, List<Seat> seats, Step step, boolean acted) {
        DefragmentationRound round = o.space().round();
        Instant now = o.now();
        if (round == null) {
            status.setDefragmentation(null);
            return;
        }
        if (now == null) {
            return;
        }
        DefragmentationStatus recorded = status.getDefragmentation();
        if (round.due() == null || recorded == null || !round.schedule().text().equals(recorded.getSchedule())) {
            DefragmentationStatus fresh = new DefragmentationStatus();
            fresh.setSchedule(round.schedule().text());
            fresh.setNextRoundTime(next(round, now));
            if (recorded != null) {
                fresh.setLastRoundCompletionTime(recorded.getLastRoundCompletionTime());
                fresh.setLastRoundMembers(recorded.getLastRoundMembers());
            }
            status.setDefragmentation(fresh);
            return;
        }
        if (!round.dueAt(now)) {
            return;
        }
        if (step instanceof DefragmentMember d && !DefragmentMember.NO_SPACE.equals(d.reason())) {
            if (acted && !round.done().contains(d.name())) {
                List<String> done = new ArrayList<>(round.done());
                done.add(d.name());
                recorded.setRoundMembers(done);
                if (recorded.getRoundStartTime() == null) {
                    recorded.setRoundStartTime(now.toString());
                }
            }
            return;
        }
        if (seats.isEmpty()) {
            return;
        }
        if (!DefragmentationPlanner.enoughVoters(seats)) {
            recorded.setNextRoundTime(next(round, now));
            recorded.setRoundStartTime(null);
            recorded.setRoundMembers(null);
        } else if (DefragmentationPlanner.roundRemaining(o, seats).isEmpty()) {
            recorded.setLastRoundCompletionTime(now.toString());
            recorded.setLastRoundMembers(List.copyOf(round.done()));
            recorded.setNextRoundTime(next(round, now));
            recorded.setRoundStartTime(null);
            recorded.setRoundMembers(null);
        }
    }

    private static String next(DefragmentationRound round, Instant now) {
        return round.schedule().next(now).map(Instant::toString).orElse(null);
    }
}
