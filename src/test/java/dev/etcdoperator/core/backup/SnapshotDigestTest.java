package dev.etcdoperator.core.backup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.Random;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

class SnapshotDigestTest {

    /** A fake snapshot: a "database" of whole 512-byte blocks followed by its SHA-256, as etcd sends it. */
    static byte[] snapshot(int blocks, long seed) throws Exception {
        byte[] db = new byte[blocks * 512];
        new Random(seed).nextBytes(db);
        byte[] hash = MessageDigest.getInstance("SHA-256").digest(db);
        byte[] all = new byte[db.length + hash.length];
        System.arraycopy(db, 0, all, 0, db.length);
        System.arraycopy(hash, 0, all, db.length, hash.length);
        return all;
    }

    static SnapshotDigest digestInChunks(byte[] bytes, int chunk) {
        SnapshotDigest digest = new SnapshotDigest();
        for (int off = 0; off < bytes.length; off += chunk) {
            digest.update(bytes, off, Math.min(chunk, bytes.length - off));
        }
        return digest;
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 7, 31, 32, 33, 512, 4096, 100_000})
    void a_whole_snapshot_matches_in_any_chunking(int chunk) throws Exception {
        byte[] snap = snapshot(40, chunk);
        SnapshotDigest digest = digestInChunks(snap, chunk);
        assertThat(digest.etcdHashMatches()).isTrue();
        assertThat(digest.size()).isEqualTo(snap.length);
        assertThat(digest.sha256Hex()).isEqualTo(HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(snap)));
        assertThat(digest.etcdHashProblem()).isEqualTo("none");
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 31, 32, 33, 4096})
    void without_a_copyable_digest_every_byte_goes_through_two_digests(int chunk) throws Exception {
        byte[] snap = snapshot(12, chunk);
        SnapshotDigest digest = new SnapshotDigest(false);
        for (int off = 0; off < snap.length; off += chunk) {
            digest.update(snap, off, Math.min(chunk, snap.length - off));
        }
        assertThat(digest.etcdHashMatches()).isTrue();
        assertThat(digest.sha256Hex()).isEqualTo(HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(snap)));
        snap[100] ^= 0x01;
        SnapshotDigest corrupted = new SnapshotDigest(false);
        corrupted.update(snap, 0, snap.length);
        assertThat(corrupted.etcdHashMatches()).isFalse();
    }

    @Test
    void exactly_a_hash_of_bytes_has_its_checksum() throws Exception {
        byte[] bytes = new byte[32];
        java.util.Arrays.fill(bytes, (byte) 7);
        SnapshotDigest digest = digestInChunks(bytes, 5);
        assertThat(digest.sha256Hex()).isEqualTo(HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes)));
        assertThat(digest.etcdHashMatches()).isFalse();
    }

    @Test
    void a_truncated_snapshot_does_not_match() throws Exception {
        byte[] snap = snapshot(10, 1);
        byte[] cut = java.util.Arrays.copyOf(snap, snap.length - 100);
        SnapshotDigest digest = digestInChunks(cut, 100);
        assertThat(digest.etcdHashMatches()).isFalse();
        assertThat(digest.etcdHashProblem()).contains("truncated");
    }

    @Test
    void a_flipped_byte_does_not_match() throws Exception {
        byte[] snap = snapshot(10, 2);
        snap[1000] ^= 0x01;
        SnapshotDigest digest = digestInChunks(snap, 333);
        assertThat(digest.etcdHashMatches()).isFalse();
        assertThat(digest.etcdHashProblem()).contains("corrupted");
    }

    @Test
    void a_flipped_byte_in_the_trailer_does_not_match() throws Exception {
        byte[] snap = snapshot(3, 3);
        snap[snap.length - 1] ^= 0x40;
        assertThat(digestInChunks(snap, 64).etcdHashMatches()).isFalse();
    }

    @Test
    void fewer_bytes_than_a_hash_do_not_match_and_still_have_their_checksum() throws Exception {
        byte[] few = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
        SnapshotDigest digest = digestInChunks(few, 3);
        assertThat(digest.etcdHashMatches()).isFalse();
        assertThat(digest.sha256Hex()).isEqualTo(HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(few)));
        assertThat(new SnapshotDigest().sha256Hex())
                .isEqualTo(HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(new byte[0])));
    }

    @Test
    void cannot_be_fed_after_it_is_finished() {
        SnapshotDigest digest = new SnapshotDigest();
        digest.sha256Hex();
        assertThatThrownBy(() -> digest.update(new byte[1], 0, 1)).isInstanceOf(IllegalStateException.class);
    }
}
