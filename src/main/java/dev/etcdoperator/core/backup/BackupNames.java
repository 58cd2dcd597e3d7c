package dev.etcdoperator.core.backup;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Object names. A periodic backup is stored at {@code <prefix>_v<revision>_<yyyy-MM-dd-HH:mm:ss>} (UTC), as the
 * CoreOS operator named them; an upload in progress goes to {@code <key>.partial-<id>}, a name no backup has, and
 * becomes the backup only once it is complete and verified.
 */
public final class BackupNames {
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd-HH:mm:ss");
    private static final String PARTIAL = ".partial-";

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

    /** Where an upload to {@code key} is written until it is verified. */
    public static String partialKey(String key, String uploadId) {
        return key + PARTIAL + uploadId;
    }

    public static boolean isPartial(String key) {
        return key.contains(PARTIAL);
    }
}
