package dev.etcdoperator.cluster;

import java.util.Arrays;
import java.util.List;
import java.util.Map;

import dev.etcdoperator.api.v1beta2.EtcdCluster;
import dev.etcdoperator.api.v1beta2.RestoreAnnotations;
import dev.etcdoperator.core.status.Conditions;

/**
 * The clusters an EtcdRestore rebuilt this one in place of: the {@code restored-from-uid} annotation (the template's
 * uid first, then those it was restored in place of), taken only while the status, which the operator alone writes,
 * says the seed restored the restore's snapshot. A copied manifest, or a cluster that started empty, has none.
 */
public final class RestoredFrom {
    /** How many earlier clusters a restored cluster names: restores in a row without a backup between. */
    public static final int KEPT = 5;

    private RestoredFrom() {
    }

    public static List<String> uids(EtcdCluster cluster) {
        Map<String, String> annotations = cluster.getMetadata().getAnnotations();
        String value = annotations == null ? null : annotations.get(RestoreAnnotations.RESTORED_FROM_UID);
        boolean confirmed = cluster.getStatus() != null && Conditions.find(cluster.getStatus().getConditions(),
                EtcdClusterReconciler.CONDITION_RESTORE).map(c -> Conditions.TRUE.equals(c.getStatus())
                        && EtcdClusterReconciler.REASON_RESTORE_CONFIRMED.equals(c.getReason())).orElse(false);
        return value == null || !confirmed ? List.of() : parse(value);
    }

    /** The uids in an annotation's value, at most {@link #KEPT}. */
    public static List<String> parse(String value) {
        return Arrays.stream(value.split(",")).map(String::strip).filter(s -> !s.isEmpty()).limit(KEPT).toList();
    }

    /** The annotation's value for a cluster restored in place of {@code template}, which was restored from these. */
    public static String value(String templateUid, String templatesOwn) {
        List<String> earlier = templatesOwn == null ? List.of() : parse(templatesOwn);
        return String.join(",", java.util.stream.Stream.concat(java.util.stream.Stream.of(templateUid),
                earlier.stream().filter(u -> !u.equals(templateUid))).limit(KEPT).toList());
    }
}
