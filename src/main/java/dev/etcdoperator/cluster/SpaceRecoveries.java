package dev.etcdoperator.cluster;

import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.enterprise.context.ApplicationScoped;

import dev.etcdoperator.core.cluster.Step;

/**
 * How far the operator got in freeing each cluster's space while its NOSPACE alarm is raised: the revision it
 * compacted to and the members it defragmented since. Kept in memory: after a restart (or on another replica) the
 * compaction is asked again and etcd answers that it is done, and each member is defragmented once more, which is
 * harmless.
 */
@ApplicationScoped
public class SpaceRecoveries {
    /** What was done for one cluster, by the cluster's uid (a cluster created again under the name starts afresh). */
    record Progress(long compactedRevision, Set<Long> defragmented) {
        Progress {
            defragmented = Set.copyOf(defragmented);
        }
    }

    private static final Progress NONE = new Progress(0, Set.of());
    /**
     * The alarms last read of each cluster: a read that fails (no leader, a member busy) says nothing of them, and
     * taken for "no alarm" it would report a NOSPACE alarm gone, and raised again at the next read.
     */
    private final Map<String, java.util.List<dev.etcdoperator.core.cluster.MemberAlarm>> alarms =
            new ConcurrentHashMap<>();
    private final Map<String, Progress> byCluster = new ConcurrentHashMap<>();
    private final Map<String, String> uidByKey = new ConcurrentHashMap<>();

    Progress of(String key, String uid) {
        String known = uidByKey.get(key);
        if (known != null && !known.equals(uid)) {
            forget(key);
        }
        return byCluster.getOrDefault(key, NONE);
    }

    /** @param read the alarms just read, or null when they could not be: then the last ones read (or none) */
    java.util.List<dev.etcdoperator.core.cluster.MemberAlarm> alarms(String key, String uid,
            java.util.List<dev.etcdoperator.core.cluster.MemberAlarm> read) {
        String known = uidByKey.get(key);
        if (known != null && !known.equals(uid)) {
            forget(key);
        }
        if (read == null) {
            return alarms.getOrDefault(key, java.util.List.of());
        }
        uidByKey.put(key, uid);
        alarms.put(key, java.util.List.copyOf(read));
        return read;
    }

    /** Records a space step that was carried out. */
    void done(String key, String uid, Step step) {
        if (step instanceof Step.CompactKeyspace compact) {
            uidByKey.put(key, uid);
            byCluster.put(key, new Progress(compact.revision(), Set.of()));
        } else if (step instanceof Step.DefragmentMember defragment
                && Step.DefragmentMember.NO_SPACE.equals(defragment.reason())) {
            uidByKey.put(key, uid);
            byCluster.compute(key, (k, p) -> {
                Progress before = p == null ? NONE : p;
                Set<Long> members = new HashSet<>(before.defragmented());
                members.add(defragment.id());
                return new Progress(before.compactedRevision(), members);
            });
        } else if (step instanceof Step.DisarmNoSpace) {
            forget(key);
        }
    }

    void forget(String key) {
        byCluster.remove(key);
        uidByKey.remove(key);
        alarms.remove(key);
    }
}
