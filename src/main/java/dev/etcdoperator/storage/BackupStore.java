package dev.etcdoperator.storage;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import dev.etcdoperator.core.backup.BackupFailure;
import dev.etcdoperator.core.backup.BackupMetadata;
import dev.etcdoperator.core.backup.BackupNames;
import dev.etcdoperator.core.backup.S3Location;
import dev.etcdoperator.core.backup.SnapshotDigest;
import software.amazon.awssdk.core.ResponseInputStream;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import java.io.IOException;
import org.jboss.logging.Logger;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.MultipartUpload;
import software.amazon.awssdk.services.s3.model.S3Object;

/** The reads, lists and deletes around backups: retention, clean-up of interrupted uploads, checks. */
public final class BackupStore {
    private static final Logger LOG = Logger.getLogger(BackupStore.class);
    private static final Duration CALL_TIME = Duration.ofSeconds(30);
    private static final Duration READ_TIME = Duration.ofMinutes(30);

    private final S3Client s3;

    public BackupStore(S3Client s3) {
        this.s3 = s3;
    }

    /** Fails with a clear reason when the bucket does not exist or the credentials are refused. */
    public void checkBucket(String bucket) {
        try {
            s3.headBucket(b -> b.bucket(bucket).overrideConfiguration(o -> o.apiCallTimeout(CALL_TIME)));
        } catch (RuntimeException e) {
            BackupFailure f = S3Errors.translate("bucket " + bucket, e, null, BackupFailure.UPLOAD_FAILED);
            if (f.reason().equals(BackupFailure.S3_OBJECT_NOT_FOUND)) {
                throw new BackupFailure(BackupFailure.S3_BUCKET_NOT_FOUND, "bucket " + bucket + " does not exist", true, e);
            }
            throw f;
        }
    }

    /** The periodic backups under {@code prefix} (bucket and key prefix) that {@code owner} made. */
    public List<BackupNames.Periodic> periodicBackups(S3Location prefix, String owner) {
        List<BackupNames.Periodic> mine = new ArrayList<>();
        try {
            for (S3Object o : s3.listObjectsV2Paginator(b -> b.bucket(prefix.bucket()).prefix(prefix.key() + "_v")
                    .overrideConfiguration(c -> c.apiCallTimeout(CALL_TIME))).contents()) {
                Optional<BackupNames.Periodic> parsed = BackupNames.parsePeriodic(prefix.key(), o.key());
                if (parsed.isPresent() && owner.equals(metadata(prefix.withKey(o.key())).get(BackupMetadata.OWNER))) {
                    mine.add(parsed.get());
                }
            }
            return mine;
        } catch (RuntimeException e) {
            throw S3Errors.translate("list " + prefix + "_v*", e, null, BackupFailure.UPLOAD_FAILED);
        }
    }

    public Map<String, String> metadata(S3Location location) {
        try {
            return s3.headObject(b -> b.bucket(location.bucket()).key(location.key())
                    .overrideConfiguration(c -> c.apiCallTimeout(CALL_TIME))).metadata();
        } catch (RuntimeException e) {
            throw S3Errors.translate("read " + location, e, null, BackupFailure.UPLOAD_FAILED);
        }
    }

    /**
     * Reads the whole object and checks it: the SHA-256 recorded at backup time (when there is one) and etcd's own
     * hash trailer, which any etcd snapshot carries. Nothing is kept: the bytes stream through the digest.
     */
    public VerifiedBackup verify(S3Location location) {
        Map<String, String> metadata;
        SnapshotDigest digest = new SnapshotDigest();
        try (ResponseInputStream<GetObjectResponse> in = s3.getObject(b -> b.bucket(location.bucket()).key(location.key())
                .overrideConfiguration(c -> c.apiCallTimeout(READ_TIME)))) {
            metadata = lowerCaseKeys(in.response().metadata());
            byte[] buffer = new byte[1 << 16];
            int n;
            while ((n = in.read(buffer)) >= 0) {
                digest.update(buffer, 0, n);
            }
        } catch (IOException e) {
            throw new BackupFailure(BackupFailure.UPLOAD_FAILED, "reading " + location + " failed: " + e.getMessage(), true, e);
        } catch (RuntimeException e) {
            throw S3Errors.translate("read " + location, e, null, BackupFailure.UPLOAD_FAILED);
        }
        String sha256 = digest.sha256Hex();
        String recorded = metadata.get(BackupMetadata.SHA256);
        if (recorded != null && !recorded.equalsIgnoreCase(sha256)) {
            throw new BackupFailure(BackupFailure.VERIFICATION_FAILED, location + " does not match the checksum recorded"
                    + " when it was backed up (recorded " + recorded + ", read " + sha256 + "): it was changed or damaged",
                    false);
        }
        if (!digest.etcdHashMatches()) {
            throw new BackupFailure(BackupFailure.VERIFICATION_FAILED, location + " is not a usable etcd snapshot: "
                    + digest.etcdHashProblem(), false);
        }
        return new VerifiedBackup(digest.size(), sha256, parseLong(metadata.get(BackupMetadata.REVISION)),
                metadata.get(BackupMetadata.VERSION));
    }

    private static Map<String, String> lowerCaseKeys(Map<String, String> metadata) {
        Map<String, String> lower = new java.util.HashMap<>();
        metadata.forEach((k, v) -> lower.put(k.toLowerCase(java.util.Locale.ROOT), v));
        return lower;
    }

    private static Long parseLong(String value) {
        try {
            return value == null ? null : Long.valueOf(value.strip());
        } catch (NumberFormatException e) {
            return null;
        }
    }

    public void delete(S3Location location) {
        try {
            s3.deleteObject(b -> b.bucket(location.bucket()).key(location.key())
                    .overrideConfiguration(c -> c.apiCallTimeout(CALL_TIME)));
        } catch (RuntimeException e) {
            throw S3Errors.translate("delete " + location, e, null, BackupFailure.UPLOAD_FAILED);
        }
    }

    /**
     * Aborts multipart uploads and deletes partial objects under {@code keyPrefix} that an earlier, interrupted
     * backup left (started before {@code startedBefore}). Best effort: problems are logged.
     *
     * @return how many were cleaned up
     */
    public int cleanUpInterrupted(S3Location keyPrefix, Instant startedBefore) {
        int cleaned = 0;
        try {
            for (MultipartUpload u : s3.listMultipartUploadsPaginator(b -> b.bucket(keyPrefix.bucket())
                    .prefix(keyPrefix.key()).overrideConfiguration(c -> c.apiCallTimeout(CALL_TIME))).uploads()) {
                if (BackupNames.isPartial(u.key()) && u.initiated() != null && u.initiated().isBefore(startedBefore)) {
                    s3.abortMultipartUpload(b -> b.bucket(keyPrefix.bucket()).key(u.key()).uploadId(u.uploadId())
                            .overrideConfiguration(c -> c.apiCallTimeout(CALL_TIME)));
                    cleaned++;
                }
            }
            for (S3Object o : s3.listObjectsV2Paginator(b -> b.bucket(keyPrefix.bucket()).prefix(keyPrefix.key())
                    .overrideConfiguration(c -> c.apiCallTimeout(CALL_TIME))).contents()) {
                if (BackupNames.isPartial(o.key()) && o.lastModified() != null && o.lastModified().isBefore(startedBefore)) {
                    delete(keyPrefix.withKey(o.key()));
                    cleaned++;
                }
            }
        } catch (RuntimeException e) {
            LOG.warnf("could not clean up interrupted uploads under %s: %s", keyPrefix, e.getMessage());
        }
        return cleaned;
    }
}
