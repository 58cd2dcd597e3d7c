package dev.etcdoperator.storage;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;

import dev.etcdoperator.core.backup.BackupFailure;

/**
 * The key of client-side encryption: 32 bytes from a Secret, which wrap each backup's own data key (see
 * {@link BackupCipher}). A Secret may hold the 32 bytes as they are, or base64 text of them (what
 * {@code openssl rand -base64 32} writes; surrounding white space is ignored): 32 raw bytes are never base64 of 32
 * bytes (that takes 44 characters), so the two cannot be confused. The key is known by its {@link #fingerprint()},
 * which is safe to record and show; the bytes never leave this class but into the cipher.
 *
 * @param source where the key came from, {@code <namespace>/<secret>[<key>]}, for messages
 */
public final class BackupKey {
    public static final int LENGTH = 32;
    private static final byte[] FINGERPRINT_LABEL = "etcd-operator backup key fingerprint\0".getBytes(StandardCharsets.US_ASCII);

    private final byte[] bytes;
    private final String source;
    private final String fingerprint;

    private BackupKey(byte[] bytes, String source) {
        this.bytes = bytes.clone();
        this.source = source;
        this.fingerprint = fingerprint(bytes);
    }

    /**
     * @param value the Secret's value, raw or base64
     * @throws BackupFailure {@link BackupFailure#ENCRYPTION_KEY_INVALID} when it is neither 32 bytes nor base64 of 32
     */
    public static BackupKey of(byte[] value, String source) {
        if (value == null) {
            throw new BackupFailure(BackupFailure.ENCRYPTION_KEY_INVALID, "the encryption key " + source
                    + " is missing", true);
        }
        if (value.length == LENGTH) {
            return new BackupKey(value, source);
        }
        String text = new String(value, StandardCharsets.ISO_8859_1).strip();
        try {
            byte[] decoded = Base64.getDecoder().decode(text);
            if (decoded.length == LENGTH) {
                return new BackupKey(decoded, source);
            }
        } catch (IllegalArgumentException e) {
            // neither raw nor base64: said below
        }
        throw new BackupFailure(BackupFailure.ENCRYPTION_KEY_INVALID, "the encryption key " + source + " holds "
                + value.length + " bytes; it must be 32 random bytes, raw or base64 (openssl rand -base64 32)", true);
    }

    /** The first 16 hex digits of a SHA-256 over a fixed label and the key: tells keys apart, reveals nothing of them. */
    static String fingerprint(byte[] key) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            sha.update(FINGERPRINT_LABEL);
            return HexFormat.of().formatHex(Arrays.copyOf(sha.digest(key), 8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    public String fingerprint() {
        return fingerprint;
    }

    public String source() {
        return source;
    }

    byte[] bytes() {
        return bytes.clone();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof BackupKey k && k.fingerprint.equals(fingerprint) && k.source.equals(source);
    }

    @Override
    public int hashCode() {
        return fingerprint.hashCode() * 31 + source.hashCode();
    }

    @Override
    public String toString() {
        return source + " (fingerprint " + fingerprint + ")";
    }
}
