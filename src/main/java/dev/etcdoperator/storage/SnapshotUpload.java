package dev.etcdoperator.storage;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.zip.CRC32C;

import dev.etcdoperator.core.backup.BackupFailure;
import dev.etcdoperator.core.backup.BackupMetadata;
import dev.etcdoperator.core.backup.BackupNames;
import dev.etcdoperator.core.backup.S3Location;
import dev.etcdoperator.core.backup.SnapshotDigest;
import org.jboss.logging.Logger;
import software.amazon.awssdk.awscore.AwsRequestOverrideConfiguration;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.ChecksumAlgorithm;
import software.amazon.awssdk.services.s3.model.CompleteMultipartUploadResponse;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.MetadataDirective;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.UploadPartResponse;

/**
 * Streams an etcd snapshot into S3 without holding it in memory or on disk: the bytes are cut into parts of a
 * fixed size, each part is uploaded (two at a time, while the next is read) with its CRC32C in a header, which the
 * store checks, and the whole stream is digested with SHA-256 on the way. A free key receives the multipart upload
 * itself, with the metadata known before the snapshot (revision, version, owner), completed only once etcd's own hash
 * trailer matches and the key is still free; its checksums, known only then, become tags of the object
 * ({@link ChecksumTags}; where tags are refused, metadata by a copy of the object onto itself). A key that holds an
 * earlier backup of the same owner is replaced only by a copy, with all the metadata, of a verified upload made at a
 * partial key. The size and the composite of the part checksums (when the store reports one) are checked before, the
 * object at the key once more after. An empty object
 * at the partial key is written before the multipart upload begins, so that a later clean-up finds the upload even
 * on a store that lists uploads by exact key only. On any failure the multipart upload is aborted, and a completed
 * one deleted while it is this owner's, so nothing that could pass for a backup is left behind. Memory: at most
 * {@code (parallelParts + 1) x partSize}.
 */
public final class SnapshotUpload {
    private static final Logger LOG = Logger.getLogger(SnapshotUpload.class);
    /** Largest object a single CopyObject may copy. */
    static final long MAX_SINGLE_COPY = 5L * 1024 * 1024 * 1024;
    static final long COPY_PART = 1024L * 1024 * 1024;
    /**
     * Cleaning up after a failure may run this long past the backup's deadline (a timeout is itself a failure to
     * clean up after); what it leaves, the next attempt's clean-up takes.
     */
    static final Duration CLEAN_UP_GRACE = Duration.ofSeconds(2);

    private final S3Client s3;
    private final int partSize;
    private final int parallelParts;
    private final ServerSideEncryption encryption;
    private final BackupKey clientKey;
    private final ChecksumTags tags;

    /**
     * @param partSize      bytes per part, at least 5 MiB (S3's minimum for all parts but the last)
     * @param parallelParts parts uploaded at the same time
     */
    public SnapshotUpload(S3Client s3, int partSize, int parallelParts) {
        this(s3, partSize, parallelParts, ServerSideEncryption.NONE);
    }

    /** @param encryption the server-side encryption asked for each object written, the partial upload's too */
    public SnapshotUpload(S3Client s3, int partSize, int parallelParts, ServerSideEncryption encryption) {
        this(s3, partSize, parallelParts, encryption, null);
    }

    /**
     * @param clientKey the key of client-side encryption: the snapshot is encrypted ({@link BackupCipher}) before its
     *                  first byte is uploaded, its own digest and size are recorded beside the object's; null for none
     */
    public SnapshotUpload(S3Client s3, int partSize, int parallelParts, ServerSideEncryption encryption,
            BackupKey clientKey) {
        if (partSize < 5 * 1024 * 1024 || parallelParts < 1) {
            throw new IllegalArgumentException("part size must be at least 5 MiB and parallel parts at least 1");
        }
        this.s3 = s3;
        this.partSize = partSize;
        this.parallelParts = parallelParts;
        this.encryption = encryption;
        this.clientKey = clientKey;
        this.tags = new ChecksumTags(s3);
    }

