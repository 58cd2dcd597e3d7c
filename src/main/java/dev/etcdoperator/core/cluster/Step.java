package dev.etcdoperator.core.cluster;

import java.util.List;
import java.util.Objects;

/**
 * The one thing a reconcile does next, as {@link ClusterPlanner} decides it. Each step says what to do, not how:
 * the reconciler carries it out, then observes again. {@link #describe()} is a sentence for logs, Events and
 * status messages.
 */
public sealed interface Step {
    /** etcd's {@code --initial-cluster-state} for the first member. */
    String STATE_NEW = "new";
    /** etcd's {@code --initial-cluster-state} for a member joining a running cluster. */
    String STATE_EXISTING = "existing";

    String describe();

    /**
     * A cluster that never ran (or that a person asked to start again empty) has no seed yet: record {@code name}
     * as its seed in the status. The seed's pod is created only in a later reconcile, from what the status then
     * says, so that a view of the pods that lags behind can never start a second, independent seed.
     *
     * @param reseed a person asked to start a cluster that lost every member again, empty: the request is consumed
     *               (its annotation removed) and the status forgets that the cluster ran
     */
    record RecordSeed(String name, boolean reseed) implements Step {
        public RecordSeed {
            Objects.requireNonNull(name, "name");
        }

        @Override
        public String describe() {
            return reseed
                    ? "Starting the cluster again, empty, as its reseed annotation asks: " + name
                            + " is its new seed member; the data of the lost members is not in it."
                    : "Choosing " + name + " as the first member; its pod is created next.";
        }
    }

    /** No pod and no reachable member: create the recorded seed member's pod with initial state {@code new}. */
    record CreateSeed(String name, String peerUrl, String version) implements Step {
        public CreateSeed {
            Objects.requireNonNull(name, "name");
        }

        public String state() {
            return STATE_NEW;
        }

        @Override
        public String describe() {
            return "Creating the first member " + name + " (etcd " + version + ").";
        }
    }

    /**
     * A new, empty cluster of three members or more: record the names of all its first members in the status. Their
     * pods are created in a later reconcile, from what the status then says, as a seed's is: a view of the pods that
     * lags behind can never start a second, independent set.
     */
    record RecordInitialMembers(List<String> names) implements Step {
        public RecordInitialMembers {
            names = List.copyOf(names);
            if (names.isEmpty()) {
                throw new IllegalArgumentException("no first member");
            }
        }

        @Override
        public String describe() {
            return "Choosing " + String.join(", ", names) + " as the first members; their pods are created next and"
                    + " start etcd together.";
        }
    }

    /**
     * Create the pods of the recorded first members that have none, with initial state {@code new} and the same
     * {@code --initial-cluster} of all of them: etcd bootstraps them as one cluster.
     *
     * @param names          the members whose pods are created now
     * @param initialCluster etcd's {@code --initial-cluster} of every first member
     */
    record CreateInitialMembers(List<String> names, String initialCluster, String version) implements Step {
        public CreateInitialMembers {
            names = List.copyOf(names);
            Objects.requireNonNull(initialCluster, "initialCluster");
        }

        @Override
        public String describe() {
            return "Creating the first members " + String.join(", ", names) + " (etcd " + version + ").";
        }
    }

    /**
     * Add the member to etcd as a learner, then create its pod with initial state {@code existing}.
     *
     * @param replaces the member whose pod runs once that the new one is to replace, or null
     */
    record AddMember(String name, String peerUrl, String version, String replaces) implements Step {
        public AddMember {
            Objects.requireNonNull(name, "name");
        }

        public AddMember(String name, String peerUrl, String version) {
            this(name, peerUrl, version, null);
        }

        public String state() {
            return STATE_EXISTING;
        }

        @Override
        public String describe() {
            return "Adding member " + name + " as a learner (etcd " + version + ")" + (replaces == null ? "."
                    : ", to replace member " + replaces + ", whose pod does not start etcd again when it ends.");
        }
    }

