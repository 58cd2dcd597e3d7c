package dev.etcdoperator.metrics;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;

/**
 * The naming convention of the operator's own metrics. Meters are named in Micrometer's dotted form under
 * {@link #PREFIX}; Prometheus shows {@code etcd.operator.cluster.members} as {@code etcd_operator_cluster_members},
 * adds {@code _total} to counters and the base unit to timers and summaries ({@code _seconds}, {@code _bytes}).
 * Every meter about a resource carries {@link #NAMESPACE} and a tag naming the resource by its kind
 * ({@link #CLUSTER}, {@code backup}, {@code restore}), so that its meters can be removed with it. The cluster's
 * tag is {@code etcd_cluster}, as on the member pods: {@code cluster} is the external label that Thanos and Mimir
 * setups put on every series.
 * docs/metrics.md lists every name.
 */
public final class MetricNames {
    public static final String PREFIX = "etcd.operator.";
    public static final String NAMESPACE = "namespace";
    public static final String CLUSTER = "etcd_cluster";

    private MetricNames() {
    }

    /** {@code etcd.operator.<suffix>}. */
    public static String name(String suffix) {
        return PREFIX + suffix;
    }

    public static Tags tags(String namespace, String resourceTag, String resourceName) {
        return Tags.of(NAMESPACE, namespace, resourceTag, resourceName);
    }

    /** Removes every meter under {@code prefix} that is about the given resource; returns how many went. */
    public static int removeAll(MeterRegistry registry, String prefix, String namespace, String resourceTag,
            String resourceName) {
        int removed = 0;
        for (Meter meter : registry.getMeters()) {
            Meter.Id id = meter.getId();
            if (id.getName().startsWith(prefix) && namespace.equals(id.getTag(NAMESPACE))
                    && resourceName.equals(id.getTag(resourceTag)) && registry.remove(meter) != null) {
                removed++;
            }
        }
        return removed;
    }
}