    /**
     * @param source   the snapshot; read to its end, not closed
     * @param metadata revision, version, source, owner ({@link BackupMetadata}); checksum and size are added here
     * @param deadline when the whole upload must be done
     */
    public Uploaded upload(InputStream source, S3Location target, Map<String, String> metadata, Instant deadline) {
        String owner = metadata.get(BackupMetadata.OWNER);
        if (owner == null) {
            throw new IllegalArgumentException("a backup upload needs its owner (" + BackupMetadata.OWNER + ")");
        }
        String partialKey = BackupNames.partialKey(target.key(), owner, UUID.randomUUID().toString().substring(0, 8));
        S3Location partial = target.withKey(partialKey);
        String uploadId = null;
        boolean completed = false;
        boolean completing = false;
        S3Location uploadAt = null;
        ExecutorService uploaders = Executors.newFixedThreadPool(parallelParts, r -> {
            Thread t = new Thread(r, "backup-upload-" + target.key());
            t.setDaemon(true);
            return t;
        });
        try {
            // a key that holds an earlier backup of this owner is replaced only by a copy of a verified upload (a
            // copy replaces an object whole, or not at all); a free key receives the upload itself, which S3 shows
            // only once it is completed, and it is completed only once verified
            uploadAt = refuseOthers(target, owner, deadline) ? partial : target;
            // an empty object at the partial key first: a store that lists multipart uploads by exact key only
            // (MinIO) shows this upload to a later clean-up only through an object it can find by prefix
            s3.putObject(b -> encryption.applyTo(b.bucket(partial.bucket()).key(partial.key())
                    .contentType("application/octet-stream").metadata(Map.of(BackupMetadata.OWNER, owner))
                    .overrideConfiguration(within(deadline))), RequestBody.empty());
            S3Location at = uploadAt;
            // what is known before the snapshot: an upload to the key carries it from the start
            Map<String, String> known = new HashMap<>(metadata);
            if (clientKey != null) {
                known.put(BackupMetadata.ENCRYPTION, BackupCipher.FORMAT);
                known.put(BackupMetadata.ENCRYPTION_KEY, clientKey.fingerprint());
                known.put(BackupMetadata.ENCRYPTION_SECRET, clientKey.source()
                        .substring(clientKey.source().indexOf('/') + 1));
            }
            Map<String, String> createdWith = at.equals(target) ? known : Map.of(BackupMetadata.OWNER, owner);
            uploadId = s3.createMultipartUpload(b -> encryption.applyTo(b).bucket(at.bucket()).key(at.key())
                    .checksumAlgorithm(ChecksumAlgorithm.CRC32_C)
                    .contentType("application/octet-stream")
                    .metadata(createdWith)
                    .overrideConfiguration(within(deadline))).uploadId();
            String id = uploadId;
            // the digest of what is stored; with client-side encryption, the snapshot's own digest is taken before
            // the cipher, and etcd's hash trailer is checked there
            SnapshotDigest digest = new SnapshotDigest();
            SnapshotDigest snapshot = clientKey == null ? digest : new SnapshotDigest();
            InputStream stored = clientKey == null ? source
                    : BackupCipher.encrypt(new DigestingStream(source, snapshot), clientKey);
            List<byte[]> partDigests = new ArrayList<>();
            List<CompletedPart> parts = streamParts(stored, at, id, digest, partDigests, uploaders, deadline);
            if (snapshot.size() == 0) {
                throw new BackupFailure(BackupFailure.SNAPSHOT_FAILED, "etcd sent an empty snapshot", true);
            }
            if (!snapshot.etcdHashMatches()) {
                throw new BackupFailure(BackupFailure.VERIFICATION_FAILED, "the snapshot read from etcd is not whole: "
                        + snapshot.etcdHashProblem(), true);
            }
            if (at.equals(target)) {
                refuseAnyObject(target, deadline);
            }
            completing = true;
            String reported = complete(at, id, parts, digest.size(), deadline);
            completed = true;
            String composite = composite(partDigests);
            // a composite checksum reads <base64>-<parts>; a store that reports a full-object CRC instead is not compared
            if (reported != null && reported.contains("-") && !reported.equals(composite)) {
                throw new BackupFailure(BackupFailure.VERIFICATION_FAILED, "the store computed checksum "
                        + reported + " for the uploaded parts, expected " + composite, true);
            }
            long size = digest.size();
            String sha256 = digest.sha256Hex();
            HeadObjectResponse uploaded = head(at, deadline);
            checkSize(uploaded, size, at);
            String unencrypted = encryption.mismatch(uploaded);
            if (unencrypted != null && at.equals(partial)) {
                // checked before the copy: the object at the key (an earlier backup) stays
                throw new BackupFailure(BackupFailure.NOT_ENCRYPTED, "the upload was stored, but " + unencrypted
                        + "; nothing was written to " + target + ": a backup asked to be encrypted is never left"
                        + " unencrypted. Check that the store supports s3.serverSideEncryption (a KMS configured,"
                        + " the key allowed).", true);
            }
            Map<String, String> finalMetadata = new HashMap<>(known);
            finalMetadata.put(BackupMetadata.SHA256, sha256);
            finalMetadata.put(BackupMetadata.SIZE, Long.toString(size));
            Uploaded.Encryption encrypted = null;
            if (clientKey != null) {
                encrypted = new Uploaded.Encryption(snapshot.size(), snapshot.sha256Hex(), clientKey.fingerprint());
                finalMetadata.put(BackupMetadata.SNAPSHOT_SHA256, encrypted.snapshotSha256());
                finalMetadata.put(BackupMetadata.SNAPSHOT_SIZE, Long.toString(encrypted.snapshotSize()));
            }
            // the checksums are known only now: they become tags of the object at the key, or, where tags are
            // refused, join its metadata by a copy (onto itself when the upload went to the key)
            boolean tagged = false;
            if (at.equals(partial)) {
                refuseOthers(target, owner, deadline);
                copy(at, target, size, finalMetadata, deadline);
            } else if (tags.put(target.bucket(), target.key(), finalMetadata, left(deadline))) {
                tagged = true;
            } else {
                copy(at, target, size, finalMetadata, deadline);
            }
            checkStored(target, size, sha256, owner, tagged, deadline);
            deleteQuietly(partial, deadline);
            return new Uploaded(target.bucket(), target.key(), size, sha256, encrypted);
        } catch (RuntimeException e) {
            BackupFailure failure = S3Errors.translate("upload to " + target, e, deadline, BackupFailure.UPLOAD_FAILED);
            if (uploadAt != null) {
                // parts still being sent could be stored after the abort
                stopSending(uploaders);
                cleanUp(partial, uploadAt, uploadId, completed, completing, owner, deadline);
            }
            throw failure;
        } finally {
            uploaders.shutdownNow();
        }
    }

