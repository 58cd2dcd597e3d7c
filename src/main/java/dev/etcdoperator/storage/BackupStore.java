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
import dev.etcdoperator.core.backup.StoredBackup;
import java.io.InputStream;
import software.amazon.awssdk.awscore.AwsRequestOverrideConfiguration;
import software.amazon.awssdk.core.ResponseInputStream;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import java.io.IOException;
import org.jboss.logging.Logger;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.ListMultipartUploadsResponse;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;
import software.amazon.awssdk.services.s3.model.MultipartUpload;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * A {@link BackupStorage.Store} on S3: the upload ({@link SnapshotUpload}), and the reads, lists and deletes around
 * backups (retention, clean-up of interrupted uploads, checks). It owns its client and closes it.
 */
public final class BackupStore implements BackupStorage.Store {
    private static final Logger LOG = Logger.getLogger(BackupStore.class);
    private static final Duration CALL_TIME = Duration.ofSeconds(30);
    /** How many objects' metadata a listing of periodic backups reads at once. */
    static final int PARALLEL_READS = 8;
    private static final Duration READ_TIME = Duration.ofMinutes(30);
    /** An upload begins at most this long after its partial object was written (a call's time, and more). */
    private static final Duration MARKED_WITHIN = Duration.ofMinutes(1);
    /** Stores give times to the second. */
    private static final Duration CLOCK_GRANULARITY = Duration.ofSeconds(1);
    /** How long the store may take to answer whether it refuses a link for another ETag. */
    private static final Duration LINK_PROBE_TIMEOUT = Duration.ofSeconds(10);

    private final S3Client s3;
    private final ChecksumTags tags;
    private final S3Settings settings;
    private final int partSize;
    private final int parallelParts;
    private final SnapshotLinks links;
    private final StoredBackupCache seen;

    /** For reads (restore): uploads use the default part size. */
    public BackupStore(S3Client s3) {
        this(s3, null, 8 * 1024 * 1024, 2);
    }

    public BackupStore(S3Client s3, int partSize, int parallelParts) {
        this(s3, null, partSize, parallelParts);
    }

    /** @param settings what the client was built from, for presigned URLs; null when none are needed */
    public BackupStore(S3Client s3, S3Settings settings, int partSize, int parallelParts) {
        this(s3, settings, partSize, parallelParts, null);
    }

    /** @param links how pods get a client-side encrypted backup decrypted; null when none can */
    public BackupStore(S3Client s3, S3Settings settings, int partSize, int parallelParts, SnapshotLinks links) {
        this(s3, settings, partSize, parallelParts, links, new StoredBackupCache());
    }

    /** @param seen what earlier stores of the same operator read of periodic backups */
    BackupStore(S3Client s3, S3Settings settings, int partSize, int parallelParts, SnapshotLinks links,
            StoredBackupCache seen) {
        this.seen = seen;
        this.links = links;
        this.s3 = s3;
        this.tags = new ChecksumTags(s3);
        this.settings = settings;
        this.partSize = partSize;
        this.parallelParts = parallelParts;
    }

    @Override
    public void checkBucket(String bucket, Instant deadline) {
        try {
            s3.headBucket(b -> b.bucket(bucket).overrideConfiguration(within(deadline)));
        } catch (RuntimeException e) {
            BackupFailure f = S3Errors.translate("bucket " + bucket, e, deadline, BackupFailure.UPLOAD_FAILED);
            if (f.reason().equals(BackupFailure.S3_OBJECT_NOT_FOUND)) {
                throw new BackupFailure(BackupFailure.S3_BUCKET_NOT_FOUND, "bucket " + bucket + " does not exist", true, e);
            }
            throw f;
        }
    }

    @Override
    public List<StoredBackup> periodicBackups(S3Location prefix, Instant deadline) {
        try {
            List<S3Object> periodic = objects(prefix.bucket(), prefix.key() + "_v", deadline, "listing " + prefix
                    + "_v*").stream().filter(o -> BackupNames.parsePeriodic(prefix.key(), o.key()).isPresent()).toList();
            // the objects not seen before (all of them after a restart) are read a few at a time
            List<S3Object> unknown = periodic.stream()
                    .filter(o -> seen.known(storeId(), prefix.bucket(), o.key(), o.eTag()).isEmpty()).toList();
            Map<String, StoredBackup> read = new java.util.concurrent.ConcurrentHashMap<>();
            Parallel.each(unknown, PARALLEL_READS, o -> read.put(o.key(), seen.get(storeId(), prefix.bucket(),
                    o.key(), o.eTag(), () -> StoredBackup.of(o.key(), metadata(prefix.withKey(o.key()), deadline)))));
            List<StoredBackup> found = new ArrayList<>();
            for (S3Object o : periodic) {
                StoredBackup justRead = read.get(o.key());
                found.add(justRead != null ? justRead : seen.get(storeId(), prefix.bucket(), o.key(), o.eTag(),
                        () -> StoredBackup.of(o.key(), metadata(prefix.withKey(o.key()), deadline))));
            }
            return found;
        } catch (RuntimeException e) {
            throw S3Errors.translate("list " + prefix + "_v*", e, deadline, BackupFailure.UPLOAD_FAILED);
        }
    }

