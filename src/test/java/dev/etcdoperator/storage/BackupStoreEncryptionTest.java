package dev.etcdoperator.storage;

import static dev.etcdoperator.storage.BackupStoreTest.BUCKET;
import static dev.etcdoperator.storage.BackupStoreTest.ME;
import static dev.etcdoperator.storage.BackupStoreTest.PART;
import static dev.etcdoperator.storage.BackupStoreTest.deadline;
import static dev.etcdoperator.storage.BackupStoreTest.metadata;
import static dev.etcdoperator.storage.BackupStoreTest.snapshot;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.security.MessageDigest;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Map;
import java.util.Random;

import dev.etcdoperator.core.backup.BackupFailure;
import dev.etcdoperator.core.backup.BackupMetadata;
import dev.etcdoperator.core.backup.S3Location;
import org.junit.jupiter.api.Test;

/** Client-side encryption through the store: what is uploaded, what is recorded, what a read with a key checks. */
class BackupStoreEncryptionTest {
    static final BackupKey KEY = BackupKey.of(random(32, 1), "ns/backup-key[key]");
    static final BackupKey OTHER = BackupKey.of(random(32, 2), "ns/new-key[key]");
    static final String KEY_NAME = "enc/snapshot.db";

    final InMemoryS3 s3 = new InMemoryS3(BUCKET);

    BackupStore store(BackupKey key) {
        S3Settings settings = new S3Settings("id", "secret", null, "us-east-1", null, true);
        return new BackupStore(s3, key == null ? settings : settings.withClientKey(key), PART, 2);
    }

    @Test
    void anEncryptedBackupStoresCiphertextAndRecordsBothDigests() throws Exception {
        byte[] snapshot = snapshot(5, 30_000); // about 15 MiB: several parts, many segments
        Uploaded up = store(KEY).upload(new ByteArrayInputStream(snapshot), new S3Location(BUCKET, KEY_NAME),
                metadata(ME), deadline());

        byte[] stored = s3.objects.get(KEY_NAME).data();
        assertThat(stored).hasSize((int) BackupCipher.ciphertextSize(snapshot.length));
        assertThat(up.size()).isEqualTo(stored.length);
        assertThat(up.sha256()).isEqualTo(sha256(stored));
        assertThat(up.encryption()).isEqualTo(new Uploaded.Encryption(snapshot.length, sha256(snapshot),
                KEY.fingerprint()));
        // the checksums, known only at the end, are tags of the object; what was known before is its metadata
        assertThat(s3.tags.get(KEY_NAME))
                .containsEntry(BackupMetadata.SHA256, sha256(stored))
                .containsEntry(BackupMetadata.SIZE, Long.toString(stored.length))
                .containsEntry(BackupMetadata.SNAPSHOT_SHA256, sha256(snapshot))
                .containsEntry(BackupMetadata.SNAPSHOT_SIZE, Long.toString(snapshot.length));
        assertThat(s3.objects.get(KEY_NAME).metadata())
                .containsEntry(BackupMetadata.ENCRYPTION, BackupCipher.FORMAT)
                .containsEntry(BackupMetadata.ENCRYPTION_KEY, KEY.fingerprint())
                .containsEntry(BackupMetadata.ENCRYPTION_SECRET, "backup-key[key]");

        VerifiedBackup read = store(KEY).verify(new S3Location(BUCKET, KEY_NAME));
        assertThat(read.sha256()).isEqualTo(sha256(stored));
        assertThat(read.snapshotSha256()).isEqualTo(sha256(snapshot));
        assertThat(read.keyFingerprint()).isEqualTo(KEY.fingerprint());
        assertThat(read.revision()).isEqualTo(10L);
    }

    @Test
    void aSnapshotThatIsNotWholeIsRefusedBeforeAnythingIsStored() throws Exception {
        byte[] snapshot = snapshot(6, 10);
        snapshot[100] ^= 1; // etcd's hash trailer no longer matches
        assertThatThrownBy(() -> store(KEY).upload(new ByteArrayInputStream(snapshot),
                new S3Location(BUCKET, KEY_NAME), metadata(ME), deadline()))
                .isInstanceOfSatisfying(BackupFailure.class, f -> assertThat(f.reason())
                        .isEqualTo(BackupFailure.VERIFICATION_FAILED));
        assertThat(s3.objects).isEmpty();
    }

