package dev.etcdoperator.core.backup;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.etcdoperator.core.Digests;

/**
 * Object names. A periodic backup is stored at {@code <prefix>_v<revision>_<yyyy-MM-dd-HH:mm:ss>} (UTC), as the
 * CoreOS operator named them. An upload in progress is marked by an empty object at
 * {@code <key>.partial-<owner token>-<id>}, a name no backup has, so that a later clean-up can find it; the upload
 * itself goes to the key when the key is free (a multipart upload is no object until it is completed, and it is
 * completed only once verified), else to the partial key, to be copied to the key once verified.
 */
public final class BackupNames {
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd-HH:mm:ss");
    private static final String PARTIAL = ".partial-";
    private static final Pattern PARTIAL_NAME = Pattern.compile("(.+)\\.partial-([0-9a-f]{12})-([0-9a-f]{8})");

    private BackupNames() {
    }

    /** A backup this operator made under a periodic prefix. */
    public record Periodic(String key, long revision, Instant time) {
    }

    public static String periodicKey(String prefix, long revision, Instant time) {
        return prefix + "_v" + revision + "_" + TIME.format(LocalDateTime.ofInstant(time, ZoneOffset.UTC));
    }

    /** The key as a periodic backup under {@code prefix}, or empty when it is not one (any other object). */
    public static Optional<Periodic> parsePeriodic(String prefix, String key) {
        if (!key.startsWith(prefix + "_v")) {
            return Optional.empty();
        }
        Matcher m = Pattern.compile("_v(\\d{1,19})_(\\d{4}-\\d{2}-\\d{2}-\\d{2}:\\d{2}:\\d{2})")
                .matcher(key.substring(prefix.length()));
        if (!m.matches()) {
            return Optional.empty();
        }
        try {
            long revision = Long.parseLong(m.group(1));
            Instant time = LocalDateTime.parse(m.group(2), TIME).toInstant(ZoneOffset.UTC);
            return Optional.of(new Periodic(key, revision, time));
        } catch (NumberFormatException | DateTimeParseException e) {
            return Optional.empty();
        }
    }

    /**
     * Where an upload to {@code key} is written until it is verified: {@code <key>.partial-<owner token>-<id>}, a
     * name no backup has, which says whose upload it is ({@link #ownerToken(String)}).
     */
    public static String partialKey(String key, String owner, String uploadId) {
        return key + PARTIAL + ownerToken(owner) + "-" + uploadId;
    }

    /**
     * A short, stable token for an owner ({@code <namespace>/<name>} of an EtcdBackup), put in the names of its
     * partial uploads: a multipart upload carries no metadata a listing shows, so its name must say whose it is.
     */
    public static String ownerToken(String owner) {
        return Digests.shortSha256(owner, 6);
    }

    /**
     * Whether {@code key} is a partial upload that {@code owner} made for exactly the backup at {@code target}
     * (one-shot) or for a periodic backup under exactly the prefix {@code target} (periodic). Nothing else is: not
     * another owner's upload, not one for a longer key or prefix that starts the same, not a user's object.
     */
    public static boolean isOwnPartial(String key, String target, boolean periodic, String owner) {
        Matcher m = PARTIAL_NAME.matcher(key);
        if (!m.matches() || !m.group(2).equals(ownerToken(owner))) {
            return false;
        }
        String backupKey = m.group(1);
        return periodic ? parsePeriodic(target, backupKey).isPresent() : backupKey.equals(target);
    }

    /** The backup key a partial upload's name was made for ({@link #partialKey}), or empty for any other name. */
    public static Optional<String> backupKeyOf(String partialKey) {
        Matcher m = PARTIAL_NAME.matcher(partialKey);
        return m.matches() ? Optional.of(m.group(1)) : Optional.empty();
    }

    public static boolean isPartial(String key) {
        return PARTIAL_NAME.matcher(key).matches();
    }
}
