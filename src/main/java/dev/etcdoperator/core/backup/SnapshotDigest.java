package dev.etcdoperator.core.backup;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * Digests an etcd snapshot as it streams by: the SHA-256 of all its bytes (the backup's checksum) and etcd's own
 * integrity check. etcd ends a snapshot with the SHA-256 of the database before it (32 bytes, so that the size
 * is 32 more than a multiple of 512); {@code etcdctl snapshot restore} refuses a file whose trailer does not match.
 * This class checks the same without holding more than those last 32 bytes, and hashes every byte once: the
 * database's digest is finished on a copy, and the whole stream's continues from it with the trailer. Where the
 * runtime's SHA-256 cannot be copied (some hardware-token providers), a second digest is fed with every byte.
 */
public final class SnapshotDigest {
    private static final int HASH_SIZE = 32;

    private final MessageDigest content = sha256();
    /** Null when {@link #content} can be copied; otherwise fed with every byte. */
    private final MessageDigest whole;
    private final byte[] tail = new byte[HASH_SIZE];
    private int tailLength;
    private long size;
    private byte[] wholeDigest;
    private byte[] contentDigest;

    public SnapshotDigest() {
        this(copyable(sha256()));
    }

    SnapshotDigest(boolean copyable) {
        this.whole = copyable ? null : sha256();
    }

    public void update(byte[] bytes, int offset, int length) {
        if (wholeDigest != null) {
            throw new IllegalStateException("the digest was already finished");
        }
        if (whole != null) {
            whole.update(bytes, offset, length);
        }
        size += length;
        int total = tailLength + length;
        if (total <= HASH_SIZE) {
            System.arraycopy(bytes, offset, tail, tailLength, length);
            tailLength = total;
            return;
        }
        int release = total - HASH_SIZE;
        int fromTail = Math.min(release, tailLength);
        content.update(tail, 0, fromTail);
        int fromNew = release - fromTail;
        content.update(bytes, offset, fromNew);
        byte[] kept = new byte[HASH_SIZE];
        int keptFromTail = tailLength - fromTail;
        System.arraycopy(tail, fromTail, kept, 0, keptFromTail);
        System.arraycopy(bytes, offset + fromNew, kept, keptFromTail, length - fromNew);
        System.arraycopy(kept, 0, tail, 0, HASH_SIZE);
        tailLength = HASH_SIZE;
    }

    public long size() {
        return size;
    }

    /** The hex SHA-256 of every byte seen. Ends the digest. */
    public String sha256Hex() {
        finish();
        return HexFormat.of().formatHex(wholeDigest);
    }

    /** True when the bytes end with etcd's hash trailer and it matches the database before it. Ends the digest. */
    public boolean etcdHashMatches() {
        finish();
        return size % 512 == HASH_SIZE && tailLength == HASH_SIZE && MessageDigest.isEqual(contentDigest, tail);
    }

    /** Why {@link #etcdHashMatches()} is false, for a message. */
    public String etcdHashProblem() {
        finish();
        if (size % 512 != HASH_SIZE) {
            return "its size (" + size + " bytes) is not that of an etcd snapshot with its hash trailer:"
                    + " the snapshot is truncated or is not an etcd snapshot";
        }
        return MessageDigest.isEqual(contentDigest, tail) ? "none"
                : "its content does not match the SHA-256 trailer etcd wrote at its end: the snapshot is corrupted";
    }

    private void finish() {
        if (wholeDigest != null) {
            return;
        }
        if (whole != null) {
            contentDigest = content.digest();
            wholeDigest = whole.digest();
            return;
        }
        contentDigest = copy(content).digest();
        content.update(tail, 0, tailLength);
        wholeDigest = content.digest();
    }

    private static boolean copyable(MessageDigest digest) {
        try {
            digest.clone();
            return true;
        } catch (CloneNotSupportedException e) {
            return false;
        }
    }

    private static MessageDigest copy(MessageDigest digest) {
        try {
            return (MessageDigest) digest.clone();
        } catch (CloneNotSupportedException e) {
            throw new IllegalStateException("the runtime's SHA-256 cannot be copied", e);
        }
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every Java runtime", e);
        }
    }
}