    @Test
    void readingAnEncryptedBackupWithoutAKeyOrWithAnotherFailsAndSaysWhichKeyItNeeds() throws Exception {
        store(KEY).upload(new ByteArrayInputStream(snapshot(7, 20)), new S3Location(BUCKET, KEY_NAME), metadata(ME),
                deadline());

        assertThatThrownBy(() -> store(null).verify(new S3Location(BUCKET, KEY_NAME)))
                .isInstanceOfSatisfying(BackupFailure.class, f -> assertThat(f.reason())
                        .isEqualTo(BackupFailure.DECRYPTION_FAILED))
                .hasMessageContaining(KEY.fingerprint()).hasMessageContaining("backup-key")
                .hasMessageContaining("s3.clientSideEncryption");
        assertThatThrownBy(() -> store(OTHER).verify(new S3Location(BUCKET, KEY_NAME)))
                .isInstanceOfSatisfying(BackupFailure.class, f -> assertThat(f.reason())
                        .isEqualTo(BackupFailure.DECRYPTION_FAILED))
                .hasMessageContaining(KEY.fingerprint()).hasMessageContaining(OTHER.fingerprint());
    }

    @Test
    void aRecordedSnapshotSizeThatIsNotTheDecryptedOnesIsRefused() throws Exception {
        byte[] snapshot = snapshot(10, 20);
        store(KEY).upload(new ByteArrayInputStream(snapshot), new S3Location(BUCKET, KEY_NAME), metadata(ME),
                deadline());
        InMemoryS3.Obj o = s3.objects.get(KEY_NAME);
        java.util.Map<String, String> metadata = new java.util.HashMap<>(o.metadata());
        metadata.put(BackupMetadata.SNAPSHOT_SIZE, Long.toString(snapshot.length - 512));
        s3.put(KEY_NAME, o.data(), metadata, o.lastModified());

        assertThatThrownBy(() -> store(KEY).verify(new S3Location(BUCKET, KEY_NAME)))
                .isInstanceOfSatisfying(BackupFailure.class, f -> assertThat(f.reason())
                        .isEqualTo(BackupFailure.VERIFICATION_FAILED))
                .hasMessageContaining(snapshot.length + " bytes");
    }

    @Test
    void aPlaintextBackupReadWithAKeyIsRefused() throws Exception {
        store(null).upload(new ByteArrayInputStream(snapshot(8, 20)), new S3Location(BUCKET, KEY_NAME), metadata(ME),
                deadline());

        assertThatThrownBy(() -> store(KEY).verify(new S3Location(BUCKET, KEY_NAME)))
                .isInstanceOfSatisfying(BackupFailure.class, f -> assertThat(f.reason())
                        .isEqualTo(BackupFailure.DECRYPTION_FAILED))
                .hasMessageContaining("not client-side encrypted");
    }

    @Test
    void aCiphertextChangedWithItsChecksumIsCaughtByTheCipher() throws Exception {
        store(KEY).upload(new ByteArrayInputStream(snapshot(9, 4000)), new S3Location(BUCKET, KEY_NAME), metadata(ME),
                deadline());
        InMemoryS3.Obj o = s3.objects.get(KEY_NAME);
        byte[] changed = o.data().clone();
        changed[changed.length / 2] ^= 1;
        Map<String, String> metadata = new HashMap<>(o.metadata());
        metadata.put(BackupMetadata.SHA256, sha256(changed)); // whoever changed it fixed the object's checksum too
        s3.put(KEY_NAME, changed, metadata, o.lastModified());

        assertThatThrownBy(() -> store(KEY).verify(new S3Location(BUCKET, KEY_NAME)))
                .isInstanceOfSatisfying(BackupFailure.class, f -> assertThat(f.reason())
                        .isEqualTo(BackupFailure.DECRYPTION_FAILED))
                .hasMessageContaining("changed, cut or damaged");
    }

    static String sha256(byte[] bytes) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    }

    static byte[] random(int size, long seed) {
        byte[] b = new byte[size];
        new Random(seed).nextBytes(b);
        return b;
    }
}