    /**
     * Create the pod of a member etcd already knows: one that was added but whose pod was never created
     * ({@link #STARTING_ADDED_MEMBER}), or one whose data is on a claim and whose pod is gone
     * ({@link #RECREATING_IN_PLACE}).
     */
    record CreateMemberPod(String name, String peerUrl, String state, String version, String reason)
            implements Step {
        public static final String STARTING_ADDED_MEMBER = "StartingAddedMember";
        public static final String RECREATING_IN_PLACE = "RecreatingMemberPod";

        public CreateMemberPod {
            Objects.requireNonNull(name, "name");
        }

        @Override
        public String describe() {
            return RECREATING_IN_PLACE.equals(reason)
                    ? "Recreating the pod of member " + name + " on its data claim (etcd " + version + ")."
                    : "Creating the pod of member " + name + ", which etcd knows but which never started (etcd "
                            + version + ").";
        }
    }

    /** Promote a learner that has caught up with the leader to a voting member. */
    record PromoteLearner(long id, String name) implements Step {
        @Override
        public String describe() {
            return "Promoting learner " + name + " (" + Long.toHexString(id) + ") to a voting member.";
        }
    }

    /**
     * Remove a member from etcd; its pod goes in a later step ({@link DeletePod}) once it is no member. With
     * {@code deleteFailedPod}, the pod of a dead member, which has ended or whose etcd failed and waits to start again
     * in it, is deleted right after the removal, in the same step: not a membership change, and the fresh member that
     * replaces it need not wait for one more look.
     */
    record RemoveMember(long id, String name, String reason, boolean deleteFailedPod) implements Step {
        /** The cluster is larger than {@code spec.size}. */
        public static final String SCALE_DOWN = "ScaleDown";
        /** The member is dead; a later step adds a fresh one (a replacement). */
        public static final String DEAD_MEMBER = "DeadMember";
        /** The member's pod runs once, and a member whose pod restarts etcd in place was added to take its place. */
        public static final String RUNS_ONCE = "RunOncePodReplaced";
        /**
         * The member's etcd failed in each pod made again on its claim ({@link MemberPod#keepsFailing}) while the
         * other members are healthy; a later step adds a fresh one (a replacement).
         */
        public static final String KEEPS_FAILING = "MemberKeepsFailing";

        /** A removal that leaves the member's pod to a later step. */
        public RemoveMember(long id, String name, String reason) {
            this(id, name, reason, false);
        }

        /** The member goes to be replaced by a fresh one, not to scale down. */
        public boolean replacement() {
            return DEAD_MEMBER.equals(reason) || KEEPS_FAILING.equals(reason);
        }

        @Override
        public String describe() {
            if (KEEPS_FAILING.equals(reason)) {
                return "Removing member " + name + " (" + Long.toHexString(id) + "), whose etcd failed again in each"
                        + " of its last " + ClusterPlanner.RECREATIONS_BEFORE_REPLACING + " pods made on its"
                        + " claim while the other members are healthy, with its claim and its pod; a fresh member"
                        + " replaces it next (see the logs of its etcd for why it failed).";
            }
            if (DEAD_MEMBER.equals(reason)) {
                return "Removing dead member " + name + " (" + Long.toHexString(id) + ")"
                        + (deleteFailedPod ? " and deleting its failed pod" : "")
                        + "; a fresh member replaces it next.";
            }
            return RUNS_ONCE.equals(reason)
                    ? "Removing member " + name + " (" + Long.toHexString(id) + "), whose pod does not start etcd"
                            + " again when it ends: a member whose pod does has been added in its place."
                    : "Removing member " + name + " (" + Long.toHexString(id) + ") to scale down.";
        }
    }