    /**
     * Fails when the key holds an object that another owner (or no EtcdBackup) wrote: it is never replaced.
     *
     * @return whether the key holds an object of this owner (an earlier backup, to be replaced only by a copy)
     */
    private boolean refuseOthers(S3Location target, String owner, Instant deadline) {
        Optional<HeadObjectResponse> existing = headIfThere(target, deadline);
        if (existing.isEmpty()) {
            return false;
        }
        String writer = BackupStore.lowerCaseKeys(existing.get().metadata()).get(BackupMetadata.OWNER);
        if (!owner.equals(writer)) {
            throw new BackupFailure(BackupFailure.PATH_IN_USE, target + " holds an object "
                    + (writer == null ? "that no EtcdBackup wrote" : "written by EtcdBackup " + writer)
                    + "; it is left as it is. Two EtcdBackups must not write one key: give this one its own s3.path", true);
        }
        return true;
    }

    /** Before an upload to a key that was free is completed: the key must still be free, or nothing is replaced. */
    private void refuseAnyObject(S3Location target, Instant deadline) {
        Optional<HeadObjectResponse> existing = headIfThere(target, deadline);
        if (existing.isPresent()) {
            String writer = BackupStore.lowerCaseKeys(existing.get().metadata()).get(BackupMetadata.OWNER);
            throw new BackupFailure(BackupFailure.PATH_IN_USE, target + " was written by "
                    + (writer == null ? "a writer that is not an EtcdBackup" : "EtcdBackup " + writer)
                    + " while this backup was uploaded; it is left as it is. Two EtcdBackups must not write one key",
                    true);
        }
    }

