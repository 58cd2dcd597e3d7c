package dev.etcdoperator.core.cluster;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * What the planner needs to decide about a lost quorum: the policy the spec chose, since when the status says quorum
 * is lost, a person's approval, the recovery in progress, and the newest backup to restore from.
 *
 * @param policy         {@code Manual}, {@code FromSurvivor} or {@code FromBackup}
 * @param gracePeriod    how long quorum must have been lost, with a majority lost for good, before a recovery
 * @param lostSince      when the status first recorded this loss of quorum; null when it records none
 * @param approval       the value of the recover-quorum annotation; null when there is none
 * @param uid            the cluster's {@code metadata.uid}, which an approval must name
 * @param awaitingPerson the status says the operator waits for a person (it told the steps): only then an approval
 *                       counts, so that an annotation put on early is no standing order for a later loss
 * @param recovery       the recovery the status records as in progress; null when none
 * @param newestBackup   the newest successful backup of this cluster (looked up for {@code FromBackup} only); null
 *                       when there is none
 * @param votersAtLoss   the voting members the status recorded as listed while quorum was lost
 *                       ({@code status.quorumLostVoters}); empty when none was recorded
 */
public record QuorumLoss(String policy, Duration gracePeriod, Instant lostSince, String approval, String uid,
        boolean awaitingPerson, Recovery recovery, Backup newestBackup, List<String> votersAtLoss) {
    public static final String MANUAL = "Manual";
    public static final String FROM_SURVIVOR = "FromSurvivor";
    public static final String FROM_BACKUP = "FromBackup";
    public static final Duration DEFAULT_GRACE_PERIOD = Duration.ofSeconds(60);
    /** The default: wait for a person, nothing recorded. */
    public static final QuorumLoss NONE = new QuorumLoss(MANUAL, DEFAULT_GRACE_PERIOD, null, null, null, false, null,
            null);

    public QuorumLoss {
        policy = policy == null ? MANUAL : policy;
        gracePeriod = gracePeriod == null ? DEFAULT_GRACE_PERIOD : gracePeriod;
        votersAtLoss = votersAtLoss == null ? List.of() : List.copyOf(votersAtLoss);
    }

    /** A loss for which the status records no voters. */
    public QuorumLoss(String policy, Duration gracePeriod, Instant lostSince, String approval, String uid,
            boolean awaitingPerson, Recovery recovery, Backup newestBackup) {
        this(policy, gracePeriod, lostSince, approval, uid, awaitingPerson, recovery, newestBackup, List.of());
    }

    /**
     * A recovery the status records: from a survivor ({@code survivor}, {@code member} set) or from a backup
     * ({@code restore} set).
     *
     * @param memberAnswered the store revision at which the recovery's member answered, in this reconcile, as a
     *                       healthy one-member cluster; -1 when it did not (or was not asked)
     * @param fromClaim      the survivor's etcd served nothing: its pod goes first, and the member copies its database
     *                       from the survivor's claim ({@code revision} and {@code raftIndex} are then unknown, 0)
     * @param failedCopies   pods of the member that ended before their etcd started, deleted to be made again
     */
    public record Recovery(String survivor, String member, long revision, long raftIndex, String restore,
            long memberAnswered, RestoreSeen restoreSeen, boolean fromClaim, int failedCopies) {
        public Recovery(String survivor, String member, long revision, long raftIndex, String restore,
                long memberAnswered, RestoreSeen restoreSeen, boolean fromClaim) {
            this(survivor, member, revision, raftIndex, restore, memberAnswered, restoreSeen, fromClaim, 0);
        }

        public Recovery(String survivor, String member, long revision, long raftIndex, String restore,
                long memberAnswered, RestoreSeen restoreSeen) {
            this(survivor, member, revision, raftIndex, restore, memberAnswered, restoreSeen, false);
        }

        public Recovery(String survivor, String member, long revision, long raftIndex, String restore,
                long memberAnswered) {
            this(survivor, member, revision, raftIndex, restore, memberAnswered, RestoreSeen.RUNNING);
        }

        public Recovery(String survivor, String member, long revision, long raftIndex, String restore) {
            this(survivor, member, revision, raftIndex, restore, -1);
        }

        public Recovery {
            restoreSeen = restoreSeen == null ? RestoreSeen.RUNNING : restoreSeen;
        }

        /** A recovery from the survivor's claim, its member not asked yet. */
        public static Recovery fromClaim(String survivor, String member) {
            return new Recovery(survivor, member, 0, 0, null, -1, RestoreSeen.RUNNING, true);
        }

        /** The same recovery, its member having answered as a healthy one-member cluster at {@code storeRevision}. */
        public Recovery answeredAt(long storeRevision) {
            return new Recovery(survivor, member, revision, raftIndex, restore, storeRevision, restoreSeen, fromClaim,
                    failedCopies);
        }

        /** The same recovery, with what is seen of the EtcdRestore it made. */
        public Recovery withRestoreSeen(RestoreSeen seen) {
            return new Recovery(survivor, member, revision, raftIndex, restore, memberAnswered, seen, fromClaim,
                    failedCopies);
        }

        /** The same recovery, {@code count} pods of its member having ended before their etcd started. */
        public Recovery withFailedCopies(int count) {
            return new Recovery(survivor, member, revision, raftIndex, restore, memberAnswered, restoreSeen, fromClaim,
                    count);
        }

        /** Its member answered as a healthy one-member cluster with at least the survivor's writes. */
        public boolean memberProven() {
            return memberAnswered >= 0 && memberAnswered >= revision;
        }
    }

    /**
     * What is seen of the EtcdRestore a recovery from a backup made.
     *
     * @param gone    it does not exist (deleted)
     * @param failure why it failed ({@code status.reason}) when it did, else null
     */
    public record RestoreSeen(boolean gone, String failure) {
        public static final RestoreSeen RUNNING = new RestoreSeen(false, null);
    }

    /** The same loss, with {@code recovery} in place of the one recorded. */
    public QuorumLoss withRecovery(Recovery recovery) {
        return new QuorumLoss(policy, gracePeriod, lostSince, approval, uid, awaitingPerson, recovery, newestBackup,
                votersAtLoss);
    }

    /** A successful backup of this cluster, verified by the backup controller. */
    public record Backup(String name, String path, String takenAt) {
        public Backup {
            Objects.requireNonNull(name, "name");
        }
    }

    public boolean approved() {
        return approval != null && uid != null && uid.equals(approval) && awaitingPerson;
    }

    /** An approval that names another uid: refused, and said. */
    public boolean approvalForAnotherUid() {
        return approval != null && !approval.equals(uid);
    }
}
