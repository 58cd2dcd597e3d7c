package dev.etcdoperator.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import dev.etcdoperator.core.backup.BackupFailure;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

class BackupCipherTest {
    private static final BackupKey KEY = BackupKey.of(bytes(32, 1), "ns/backup-key[key]");
    private static final BackupKey OTHER = BackupKey.of(bytes(32, 2), "ns/other-key[key]");

    @ParameterizedTest
    @ValueSource(ints = {0, 1, 1000, BackupCipher.SEGMENT - 60, BackupCipher.SEGMENT - 1, BackupCipher.SEGMENT,
            BackupCipher.SEGMENT + 1, 3 * BackupCipher.SEGMENT + 12345})
    void roundTripsAroundSegmentBoundaries(int size) throws IOException {
        byte[] plain = bytes(size, size);
        byte[] cipher = BackupCipher.encrypt(new ByteArrayInputStream(plain), KEY).readAllBytes();

        assertThat(cipher).hasSize((int) BackupCipher.ciphertextSize(size));
        assertThat(Arrays.copyOf(cipher, 8)).isEqualTo(BackupCipher.MAGIC);
        assertThat(decrypt(cipher, KEY)).isEqualTo(plain);
    }

    @Test
    void theCiphertextDoesNotShowThePlaintextAndDiffersEachTime() throws IOException {
        byte[] plain = "etcd snapshot: key=value, key=value, key=value".repeat(1000).getBytes(StandardCharsets.UTF_8);
        byte[] first = BackupCipher.encrypt(new ByteArrayInputStream(plain), KEY).readAllBytes();
        byte[] second = BackupCipher.encrypt(new ByteArrayInputStream(plain), KEY).readAllBytes();

        assertThat(new String(first, StandardCharsets.ISO_8859_1)).doesNotContain("key=value");
        assertThat(first).isNotEqualTo(second);
    }

    @Test
    void anotherKeyIsRefusedByItsFingerprintBeforeAnyByteIsRead() throws IOException {
        byte[] cipher = BackupCipher.encrypt(new ByteArrayInputStream(bytes(5000, 3)), KEY).readAllBytes();

        assertThatThrownBy(() -> BackupCipher.decrypt(new ByteArrayInputStream(cipher), OTHER, "b/k"))
                .isInstanceOfSatisfying(BackupFailure.class, f -> assertThat(f.reason())
                        .isEqualTo(BackupFailure.DECRYPTION_FAILED))
                .hasMessageContaining("fingerprint " + KEY.fingerprint())
                .hasMessageContaining(OTHER.fingerprint());
    }

    @Test
    void aHeaderRelabelledWithAnotherKeysFingerprintFailsTheUnwrap() throws IOException {
        byte[] cipher = BackupCipher.encrypt(new ByteArrayInputStream(bytes(5000, 3)), KEY).readAllBytes();
        byte[] forged = cipher.clone();
        System.arraycopy(HexFormat.of().parseHex(OTHER.fingerprint()), 0, forged, 8, 8);

        assertThatThrownBy(() -> BackupCipher.decrypt(new ByteArrayInputStream(forged), OTHER, "b/k"))
                .isInstanceOfSatisfying(BackupFailure.class, f -> assertThat(f.reason())
                        .isEqualTo(BackupFailure.DECRYPTION_FAILED))
                .hasMessageContaining("cannot be unwrapped");
    }

