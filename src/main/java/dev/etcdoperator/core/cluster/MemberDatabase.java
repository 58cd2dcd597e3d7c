package dev.etcdoperator.core.cluster;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * One member's database as one observation found it: the figures the operator exports per member.
 *
 * @param member      the member's name (its pod's)
 * @param dbSize      the size of its database file in bytes
 * @param dbSizeInUse the bytes in use (0 when etcd does not say)
 * @param raftIndex   its raft index
 * @param alarms      the types of the alarms etcd holds for it ({@code NOSPACE}, {@code CORRUPT})
 */
public record MemberDatabase(String member, long dbSize, long dbSizeInUse, long raftIndex, Set<String> alarms) {
    public MemberDatabase {
        alarms = Set.copyOf(alarms);
    }

    /** Bytes a defragmentation would give back. */
    public long fragmentedBytes() {
        return dbSizeInUse > 0 ? Math.max(0, dbSize - dbSizeInUse) : 0;
    }

    /** The started members that answered, by name. */
    public static List<MemberDatabase> of(ClusterObservation o) {
        List<MemberDatabase> out = new ArrayList<>();
        for (EtcdMember m : o.members().orElse(List.of())) {
            Optional<MemberHealth> h = o.healthOf(m.id());
            if (!m.started() || h.isEmpty() || h.get().dbSize() <= 0) {
                continue;
            }
            Set<String> alarms = new TreeSet<>();
            o.space().alarms().stream().filter(a -> a.memberId() == m.id()).forEach(a -> alarms.add(a.type()));
            out.add(new MemberDatabase(m.name(), h.get().dbSize(), h.get().dbSizeInUse(), h.get().raftIndex(),
                    alarms));
        }
        out.sort(java.util.Comparator.comparing(MemberDatabase::member));
        return out;
    }
}