    /** Delete a pod that is not (or no longer) a member, or a failed member pod to recreate it. */
    record DeletePod(String name, String reason) implements Step {
        /** The pod belongs to no etcd member. */
        public static final String NOT_A_MEMBER = "NotAMember";
        /**
         * The member's pod ended, or its etcd keeps failing in it; its data is on a claim, so the pod is recreated in
         * place.
         */
        public static final String POD_STOPPED = "MemberPodStopped";
        /** The pod of a quorum recovery's member ended before it ran: it is created again. */
        public static final String RECOVERY_MEMBER_FAILED = "RecoveryMemberFailed";
        /**
         * The pod of a quorum recovery's member, which copied the survivor's database from its claim, answered: it is
         * made again on its own claim alone, so that the survivor's claim can go.
         */
        public static final String RECOVERY_MEMBER_RELEASES_CLAIM = "RecoveryMemberReleasesClaim";
        /** The pod of a first member ended before any etcd of the first members started: it is created again. */
        public static final String FIRST_MEMBER_FAILED = "FirstMemberFailed";
        /** The pod of a learner ended before its etcd joined the cluster: it is created again. */
        public static final String LEARNER_FAILED = "LearnerPodFailed";
        /**
         * The pod's etcd leads a cluster of its own, not the cluster's data ({@link MemberPod#splitOff}): it goes
         * with its claim, and its member, without a pod, is replaced as a dead one.
         */
        public static final String SPLIT_OFF = "MemberSplitOff";

        @Override
        public String describe() {
            return switch (reason) {
                case NOT_A_MEMBER -> "Deleting pod " + name + ", which is not a member of the cluster.";
                case RECOVERY_MEMBER_FAILED -> "Deleting pod " + name + " of the quorum recovery, which ended before"
                        + " it ran (see its init containers' logs), to create it again.";
                case RECOVERY_MEMBER_RELEASES_CLAIM -> "Deleting pod " + name + " of the quorum recovery, which"
                        + " answers on the copy of the survivor's database, to make it again on its own claim alone:"
                        + " the survivor's claim, deleted, goes once no pod mounts it.";
                case FIRST_MEMBER_FAILED -> "Deleting pod " + name + " of a first member, which ended before its etcd"
                        + " started (see its init containers' logs and Events), to create it again.";
                case LEARNER_FAILED -> "Deleting pod " + name + " of a learner, which ended before its etcd joined"
                        + " the cluster (see its logs and Events), to create it again.";
                case SPLIT_OFF -> "Deleting pod " + name + " (with its claim, if any): its etcd leads a new cluster"
                        + " of its own (started again on an empty data directory, it did not rejoin the cluster) and"
                        + " serves none of the cluster's data; its member is then replaced by a new one.";
                default -> "Deleting pod " + name + ", which ended or whose etcd keeps failing, to recreate it on"
                        + " its data claim.";
            };
        }
    }

    /** Replace one member's pod with one running {@code toVersion}. */
    record UpgradeMember(String name, String fromVersion, String toVersion) implements Step {
        @Override
        public String describe() {
            return "Upgrading member " + name + " from " + fromVersion + " to " + toVersion + ".";
        }
    }

    /**
     * Give a member's etcd container spec.version's image in place: the kubelet cannot get the image the pod has
     * ({@code problem}), or its etcd crash-loops on it ({@code crashLoops}), and it is of another version than
     * spec.version now asks for.
     */
    record ResetMemberImage(String name, String fromVersion, String toVersion, String problem, boolean crashLoops)
            implements Step {
        public ResetMemberImage(String name, String fromVersion, String toVersion, String problem) {
            this(name, fromVersion, toVersion, problem, false);
        }

        @Override
        public String describe() {
            if (crashLoops) {
                return "The etcd of member " + name + " crash-loops on etcd " + fromVersion + ", which spec.version no"
                        + " longer asks for; giving it the image of spec.version, etcd " + toVersion + ", in place.";
            }
            return "The image of member " + name + " (etcd " + fromVersion + ") cannot be had (" + problem
                    + "); giving it the image of spec.version, etcd " + toVersion + ".";
        }
    }

    /**
     * Ask etcd to enable the downgrade of the cluster to {@code targetVersion} ({@code major.minor.0}): the cluster
     * version drops to it, and each member rewrites its data in that version's format.
     */
    record EnableDowngrade(String targetVersion, String runningVersion) implements Step {
        @Override
        public String describe() {
            return "Enabling etcd's downgrade of the cluster from " + runningVersion + " to " + targetVersion
                    + ": each member then rewrites its data in the " + targetVersion + " format.";
        }
    }

