package dev.etcdoperator.metrics;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.ToDoubleFunction;

import jakarta.enterprise.context.ApplicationScoped;

import dev.etcdoperator.core.cluster.ClusterHealth;
import dev.etcdoperator.core.cluster.Step;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;

/**
 * The cluster controller's metrics, per {@code EtcdCluster}: gauges of what the last observation found, and
 * counters of the membership changes the operator made. A cluster's meters are registered when it is first
 * observed and removed when it is deleted.
 */
@ApplicationScoped
public class ClusterMetrics {
    static final String PREFIX = MetricNames.name("cluster.");
    public static final String MEMBERS = PREFIX + "members";
    public static final String DESIRED_MEMBERS = PREFIX + "desired.members";
    public static final String READY_MEMBERS = PREFIX + "ready.members";
    public static final String QUORUM = PREFIX + "quorum";
    public static final String HAS_LEADER = PREFIX + "has.leader";
    public static final String ADDITIONS = PREFIX + "member.additions";
    public static final String REMOVALS = PREFIX + "member.removals";
    public static final String REPLACEMENTS = PREFIX + "member.replacements";
    public static final String UPGRADES = PREFIX + "member.upgrades";
    public static final String REFUSALS = PREFIX + "refusals";
    public static final String STEP_FAILURES = PREFIX + "step.failures";
    public static final String STATE = "state";
    public static final String REASON = "reason";
    public static final String STEP = "step";

    private static final Map<String, String> HELP = Map.ofEntries(
            Map.entry(MEMBERS, "Members of the cluster by state: healthy or unhealthy voters, and learners"),
            Map.entry(DESIRED_MEMBERS, "Members the cluster should have (spec.size)"),
            Map.entry(READY_MEMBERS, "Member pods that are ready"),
            Map.entry(QUORUM, "1 while a majority of the voting members is healthy, else 0"),
            Map.entry(HAS_LEADER, "1 while a member says it is the leader, else 0"),
            Map.entry(ADDITIONS, "Members added, the first member and replacements' fresh members included"),
            Map.entry(REMOVALS, "Members removed to scale down"),
            Map.entry(REPLACEMENTS, "Dead members removed so that fresh members replace them"),
            Map.entry(UPGRADES, "Member pods moved to another etcd version"),
            Map.entry(REFUSALS, "Spec changes the operator refused, by reason"),
            Map.entry(STEP_FAILURES, "Steps that failed and are retried, by step"));

    private record Key(String namespace, String cluster) {
        Tags tags() {
            return MetricNames.tags(namespace, MetricNames.CLUSTER, cluster);
        }
    }

    private final MeterRegistry registry;
    private final Map<Key, AtomicReference<ClusterHealth>> observed = new ConcurrentHashMap<>();

    public ClusterMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    /** Sets the cluster's gauges to what one observation found. */
    public void observed(String namespace, String cluster, ClusterHealth health) {
        observed.computeIfAbsent(new Key(namespace, cluster), this::register).set(health);
    }

    /** Counts a step that was carried out without error. */
    public void acted(String namespace, String cluster, Step step) {
        String counter = null;
        if (step instanceof Step.CreateSeed || step instanceof Step.AddMember) {
            counter = ADDITIONS;
        } else if (step instanceof Step.RemoveMember remove) {
            counter = Step.RemoveMember.DEAD_MEMBER.equals(remove.reason()) ? REPLACEMENTS : REMOVALS;
        } else if (step instanceof Step.UpgradeMember) {
            counter = UPGRADES;
        }
        if (counter != null) {
            counter(counter, new Key(namespace, cluster).tags()).increment();
        }
    }

    /** Counts a spec change the operator refused, once per refusal. */
    public void refused(String namespace, String cluster, String reason) {
        counter(REFUSALS, new Key(namespace, cluster).tags().and(REASON, reason)).increment();
    }

    /** Counts a step that failed (the operator retries it). */
    public void stepFailed(String namespace, String cluster, Step step) {
        counter(STEP_FAILURES, new Key(namespace, cluster).tags().and(STEP, step.getClass().getSimpleName()))
                .increment();
    }

    /** Removes every meter of the cluster. */
    public void forget(String namespace, String cluster) {
        observed.remove(new Key(namespace, cluster));
        MetricNames.removeAll(registry, PREFIX, namespace, MetricNames.CLUSTER, cluster);
    }

    private AtomicReference<ClusterHealth> register(Key key) {
        AtomicReference<ClusterHealth> health = new AtomicReference<>(new ClusterHealth(0, 0, 0, 0, 0, false, false));
        Tags tags = key.tags();
        gauge(MEMBERS, tags.and(STATE, "healthy"), health, ClusterHealth::healthy);
        gauge(MEMBERS, tags.and(STATE, "unhealthy"), health, ClusterHealth::unhealthy);
        gauge(MEMBERS, tags.and(STATE, "learner"), health, ClusterHealth::learners);
        gauge(DESIRED_MEMBERS, tags, health, ClusterHealth::desired);
        gauge(READY_MEMBERS, tags, health, ClusterHealth::ready);
        gauge(QUORUM, tags, health, h -> h.quorum() ? 1 : 0);
        gauge(HAS_LEADER, tags, health, h -> h.leader() ? 1 : 0);
        // at zero from the start, so that the first change shows as an increase
        for (String name : new String[] { ADDITIONS, REMOVALS, REPLACEMENTS, UPGRADES }) {
            counter(name, tags);
        }
        return health;
    }

    private void gauge(String name, Tags tags, AtomicReference<ClusterHealth> health,
            ToDoubleFunction<ClusterHealth> value) {
        Gauge.builder(name, health, h -> value.applyAsDouble(h.get())).description(HELP.get(name)).tags(tags)
                .strongReference(true)
                .register(registry);
    }

    private Counter counter(String name, Tags tags) {
        return Counter.builder(name).description(HELP.get(name)).tags(tags).register(registry);
    }
}
