package dev.etcdoperator.backup;

import java.io.IOException;
import java.io.InputStream;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import dev.etcdoperator.core.backup.BackupFailure;
import dev.etcdoperator.core.backup.BackupMetadata;
import dev.etcdoperator.core.backup.BackupNames;
import dev.etcdoperator.core.backup.BackupPlanner;
import dev.etcdoperator.core.backup.BackupTaken;
import dev.etcdoperator.core.backup.KeyspaceFingerprint;
import dev.etcdoperator.core.backup.S3Location;
import dev.etcdoperator.core.backup.SourceChoice;
import dev.etcdoperator.core.backup.StoredBackup;
import dev.etcdoperator.storage.BackupStorage;
import dev.etcdoperator.storage.Uploaded;
import dev.etcdoperator.support.Leadership;

/**
 * Takes one backup: observes (the bucket, this backup's interrupted uploads, the members and what is already
 * stored), lets {@link BackupPlanner} decide, then acts (streams the snapshot into the store, applies retention).
 * Every step runs within the backup's deadline, {@code timeoutInSecond} after it began; a step that would start
 * after it does not start, and the backup fails with {@link BackupFailure#TIMEOUT}.
 */
final class BackupRunner {
    private final SnapshotSources sources;
    private final SnapshotReader snapshots;
    private final BackupStorage storage;
    private final Clock clock;
    private final BackupsInUse inUse;

    BackupRunner(SnapshotSources sources, SnapshotReader snapshots, BackupStorage storage, Clock clock,
            BackupsInUse inUse) {
        this.sources = sources;
        this.snapshots = snapshots;
        this.storage = storage;
        this.clock = clock;
        this.inUse = inUse;
    }

    BackupStorage storage() {
        return storage;
    }

    /**
     * @param periodic   whether {@code request.location()} is a prefix to which revision and time are appended
     * @param maxBackups periodic backups to keep (0: all)
     * @param last       what the status remembers of the last successful backup
     */
    BackupTaken run(BackupRequest request, boolean periodic, int maxBackups, Duration timeout,
            BackupPlanner.LastBackup last) {
        return run(request, periodic, maxBackups, timeout, last, ForDrills.NONE);
    }

    /**
     * What restore drills ask of a backup.
     *
     * @param recordKeyspace whether to read the source's {@code HashKV} and key count at the backup's revision (a
     *                       read of the whole keyspace on that member: only when drills are on)
     * @param keep           keys retention keeps whatever the count: the last verified backup, one due for a drill,
     *                       the one a drill restores; asked right before retention deletes anything (a drill may
     *                       start while the backup uploads)
     */
    record ForDrills(boolean recordKeyspace, java.util.function.Supplier<Set<String>> keep) {
        static final ForDrills NONE = new ForDrills(false, Set.of());

        ForDrills(boolean recordKeyspace, Set<String> keep) {
            this(recordKeyspace, () -> keep);
        }
    }

    BackupTaken run(BackupRequest request, boolean periodic, int maxBackups, Duration timeout,
            BackupPlanner.LastBackup last, ForDrills drills) {
        return run(request, periodic, maxBackups, timeout, last, drills, StillAsBegun.ALWAYS);
    }

    /** Whether the EtcdBackup is still as it was when the backup began: retention applies its spec only then. */
    @FunctionalInterface
    interface StillAsBegun {
        StillAsBegun ALWAYS = Optional::empty;

        /** What changed (deleted, made again, its spec edited), or empty. */
        Optional<String> changed();
    }