    /**
     * Replace one member's pod with one running the older {@code toVersion}: its data is in that version's format
     * already.
     */
    record DowngradeMember(String name, String fromVersion, String toVersion) implements Step {
        @Override
        public String describe() {
            return "Downgrading member " + name + " from " + fromVersion + " to " + toVersion + ".";
        }
    }

    /**
     * Restart one member whose pod was started on TLS material its Secrets no longer hold, so that it runs on what
     * they hold now (one member at a time, followers first, the leader last). On a claim ({@code inPlace}) its pod is
     * deleted and created again on the same data and member identity; without a claim its data would go with the pod,
     * so the member is removed instead and a new member, on the current material, takes its place.
     */
    record RestartMember(long id, String name, boolean leader, boolean inPlace) implements Step {
        public RestartMember {
            Objects.requireNonNull(name, "name");
        }

        @Override
        public String describe() {
            String who = (leader ? "the leader " : "member ") + name;
            return inPlace
                    ? "Restarting " + who + " on the changed TLS secrets: its pod is deleted and created again on its"
                            + " data claim (one member at a time, followers first, the leader last)."
                    : "Replacing " + who + " to take the changed TLS secrets into use: its data is not on a claim, so"
                            + " it is removed and a new member on the current secrets takes its place (one member at"
                            + " a time, followers first, the leader last).";
        }
    }

    /**
     * Hand the leadership of member {@code from} to the voting member {@code to}, before {@code from} is removed: etcd
     * removes a member that does not lead more safely (a leader that removes itself from two voters may leave the other
     * unable to elect itself).
     */
    record MoveLeader(long fromId, String from, long toId, String to) implements Step {
        public MoveLeader {
            Objects.requireNonNull(from, "from");
            Objects.requireNonNull(to, "to");
        }

        @Override
        public String describe() {
            return "Moving the leadership from member " + from + " to member " + to + ": " + from + "'s pod does not"
                    + " start etcd again when it ends, and it is removed next.";
        }
    }

    /**
     * The NOSPACE alarm is raised: compact the keyspace up to {@code revision} (the current one), so that the old
     * revisions' space can be given back by defragmenting the members.
     */
    record CompactKeyspace(long revision) implements Step {
        @Override
        public String describe() {
            return "Compacting the keyspace to revision " + revision + " to free space: the NOSPACE alarm is raised"
                    + " and etcd refuses writes.";
        }
    }

    /**
     * Defragment one member's database (it serves nothing meanwhile), giving back the space compaction freed: under
     * the NOSPACE alarm ({@link #NO_SPACE}), because its free space passed {@code spec.etcd.defragmentation}'s
     * threshold ({@link #FRAGMENTED}), or in a round of its schedule ({@link #SCHEDULED}).
     *
     * @param fragmentedBytes what the member's file held free when planned (0 when not known)
     */
    record DefragmentMember(long id, String name, boolean leader, String reason, long fragmentedBytes)
            implements Step {
        /** Freeing space while the NOSPACE alarm is raised. */
        public static final String NO_SPACE = "NoSpace";
        /**
         * etcd's CORRUPT alarm is raised: a member's data differs from the others', every member refuses requests,
         * and which copy is right is for a person to tell.
         */
        public static final String CORRUPT_ALARM = "CorruptAlarm";
        /** etcd's downgrade is enabled; members have not rewritten their data in the older format yet. */
        public static final String DOWNGRADE_PENDING = "DowngradePending";
        /** The member's free space passed the threshold of {@code spec.etcd.defragmentation}. */
        public static final String FRAGMENTED = "Fragmented";
        /** A round of {@code spec.etcd.defragmentation.schedule} is due. */
        public static final String SCHEDULED = "Scheduled";

        public DefragmentMember {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(reason, "reason");
        }

        /** Under the NOSPACE alarm. */
        public DefragmentMember(long id, String name, boolean leader) {
            this(id, name, leader, NO_SPACE, 0);
        }

        @Override
        public String describe() {
            if (SCHEDULED.equals(reason)) {
                return "Defragmenting " + (leader ? "the leader " : "member ") + name + " in the round"
                        + " spec.etcd.defragmentation.schedule made due (one member at a time, followers first, the"
                        + " leader last; the member serves nothing meanwhile).";
            }
            return FRAGMENTED.equals(reason)
                    ? "Defragmenting " + (leader ? "the leader " : "member ") + name + ": " + fragmentedBytes
                            + " bytes of its database file are free, past spec.etcd.defragmentation's threshold"
                            + " (one member at a time, followers first, the leader last; the member serves nothing meanwhile)."
                    : "Defragmenting " + (leader ? "the leader " : "member ") + name + " to give the space the"
                            + " compaction freed back (one member at a time, followers first, the leader last).";
        }
    }

