package dev.etcdoperator.storage;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import dev.etcdoperator.core.backup.BackupMetadata;
import org.jboss.logging.Logger;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.Tag;

/**
 * A backup's checksums as tags of its object. They are known only once the whole snapshot went through, after the
 * object's metadata was fixed; a tag is set on the object as it is, where new metadata takes a copy of the whole
 * object (MinIO reads and writes it again even onto itself, to compute checksums of its own). A store or a policy that
 * refuses tags (403, 501) gets the copy instead; readers take the checksums from the metadata or, failing that, from
 * the tags.
 */
final class ChecksumTags {
    private static final Logger LOG = Logger.getLogger(ChecksumTags.class);
    /** The metadata entries that may be tags instead. */
    static final List<String> KEYS = List.of(BackupMetadata.SHA256, BackupMetadata.SIZE, BackupMetadata.SNAPSHOT_SHA256,
            BackupMetadata.SNAPSHOT_SIZE);

    private final S3Client s3;

    ChecksumTags(S3Client s3) {
        this.s3 = s3;
    }

    /**
     * Tags the object with those of {@code metadata}'s entries that are checksums.
     *
     * @return false when the store or the credentials' policy does not allow tags (nothing was changed)
     */
    boolean put(String bucket, String key, Map<String, String> metadata, Duration callTime) {
        List<Tag> tags = KEYS.stream().filter(metadata::containsKey)
                .map(k -> Tag.builder().key(k).value(metadata.get(k)).build()).toList();
        try {
            s3.putObjectTagging(b -> b.bucket(bucket).key(key).tagging(t -> t.tagSet(tags))
                    .overrideConfiguration(o -> o.apiCallTimeout(callTime)));
            return true;
        } catch (S3Exception e) {
            if (refused(e)) {
                LOG.infof("%s/%s: the store refused tags (%d: %s); the checksums join the metadata by a copy of the"
                        + " object instead (allow s3:PutObjectTagging to spare it)", bucket, key, e.statusCode(),
                        e.getMessage());
                return false;
            }
            throw e;
        }
    }

    /**
     * {@code metadata} (keys in lower case) with the checksum tags of the object added where the metadata has none;
     * unchanged when the metadata holds the checksum, or the tags cannot be read.
     */
    Map<String, String> withTags(String bucket, String key, String versionId, Map<String, String> metadata,
            Duration callTime) {
        if (metadata.containsKey(BackupMetadata.SHA256)) {
            return metadata;
        }
        Map<String, String> all = new HashMap<>(metadata);
        try {
            s3.getObjectTagging(b -> b.bucket(bucket).key(key).versionId(versionId)
                    .overrideConfiguration(o -> o.apiCallTimeout(callTime))).tagSet().stream()
                    .filter(t -> KEYS.contains(t.key().toLowerCase(Locale.ROOT)))
                    .forEach(t -> all.putIfAbsent(t.key().toLowerCase(Locale.ROOT), t.value()));
        } catch (S3Exception e) {
            if (!refused(e)) {
                throw e;
            }
        }
        return all;
    }

    private static boolean refused(S3Exception e) {
        return e.statusCode() == 403 || e.statusCode() == 501;
    }
}
