package dev.etcdoperator.core.restore;

import java.time.Duration;
import java.time.Instant;

/**
 * The presigned URL through which a restored cluster's seed member downloads the backup. It is signed for
 * {@link #VALIDITY} and signed again once half of that has passed, so a seed member that starts late (its pod
 * pending for hours) still gets a URL with hours left; one that expired is never the end of a restore. A link to
 * the operator itself (an encrypted backup) lives in the memory of the process that made it, so another process
 * makes it again at once.
 */
public final class SnapshotUrl {
    public static final Duration VALIDITY = Duration.ofHours(6);

    private SnapshotUrl() {
    }

    /** @param expires when the URL now in the Secret expires, or null when none was signed */
    public static boolean needsSigning(Instant expires, Instant now) {
        return expires == null || !now.isBefore(expires.minus(VALIDITY.dividedBy(2)));
    }

    /**
     * @param madeElsewhere the URL is a link to the operator (an encrypted backup, served decrypted) that this operator
     *                      process did not make: one made before a restart, or by another leader, is refused, so it is
     *                      made again whatever its expiry says
     */
    public static boolean needsSigning(Instant expires, Instant now, boolean madeElsewhere) {
        return madeElsewhere || needsSigning(expires, now);
    }
}