    /** Every member is back under its quota: disarm the NOSPACE alarms, so that etcd takes writes again. */
    record DisarmNoSpace(List<MemberAlarm> alarms, String message) implements Step {
        public DisarmNoSpace {
            alarms = List.copyOf(alarms);
        }

        @Override
        public String describe() {
            return message;
        }
    }

    /** Something is in progress; observe again later. */
    record Wait(String reason, String message) implements Step {
        /** Pods exist but no member answers and the cluster never ran: the first members are starting. */
        public static final String MEMBERS_STARTING = "MembersStarting";
        /** A member's pod is not running yet. */
        public static final String MEMBER_STARTING = "MemberStarting";
        /** A learner is not yet healthy or has not caught up with the leader. */
        public static final String LEARNER_CATCHING_UP = "LearnerCatchingUp";
        /** A member has its pod but is not healthy (just joined, restarting, or sick). */
        public static final String MEMBER_NOT_HEALTHY = "MemberNotHealthy";
        /** A quorum recovery's member copies the survivor's data and starts. */
        public static final String RECOVERY_MEMBER_STARTING = "RecoveryMemberStarting";
        /** A pod is being deleted; its name is reused or its member is going. */
        public static final String POD_TERMINATING = "PodTerminating";
        /** Removing the member asked for would leave fewer healthy voters than a majority. */
        public static final String QUORUM_AT_RISK = "QuorumAtRisk";
        /**
         * The NOSPACE alarm stays raised: after compaction and defragmentation a member's database is still at its
         * quota (its live data needs more), or no member can be defragmented safely now.
         */
        public static final String NO_SPACE = "NoSpace";
        /**
         * etcd's CORRUPT alarm is raised: a member's data differs from the others', every member refuses requests,
         * and which copy is right is for a person to tell.
         */
        public static final String CORRUPT_ALARM = "CorruptAlarm";
        /** etcd's downgrade is enabled; members have not rewritten their data in the older format yet. */
        public static final String DOWNGRADE_PENDING = "DowngradePending";
        /**
         * The member list came from members that lack most of the pods whose etcd has run: it may be a member's own
         * new cluster (its data wiped), not the cluster; nothing is changed on it.
         */
        public static final String MEMBER_LIST_PARTIAL = "MemberListPartial";
        /**
         * A pod is no member of the list answered, and no member of that list says it leads: the list may be a
         * member's that is still catching up on the leader's log (the leader among the pods it lacks); no pod is
         * deleted and no member added on it.
         */
        public static final String LEADER_NOT_LISTED = "LeaderNotListed";

        @Override
        public String describe() {
            return message;
        }
    }

    /**
     * Fewer than a majority of voting members are healthy: change nothing.
     *
     * @param recoveryReason  why no recovery starts (the {@code QuorumRecovery} condition's reason); null when the
     *                        planner did not look at recovery
     * @param recoveryMessage what the operator waits for, or what a person can do
     */
    record QuorumLost(String message, String recoveryReason, String recoveryMessage) implements Step {
        public QuorumLost(String message) {
            this(message, null, null);
        }

        @Override
        public String describe() {
            return message;
        }
    }

    /**
     * Quorum is lost for good and a recovery from the survivor is chosen (by the policy or a person's approval):
     * record the survivor and the new member's name in the status before anything is created, so that the recovery
     * carries on with the same ones after a restart.
     *
     * @param approved  a person approved it with the recover-quorum annotation, which is consumed
     * @param fromClaim the survivor's etcd serves nothing: the member copies its database from the survivor's claim
     */
    record RecordQuorumRecovery(String survivor, String member, long revision, long raftIndex, boolean approved,
            String message, boolean fromClaim) implements Step {
        public RecordQuorumRecovery {
            Objects.requireNonNull(survivor, "survivor");
            Objects.requireNonNull(member, "member");
        }

        /** From a survivor that answers: a snapshot of it is copied through etcd. */
        public RecordQuorumRecovery(String survivor, String member, long revision, long raftIndex, boolean approved,
                String message) {
            this(survivor, member, revision, raftIndex, approved, message, false);
        }

        @Override
        public String describe() {
            return message;
        }
    }