    /** @param current asked right before retention deletes anything */
    BackupTaken run(BackupRequest request, boolean periodic, int maxBackups, Duration timeout,
            BackupPlanner.LastBackup last, ForDrills drills, StillAsBegun current) {
        Instant start = clock.instant();
        Instant deadline = start.plus(timeout);
        S3Location location = request.location();
        try (BackupStorage.Store store = storage.open(request.s3())) {
            store.checkBucket(location.bucket(), deadline);
            inTime(deadline, timeout, "checking the bucket");
            store.cleanUpInterrupted(location, periodic, request.owner(), start.minus(timeout), deadline);
            inTime(deadline, timeout, "cleaning up interrupted uploads");
            SnapshotSources.Found found = sources.find(request.endpoints(), request.tls(), deadline);
            inTime(deadline, timeout, "choosing the member to read");
            SourceChoice.Candidate source = found.best();
            // a backup that ended after the recovery began may have begun before it, on the old cluster
            refuse(BackupPlanner.checkSource(last, found.answered(), source, request.clusterUid(),
                    request.survivorRecovery() == null ? null : request.survivorRecovery().plus(timeout),
                    request.restoredFrom()));
            S3Location target;
            List<StoredBackup> stored = List.of();
            if (periodic) {
                stored = store.periodicBackups(location, deadline);
                refuse(BackupPlanner.checkPrefix(stored, request.owner(), location.toString()));
                refuse(BackupPlanner.checkOwnBackups(last, stored, request.owner(), source, location.toString()));
                target = location.withKey(BackupNames.periodicKey(location.key(), source.revision(), start));
            } else {
                target = location;
                refuse(BackupPlanner.checkOneShotKey(store.find(target, deadline).orElse(null), request.owner(),
                        source, target.toString()));
            }
            inTime(deadline, timeout, "looking at what is stored");
            KeyspaceFingerprint keyspace = null;
            if (drills.recordKeyspace()) {
                keyspace = sources.keyspace(source.clientUrl(), request.tls(), source.revision(), deadline);
                inTime(deadline, timeout, "reading the keyspace's hash");
            }
            Uploaded uploaded = upload(store, request, source, target, deadline);
            List<String> deleted = new ArrayList<>();
            String retentionProblem = null;
            String deferred = null;
            if (periodic && maxBackups > 0) {
                try {
                    stillAsBegun(current);
                    List<StoredBackup> now = new ArrayList<>(stored);
                    now.removeIf(b -> b.key().equals(target.key()));
                    now.add(new StoredBackup(target.key(), request.owner(), source.revision(), source.clusterIdHex()));
                    Set<String> used = restoresUsing(location.bucket(), request.owner());
                    // the backup just taken stays whatever its name's time says (the operator's clock may have
                    // gone back since an earlier one)
                    Set<String> kept = new java.util.HashSet<>(keptForDrills(drills));
                    kept.add(target.key());
                    for (BackupNames.Periodic old : BackupPlanner.retention(location.key(), now, request.owner(),
                            maxBackups, used, kept, source.clusterIdHex())) {
                        if ((location.bucket() + "/" + old.key()).equals(last.path())) {
                            // the status names it until it names this one (a recovery from a backup takes what it
                            // names): it goes once this one is recorded
                            deferred = location.bucket() + "/" + old.key();
                            continue;
                        }
                        inTime(deadline, timeout, "applying retention");
                        store.delete(location.withKey(old.key()), deadline);
                        deleted.add(location.bucket() + "/" + old.key());
                    }
                } catch (BackupFailure | RetentionHeld e) {
                    retentionProblem = e.getMessage();
                }
            }
            return new BackupTaken(uploaded.path(), uploaded.size(), uploaded.sha256(), source.revision(),
                    versionOf(source), source.clientUrl(), source.clusterIdHex(), request.clusterUid(),
                    Duration.between(start, clock.instant()), deleted, retentionProblem, keyspace,
                    uploaded.encryption() == null ? null : new BackupTaken.Encrypted(
                            uploaded.encryption().snapshotSize(), uploaded.encryption().snapshotSha256(),
                            uploaded.encryption().keyFingerprint()), deferred);
        } catch (BackupFailure e) {
            if (clock.instant().isAfter(deadline) && !e.reason().equals(BackupFailure.TIMEOUT)) {
                throw timedOut(timeout, e.getMessage(), e);
            }
            throw e;
        } catch (RuntimeException e) {
            if (clock.instant().isAfter(deadline)) {
                throw timedOut(timeout, e.getMessage(), e);
            }
            throw new BackupFailure(BackupFailure.SNAPSHOT_FAILED, "the backup failed: " + e.getMessage(), true, e);
        }
    }

    /**
     * Deletes the backup retention deferred ({@link BackupTaken#deferred}) once the status names the newer one, unless
     * a restore or a drill uses it now, or the EtcdBackup changed (the next backup's retention decides then).
     *
     * @return what was done, for a person
     * @throws IllegalStateException when it could not be done (nothing was deleted, or the store failed)
     */
    String deleteDeferred(BackupRequest request, String path, Duration timeout, ForDrills drills,
            StillAsBegun current) {
        S3Location location = request.location();
        String bucket = location.bucket() + "/";
        String key = path.startsWith(bucket) ? path.substring(bucket.length()) : null;
        if (key == null || BackupNames.parsePeriodic(location.key(), key).isEmpty()) {
            return path + " was kept: it is no periodic backup under " + location;
        }
        Instant deadline = clock.instant().plus(timeout);
        try (BackupStorage.Store store = storage.open(request.s3())) {
            stillAsBegun(current);
            if (restoresUsing(location.bucket(), request.owner()).contains(key)) {
                return path + " was kept: a restore is using it";
            }
            if (keptForDrills(drills).contains(key)) {
                return path + " was kept for restore drills";
            }
            store.delete(location.withKey(key), deadline);
            return "deleted " + path + " (maxBackups), which the status named until it named the newer backup";
        } catch (RetentionHeld e) {
            throw new IllegalStateException(e.getMessage(), e);
        } catch (BackupFailure e) {
            throw new IllegalStateException("retention could not delete " + path + ": " + e.getMessage(), e);
        }
    }

