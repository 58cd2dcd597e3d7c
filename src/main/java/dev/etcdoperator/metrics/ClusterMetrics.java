package dev.etcdoperator.metrics;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.ToDoubleFunction;

import jakarta.enterprise.context.ApplicationScoped;

import dev.etcdoperator.core.cluster.CertificateValidity;
import dev.etcdoperator.core.cluster.ClusterHealth;
import dev.etcdoperator.core.cluster.MemberDatabase;
import dev.etcdoperator.core.cluster.Step;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
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
    public static final String QUOTA = PREFIX + "quota.backend";
    public static final String MEMBER_DB_SIZE = PREFIX + "member.db.size";
    public static final String MEMBER_DB_SIZE_IN_USE = PREFIX + "member.db.size.in.use";
    public static final String MEMBER_DB_FRAGMENTED = PREFIX + "member.db.fragmented";
    public static final String MEMBER_RAFT_INDEX = PREFIX + "member.raft.index";
    public static final String MEMBER_ALARM = PREFIX + "member.alarm";
    public static final String COMPACTIONS = PREFIX + "compactions";
    public static final String DEFRAGMENTATIONS = PREFIX + "member.defragmentations";
    public static final String DISARMS = PREFIX + "alarm.disarms";
    public static final String CERTIFICATE_EXPIRY = PREFIX + "certificate.expiry.timestamp";
    public static final String SECRET = "secret";
    public static final String KEY = "key";
    public static final String STATE = "state";
    public static final String MEMBER = "member";
    public static final String ALARM = "alarm";
    /** The alarm types etcd knows; each member has a series for each, at 0 while it is not raised. */
    static final List<String> ALARMS = List.of("NOSPACE", "CORRUPT");
    public static final String REASON = "reason";
    /** Why a member was defragmented: under the NOSPACE alarm, past the threshold, or in a scheduled round. */
    static final List<String> DEFRAGMENTATION_REASONS = List.of(Step.DefragmentMember.NO_SPACE,
            Step.DefragmentMember.FRAGMENTED, Step.DefragmentMember.SCHEDULED);
    public static final String STEP = "step";

    private static final Map<String, String> HELP = Map.ofEntries(
            Map.entry(MEMBERS, "Members of the cluster by state: healthy or unhealthy voters, and learners"),
            Map.entry(DESIRED_MEMBERS, "Members the cluster should have (spec.size)"),
            Map.entry(READY_MEMBERS, "Member pods that are ready"),
            Map.entry(QUORUM, "1 while a majority of the voting members is healthy, else 0"),
            Map.entry(HAS_LEADER, "1 while a member says it is the leader, else 0"),
            Map.entry(ADDITIONS, "Members added, the first members and replacements' fresh members included"),
            Map.entry(REMOVALS, "Members removed to scale down"),
            Map.entry(REPLACEMENTS, "Dead or failing members removed so that fresh members replace them"),
            Map.entry(UPGRADES, "Member pods moved to another etcd version"),
            Map.entry(REFUSALS, "Spec changes the operator refused, by reason"),
            Map.entry(STEP_FAILURES, "Steps that failed and are retried, by step"),
            Map.entry(QUOTA, "The members' database quota (--quota-backend-bytes) as the operator knows it"),
            Map.entry(MEMBER_DB_SIZE, "Size of the member's database file"),
            Map.entry(MEMBER_DB_SIZE_IN_USE, "Bytes of the member's database file in use"),
            Map.entry(MEMBER_DB_FRAGMENTED, "Bytes of the member's database file a defragmentation would give back"),
            Map.entry(MEMBER_RAFT_INDEX, "The member's raft index"),
            Map.entry(MEMBER_ALARM, "1 while etcd holds the alarm for the member, else 0"),
            Map.entry(COMPACTIONS, "Compactions the operator made to free space under the NOSPACE alarm"),
            Map.entry(DEFRAGMENTATIONS, "Members the operator defragmented, by reason: NoSpace (under the NOSPACE "
                    + "alarm), Fragmented (past spec.etcd.defragmentation's threshold) or Scheduled (in a round of "
                    + "its schedule)"),
            Map.entry(DISARMS, "NOSPACE alarms the operator disarmed once the members were back under their quota"),
            Map.entry(CERTIFICATE_EXPIRY, "When the first certificate under a key of the cluster's TLS Secrets expires"
                    + " (spec.TLS.static), in seconds since the epoch"));

    private record Key(String namespace, String cluster) {
        Tags tags() {
            return MetricNames.tags(namespace, MetricNames.CLUSTER, cluster);
        }
    }

    private final MeterRegistry registry;
    private final Map<Key, AtomicReference<ClusterHealth>> observed = new ConcurrentHashMap<>();
    private final Map<Key, AtomicLong> quotas = new ConcurrentHashMap<>();
    private final Map<Key, Map<String, AtomicReference<MemberDatabase>>> databases = new ConcurrentHashMap<>();
    private final Map<Key, Map<List<String>, AtomicLong>> certificates = new ConcurrentHashMap<>();

    public ClusterMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    /** Sets the cluster's gauges to what one observation found. */
    public void observed(String namespace, String cluster, ClusterHealth health) {
        observed.computeIfAbsent(new Key(namespace, cluster), this::register).set(health);
    }

    /**
     * Sets the per-member database gauges to what one observation found. Members that did not answer lose their series
     * until they answer again.
     */
    public void observedDatabases(String namespace, String cluster, long quotaBytes, List<MemberDatabase> members) {
        Key key = new Key(namespace, cluster);
        quotas.computeIfAbsent(key, k -> {
            AtomicLong quota = new AtomicLong();
            Gauge.builder(QUOTA, quota, AtomicLong::get).description(HELP.get(QUOTA)).tags(k.tags()).baseUnit("bytes")
                    .strongReference(true).register(registry);
            return quota;
        }).set(quotaBytes);
        Map<String, AtomicReference<MemberDatabase>> known = databases.computeIfAbsent(key,
                k -> new ConcurrentHashMap<>());
        Set<String> names = new HashSet<>();
        for (MemberDatabase m : members) {
            names.add(m.member());
            known.computeIfAbsent(m.member(), name -> registerMember(key, name)).set(m);
        }
        for (String gone : Set.copyOf(known.keySet())) {
            if (!names.contains(gone)) {
                known.remove(gone);
                for (Meter meter : registry.getMeters()) {
                    Meter.Id id = meter.getId();
                    if (id.getName().startsWith(PREFIX + "member.") && gone.equals(id.getTag(MEMBER))
                            && namespace.equals(id.getTag(MetricNames.NAMESPACE))
                            && cluster.equals(id.getTag(MetricNames.CLUSTER)) && !(meter instanceof Counter)) {
                        registry.remove(meter);
                    }
                }
            }
        }
    }

    private AtomicReference<MemberDatabase> registerMember(Key key, String member) {
        AtomicReference<MemberDatabase> db = new AtomicReference<>(new MemberDatabase(member, 0, 0, 0, Set.of()));
        Tags tags = key.tags().and(MEMBER, member);
        memberGauge(MEMBER_DB_SIZE, tags, db, MemberDatabase::dbSize, "bytes");
        memberGauge(MEMBER_DB_SIZE_IN_USE, tags, db, MemberDatabase::dbSizeInUse, "bytes");
        memberGauge(MEMBER_DB_FRAGMENTED, tags, db, MemberDatabase::fragmentedBytes, "bytes");
        memberGauge(MEMBER_RAFT_INDEX, tags, db, MemberDatabase::raftIndex, null);
        for (String alarm : ALARMS) {
            memberGauge(MEMBER_ALARM, tags.and(ALARM, alarm), db, m -> m.alarms().contains(alarm) ? 1 : 0, null);
        }
        return db;
    }

    private void memberGauge(String name, Tags tags, AtomicReference<MemberDatabase> db,
            ToDoubleFunction<MemberDatabase> value, String unit) {
        Gauge.Builder<AtomicReference<MemberDatabase>> builder = Gauge.builder(name, db,
                d -> value.applyAsDouble(d.get())).description(HELP.get(name)).tags(tags).strongReference(true);
        if (unit != null) {
            builder.baseUnit(unit);
        }
        builder.register(registry);
    }

    /**
     * Counts a step that was carried out without error.
     *
     * @param membersAdded the members it brought in (a pod that existed already brought in none)
     */
    public void acted(String namespace, String cluster, Step step, int membersAdded) {
        if (membersAdded > 0) {
            counter(ADDITIONS, new Key(namespace, cluster).tags()).increment(membersAdded);
        }
        String counter = null;
        if (step instanceof Step.RemoveMember remove) {
            counter = Step.RemoveMember.SCALE_DOWN.equals(remove.reason()) ? REMOVALS : REPLACEMENTS;
        } else if (step instanceof Step.UpgradeMember || step instanceof Step.DowngradeMember) {
            counter = UPGRADES;
        } else if (step instanceof Step.CompactKeyspace) {
            counter = COMPACTIONS;
        } else if (step instanceof Step.DefragmentMember defragment) {
            counter(DEFRAGMENTATIONS, new Key(namespace, cluster).tags().and(REASON, defragment.reason())).increment();
        } else if (step instanceof Step.DisarmNoSpace) {
            counter = DISARMS;
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
    /** Sets one gauge per certificate key of the cluster's TLS Secrets to its expiry; keys no longer there go. */
    public void certificates(String namespace, String cluster, List<CertificateValidity> validity) {
        Key key = new Key(namespace, cluster);
        Map<List<String>, AtomicLong> known = certificates.computeIfAbsent(key, k -> new ConcurrentHashMap<>());
        Set<List<String>> now = new HashSet<>();
        for (CertificateValidity c : validity) {
            List<String> id = List.of(c.secret(), c.key());
            now.add(id);
            known.computeIfAbsent(id, i -> {
                AtomicLong expiry = new AtomicLong();
                Gauge.builder(CERTIFICATE_EXPIRY, expiry, AtomicLong::get).description(HELP.get(CERTIFICATE_EXPIRY))
                        .tags(key.tags().and(SECRET, i.get(0)).and(KEY, i.get(1))).baseUnit("seconds")
                        .strongReference(true).register(registry);
                return expiry;
            }).set(c.notAfter().getEpochSecond());
        }
        for (List<String> gone : Set.copyOf(known.keySet())) {
            if (!now.contains(gone)) {
                known.remove(gone);
                registry.getMeters().stream().filter(m -> m.getId().getName().equals(CERTIFICATE_EXPIRY)
                        && namespace.equals(m.getId().getTag(MetricNames.NAMESPACE))
                        && cluster.equals(m.getId().getTag(MetricNames.CLUSTER))
                        && gone.get(0).equals(m.getId().getTag(SECRET)) && gone.get(1).equals(m.getId().getTag(KEY)))
                        .toList().forEach(registry::remove);
            }
        }
    }

    public void forget(String namespace, String cluster) {
        certificates.remove(new Key(namespace, cluster));
        observed.remove(new Key(namespace, cluster));
        quotas.remove(new Key(namespace, cluster));
        databases.remove(new Key(namespace, cluster));
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
        for (String name : new String[] { ADDITIONS, REMOVALS, REPLACEMENTS, UPGRADES, COMPACTIONS, DISARMS }) {
            counter(name, tags);
        }
        for (String reason : DEFRAGMENTATION_REASONS) {
            counter(DEFRAGMENTATIONS, tags.and(REASON, reason));
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
