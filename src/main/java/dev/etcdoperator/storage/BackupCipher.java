package dev.etcdoperator.storage;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.HexFormat;

import com.google.crypto.tink.StreamingAead;
import com.google.crypto.tink.subtle.AesGcmHkdfStreaming;
import com.google.crypto.tink.subtle.AesGcmJce;
import dev.etcdoperator.core.backup.BackupFailure;

/**
 * Client-side envelope encryption of a backup, streamed both ways in bounded memory. Each backup gets a random
 * 32-byte data key; the snapshot is encrypted with it by Tink's segmented streaming AEAD (AES-256-GCM, per-stream
 * keys derived by HKDF-SHA256, 1 MiB ciphertext segments: each segment is authenticated on its own, and the last
 * one is marked, so a reader holds one segment at a time and notices a cut as surely as a changed byte). The data
 * key is wrapped (AES-256-GCM) by the {@link BackupKey} from the Secret. The object is self-contained:
 *
 * <pre>
 * magic "etcdenc1" (8 bytes) | fingerprint of the wrapping key (8 bytes) | length of the wrapped key (1 byte)
 * | wrapped data key | streaming AEAD ciphertext, whose associated data is everything before it
 * </pre>
 *
 * The wrap's associated data is the magic and the fingerprint, so a header cannot be moved to another key's object.
 */
public final class BackupCipher {
    /** What object metadata records as the format ({@link dev.etcdoperator.core.backup.BackupMetadata#ENCRYPTION}). */
    public static final String FORMAT = "etcdenc1-aes256gcm-hkdf-1mb";
    static final byte[] MAGIC = "etcdenc1".getBytes(StandardCharsets.US_ASCII);
    static final int SEGMENT = 1 << 20;
    private static final int FINGERPRINT_BYTES = 8;
    private static final int READ_CHUNK = 64 * 1024;
    private static final SecureRandom RANDOM = new SecureRandom();

    private BackupCipher() {
    }

    /** The ciphertext of {@code plaintext}, produced as it is read; closing it closes {@code plaintext}. */
    public static InputStream encrypt(InputStream plaintext, BackupKey key) {
        byte[] dataKey = new byte[BackupKey.LENGTH];
        RANDOM.nextBytes(dataKey);
        try {
            byte[] fingerprint = HexFormat.of().parseHex(key.fingerprint());
            byte[] wrapped = new AesGcmJce(key.bytes()).encrypt(dataKey, wrapContext(fingerprint));
            ByteArrayOutputStream header = new ByteArrayOutputStream();
            header.write(MAGIC);
            header.write(fingerprint);
            header.write(wrapped.length);
            header.write(wrapped);
            byte[] headerBytes = header.toByteArray();
            return new EncryptingStream(plaintext, stream(dataKey), headerBytes);
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalStateException("the backup cipher could not be set up: " + e.getMessage(), e);
        } finally {
            Arrays.fill(dataKey, (byte) 0);
        }
    }