    /**
     * Create the pod of a one-member cluster whose data is the survivor's: its init containers copy a snapshot from
     * the survivor (served locally, no quorum needed), or with {@code fromClaim} the database from the survivor's
     * claim (its pod gone), and restore it as a new cluster of this one member.
     */
    record CreateRecoveryMember(String name, String peerUrl, String survivor, String version, boolean fromClaim)
            implements Step {
        public CreateRecoveryMember {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(survivor, "survivor");
        }

        public CreateRecoveryMember(String name, String peerUrl, String survivor, String version) {
            this(name, peerUrl, survivor, version, false);
        }

        @Override
        public String describe() {
            return "Creating member " + name + " as a one-member cluster from " + (fromClaim
                    ? "the database on survivor " + survivor + "'s claim" : "a snapshot of survivor " + survivor)
                    + " (etcd " + version + ").";
        }
    }

    /**
     * A recovery from the survivor's claim: delete the old cluster's pods, the survivor's among them, and keep their
     * claims, so that the survivor's etcd has stopped (and its claim is free to mount) before its database is copied.
     */
    record StopSurvivor(String survivor, String member, List<String> pods) implements Step {
        public StopSurvivor {
            pods = List.copyOf(pods);
        }

        @Override
        public String describe() {
            return "Deleting the old cluster's pods " + String.join(", ", pods) + ", their claims kept: member "
                    + member + " starts from the database on survivor " + survivor + "'s claim once its etcd has"
                    + " stopped.";
        }
    }

    /**
     * The recovery member runs on the survivor's data: delete every other pod (and its claim), the survivor's first
     * among them, which are all of the old cluster, so that only one cluster ever stands behind the client Service.
     */
    record RetireSurvivor(String survivor, String member, List<String> pods) implements Step {
        public RetireSurvivor {
            pods = List.copyOf(pods);
        }

        @Override
        public String describe() {
            return "Deleting the old cluster's pods " + String.join(", ", pods) + ": member " + member + " runs on a"
                    + " copy of survivor " + survivor + "'s data, as a one-member cluster that grows back to spec.size"
                    + " next.";
        }
    }

    /** Quorum is lost for good and the policy is FromBackup: create an EtcdRestore of this cluster from a backup. */
    record CreateRestore(String restore, QuorumLoss.Backup backup, String message) implements Step {
        @Override
        public String describe() {
            return message;
        }
    }

    /**
     * The cluster ran, and every member is gone with its data (no pod that can run again, no data claim): the
     * operator creates nothing, since a new seed would be an empty etcd behind the same client Service. A restore
     * or a person's explicit reseed request brings it back.
     */
    /**
     * @param recoveryReason  with policy FromBackup, how its recovery from a backup stands (the grace period), for the
     *                        QuorumRecovery condition; null otherwise
     * @param recoveryMessage what that condition says
     */
    record AllMembersLost(String message, String recoveryReason, String recoveryMessage) implements Step {
        public AllMembersLost(String message) {
            this(message, null, null);
        }

        @Override
        public String describe() {
            return message;
        }
    }

    /** The spec asks for something the operator will not do; the cluster keeps running as it is. */
    record Refuse(String reason, String message) implements Step {
        @Override
        public String describe() {
            return message;
        }
    }

    /** {@code spec.paused}: the operator changes nothing. */
    record Paused() implements Step {
        @Override
        public String describe() {
            return "spec.paused is true: the operator changes nothing until it is false.";
        }
    }

    /** Converged: size, membership, health and version are as asked. */
    record Nothing() implements Step {
        @Override
        public String describe() {
            return "The cluster has its size and version, and every member is healthy.";
        }
    }
}
