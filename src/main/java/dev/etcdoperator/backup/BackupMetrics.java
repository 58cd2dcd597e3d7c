package dev.etcdoperator.backup;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import jakarta.enterprise.context.ApplicationScoped;

import dev.etcdoperator.metrics.MetricNames;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;

/**
 * Backup metrics, labelled with the EtcdBackup's namespace and name and the EtcdCluster it backs up (empty when
 * it names endpoints): {@code etcd_operator_backups_total{result}}, {@code etcd_operator_backup_failures_total{reason}},
 * {@code etcd_operator_backup_duration_seconds}, {@code etcd_operator_backup_size_bytes}; for periodic backups
 * {@code etcd_operator_backup_last_success_timestamp_seconds} and {@code etcd_operator_backup_interval_seconds}; with
 * restore drills
 * {@code etcd_operator_backup_drills_total{reason}}, {@code etcd_operator_backup_drill_duration_seconds} and
 * {@code etcd_operator_backup_last_verified_timestamp_seconds}; with retention
 * {@code etcd_operator_backup_retention_failures_total}. They go with the EtcdBackup.
 */
@ApplicationScoped
public class BackupMetrics {
    static final String BACKUP = "backup";
    static final String BACKUPS = MetricNames.name("backups");
    static final String FAILURES = MetricNames.name("backup.failures");
    static final String DURATION = MetricNames.name("backup.duration");
    static final String SIZE = MetricNames.name("backup.size");
    static final String LAST_SUCCESS = MetricNames.name("backup.last.success.timestamp.seconds");
    static final String INTERVAL = MetricNames.name("backup.interval.seconds");
    static final String DRILLS = MetricNames.name("backup.drills");
    static final String DRILL_DURATION = MetricNames.name("backup.drill.duration");
    static final String LAST_VERIFIED = MetricNames.name("backup.last.verified.timestamp.seconds");
    static final String RETENTION_FAILURES = MetricNames.name("backup.retention.failures");

    private record Key(String namespace, String backup) {
    }

    /** The age series of a periodic backup: when it last succeeded, and how often it should. */
    private record Age(AtomicLong lastSuccess, AtomicLong interval) {
    }

    private final MeterRegistry registry;
    private final Map<Key, AtomicLong> sizes = new ConcurrentHashMap<>();
    /**
     * Only for periodic EtcdBackups: a one-shot backup's last success only grows old, and an alert on its age would
     * fire for ever.
     */
    private final Map<Key, Age> ages = new ConcurrentHashMap<>();
    /** Only for EtcdBackups with a verified backup: an absent series never looks like a very old one. */
    private final Map<Key, AtomicLong> lastVerified = new ConcurrentHashMap<>();

    public BackupMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    /**
     * What the spec asks for now: the age series go when the backup is no longer periodic (and the interval follows
     * an edit), the last-verified one when it no longer has restore drills.
     */
    void spec(String namespace, String backup, Duration interval, boolean drills) {
        Key key = new Key(namespace, backup);
        if (interval.isZero()) {
            if (ages.remove(key) != null) {
                remove(LAST_SUCCESS, namespace, backup);
                remove(INTERVAL, namespace, backup);
            }
        } else {
            Age age = ages.get(key);
            if (age != null) {
                age.interval().set(interval.toSeconds());
            }
        }
        if (!drills && lastVerified.remove(key) != null) {
            remove(LAST_VERIFIED, namespace, backup);
        }
    }

    /** @param interval the spec's interval between backups; zero for a one-shot backup */
    void taken(String namespace, String backup, String cluster, Duration took, long size, Instant at,
            Duration interval) {
        Tags tags = tags(namespace, backup, cluster);
        backups(tags.and("result", "success")).increment();
        duration(tags.and("result", "success")).record(took);
        size(namespace, backup, cluster).set(size);
        if (!interval.isZero()) {
            Age age = age(namespace, backup, cluster);
            age.lastSuccess().set(at.getEpochSecond());
            age.interval().set(interval.toSeconds());
        }
    }

    /**
     * What the status remembers of the last successful backup of a periodic EtcdBackup: after an operator restart the
     * last-success series is there before the next backup succeeds (an alert on its age must see backups that keep
     * failing).
     */
    void remembered(String namespace, String backup, String cluster, Instant lastSuccess, Long size,
            Duration interval) {
        Age age = age(namespace, backup, cluster);
        age.interval().set(interval.toSeconds());
        if (age.lastSuccess().get() < lastSuccess.getEpochSecond()) {
            age.lastSuccess().set(lastSuccess.getEpochSecond());
            if (size != null) {
                size(namespace, backup, cluster).set(size);
            }
        }
    }

    /** The retention failures' series of a periodic EtcdBackup that keeps a number of backups, at 0 until one fails. */
    void retentionSeries(String namespace, String backup, String cluster) {
        retentionFailures(tags(namespace, backup, cluster));
    }