    @Test
    void aPlaintextObjectIsNotTakenForCiphertext() {
        assertThatThrownBy(() -> BackupCipher.decrypt(new ByteArrayInputStream(bytes(100, 4)), KEY, "b/k"))
                .isInstanceOfSatisfying(BackupFailure.class, f -> assertThat(f.reason())
                        .isEqualTo(BackupFailure.DECRYPTION_FAILED))
                .hasMessageContaining("not client-side encrypted");
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 16, BackupCipher.SEGMENT, BackupCipher.SEGMENT + 100})
    void aCutCiphertextFails(int cut) throws IOException {
        byte[] cipher = BackupCipher.encrypt(new ByteArrayInputStream(bytes(2 * BackupCipher.SEGMENT + 7, 5)), KEY)
                .readAllBytes();
        byte[] truncated = Arrays.copyOf(cipher, cipher.length - cut);

        assertThatThrownBy(() -> decrypt(truncated, KEY)).isInstanceOf(IOException.class);
    }

    @Test
    void aCiphertextCutExactlyAtASegmentBoundaryFails() throws IOException {
        byte[] cipher = BackupCipher.encrypt(new ByteArrayInputStream(bytes(3 * BackupCipher.SEGMENT, 6)), KEY)
                .readAllBytes();
        // the envelope header (magic, fingerprint, length, 60-byte wrapped key) is 77 bytes; the stream's segments
        // (its own header in the first) end at multiples of SEGMENT after it
        byte[] twoSegments = Arrays.copyOf(cipher, 77 + 2 * BackupCipher.SEGMENT);

        assertThatThrownBy(() -> decrypt(twoSegments, KEY)).isInstanceOf(IOException.class);
    }

    @ParameterizedTest
    @ValueSource(ints = {100, BackupCipher.SEGMENT + 5000})
    void aChangedByteFails(int offset) throws IOException {
        byte[] cipher = BackupCipher.encrypt(new ByteArrayInputStream(bytes(2 * BackupCipher.SEGMENT, 7)), KEY)
                .readAllBytes();
        cipher[offset] ^= 1;

        assertThatThrownBy(() -> decrypt(cipher, KEY)).isInstanceOf(IOException.class);
    }

    @Test
    void keysAreTakenRawOrAsBase64AndNothingElse() {
        byte[] raw = bytes(32, 9);
        String base64 = Base64.getEncoder().encodeToString(raw) + "\n";

        assertThat(BackupKey.of(raw, "a").fingerprint())
                .isEqualTo(BackupKey.of(base64.getBytes(StandardCharsets.US_ASCII), "a").fingerprint())
                .hasSize(16);
        assertThat(BackupKey.of(raw, "a").toString()).doesNotContain(Base64.getEncoder().encodeToString(raw));
        for (byte[] bad : new byte[][] {bytes(16, 1), bytes(33, 1), "not a key".getBytes(StandardCharsets.US_ASCII),
                Base64.getEncoder().encode(bytes(31, 1))}) {
            assertThatThrownBy(() -> BackupKey.of(bad, "ns/s[key]"))
                    .isInstanceOfSatisfying(BackupFailure.class, f -> assertThat(f.reason())
                            .isEqualTo(BackupFailure.ENCRYPTION_KEY_INVALID))
                    .hasMessageContaining("ns/s[key]").hasMessageContaining("32");
        }
        assertThatThrownBy(() -> BackupKey.of(null, "ns/s[key]")).hasMessageContaining("missing");
    }

    /**
     * 256 MiB through encryption and decryption in a JVM of 48 MiB heap: anything that held the stream, or the
     * whole ciphertext as JDK's one-shot AES/GCM decryption does, would run out of memory.
     */
    @Test
    void aLargeStreamRoundTripsInAFlatHeap() throws Exception {
        Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx48m",
                "-cp", System.getProperty("java.class.path"), LargeRoundTrip.class.getName(),
                Long.toString(256L * 1024 * 1024)).redirectErrorStream(true).start();
        try {
            boolean ended = p.waitFor(3, TimeUnit.MINUTES);
            String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(ended).as("the round trip ended").isTrue();
            assertThat(p.exitValue()).as(output).isZero();
            assertThat(output).contains("round trip of 268435456 bytes: digests equal");
        } finally {
            p.destroyForcibly();
        }
    }

    /** Encrypts a generated stream, decrypts it as it is produced, and compares the digests of both ends. */
    public static final class LargeRoundTrip {
        public static void main(String[] args) throws Exception {
            long size = Long.parseLong(args[0]);
            MessageDigest in = MessageDigest.getInstance("SHA-256");
            MessageDigest out = MessageDigest.getInstance("SHA-256");
            InputStream source = new Generated(size, in);
            try (InputStream plain = BackupCipher.decrypt(BackupCipher.encrypt(source, KEY), KEY, "large")) {
                byte[] buffer = new byte[1 << 16];
                long total = 0;
                int n;
                while ((n = plain.read(buffer)) >= 0) {
                    out.update(buffer, 0, n);
                    total += n;
                }
                if (total != size || !MessageDigest.isEqual(in.digest(), out.digest())) {
                    System.out.println("round trip of " + total + " bytes: digests differ");
                    System.exit(1);
                }
                System.out.println("round trip of " + total + " bytes: digests equal");
            }
        }
    }

    /** {@code size} pseudo-random bytes, digested as they are handed out; never held. */
    static final class Generated extends InputStream {
        private final Random random = new Random(42);
        private final MessageDigest digest;
        private long left;

        Generated(long size, MessageDigest digest) {
            this.left = size;
            this.digest = digest;
        }

        @Override
        public int read() {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) {
            if (left == 0) {
                return -1;
            }
            int n = (int) Math.min(len, left);
            byte[] chunk = new byte[n];
            random.nextBytes(chunk);
            System.arraycopy(chunk, 0, b, off, n);
            digest.update(chunk);
            left -= n;
            return n;
        }
    }

    private static byte[] decrypt(byte[] cipher, BackupKey key) throws IOException {
        try (InputStream in = BackupCipher.decrypt(new ByteArrayInputStream(cipher), key, "b/k")) {
            return in.readAllBytes();
        }
    }

    static byte[] bytes(int size, long seed) {
        byte[] b = new byte[size];
        new Random(seed).nextBytes(b);
        return b;
    }
}