    private Optional<HeadObjectResponse> headIfThere(S3Location location, Instant deadline) {
        try {
            return Optional.of(head(location, deadline));
        } catch (NoSuchKeyException e) {
            return Optional.empty();
        } catch (S3Exception e) {
            if (e.statusCode() == 404) {
                return Optional.empty();
            }
            throw e;
        }
    }

    /**
     * Checks the object at the key once its checksums were added. One that does not carry this upload's checksum is not this
     * upload's (another writer replaced it in the meantime): it is left alone. Only an object that is provably this
     * upload's, and wrong, is removed.
     */
    private void checkStored(S3Location target, long size, String sha256, String owner, boolean tagged,
            Instant deadline) {
        HeadObjectResponse stored = head(target, deadline);
        Map<String, String> metadata = BackupStore.lowerCaseKeys(stored.metadata());
        Map<String, String> recorded = tags.withTags(target.bucket(), target.key(), null, metadata,
                left(deadline));
        String checksum = recorded.get(BackupMetadata.SHA256);
        if (checksum == null && tagged) {
            // the tags were written a moment ago, but may not be read (s3:GetObjectTagging not allowed): the owner
            // in the metadata is what is left to tell this upload from another writer's
            LOG.infof("%s: the checksum tags just written cannot be read back (allow s3:GetObjectTagging); the"
                    + " object is checked by its owner and size", target);
            checksum = sha256;
        }
        if (!sha256.equals(checksum) || !owner.equals(metadata.get(BackupMetadata.OWNER))) {
            String writer = metadata.get(BackupMetadata.OWNER);
            throw new BackupFailure(BackupFailure.PATH_IN_USE, target + " was replaced by another writer ("
                    + (writer == null ? "not an EtcdBackup" : "EtcdBackup " + writer) + ") while this backup was"
                    + " copied there; it is left as it is. Two EtcdBackups must not write one key", true);
        }
        try {
            checkSize(stored, size, target);
            String unencrypted = encryption.mismatch(stored);
            if (unencrypted != null) {
                throw new BackupFailure(BackupFailure.NOT_ENCRYPTED, target + " was written, but " + unencrypted
                        + "; it is deleted: a backup asked to be encrypted is never left unencrypted. Check that the"
                        + " store supports s3.serverSideEncryption (a KMS configured, the key allowed).", true);
            }
        } catch (BackupFailure e) {
            deleteQuietly(target, deadline);
            throw e;
        }
    }

    private List<CompletedPart> streamParts(InputStream source, S3Location partial, String uploadId, SnapshotDigest digest,
            List<byte[]> partDigests, ExecutorService uploaders, Instant deadline) {
        BlockingQueue<byte[]> free = new ArrayBlockingQueue<>(parallelParts + 1);
        for (int i = 0; i <= parallelParts; i++) {
            free.add(new byte[partSize]);
        }
        List<Future<CompletedPart>> pending = new ArrayList<>();
        int partNumber = 0;
        while (true) {
            byte[] buffer = take(free, deadline, pending);
            int length = fill(source, buffer);
            if (length == 0) {
                free.add(buffer);
                break;
            }
            digest.update(buffer, 0, length);
            byte[] partCrc = crc32c(buffer, length);
            partDigests.add(partCrc);
            int number = ++partNumber;
            pending.add(uploaders.submit(() -> {
                try {
                    return uploadPart(partial, uploadId, number, buffer, length, partCrc, deadline);
                } finally {
                    free.add(buffer);
                }
            }));
            if (length < partSize) {
                break;
            }
        }
        if (partNumber == 0) {
            throw new BackupFailure(BackupFailure.SNAPSHOT_FAILED, "etcd sent an empty snapshot", true);
        }
        List<CompletedPart> parts = new ArrayList<>();
        for (Future<CompletedPart> f : pending) {
            parts.add(await(f, deadline));
        }
        return parts;
    }

