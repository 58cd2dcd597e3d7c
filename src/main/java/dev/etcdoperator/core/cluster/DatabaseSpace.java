package dev.etcdoperator.core.cluster;

import java.util.List;
import java.util.Set;

/**
 * What one reconcile knows of a cluster's database space, besides each member's sizes (in {@link MemberHealth}).
 *
 * @param alarms            the alarms etcd holds; empty when none, when no member answered, or when no member
 *                          answering leads or serves linearizable reads (etcd lists alarms through raft)
 * @param quotaBytes        the members' quota ({@code --quota-backend-bytes}): {@code spec.etcd.quotaBackendBytes},
 *                          else the value {@code spec.pod.etcdEnv} gives it, else etcd's default
 * @param revision          the highest store revision a member reported; 0 when unknown
 * @param compactedRevision the revision the operator last compacted the keyspace to, while freeing space; 0 for none
 * @param defragmented      the members defragmented since that compaction
 * @param defragmentation   when to defragment a member outside a NOSPACE recovery ({@code spec.etcd.defragmentation});
 *                          null when off
 * @param round             the scheduled defragmentation rounds ({@code spec.etcd.defragmentation.schedule}); null
 *                          when there is no schedule
 */
public record DatabaseSpace(List<MemberAlarm> alarms, long quotaBytes, long revision, long compactedRevision,
        Set<Long> defragmented, FragmentationThreshold defragmentation, DefragmentationRound round) {
    /** etcd's default quota, 2 GiB. */
    public static final long DEFAULT_QUOTA_BYTES = 2L << 30;
    public static final DatabaseSpace NONE = new DatabaseSpace(List.of(), DEFAULT_QUOTA_BYTES, 0, 0, Set.of());

    /** Without defragmentation outside a NOSPACE recovery. */
    public DatabaseSpace(List<MemberAlarm> alarms, long quotaBytes, long revision, long compactedRevision,
            Set<Long> defragmented) {
        this(alarms, quotaBytes, revision, compactedRevision, defragmented, null, null);
    }

    /** Without scheduled defragmentation rounds. */
    public DatabaseSpace(List<MemberAlarm> alarms, long quotaBytes, long revision, long compactedRevision,
            Set<Long> defragmented, FragmentationThreshold defragmentation) {
        this(alarms, quotaBytes, revision, compactedRevision, defragmented, defragmentation, null);
    }

    /** Members are defragmented outside a NOSPACE recovery: past a threshold, on a schedule, or both. */
    public boolean defragmentationOn() {
        return defragmentation != null || round != null;
    }

    public DatabaseSpace {
        alarms = List.copyOf(alarms == null ? List.of() : alarms);
        defragmented = Set.copyOf(defragmented == null ? Set.of() : defragmented);
    }

    /** A NOSPACE alarm is raised: the cluster refuses writes. */
    public boolean noSpace() {
        return alarms.stream().anyMatch(MemberAlarm::noSpace);
    }

    public List<MemberAlarm> noSpaceAlarms() {
        return alarms.stream().filter(MemberAlarm::noSpace).toList();
    }
}
