package dev.etcdoperator.core.cluster;

import java.util.List;
import java.util.Optional;

import dev.etcdoperator.core.cluster.ClusterPlanner.Seat;
import dev.etcdoperator.core.cluster.Step.RestartMember;
import dev.etcdoperator.core.cluster.Step.Wait;

/**
 * Rolls the members onto TLS Secrets that changed: a member whose pod was started on other Secret content is
 * <em>stale</em> (etcd re-reads its certificate and key on new connections, but its trusted CA bundle only when it
 * starts, and a pod sees a Secret as it was when the pod started in some runtimes). Pure.
 *
 * <p>One member at a time, followers first, the leader last, and only while every voting member is healthy and the
 * others are a majority without it: a member on a claim is restarted in place (its pod deleted and created again on
 * the same data); a member without a claim is replaced (removed, then a new member is added), because its data goes
 * with its pod. The next member waits until the last one is back and healthy: the cluster planner's earlier rules
 * see to that (a member starting, a learner catching up, a member not healthy all come first).
 */
public final class CertificateRolloutPlanner {
    private CertificateRolloutPlanner() {
    }

    /** The live seats whose pods run on TLS material that is no longer current, sorted by name. */
    static List<Seat> stale(List<Seat> seats) {
        return seats.stream().filter(s -> s.pod().map(MemberPod::staleTls).orElse(false)).toList();
    }

    /** The next restart, a wait when restarting would cost quorum, or empty when no member is stale. */
    static Optional<Step> plan(ClusterObservation o, List<Seat> seats) {
        List<Seat> stale = stale(seats);
        if (stale.isEmpty()) {
            return Optional.empty();
        }
        Seat next = stale.stream().filter(s -> !s.leader()).findFirst().orElse(stale.get(0));
        List<Seat> voters = seats.stream().filter(s -> !s.learner()).toList();
        long healthy = voters.stream().filter(Seat::healthy).count();
        long othersHealthy = healthy - (next.healthy() && !next.learner() ? 1 : 0);
        int voting = voters.size();
        boolean inPlace = o.persistent();
        // in place, the member is down while it restarts; replaced, it leaves the voters first
        boolean safe = healthy == voting && (inPlace
                ? othersHealthy >= ClusterPlanner.majority(voting)
                : voting - 1 >= 1 && othersHealthy >= ClusterPlanner.majority(voting - 1));
        if (!safe) {
            return Optional.of(new Wait(Wait.QUORUM_AT_RISK, "Member" + (stale.size() > 1 ? "s " : " ")
                    + names(stale) + " still run" + (stale.size() > 1 ? "" : "s") + " on TLS secrets that have"
                    + " changed since " + (stale.size() > 1 ? "they" : "it") + " started, but restarting " + next.name()
                    + " now would leave fewer healthy voting members than a majority"
                    + (voting == 1 ? " (a cluster of one member cannot be restarted without going down: scale it to"
                            + " three members, or " + (inPlace ? "delete its pod yourself: it is created again on"
                                    + " its claim" : "accept that its data goes with its pod") + ")" : "")
                    + ". The operator waits."));
        }
        return Optional.of(new RestartMember(next.member().id(), next.name(), next.leader(), inPlace));
    }

    private static String names(List<Seat> seats) {
        return String.join(", ", seats.stream().map(Seat::name).toList());
    }
}
