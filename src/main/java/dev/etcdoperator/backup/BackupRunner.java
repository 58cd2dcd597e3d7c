package dev.etcdoperator.backup;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import dev.etcdoperator.core.backup.BackupFailure;
import dev.etcdoperator.core.backup.BackupMetadata;
import dev.etcdoperator.core.backup.BackupNames;
import dev.etcdoperator.core.backup.Retention;
import dev.etcdoperator.core.backup.S3Location;
import dev.etcdoperator.core.backup.SourceChoice;
import dev.etcdoperator.etcd.SnapshotStream;
import dev.etcdoperator.storage.BackupStore;
import dev.etcdoperator.storage.S3Clients;
import dev.etcdoperator.storage.SnapshotUpload;
import dev.etcdoperator.storage.Uploaded;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * Takes one backup: picks the member with the newest revision, streams its snapshot into the store, verifies it,
 * then (for periodic backups) applies retention. Every step is bounded by the backup's deadline.
 */
final class BackupRunner {
    private final SnapshotSources sources;
    private final Clock clock;
    private final int partSize;
    private final int parallelParts;

    BackupRunner(SnapshotSources sources, Clock clock, int partSize, int parallelParts) {
        this.sources = sources;
        this.clock = clock;
        this.partSize = partSize;
        this.parallelParts = parallelParts;
    }

    /**
     * @param periodic   whether {@code request.location()} is a prefix to which revision and time are appended
     * @param maxBackups periodic backups to keep (0: all)
     */
    BackupResult run(BackupRequest request, boolean periodic, int maxBackups, Duration timeout) {
        Instant start = clock.instant();
        Instant deadline = start.plus(timeout);
        try (S3Client s3 = S3Clients.create(request.s3())) {
            BackupStore store = new BackupStore(s3);
            store.checkBucket(request.location().bucket());
            store.cleanUpInterrupted(request.location(), start.minus(timeout));
            SourceChoice.Candidate source = sources.pick(request.endpoints(), request.tls());
            S3Location target = periodic
                    ? request.location().withKey(BackupNames.periodicKey(request.location().key(), source.revision(), start))
                    : request.location();
            Map<String, String> metadata = Map.of(
                    BackupMetadata.REVISION, Long.toString(source.revision()),
                    BackupMetadata.VERSION, source.version(),
                    BackupMetadata.SOURCE, source.clientUrl(),
                    BackupMetadata.OWNER, request.owner());
            Uploaded uploaded;
            try (SnapshotStream snapshot = SnapshotStream.open(source.clientUrl(), request.tls(), deadline)) {
                uploaded = new SnapshotUpload(s3, partSize, parallelParts).upload(snapshot, target, metadata, deadline);
            }
            List<String> deleted = new ArrayList<>();
            String retentionProblem = null;
            if (periodic && maxBackups > 0) {
                try {
                    for (BackupNames.Periodic old : Retention.toDelete(store.periodicBackups(request.location(), request.owner()), maxBackups)) {
                        store.delete(request.location().withKey(old.key()));
                        deleted.add(request.location().bucket() + "/" + old.key());
                    }
                } catch (BackupFailure e) {
                    retentionProblem = e.getMessage();
                }
            }
            return new BackupResult(uploaded.path(), uploaded.size(), uploaded.sha256(), source.revision(),
                    source.version(), source.clientUrl(), Duration.between(start, clock.instant()), deleted, retentionProblem);
        } catch (BackupFailure e) {
            if (clock.instant().isAfter(deadline) && !e.reason().equals(BackupFailure.TIMEOUT)) {
                throw new BackupFailure(BackupFailure.TIMEOUT, "the backup did not finish within " + timeout.toSeconds()
                        + " s (backupPolicy.timeoutInSecond): " + e.getMessage(), true, e);
            }
            throw e;
        } catch (RuntimeException e) {
            if (clock.instant().isAfter(deadline)) {
                throw new BackupFailure(BackupFailure.TIMEOUT, "the backup did not finish within " + timeout.toSeconds()
                        + " s (backupPolicy.timeoutInSecond): " + e.getMessage(), true, e);
            }
            throw new BackupFailure(BackupFailure.SNAPSHOT_FAILED, "the backup failed: " + e.getMessage(), true, e);
        }
    }
}