    private CompletedPart uploadPart(S3Location partial, String uploadId, int number, byte[] buffer, int length,
            byte[] partCrc, Instant deadline) {
        String checksum = Base64.getEncoder().encodeToString(partCrc);
        UploadPartResponse r = s3.uploadPart(b -> b.bucket(partial.bucket()).key(partial.key()).uploadId(uploadId)
                .partNumber(number).contentLength((long) length)
                .checksumAlgorithm(ChecksumAlgorithm.CRC32_C).checksumCRC32C(checksum)
                .overrideConfiguration(within(deadline)),
                RequestBody.fromContentProvider(() -> new ByteArrayInputStream(buffer, 0, length), length,
                        "application/octet-stream"));
        return CompletedPart.builder().partNumber(number).eTag(r.eTag()).checksumCRC32C(checksum).build();
    }

    /** Waits for a free buffer, failing fast when an upload already failed. */
    private static byte[] take(BlockingQueue<byte[]> free, Instant deadline, List<Future<CompletedPart>> pending) {
        while (true) {
            for (Future<CompletedPart> f : pending) {
                if (f.isDone()) {
                    await(f, deadline);
                }
            }
            try {
                byte[] buffer = free.poll(100, TimeUnit.MILLISECONDS);
                if (buffer != null) {
                    return buffer;
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new BackupFailure(BackupFailure.UPLOAD_FAILED, "interrupted", true, e);
            }
            if (Instant.now().isAfter(deadline)) {
                throw new BackupFailure(BackupFailure.TIMEOUT, "the upload did not finish in time", true);
            }
        }
    }

    private static <T> T await(Future<T> future, Instant deadline) {
        try {
            long millis = Math.max(1, Duration.between(Instant.now(), deadline).toMillis());
            return future.get(millis, TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : new RuntimeException(e.getCause());
        } catch (TimeoutException e) {
            throw new BackupFailure(BackupFailure.TIMEOUT, "the upload did not finish in time", true, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new BackupFailure(BackupFailure.UPLOAD_FAILED, "interrupted", true, e);
        }
    }

    /** Digests what is read through it. */
    static final class DigestingStream extends java.io.FilterInputStream {
        private final SnapshotDigest digest;

        DigestingStream(InputStream in, SnapshotDigest digest) {
            super(in);
            this.digest = digest;
        }

        @Override
        public int read() throws IOException {
            int b = super.read();
            if (b >= 0) {
                digest.update(new byte[] {(byte) b}, 0, 1);
            }
            return b;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            int n = super.read(b, off, len);
            if (n > 0) {
                digest.update(b, off, n);
            }
            return n;
        }

        @Override
        public long skip(long n) {
            throw new UnsupportedOperationException("a digested stream is read whole");
        }
    }

    /** Reads until the buffer is full or the stream ends. */
    private static int fill(InputStream source, byte[] buffer) {
        int length = 0;
        try {
            while (length < buffer.length) {
                int n = source.read(buffer, length, buffer.length - length);
                if (n < 0) {
                    break;
                }
                length += n;
            }
            return length;
        } catch (IOException e) {
            throw new BackupFailure(BackupFailure.SNAPSHOT_FAILED, "reading the snapshot from etcd failed: "
                    + e.getMessage(), true, e);
        }
    }

    private void copy(S3Location from, S3Location to, long size, Map<String, String> metadata, Instant deadline) {
        if (size <= MAX_SINGLE_COPY) {
            s3.copyObject(b -> encryption.applyTo(b).sourceBucket(from.bucket()).sourceKey(from.key())
                    .destinationBucket(to.bucket()).destinationKey(to.key())
                    .metadataDirective(MetadataDirective.REPLACE).metadata(metadata)
                    .contentType("application/octet-stream")
                    .overrideConfiguration(within(deadline)));
            return;
        }
        String id = s3.createMultipartUpload(b -> encryption.applyTo(b).bucket(to.bucket()).key(to.key()).metadata(metadata)
                .contentType("application/octet-stream").overrideConfiguration(within(deadline))).uploadId();
        try {
            List<CompletedPart> parts = new ArrayList<>();
            int number = 0;
            for (long start = 0; start < size; start += COPY_PART) {
                long end = Math.min(size, start + COPY_PART) - 1;
                int n = ++number;
                String range = "bytes=" + start + "-" + end;
                String eTag = s3.uploadPartCopy(b -> b.sourceBucket(from.bucket()).sourceKey(from.key())
                        .destinationBucket(to.bucket()).destinationKey(to.key()).uploadId(id).partNumber(n)
                        .copySourceRange(range).overrideConfiguration(within(deadline))).copyPartResult().eTag();
                parts.add(CompletedPart.builder().partNumber(n).eTag(eTag).build());
            }
            s3.completeMultipartUpload(b -> b.bucket(to.bucket()).key(to.key()).uploadId(id)
                    .multipartUpload(m -> m.parts(parts)).overrideConfiguration(within(deadline)));
        } catch (RuntimeException e) {
            abortQuietly(to, id, deadline);
            throw e;
        }
    }

    private HeadObjectResponse head(S3Location location, Instant deadline) {
        return s3.headObject(b -> b.bucket(location.bucket()).key(location.key()).overrideConfiguration(within(deadline)));
    }

    private static void checkSize(HeadObjectResponse head, long size, S3Location location) {
        if (head.contentLength() == null || head.contentLength() != size) {
            throw new BackupFailure(BackupFailure.VERIFICATION_FAILED, "the store holds " + head.contentLength()
                    + " bytes at " + location + ", " + size + " were sent", true);
        }
    }

    /**
     * After a failure: the multipart upload aborted, or, once completed, its object deleted, at the partial key, or at
     * the backup's key only while the object there is this owner's (another writer's is left alone); then the empty
     * object written before the upload began. A completion that failed on this side (a timeout) may have been done
     * by the store all the same: its object is looked for as a completed one's. An upload that could not be aborted
     * keeps that empty object, through which a later backup's clean-up finds it (a store may list uploads by exact
     * key only).
     */
    private void cleanUp(S3Location partial, S3Location uploadAt, String uploadId, boolean completed,
            boolean completing, String owner, Instant deadline) {
        boolean gone = uploadId == null || completed || abortQuietly(uploadAt, uploadId, deadline);
        if ((completed || completing) && !uploadAt.equals(partial)) {
            try {
                HeadObjectResponse there = s3.headObject(b -> b.bucket(uploadAt.bucket()).key(uploadAt.key())
                        .overrideConfiguration(o -> o.apiCallTimeout(cleanUpTime(deadline))));
                if (owner.equals(BackupStore.lowerCaseKeys(there.metadata()).get(BackupMetadata.OWNER))) {
                    deleteQuietly(uploadAt, deadline);
                }
            } catch (RuntimeException e) {
                LOG.warnf("could not check %s after a failed backup: %s", uploadAt, e.getMessage());
            }
        }
        if (!gone) {
            LOG.warnf("keeping %s, which marks the upload %s that could not be aborted: the next backup's clean-up"
                    + " aborts it", partial, uploadId);
            return;
        }
        deleteQuietly(partial, deadline);
    }

    private static void stopSending(ExecutorService uploaders) {
        uploaders.shutdownNow();
        try {
            uploaders.awaitTermination(CLEAN_UP_GRACE.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Whether the upload is gone: aborted now, or no longer there (completed or aborted before). */
    private boolean abortQuietly(S3Location location, String uploadId, Instant deadline) {
        try {
            s3.abortMultipartUpload(b -> b.bucket(location.bucket()).key(location.key()).uploadId(uploadId)
                    .overrideConfiguration(o -> o.apiCallTimeout(cleanUpTime(deadline))));
            return true;
        } catch (S3Exception e) {
            String code = e.awsErrorDetails() == null ? null : e.awsErrorDetails().errorCode();
            if ("NoSuchUpload".equals(code) || e.statusCode() == 404) {
                return true;
            }
            LOG.warnf("could not abort the multipart upload %s of %s: %s", uploadId, location, e.getMessage());
            return false;
        } catch (RuntimeException e) {
            LOG.warnf("could not abort the multipart upload %s of %s: %s", uploadId, location, e.getMessage());
            return false;
        }
    }

    private void deleteQuietly(S3Location location, Instant deadline) {
        try {
            s3.deleteObject(b -> b.bucket(location.bucket()).key(location.key())
                    .overrideConfiguration(o -> o.apiCallTimeout(cleanUpTime(deadline))));
        } catch (RuntimeException e) {
            LOG.warnf("could not delete %s: %s", location, e.getMessage());
        }
    }

    /** What S3 reports for a multipart upload with CRC32C part checksums: the CRC32C of the part CRCs, and the count. */
    static String composite(List<byte[]> partChecksums) {
        CRC32C crc = new CRC32C();
        partChecksums.forEach(crc::update);
        return Base64.getEncoder().encodeToString(bigEndian(crc.getValue())) + "-" + partChecksums.size();
    }

    /**
     * Completes the upload; returns the composite checksum the store reports, or null. A completion whose answer
     * was lost (a timeout, then a retry that finds the upload gone) counts only if the object is there, whole.
     */
    private String complete(S3Location partial, String uploadId, List<CompletedPart> parts, long size, Instant deadline) {
        try {
            CompleteMultipartUploadResponse done = s3.completeMultipartUpload(b -> b.bucket(partial.bucket())
                    .key(partial.key()).uploadId(uploadId).multipartUpload(m -> m.parts(parts))
                    .overrideConfiguration(within(deadline)));
            return done.checksumCRC32C();
        } catch (S3Exception e) {
            String code = e.awsErrorDetails() == null ? null : e.awsErrorDetails().errorCode();
            if (!"InvalidPart".equals(code) && !"NoSuchUpload".equals(code)) {
                throw e;
            }
            HeadObjectResponse head;
            try {
                head = head(partial, deadline);
            } catch (RuntimeException notThere) {
                throw e;
            }
            checkSize(head, size, partial);
            LOG.infof("the completion of %s was answered late; the object is there with all %d bytes", partial, size);
            return null;
        }
    }

    /** The rest of the backup's time, or the short grace when it is up. */
    static Duration cleanUpTime(Instant deadline) {
        Duration left = Duration.between(Instant.now(), deadline);
        return left.compareTo(CLEAN_UP_GRACE) < 0 ? CLEAN_UP_GRACE : left;
    }

    static java.util.function.Consumer<AwsRequestOverrideConfiguration.Builder> within(Instant deadline) {
        Duration left = left(deadline);
        return o -> o.apiCallTimeout(left);
    }

    /** The time left until the deadline; a backup whose time is up fails here. */
    static Duration left(Instant deadline) {
        Duration left = Duration.between(Instant.now(), deadline);
        if (left.isNegative() || left.isZero()) {
            throw new BackupFailure(BackupFailure.TIMEOUT, "the backup ran out of time", true);
        }
        return left;
    }

    private static byte[] crc32c(byte[] buffer, int length) {
        CRC32C crc = new CRC32C();
        crc.update(buffer, 0, length);
        return bigEndian(crc.getValue());
    }

    private static byte[] bigEndian(long crc) {
        return new byte[] {(byte) (crc >>> 24), (byte) (crc >>> 16), (byte) (crc >>> 8), (byte) crc};
    }
}