    /** Retention after a backup deleted nothing, or not all it was to delete (a RetentionFailed Event says why). */
    void retentionFailed(String namespace, String backup, String cluster) {
        retentionFailures(tags(namespace, backup, cluster)).increment();
    }

    private Counter retentionFailures(Tags tags) {
        return Counter.builder(RETENTION_FAILURES).description("Backups after which retention deleted nothing, or not"
                + " all it was to delete; periodic backups with maxBackups only.").tags(tags).register(registry);
    }

    void failed(String namespace, String backup, String cluster, String reason, Duration took) {
        Tags tags = tags(namespace, backup, cluster);
        backups(tags.and("result", "failure")).increment();
        Counter.builder(FAILURES).description("Failed backup attempts, by reason.").tags(tags.and("reason", reason))
                .register(registry).increment();
        duration(tags.and("result", "failure")).record(took);
    }

    /**
     * A restore drill ended: {@code etcd_operator_backup_drills_total{reason}} (Verified or why not), its duration,
     * and once a drill verified a backup {@code etcd_operator_backup_last_verified_timestamp_seconds}.
     *
     * @param verifiedAt when the backup was verified, or null when the drill failed
     */
    void drilled(String namespace, String backup, String cluster, String reason, Duration took, Instant verifiedAt) {
        Tags tags = tags(namespace, backup, cluster);
        Counter.builder(DRILLS).description("Restore drills ended, by outcome: Verified, or why not.")
                .tags(tags.and("reason", reason)).register(registry).increment();
        Timer.builder(DRILL_DURATION).description("How long restore drills took.")
                .tags(tags.and("result", verifiedAt == null ? "failure" : "success")).register(registry).record(took);
        if (verifiedAt != null) {
            lastVerified(namespace, backup, cluster).set(verifiedAt.getEpochSecond());
        }
    }

    /**
     * What the status remembers of the last verified backup: after an operator restart the last-verified series is
     * there before the next drill verifies one (an alert on its age must see drills that keep failing).
     */
    void rememberedVerified(String namespace, String backup, String cluster, Instant verifiedAt) {
        lastVerified(namespace, backup, cluster).accumulateAndGet(verifiedAt.getEpochSecond(), Math::max);
    }

    private AtomicLong lastVerified(String namespace, String backup, String cluster) {
        return lastVerified.computeIfAbsent(new Key(namespace, backup), k -> {
            AtomicLong at = new AtomicLong();
            Gauge.builder(LAST_VERIFIED, at, AtomicLong::get).description("When a restore drill last verified a"
                    + " backup of this EtcdBackup (Unix seconds).").tags(tags(namespace, backup, cluster))
                    .register(registry);
            return at;
        });
    }

    /** Drops every series of a deleted EtcdBackup, so that no alert fires on a backup that is gone. */
    void forget(String namespace, String backup) {
        sizes.remove(new Key(namespace, backup));
        ages.remove(new Key(namespace, backup));
        lastVerified.remove(new Key(namespace, backup));
        MetricNames.removeAll(registry, MetricNames.name("backup"), namespace, BACKUP, backup);
    }

    private AtomicLong size(String namespace, String backup, String cluster) {
        return sizes.computeIfAbsent(new Key(namespace, backup), k -> {
            AtomicLong size = new AtomicLong();
            Gauge.builder(SIZE, size, AtomicLong::get).description("Size of the last successful backup.")
                    .tags(tags(namespace, backup, cluster)).baseUnit("bytes").register(registry);
            return size;
        });
    }

    private Age age(String namespace, String backup, String cluster) {
        return ages.computeIfAbsent(new Key(namespace, backup), k -> {
            Tags tags = tags(namespace, backup, cluster);
            Age age = new Age(new AtomicLong(), new AtomicLong());
            Gauge.builder(LAST_SUCCESS, age.lastSuccess(), AtomicLong::get).description("When the last successful"
                    + " backup ended (Unix seconds); periodic backups only.").tags(tags).register(registry);
            Gauge.builder(INTERVAL, age.interval(), AtomicLong::get).description("The interval the spec asks between"
                    + " backups (seconds); periodic backups only.").tags(tags).register(registry);
            return age;
        });
    }

    private void remove(String name, String namespace, String backup) {
        registry.find(name).tag(MetricNames.NAMESPACE, namespace).tag(BACKUP, backup).meters()
                .forEach(registry::remove);
    }

    private Counter backups(Tags tags) {
        return Counter.builder(BACKUPS).description("Backup attempts ended, by result.").tags(tags).register(registry);
    }

    private Timer duration(Tags tags) {
        return Timer.builder(DURATION).description("How long backup attempts took, by result.").tags(tags)
                .register(registry);
    }

    private static Tags tags(String namespace, String backup, String cluster) {
        return MetricNames.tags(namespace, BACKUP, backup).and(MetricNames.CLUSTER, cluster == null ? "" : cluster);
    }
}
