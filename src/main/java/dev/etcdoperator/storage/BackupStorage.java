package dev.etcdoperator.storage;

import java.io.InputStream;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import dev.etcdoperator.core.backup.BackupFailure;
import dev.etcdoperator.core.backup.S3Location;
import dev.etcdoperator.core.backup.StoredBackup;

/**
 * The one way into backup storage: {@link #open(S3Settings)} gives a {@link Store} that owns its client until it
 * is closed. The controllers hold a {@code BackupStorage}; tests give them one in memory. Every call of a store is
 * bounded by the deadline it is given and fails with a {@link BackupFailure} (reason
 * {@link BackupFailure#TIMEOUT} once the deadline has passed).
 */
public interface BackupStorage {

    Store open(S3Settings settings);

    /**
     * Whether pods can be given a link to a client-side encrypted backup, decrypted (see {@link SnapshotLinks}); a
     * restore of such a backup checks it in its preflight.
     */
    default boolean servesDecrypted() {
        return true;
    }

    /**
     * An etcd snapshot being read from the store.
     *
     * @param size   its size when the object records it, or null
     * @param sha256 its SHA-256 as recorded at backup time, or null
     */
    record Snapshot(InputStream stream, Long size, String sha256) implements AutoCloseable {
        @Override
        public void close() throws java.io.IOException {
            stream.close();
        }
    }

    /** The calls around backups on one store. */
    interface Store extends AutoCloseable {

        /** Fails with a clear reason when the bucket does not exist or the credentials are refused. */
        void checkBucket(String bucket, Instant deadline);

        /**
         * Removes what this owner's interrupted uploads left for exactly {@code target} (a one-shot backup's key) or
         * for the periodic backups under exactly the prefix {@code target}: multipart uploads and partial objects
         * whose names say they are this owner's, started before {@code startedBefore}; a partial object must also
         * carry this owner in its metadata. Nothing else is touched. Best effort: problems are logged.
         *
         * @return how many were removed
         */
        int cleanUpInterrupted(S3Location target, boolean periodic, String owner, Instant startedBefore, Instant deadline);

        /** The object at {@code location} and what its metadata says, or empty when there is none. */
        Optional<StoredBackup> find(S3Location location, Instant deadline);

        /** Every periodic backup under exactly the prefix {@code prefix}, whoever wrote it. */
        List<StoredBackup> periodicBackups(S3Location prefix, Instant deadline);

        /**
         * Streams a snapshot to a partial object, verifies it, then puts it at {@code target}, which it never
         * takes from another owner ({@link BackupFailure#PATH_IN_USE}).
         *
         * @param metadata revision, version, source, owner and cluster ({@code BackupMetadata}); the owner is required
         */
        Uploaded upload(InputStream snapshot, S3Location target, Map<String, String> metadata, Instant deadline);

        void delete(S3Location location, Instant deadline);

        /** Reads the whole object and checks it (restore). */
        VerifiedBackup verify(S3Location location);

        /** Which object is at {@code location} now, or empty when there is none. */
        Optional<ObjectVersion> head(S3Location location, Instant deadline);

        /**
         * Version {@code versionId} of the object at {@code location} (in a bucket with versioning), or empty when that
         * version is gone; without a version id, what {@link #head(S3Location, Instant)} says.
         */
        default Optional<ObjectVersion> head(S3Location location, String versionId, Instant deadline) {
            return head(location, deadline);
        }

        /**
         * A URL that lets whoever holds it GET exactly {@code object} (with client-side encryption, a link of the
         * operator's own that serves it decrypted, see {@link SnapshotLinks}) (its version id when it has one, and only while
         * its ETag is unchanged: the GET must send {@code If-Match} with the ETag) until it expires, without
         * credentials of their own.
         */
        String presignedGet(S3Location location, ObjectVersion object, Duration validFor);

        /**
         * Whether a link from {@link #presignedGet} to {@code object} can only ever serve that object: the store was
         * asked for it with another ETag in {@code If-Match} and refused. No for a link of the operator's own (client-side
         * encryption) and for an object without an ETag.
         */
        default boolean linkRefusesOtherObjects(S3Location location, ObjectVersion object) {
            return false;
        }

        /**
         * Why the store does not serve the link {@link #presignedGet} makes for {@code object}, asked for one byte;
         * empty when it serves it, when the link is the operator's own (client-side encryption), or when the answer
         * says nothing of the link (none at all, the object gone or changed: other checks judge those).
         */
        default Optional<LinkRefusal> linkRefusal(S3Location location, ObjectVersion object) {
            return Optional.empty();
        }

        /**
         * Streams the etcd snapshot of exactly {@code object} (its version id, and only while its ETag is unchanged),
         * decrypted with the settings' key when it is client-side encrypted.
         */
        default Snapshot readSnapshot(S3Location location, ObjectVersion object) {
            throw new UnsupportedOperationException("this store does not stream snapshots");
        }

        @Override
        void close();
    }

    /**
     * A store's answer to a presigned link that it does not serve: refused (400, 401, 403: a policy, a signature or a
     * clock it does not accept) or failing (500 and up: its downloads fail for now).
     *
     * @param status the HTTP status
     * @param answer the start of the store's answer, or empty
     */
    record LinkRefusal(int status, String answer) {
        public boolean storeFailing() {
            return status >= 500;
        }

        @Override
        public String toString() {
            return "HTTP " + status + (answer.isEmpty() ? "" : ": " + answer);
        }
    }
}
