package dev.etcdoperator.backup;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import dev.etcdoperator.core.backup.BackupFailure;
import dev.etcdoperator.core.backup.KeyspaceFingerprint;
import dev.etcdoperator.core.backup.SourceChoice;
import dev.etcdoperator.etcd.EtcdAdmin;
import dev.etcdoperator.etcd.EtcdAdminException;
import dev.etcdoperator.etcd.EtcdAdminFactory;
import dev.etcdoperator.etcd.EtcdTls;
import dev.etcdoperator.etcd.Member;
import dev.etcdoperator.etcd.MemberStatus;
import org.jboss.logging.Logger;

/**
 * Finds the members a snapshot can be taken from. The endpoints a user gives may be a Service in front of the
 * members or a subset of them, so the member list is asked for first and every started member is asked for its
 * revision; the endpoints themselves are asked too, in case the members' advertised URLs cannot be reached from
 * here. The whole search ends at the backup's deadline, however many members do not answer.
 */
final class SnapshotSources {
    /** What the members said: every one that answered, and the best to read (see {@link SourceChoice}). */
    record Found(List<SourceChoice.Candidate> answered, SourceChoice.Candidate best) {
    }

    private static final Logger LOG = Logger.getLogger(SnapshotSources.class);
    private static final ExecutorService SEARCHES = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "backup-source-search");
        t.setDaemon(true);
        return t;
    });

    private final EtcdAdminFactory admins;
    private final Clock clock;

    SnapshotSources(EtcdAdminFactory admins, Clock clock) {
        this.admins = admins;
        this.clock = clock;
    }

    Found find(List<String> endpoints, EtcdTls tls, Instant deadline) {
        Future<Found> search = SEARCHES.submit(() -> search(endpoints, tls, deadline));
        try {
            long millis = Math.max(1, Duration.between(clock.instant(), deadline).toMillis());
            return search.get(millis, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            search.cancel(true);
            throw new BackupFailure(BackupFailure.TIMEOUT, "the search for a member to read at "
                    + String.join(", ", endpoints) + " did not end in time", true, e);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
        } catch (InterruptedException e) {
            search.cancel(true);
            Thread.currentThread().interrupt();
            throw new BackupFailure(BackupFailure.ETCD_UNREACHABLE, "interrupted", true, e);
        }
    }

    private Found search(List<String> endpoints, EtcdTls tls, Instant deadline) {
        List<String> problems = new ArrayList<>();
        List<SourceChoice.Candidate> answered = new ArrayList<>();
        try (EtcdAdmin admin = admins.open(endpoints, tls)) {
            Set<String> urls = new LinkedHashSet<>();
            try {
                for (Member m : admin.members()) {
                    if (m.started()) {
                        urls.addAll(m.clientUrls());
                    }
                }
            } catch (EtcdAdminException e) {
                problems.add(e.getMessage());
            }
            urls.addAll(endpoints);
            Set<Long> seen = new HashSet<>();
            for (String url : urls) {
                if (!clock.instant().isBefore(deadline) || Thread.currentThread().isInterrupted()) {
                    break;
                }
                try {
                    MemberStatus status = admin.status(url);
                    if (!seen.add(status.memberId())) {
                        continue;
                    }
                    long revision = admin.revision(url);
                    answered.add(new SourceChoice.Candidate(url, status.memberId(), revision, status.version(),
                            status.learner(), status.clusterId()));
                } catch (EtcdAdminException e) {
                    problems.add(e.getMessage());
                }
            }
        } catch (IllegalArgumentException e) {
            throw new BackupFailure(BackupFailure.ETCD_UNREACHABLE, "cannot connect to " + endpoints + ": "
                    + e.getMessage(), true, e);
        }
        SourceChoice.Candidate best = SourceChoice.best(answered).orElseThrow(() -> new BackupFailure(
                BackupFailure.ETCD_UNREACHABLE, "no etcd member answered at " + String.join(", ", endpoints) + ": "
                        + problems(problems), true));
        return new Found(List.copyOf(answered), best);
    }

    /** The first few members' problems: a member list may name any number of addresses. */
    static String problems(List<String> problems) {
        int shown = Math.min(problems.size(), 5);
        return String.join("; ", problems.subList(0, shown)) + (problems.size() > shown ? "; and "
                + (problems.size() - shown) + " more" : "");
    }

    /**
     * What the member at {@code url} says about its keyspace at {@code revision} (see
     * {@link EtcdAdmin#keyspace}), or null when it did not answer before the deadline: the backup goes on, and a
     * restore drill of it compares the revision only.
     */
    KeyspaceFingerprint keyspace(String url, EtcdTls tls, long revision, Instant deadline) {
        Future<KeyspaceFingerprint> read = SEARCHES.submit(() -> {
            try (EtcdAdmin admin = admins.open(List.of(url), tls)) {
                return admin.keyspace(url, revision);
            }
        });
        try {
            long millis = Math.max(1, Duration.between(clock.instant(), deadline).toMillis());
            return read.get(millis, TimeUnit.MILLISECONDS);
        } catch (TimeoutException | ExecutionException e) {
            read.cancel(true);
            LOG.warnf("the keyspace of %s at revision %d was not read: %s", url, revision,
                    e instanceof ExecutionException ? e.getCause().getMessage() : "out of time");
            return null;
        } catch (InterruptedException e) {
            read.cancel(true);
            Thread.currentThread().interrupt();
            return null;
        }
    }
}