    /**
     * The plaintext of {@code ciphertext}, authenticated segment by segment as it is read: a wrong key fails here,
     * a damaged or cut ciphertext fails with an {@link IOException} when the read reaches it.
     *
     * @param what the object, for messages
     * @throws BackupFailure {@link BackupFailure#DECRYPTION_FAILED} when the header is not this format's or the key
     *                       is not the one it was encrypted with
     */
    public static InputStream decrypt(InputStream ciphertext, BackupKey key, String what) throws IOException {
        byte[] magic = ciphertext.readNBytes(MAGIC.length);
        if (!Arrays.equals(magic, MAGIC)) {
            throw new BackupFailure(BackupFailure.DECRYPTION_FAILED, what + " is not client-side encrypted (it does"
                    + " not begin as the operator's encrypted backups do), but s3.clientSideEncryption is set", false);
        }
        byte[] fingerprint = ciphertext.readNBytes(FINGERPRINT_BYTES);
        int length = ciphertext.read();
        byte[] wrapped = length < 0 ? new byte[0] : ciphertext.readNBytes(length);
        if (fingerprint.length < FINGERPRINT_BYTES || length < 0 || wrapped.length < length) {
            throw new BackupFailure(BackupFailure.DECRYPTION_FAILED, what + " ends inside its encryption header", false);
        }
        String recorded = HexFormat.of().formatHex(fingerprint);
        if (!recorded.equals(key.fingerprint())) {
            throw new BackupFailure(BackupFailure.DECRYPTION_FAILED, what + " was encrypted with the key of fingerprint "
                    + recorded + "; the key in " + key.source() + " has fingerprint " + key.fingerprint()
                    + " (a backup needs the Secret it was taken with)", false);
        }
        byte[] dataKey;
        try {
            dataKey = new AesGcmJce(key.bytes()).decrypt(wrapped, wrapContext(fingerprint));
        } catch (GeneralSecurityException e) {
            throw new BackupFailure(BackupFailure.DECRYPTION_FAILED, "the data key of " + what
                    + " cannot be unwrapped with " + key + ": the header was changed, or the key is not the one it"
                    + " was encrypted with", false, e);
        }
        byte[] header = new byte[MAGIC.length + FINGERPRINT_BYTES + 1 + length];
        System.arraycopy(MAGIC, 0, header, 0, MAGIC.length);
        System.arraycopy(fingerprint, 0, header, MAGIC.length, FINGERPRINT_BYTES);
        header[MAGIC.length + FINGERPRINT_BYTES] = (byte) length;
        System.arraycopy(wrapped, 0, header, MAGIC.length + FINGERPRINT_BYTES + 1, length);
        try {
            return stream(dataKey).newDecryptingStream(ciphertext, header);
        } catch (GeneralSecurityException e) {
            throw new BackupFailure(BackupFailure.DECRYPTION_FAILED, "the data key of " + what + " is not usable: "
                    + e.getMessage(), false, e);
        } finally {
            Arrays.fill(dataKey, (byte) 0);
        }
    }

    /** The ciphertext's length for {@code plaintext} bytes (header included). */
    public static long ciphertextSize(long plaintext) {
        try {
            byte[] dataKey = new byte[BackupKey.LENGTH];
            return MAGIC.length + FINGERPRINT_BYTES + 1 + 12 + BackupKey.LENGTH + 16
                    + ((AesGcmHkdfStreaming) stream(dataKey)).expectedCiphertextSize(plaintext);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private static byte[] wrapContext(byte[] fingerprint) {
        byte[] context = Arrays.copyOf(MAGIC, MAGIC.length + fingerprint.length);
        System.arraycopy(fingerprint, 0, context, MAGIC.length, fingerprint.length);
        return context;
    }

    private static StreamingAead stream(byte[] dataKey) throws GeneralSecurityException {
        return new AesGcmHkdfStreaming(dataKey, "HmacSha256", BackupKey.LENGTH, SEGMENT, 0);
    }

    /**
     * Turns Tink's writing side into a stream to read from: each read encrypts the next chunk of plaintext into a
     * buffer that holds at most a segment and a chunk, which the reader then drains.
     */
    private static final class EncryptingStream extends InputStream {
        private final InputStream plaintext;
        private final Buffer out = new Buffer();
        private final OutputStream encrypting;
        private final byte[] chunk = new byte[READ_CHUNK];
        private int position;
        private boolean ended;

        EncryptingStream(InputStream plaintext, StreamingAead aead, byte[] header) throws GeneralSecurityException,
                IOException {
            this.plaintext = plaintext;
            out.write(header);
            this.encrypting = aead.newEncryptingStream(out, header);
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            int n = read(one, 0, 1);
            return n < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            if (len == 0) {
                return 0;
            }
            while (position == out.size()) {
                if (ended) {
                    return -1;
                }
                out.reset();
                position = 0;
                int n = plaintext.read(chunk);
                if (n < 0) {
                    encrypting.close();
                    ended = true;
                } else {
                    encrypting.write(chunk, 0, n);
                }
            }
            int n = Math.min(len, out.size() - position);
            System.arraycopy(out.bytes(), position, b, off, n);
            position += n;
            return n;
        }

        @Override
        public void close() throws IOException {
            plaintext.close();
        }
    }

    private static final class Buffer extends ByteArrayOutputStream {
        byte[] bytes() {
            return buf;
        }
    }
}
