package dev.etcdoperator.core.backup;

import java.util.ArrayList;
import java.util.List;

/**
 * Judges a restore drill: the member restored from the backup against what the source said when the backup was
 * taken. The snapshot is taken after the revision is read, so it may hold later writes: the restored member must
 * be at that revision or past it, and at that revision it must hold the same keys ({@code HashKV}, compared only
 * where both sides still have the revision and start the hash at the same compaction) and as many of them.
 */
public final class DrillVerdict {
    public static final String VERIFIED = "Verified";
    public static final String REVISION_MISMATCH = "RevisionMismatch";
    public static final String HASH_MISMATCH = "HashMismatch";
    public static final String KEY_COUNT_MISMATCH = "KeyCountMismatch";
    public static final String RESTORE_FAILED = "RestoreFailed";
    public static final String DIGEST_MISMATCH = "DigestMismatch";
    public static final String DRILL_FAILED = "DrillFailed";
    public static final String TIMEOUT = "Timeout";
    /**
     * The drill reached no verdict: its pod's download of the snapshot failed (the operator's link refused or cut off,
     * as when the operator restarts or the leader changes), or the drill's worker was stopped. Not a verdict on the
     * backup: the drill is run again.
     */
    public static final String INTERRUPTED = "DrillInterrupted";

    private DrillVerdict() {
    }

    /**
     * What a drill found.
     *
     * @param verified whether the backup restored and matched
     * @param reason   {@link #VERIFIED} or why not (a condition reason)
     * @param message  what was compared and what was not, for a person
     */
    public record Outcome(boolean verified, String reason, String message) {

        public static Outcome failed(String reason, String message) {
            return new Outcome(false, reason, message);
        }
    }

    /**
     * @param revision         the revision the source had when the backup was taken
     * @param recorded         what the source said at that revision, or null when nothing was recorded
     * @param restoredRevision the revision the restored member is at
     * @param restored         the restored member's fingerprint at {@code revision}, or null when it could not be
     *                         read there
     */
    public static Outcome judge(String backup, long revision, KeyspaceFingerprint recorded, long restoredRevision,
            KeyspaceFingerprint restored) {
        if (restoredRevision < revision) {
            return Outcome.failed(REVISION_MISMATCH, backup + " restored to revision " + restoredRevision
                    + ", lower than the " + revision + " the source had when it was backed up");
        }
        List<String> compared = new ArrayList<>(List.of("revision " + restoredRevision + " >= " + revision));
        List<String> notCompared = new ArrayList<>();
        if (recorded == null) {
            notCompared.add("hash and key count not compared: not recorded when the backup was taken");
        } else {
            String hash = compareHash(recorded, restored, compared, notCompared);
            if (hash != null) {
                return Outcome.failed(HASH_MISMATCH, backup + " holds other data at revision " + revision
                        + " than the source did: " + hash);
            }
            String count = compareKeyCount(recorded, restored, compared, notCompared);
            if (count != null) {
                return Outcome.failed(KEY_COUNT_MISMATCH, backup + " holds " + count + " at revision " + revision);
            }
        }
        String message = backup + " restored and matched the source: " + String.join(", ", compared)
                + (notCompared.isEmpty() ? "" : " (" + String.join("; ", notCompared) + ")");
        return new Outcome(true, VERIFIED, message);
    }

    /** @return how the hashes differ, or null when they are equal or could not be compared (noted) */
    private static String compareHash(KeyspaceFingerprint recorded, KeyspaceFingerprint restored,
            List<String> compared, List<String> notCompared) {
        if (recorded.hash() == null) {
            notCompared.add("hash not compared: revision compacted on the source");
        } else if (restored == null || restored.hash() == null) {
            notCompared.add("hash not compared: revision compacted in the backup");
        } else if (!recorded.compactRevision().equals(restored.compactRevision())) {
            notCompared.add("hash not compared: compacted at revision " + restored.compactRevision()
                    + " in the backup, " + recorded.compactRevision() + " on the source");
        } else if (!recorded.hash().equals(restored.hash())) {
            return "HashKV " + Long.toUnsignedString(restored.hash()) + ", the source's was "
                    + Long.toUnsignedString(recorded.hash());
        } else {
            compared.add("HashKV equal");
        }
        return null;
    }

    /** @return how the counts differ, or null when they are equal or could not be compared (noted) */
    private static String compareKeyCount(KeyspaceFingerprint recorded, KeyspaceFingerprint restored,
            List<String> compared, List<String> notCompared) {
        if (recorded.keyCount() == null) {
            notCompared.add("key count not compared: revision compacted on the source");
        } else if (restored == null || restored.keyCount() == null) {
            notCompared.add("key count not compared: revision compacted in the backup");
        } else if (!recorded.keyCount().equals(restored.keyCount())) {
            return restored.keyCount() + " keys, the source held " + recorded.keyCount();
        } else {
            compared.add(restored.keyCount() + " keys");
        }
        return null;
    }
}