    @Override
    public Optional<StoredBackup> find(S3Location location, Instant deadline) {
        try {
            return Optional.of(StoredBackup.of(location.key(), metadata(location, deadline)));
        } catch (BackupFailure e) {
            if (e.reason().equals(BackupFailure.S3_OBJECT_NOT_FOUND)) {
                return Optional.empty();
            }
            throw e;
        }
    }

    private Map<String, String> metadata(S3Location location, Instant deadline) {
        try {
            return lowerCaseKeys(s3.headObject(b -> b.bucket(location.bucket()).key(location.key())
                    .overrideConfiguration(within(deadline))).metadata());
        } catch (RuntimeException e) {
            throw S3Errors.translate("read " + location, e, deadline, BackupFailure.UPLOAD_FAILED);
        }
    }

    @Override
    public Uploaded upload(InputStream snapshot, S3Location target, Map<String, String> metadata, Instant deadline) {
        return new SnapshotUpload(s3, partSize, parallelParts,
                settings == null ? ServerSideEncryption.NONE : settings.encryption(),
                settings == null ? null : settings.clientKey())
                .upload(snapshot, target, metadata, deadline);
    }

    /**
     * Reads the whole object and checks it: the SHA-256 recorded at backup time (when there is one) and etcd's own
     * hash trailer, which any etcd snapshot carries. A client-side encrypted object is decrypted as it is read, with
     * the key of the settings (which must be the one it was encrypted with), and the snapshot's own SHA-256 checked
     * too. Nothing is kept: the bytes stream through the digests.
     */
    @Override
    public VerifiedBackup verify(S3Location location) {
        BackupKey key = settings == null ? null : settings.clientKey();
        Map<String, String> metadata;
        ObjectVersion object;
        SnapshotDigest digest = new SnapshotDigest();
        SnapshotDigest snapshot = key == null ? digest : new SnapshotDigest();
        try (ResponseInputStream<GetObjectResponse> in = s3.getObject(b -> b.bucket(location.bucket()).key(location.key())
                .overrideConfiguration(c -> c.apiCallTimeout(READ_TIME)))) {
            object = new ObjectVersion(in.response().eTag(), versionId(in.response().versionId()));
            metadata = tags.withTags(location.bucket(), location.key(), object.versionId(),
                    lowerCaseKeys(in.response().metadata()), CALL_TIME);
            if (key == null && metadata.containsKey(BackupMetadata.ENCRYPTION)) {
                throw new BackupFailure(BackupFailure.DECRYPTION_FAILED, location + " is client-side encrypted with the"
                        + " key of fingerprint " + metadata.get(BackupMetadata.ENCRYPTION_KEY) + " (taken with Secret "
                        + metadata.get(BackupMetadata.ENCRYPTION_SECRET) + "): set s3.clientSideEncryption to a Secret"
                        + " holding that key", false);
            }
            InputStream stored = new SnapshotUpload.DigestingStream(BoundedRead.of(new ReadFailures(in,
                    in.response().contentLength()), location.toString(), in.response().contentLength(), Instant.now()),
                    digest);
            try (InputStream plain = key == null ? stored : BackupCipher.decrypt(stored, key, location.toString())) {
                byte[] buffer = new byte[1 << 16];
                int n;
                while ((n = plain.read(buffer)) >= 0) {
                    if (key != null) {
                        snapshot.update(buffer, 0, n);
                    }
                }
            }
        } catch (IOException e) {
            for (Throwable t = e; t != null; t = t.getCause()) {
                if (t instanceof ReadFailure f) {
                    throw new BackupFailure(BackupFailure.UPLOAD_FAILED, "reading " + location + " failed: "
                            + f.getMessage(), true, f.getCause());
                }
            }
            throw new BackupFailure(BackupFailure.DECRYPTION_FAILED, location + " cannot be decrypted with "
                    + key + ": its ciphertext was changed, cut or damaged (" + e.getMessage() + ")", false, e);
        } catch (BackupFailure e) {
            throw e;
        } catch (BoundedRead.TooMuch e) {
            throw e.tooSlow ? new BackupFailure(BackupFailure.TIMEOUT, e.getMessage(), true, e)
                    : new BackupFailure(BackupFailure.VERIFICATION_FAILED, e.getMessage(), false, e);
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
        String snapshotSha256 = snapshot.sha256Hex();
        String recordedSnapshot = metadata.get(BackupMetadata.SNAPSHOT_SHA256);
        if (key != null && recordedSnapshot != null && !recordedSnapshot.equalsIgnoreCase(snapshotSha256)) {
            throw new BackupFailure(BackupFailure.VERIFICATION_FAILED, "the snapshot decrypted from " + location
                    + " does not match the checksum recorded when it was backed up (recorded " + recordedSnapshot
                    + ", read " + snapshotSha256 + ")", false);
        }
        Long recordedSize = parseLong(metadata.get(BackupMetadata.SNAPSHOT_SIZE));
        if (key != null && recordedSize != null && recordedSize != snapshot.size()) {
            // a pod's download is served with this length: one that is not the snapshot's would cut or stall it
            throw new BackupFailure(BackupFailure.VERIFICATION_FAILED, "the snapshot decrypted from " + location
                    + " has " + snapshot.size() + " bytes, not the " + recordedSize + " recorded when it was backed up",
                    false);
        }
        if (!snapshot.etcdHashMatches()) {
            throw new BackupFailure(BackupFailure.VERIFICATION_FAILED, location + " is not a usable etcd snapshot: "
                    + snapshot.etcdHashProblem(), false);
        }
        return new VerifiedBackup(digest.size(), sha256, parseLong(metadata.get(BackupMetadata.REVISION)),
                metadata.get(BackupMetadata.VERSION), object, snapshotSha256,
                key == null ? null : key.fingerprint());
    }

    /** An I/O failure of the store's stream, told apart from one of the decryption that reads from it. */
    private static final class ReadFailure extends IOException {
        ReadFailure(IOException cause) {
            super(cause.getMessage(), cause);
        }
    }

    /**
     * The read's own failures, told apart from the decryption's; and a body that ends before the length the store
     * announced, which some HTTP clients report as a clean end (the store or the connection failed: not a damaged
     * backup).
     */
    private static final class ReadFailures extends java.io.FilterInputStream {
        private final Long announced;
        private long read;

        ReadFailures(InputStream in, Long announced) {
            super(in);
            this.announced = announced;
        }

        @Override
        public int read() throws IOException {
            int b;
            try {
                b = super.read();
            } catch (IOException e) {
                throw new ReadFailure(e);
            }
            return counted(b < 0 ? -1 : 1) < 0 ? -1 : b;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            try {
                return counted(super.read(b, off, len));
            } catch (ReadFailure e) {
                throw e;
            } catch (IOException e) {
                throw new ReadFailure(e);
            }
        }

        private int counted(int n) throws ReadFailure {
            if (n > 0) {
                read += n;
            } else if (n < 0 && announced != null && read < announced) {
                throw new ReadFailure(new java.io.EOFException("the store ended the object after " + read + " of the "
                        + announced + " bytes it announced"));
            }
            return n;
        }
    }

    @Override
    public Optional<ObjectVersion> head(S3Location location, Instant deadline) {
        return head(location, null, deadline);
    }

    @Override
    public Optional<ObjectVersion> head(S3Location location, String versionId, Instant deadline) {
        try {
            var head = s3.headObject(b -> b.bucket(location.bucket()).key(location.key()).versionId(versionId)
                    .overrideConfiguration(within(deadline)));
            return Optional.of(new ObjectVersion(head.eTag(), versionId(head.versionId())));
        } catch (RuntimeException e) {
            BackupFailure f = S3Errors.translate("read " + location, e, deadline, BackupFailure.UPLOAD_FAILED);
            if (f.reason().equals(BackupFailure.S3_OBJECT_NOT_FOUND)) {
                return Optional.empty();
            }
            throw f;
        }
    }

    @Override
    public String presignedGet(S3Location location, ObjectVersion object, Duration validFor) {
        if (settings == null) {
            throw new IllegalStateException("this store was opened without the settings presigned URLs need");
        }
        if (settings.clientKey() != null) {
            if (links == null) {
                throw new IllegalStateException("this store cannot give pods a decrypted backup");
            }
            return links.link(settings, location, object, validFor);
        }
        return S3Clients.presignedGet(settings, location, object, validFor);
    }

    @Override
    public boolean linkRefusesOtherObjects(S3Location location, ObjectVersion object) {
        if (settings == null || settings.clientKey() != null || object == null || object.etag() == null) {
            return false;
        }
        return S3Clients.presignedGetRefusesOtherObjects(settings, location, object, LINK_PROBE_TIMEOUT);
    }

    @Override
    public Optional<BackupStorage.LinkRefusal> linkRefusal(S3Location location, ObjectVersion object) {
        if (settings == null || settings.clientKey() != null) {
            return Optional.empty();
        }
        return S3Clients.presignedGetRefusal(settings, location, object, LINK_PROBE_TIMEOUT);
    }

    @Override
    public BackupStorage.Snapshot readSnapshot(S3Location location, ObjectVersion object) {
        BackupKey key = settings == null ? null : settings.clientKey();
        ResponseInputStream<GetObjectResponse> in = s3.getObject(b -> b.bucket(location.bucket()).key(location.key())
                .versionId(object == null ? null : object.versionId()).ifMatch(object == null ? null : object.etag())
                .overrideConfiguration(c -> c.apiCallTimeout(READ_TIME)));
        try {
            Map<String, String> metadata = tags.withTags(location.bucket(), location.key(),
                    versionId(in.response().versionId()), lowerCaseKeys(in.response().metadata()), CALL_TIME);
            if (key == null) {
                return new BackupStorage.Snapshot(in, in.response().contentLength(),
                        metadata.get(BackupMetadata.SHA256));
            }
            Long size = parseLong(metadata.get(BackupMetadata.SNAPSHOT_SIZE));
            return new BackupStorage.Snapshot(BackupCipher.decrypt(in, key, location.toString()),
                    size == null || size < 0 ? null : size, metadata.get(BackupMetadata.SNAPSHOT_SHA256));
        } catch (IOException | RuntimeException e) {
            try {
                in.close();
            } catch (IOException ignored) {
                // the first failure is the one to report
            }
            if (e instanceof RuntimeException r) {
                throw r;
            }
            throw new BackupFailure(BackupFailure.UPLOAD_FAILED, "reading " + location + " failed: " + e.getMessage(),
                    true, e);
        }
    }

    /** A bucket without versioning answers no version id, or {@code null} as text (MinIO). */
    private static String versionId(String id) {
        return id == null || id.isBlank() || id.equals("null") ? null : id;
    }

    private String storeId() {
        return settings == null || settings.endpoint() == null ? "aws" : settings.endpoint().toString();
    }

    /** User metadata by lower-case key: stores differ in the case of the headers they send back. */
    static Map<String, String> lowerCaseKeys(Map<String, String> metadata) {
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

    @Override
    public void delete(S3Location location, Instant deadline) {
        try {
            s3.deleteObject(b -> b.bucket(location.bucket()).key(location.key())
                    .overrideConfiguration(within(deadline)));
        } catch (RuntimeException e) {
            throw S3Errors.translate("delete " + location, e, deadline, BackupFailure.UPLOAD_FAILED);
        }
    }

    /**
     * Aborts this backup's interrupted multipart uploads and deletes its leftover partial objects. Uploads are found
     * two ways: by listing uploads under the key's prefix (S3), and by listing them at the exact key of each of its
     * partial objects, for stores that list uploads by exact key only (MinIO takes a prefix as the whole key, and
     * lists uploads without one only since it started). Every upload has such an object: {@link SnapshotUpload}
     * writes an empty one at the partial key before it begins the multipart upload, at the partial key or, when that
     * was free, at the backup's key; one at the backup's key counts as this backup's when it began just after such an
     * object of this backup was written.
     */
    @Override
    public int cleanUpInterrupted(S3Location target, boolean periodic, String owner, Instant startedBefore,
            Instant deadline) {
        int cleaned = 0;
        String listPrefix = periodic ? target.key() + "_v" : target.key() + ".partial-";
        java.util.Set<String> aborted = new java.util.HashSet<>();
        try {
            for (MultipartUpload u : uploads(target.bucket(), listPrefix, deadline)) {
                cleaned += abortIfOwnAndOld(target, periodic, owner, startedBefore, deadline, u, aborted);
            }
            for (S3Object o : objects(target.bucket(), listPrefix, deadline, "listing " + target.bucket() + "/"
                    + listPrefix + "*")) {
                if (!BackupNames.isOwnPartial(o.key(), target.key(), periodic, owner)) {
                    continue;
                }
                for (MultipartUpload u : uploads(target.bucket(), o.key(), deadline)) {
                    if (o.key().equals(u.key())) {
                        cleaned += abortIfOwnAndOld(target, periodic, owner, startedBefore, deadline, u, aborted);
                    }
                }
                String backupKey = BackupNames.backupKeyOf(o.key()).orElseThrow();
                for (MultipartUpload u : uploads(target.bucket(), backupKey, deadline)) {
                    if (backupKey.equals(u.key()) && markedBy(o, u) && u.initiated().isBefore(startedBefore)) {
                        cleaned += abortOnce(target, deadline, u, aborted);
                    }
                }
                if (o.lastModified() != null && o.lastModified().isBefore(startedBefore)
                        && owner.equals(metadata(target.withKey(o.key()), deadline).get(BackupMetadata.OWNER))) {
                    delete(target.withKey(o.key()), deadline);
                    cleaned++;
                }
            }
        } catch (RuntimeException e) {
            LOG.warnf("could not clean up interrupted uploads of %s: %s", target, e.getMessage());
        }
        return cleaned;
    }

    /**
     * Whether the upload at a backup's key is the one its partial object marks: it began within
     * {@link #MARKED_WITHIN} after the marker was written (the marker comes first). An upload that began at another
     * time is not this owner's to end.
     */
    private static boolean markedBy(S3Object marker, MultipartUpload upload) {
        return marker.lastModified() != null && upload.initiated() != null
                && !upload.initiated().isBefore(marker.lastModified().minus(CLOCK_GRANULARITY))
                && upload.initiated().isBefore(marker.lastModified().plus(MARKED_WITHIN));
    }

    private int abortIfOwnAndOld(S3Location target, boolean periodic, String owner, Instant startedBefore,
            Instant deadline, MultipartUpload u, java.util.Set<String> aborted) {
        if (BackupNames.isOwnPartial(u.key(), target.key(), periodic, owner) && u.initiated() != null
                && u.initiated().isBefore(startedBefore)) {
            return abortOnce(target, deadline, u, aborted);
        }
        return 0;
    }

    /** Aborts the upload unless this clean-up already did (it may be found both ways); 1 when it did now. */
    private int abortOnce(S3Location target, Instant deadline, MultipartUpload u, java.util.Set<String> aborted) {
        if (!aborted.add(u.uploadId())) {
            return 0;
        }
        s3.abortMultipartUpload(b -> b.bucket(target.bucket()).key(u.key()).uploadId(u.uploadId())
                .overrideConfiguration(within(deadline)));
        return 1;
    }

    @Override
    public void close() {
        s3.close();
    }

    /** Each call gets the rest of the backup's time, at most {@link #CALL_TIME}. */
    private List<S3Object> objects(String bucket, String prefix, Instant deadline, String what) {
        return Listing.items(s3.listObjectsV2Paginator(b -> b.bucket(bucket).prefix(prefix)
                .overrideConfiguration(within(deadline))), ListObjectsV2Response::contents,
                ListObjectsV2Response::nextContinuationToken, deadline, what);
    }

    private List<MultipartUpload> uploads(String bucket, String prefix, Instant deadline) {
        return Listing.items(s3.listMultipartUploadsPaginator(b -> b.bucket(bucket).prefix(prefix)
                .overrideConfiguration(within(deadline))), ListMultipartUploadsResponse::uploads,
                page -> Boolean.TRUE.equals(page.isTruncated())
                        ? List.of(String.valueOf(page.nextKeyMarker()), String.valueOf(page.nextUploadIdMarker()))
                        : null, deadline, "listing the uploads under " + bucket + "/" + prefix);
    }

    private static java.util.function.Consumer<AwsRequestOverrideConfiguration.Builder> within(Instant deadline) {
        Duration left = Duration.between(Instant.now(), deadline);
        if (left.isNegative() || left.isZero()) {
            throw new BackupFailure(BackupFailure.TIMEOUT, "the backup ran out of time", true);
        }
        Duration limit = left.compareTo(CALL_TIME) < 0 ? left : CALL_TIME;
        return o -> o.apiCallTimeout(limit);
    }
}