    /**
     * The version the member says it runs, only when it is one: it becomes an HTTP header, the status and a drill's
     * image tag, and the member may be any server at a user's endpoint.
     */
    static String versionOf(SourceChoice.Candidate source) {
        return source.version() != null && dev.etcdoperator.core.cluster.Version.parse(source.version()).isPresent()
                && source.version().strip().length() <= 64 ? source.version().strip() : null;
    }

    private Uploaded upload(BackupStorage.Store store, BackupRequest request, SourceChoice.Candidate source,
            S3Location target, Instant deadline) {
        Map<String, String> metadata = new HashMap<>();
        metadata.put(BackupMetadata.REVISION, Long.toString(source.revision()));
        Optional.ofNullable(versionOf(source)).ifPresent(v -> metadata.put(BackupMetadata.VERSION, v));
        metadata.put(BackupMetadata.SOURCE, source.clientUrl());
        metadata.put(BackupMetadata.OWNER, request.owner());
        Optional.ofNullable(source.clusterIdHex()).ifPresent(id -> metadata.put(BackupMetadata.CLUSTER_ID, id));
        Optional.ofNullable(request.clusterUid()).ifPresent(uid -> metadata.put(BackupMetadata.CLUSTER_UID, uid));
        try (InputStream snapshot = snapshots.open(source.clientUrl(), request.tls(), deadline)) {
            return store.upload(snapshot, target, metadata, deadline);
        } catch (IOException e) {
            throw new BackupFailure(BackupFailure.SNAPSHOT_FAILED, "closing the snapshot stream failed: "
                    + e.getMessage(), true, e);
        }
    }

    /**
     * A backup runs on a copy of the EtcdBackup as it was when it began: once that changed, its {@code maxBackups}
     * (or the EtcdBackup itself) may be gone, and retention waits for the next backup.
     */
    private static void stillAsBegun(StillAsBegun current) {
        if (Leadership.lost()) {
            throw new RetentionHeld("retention deleted nothing: the operator lost its leader lease and is stopping");
        }
        Optional<String> changed;
        try {
            changed = current.changed();
        } catch (RuntimeException e) {
            throw new RetentionHeld("retention deleted nothing: the EtcdBackup could not be read again ("
                    + e.getMessage() + ")");
        }
        if (changed.isPresent()) {
            throw new RetentionHeld("retention deleted nothing: " + changed.get() + "; the next backup applies"
                    + " the spec as it is then");
        }
    }

    /** The backups drills keep; when that cannot be told, retention deletes nothing this time. */
    private static Set<String> keptForDrills(ForDrills drills) {
        try {
            return drills.keep().get();
        } catch (RuntimeException e) {
            throw new RetentionHeld("retention deleted nothing: the backups restore drills keep could not be told ("
                    + e.getMessage() + ")");
        }
    }

    /** What restores are using now; when that cannot be told, retention deletes nothing this time. */
    private Set<String> restoresUsing(String bucket, String owner) {
        try {
            return inUse.keys(bucket, owner.substring(0, Math.max(0, owner.indexOf('/'))));
        } catch (RuntimeException e) {
            throw new RetentionHeld("retention deleted nothing: the EtcdRestores that may be using these backups"
                    + " could not be listed (" + e.getMessage() + ")");
        }
    }

    /** Why retention deleted nothing this time (the backup itself stands). */
    private static final class RetentionHeld extends RuntimeException {
        RetentionHeld(String message) {
            super(message);
        }
    }

    private static void refuse(Optional<BackupPlanner.Refusal> refusal) {
        if (refusal.isPresent()) {
            throw refusal.get().failure();
        }
    }

    private void inTime(Instant deadline, Duration timeout, String step) {
        if (clock.instant().isAfter(deadline)) {
            throw timedOut(timeout, "the time was up after " + step, null);
        }
    }

    private static BackupFailure timedOut(Duration timeout, String message, Throwable cause) {
        return new BackupFailure(BackupFailure.TIMEOUT, "the backup did not finish within " + timeout.toSeconds()
                + " s (backupPolicy.timeoutInSecond): " + message, true, cause);
    }
}
