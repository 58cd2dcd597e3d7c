package dev.etcdoperator.core.cluster;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

import dev.etcdoperator.core.cluster.ClusterPlanner.Seat;
import dev.etcdoperator.core.cluster.Step.CompactKeyspace;
import dev.etcdoperator.core.cluster.Step.DefragmentMember;
import dev.etcdoperator.core.cluster.Step.DisarmNoSpace;
import dev.etcdoperator.core.cluster.Step.Wait;

/**
 * Frees a cluster whose NOSPACE alarm is raised, one step per reconcile. Pure.
 *
 * <ol>
 * <li>The keyspace was not compacted to the current revision since the alarm (or keys were deleted since):
 *   {@link CompactKeyspace} to the current revision.</li>
 * <li>A healthy voting member whose pod runs was not defragmented since that compaction, or still is at its quota
 *   with a tenth of its file or more free: {@link DefragmentMember}, followers first (by name), the leader last; only
 *   while the other healthy voters are a majority of the voters, since a member being defragmented serves nothing; a
 *   cluster of one voter, or of two both healthy, is defragmented all the same: no majority can stay while one of
 *   them is, it takes no writes under the alarm anyway, and waiting would keep the alarm for good (a cluster that
 *   lost a member under the alarm has two voters until the alarm is gone); else {@link Wait}
 *   {@code QuorumAtRisk}. Learners are left alone: etcd refuses to defragment them.</li>
 * <li>Every voting member that answered is below the quota: {@link DisarmNoSpace}.</li>
 * <li>Else {@link Wait} {@code NoSpace}: the live data does not fit the quota; a person raises the quota or deletes
 *   keys (etcd takes deletes under the alarm), and a delete moves the revision, which starts again at 1.</li>
 * </ol>
 */
final class SpacePlanner {
    /** A defragmented member at its quota is defragmented again only when this share of its file (1/n) is free. */
    private static final int WORTH_ANOTHER_DEFRAGMENTATION = 10;

    private SpacePlanner() {
    }

    static Optional<Step> plan(ClusterObservation o, List<Seat> seats) {
        DatabaseSpace space = o.space();
        if (!space.noSpace()) {
            return Optional.empty();
        }
        if (space.revision() > space.compactedRevision()) {
            return Optional.of(new CompactKeyspace(space.revision()));
        }
        List<Seat> pending = seats.stream()
                .filter(s -> s.started() && !s.learner() && s.healthy() && s.podRunning() && needsDefragmentation(o, s))
                .sorted(Comparator.comparing(Seat::leader).thenComparing(Seat::name))
                .toList();
        if (!pending.isEmpty()) {
            Seat next = pending.get(0);
            List<Seat> voters = seats.stream().filter(s -> !s.learner()).toList();
            long otherHealthyVoters = voters.stream().filter(s -> s.healthy() && s != next).count();
            if (voters.size() == 1 || voters.size() == 2 && otherHealthyVoters == 1
                    || otherHealthyVoters >= ClusterPlanner.majority(voters.size())) {
                return Optional.of(new DefragmentMember(next.member().id(), next.name(), next.leader()));
            }
            return Optional.of(new Wait(Wait.QUORUM_AT_RISK, "Not defragmenting member " + next.name() + " yet: it"
                    + " serves nothing while it is defragmented, and the other healthy voting members would be fewer"
                    + " than a majority. The NOSPACE alarm stays raised until the members are defragmented."));
        }
        // a member that raised the alarm and does not answer was not defragmented: disarmed now, the alarm would
        // come back from it. One that raised none (away on a lost node, say) raises it again itself if it must.
        Set<Long> raisedBy = space.noSpaceAlarms().stream().map(MemberAlarm::memberId).collect(Collectors.toSet());
        List<String> unknown = seats.stream().filter(s -> !s.learner() && raisedBy.contains(s.member().id())
                && (!s.healthy() || o.healthOf(s.member().id()).isEmpty())).map(ClusterPlanner::label).sorted()
                .toList();
        if (!unknown.isEmpty()) {
            return Optional.of(new Wait(Wait.MEMBER_NOT_HEALTHY, "The NOSPACE alarm stays raised: voting member"
                    + (unknown.size() > 1 ? "s " : " ") + String.join(", ", unknown) + " raised it and "
                    + (unknown.size() > 1 ? "do" : "does") + " not answer, so " + (unknown.size() > 1 ? "they were" : "it was")
                    + " not defragmented; disarmed before, the alarm would come back from "
                    + (unknown.size() > 1 ? "them" : "it") + ". The operator goes on once it answers."));
        }
        List<String> full = new ArrayList<>();
        for (Seat s : seats) {
            if (s.learner()) {
                continue;
            }
            Optional<MemberHealth> h = o.healthOf(s.member().id());
            if (h.isPresent() && h.get().dbSize() >= space.quotaBytes()) {
                full.add(s.name() + " (" + h.get().dbSize() + " bytes, " + h.get().dbSizeInUse() + " in use)");
            }
        }
        if (full.isEmpty()) {
            long largest = seats.stream().mapToLong(s -> o.healthOf(s.member().id()).map(MemberHealth::dbSize)
                    .orElse(0L)).max().orElse(0);
            return Optional.of(new DisarmNoSpace(space.noSpaceAlarms(), "Disarming the NOSPACE alarm: after"
                    + " compacting to revision " + space.compactedRevision() + " and defragmenting the members, every"
                    + " database is below the quota of " + space.quotaBytes() + " bytes (the largest: " + largest
                    + " bytes)."));
        }
        return Optional.of(new Wait(Wait.NO_SPACE, "The NOSPACE alarm stays raised: after compacting to revision "
                + space.compactedRevision() + " and defragmenting, the database of " + String.join(", ", full)
                + " is still at the quota of " + space.quotaBytes() + " bytes: the live data does not fit. Raise"
                + " spec.etcd.quotaBackendBytes (it applies to members created after the change) or delete keys (etcd"
                + " takes deletes under the alarm); the operator compacts and defragments again once the revision"
                + " moves."));
    }

    private static boolean needsDefragmentation(ClusterObservation o, Seat s) {
        if (!o.space().defragmented().contains(s.member().id())) {
            return true;
        }
        MemberHealth h = o.healthOf(s.member().id()).orElse(null);
        return h != null && h.dbSize() >= o.space().quotaBytes()
                && h.fragmentedBytes() * WORTH_ANOTHER_DEFRAGMENTATION >= h.dbSize();
    }
}
