package dev.etcdoperator.core.backup;

import java.util.Objects;

/** A bucket and an object key, read from the API's {@code s3.path} ({@code <bucket>/<key>}). */
public record S3Location(String bucket, String key) {

    public S3Location {
        Objects.requireNonNull(bucket, "bucket");
        Objects.requireNonNull(key, "key");
    }

    /**
     * @throws BackupFailure with reason {@link BackupFailure#INVALID_PATH} when there is no bucket or no key
     */
    public static S3Location parse(String path) {
        if (path == null || path.isBlank()) {
            throw new BackupFailure(BackupFailure.INVALID_PATH, "s3.path is empty; it must be <bucket>/<key>", false);
        }
        int slash = path.indexOf('/');
        if (slash <= 0 || slash == path.length() - 1) {
            throw new BackupFailure(BackupFailure.INVALID_PATH,
                    "s3.path '" + path + "' must be <bucket>/<key>: a bucket name, a slash, then the object key", false);
        }
        return new S3Location(path.substring(0, slash), path.substring(slash + 1));
    }

    public S3Location withKey(String otherKey) {
        return new S3Location(bucket, otherKey);
    }

    @Override
    public String toString() {
        return bucket + "/" + key;
    }
}
