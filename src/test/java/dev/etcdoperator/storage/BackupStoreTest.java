package dev.etcdoperator.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Consumer;
import java.util.stream.Stream;

import dev.etcdoperator.core.backup.BackupFailure;
import dev.etcdoperator.core.backup.BackupMetadata;
import dev.etcdoperator.core.backup.BackupNames;
import dev.etcdoperator.core.backup.S3Location;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The S3 backup store against a store in memory: what it removes, what it replaces, and what it leaves alone.
 */
class BackupStoreTest {
    static final String BUCKET = "b";
    static final String ME = "ns/me";
    static final String OTHER = "ns/other";
    static final int PART = 5 * 1024 * 1024;
    static final Instant LONG_AGO = Instant.parse("2026-01-01T00:00:00Z");

    final InMemoryS3 s3 = new InMemoryS3(BUCKET);
    final BackupStore store = new BackupStore(s3, PART, 2);

    static Instant deadline() {
        return Instant.now().plus(Duration.ofMinutes(1));
    }

    /** Bytes shaped as an etcd snapshot: a database, then the SHA-256 of it (the size 32 more than a multiple of 512). */
    static byte[] snapshot(int seed, int blocks) throws Exception {
        byte[] db = new byte[512 * blocks];
        new Random(seed).nextBytes(db);
        byte[] hash = MessageDigest.getInstance("SHA-256").digest(db);
        byte[] all = Arrays.copyOf(db, db.length + 32);
        System.arraycopy(hash, 0, all, db.length, 32);
        return all;
    }

    static Map<String, String> metadata(String owner) {
        return Map.of(BackupMetadata.OWNER, owner, BackupMetadata.REVISION, "10", BackupMetadata.VERSION, "3.5.17",
                BackupMetadata.SOURCE, "http://m:2379");
    }

    // ---- clean-up of interrupted uploads: only this backup's own partial objects

    @Test
    void cleanUpOfAOneShotKeyTouchesOnlyItsOwnPartialUploadsAndObjects() {
        String key = "once/snapshot.db";
        String mineOld = s3.startUpload(BackupNames.partialKey(key, ME, "0000000a"), Map.of(BackupMetadata.OWNER, ME), LONG_AGO);
        String othersOld = s3.startUpload(BackupNames.partialKey(key, OTHER, "0000000b"), Map.of(BackupMetadata.OWNER, OTHER), LONG_AGO);
        String longerKey = s3.startUpload(BackupNames.partialKey(key + ".old", ME, "0000000c"), Map.of(), LONG_AGO);
        String mineRunning = s3.startUpload(BackupNames.partialKey(key, ME, "0000000d"), Map.of(), Instant.now());
        String legacy = s3.startUpload(key + ".partial-0000000e", Map.of(), LONG_AGO);
        byte[] data = {1, 2, 3};
        s3.put(BackupNames.partialKey(key, ME, "0000000f"), data, Map.of(BackupMetadata.OWNER, ME), LONG_AGO);
        s3.put(BackupNames.partialKey(key, OTHER, "0000000f"), data, Map.of(BackupMetadata.OWNER, OTHER), LONG_AGO);
        s3.put(BackupNames.partialKey(key, ME, "00000010"), data, Map.of(), LONG_AGO); // named like mine, not mine
        s3.put(key + ".partial-users-copy", data, Map.of(), LONG_AGO);
        s3.put(key + ".partial-00000011", data, Map.of(), LONG_AGO);
        s3.put(key, data, Map.of(BackupMetadata.OWNER, ME), LONG_AGO);

        int cleaned = store.cleanUpInterrupted(new S3Location(BUCKET, key), false, ME, Instant.now().minusSeconds(60),
                deadline());

        assertThat(cleaned).isEqualTo(2);
        assertThat(s3.uploads).containsOnlyKeys(othersOld, longerKey, mineRunning, legacy).doesNotContainKey(mineOld);
        assertThat(s3.objects).containsOnlyKeys(BackupNames.partialKey(key, OTHER, "0000000f"),
                BackupNames.partialKey(key, ME, "00000010"), key + ".partial-users-copy", key + ".partial-00000011", key);
    }

    /**
     * The metadata of periodic backups not seen before (every one after a restart: thousands after months of hourly
     * backups) is read several objects at a time, each once, and listed in the store's order.
     */
    @Test
    void periodicBackupsNotSeenBeforeAreReadSeveralAtATimeEachOnce() {
        Instant t = Instant.parse("2026-11-30T08:00:00Z");
        List<String> keys = new java.util.ArrayList<>();
        for (int i = 1; i <= 20; i++) {
            String key = BackupNames.periodicKey("p/x", i, t.plusSeconds(i));
            keys.add(key);
            s3.put(key, new byte[] {1}, Map.of(BackupMetadata.OWNER, ME, BackupMetadata.REVISION, Integer.toString(i)),
                    t);
        }
        java.util.concurrent.CountDownLatch together = new java.util.concurrent.CountDownLatch(2);
        java.util.concurrent.atomic.AtomicInteger inFlight = new java.util.concurrent.atomic.AtomicInteger();
        java.util.concurrent.atomic.AtomicInteger most = new java.util.concurrent.atomic.AtomicInteger();
        List<String> heads = java.util.Collections.synchronizedList(new java.util.ArrayList<>());
        software.amazon.awssdk.services.s3.S3Client gated = (software.amazon.awssdk.services.s3.S3Client)
                java.lang.reflect.Proxy.newProxyInstance(getClass().getClassLoader(),
                        new Class<?>[] {software.amazon.awssdk.services.s3.S3Client.class}, (proxy, method, args) -> {
                            if (method.getName().equals("headObject") && args != null && args.length == 1
                                    && args[0] instanceof software.amazon.awssdk.services.s3.model.HeadObjectRequest r) {
                                heads.add(r.key());
                                most.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
                                together.countDown();
                                // a read alone waits for a second one to begin: sequential reads would wait here
                                together.await(10, java.util.concurrent.TimeUnit.SECONDS);
                                try {
                                    return s3.headObject(r);
                                } finally {
                                    inFlight.decrementAndGet();
                                }
                            }
                            if (method.getName().equals("headObject")) {
                                // the builder's form: it builds the request and calls the form above
                                return java.lang.reflect.InvocationHandler.invokeDefault(proxy, method, args);
                            }
                            try {
                                return method.invoke(s3, args);
                            } catch (java.lang.reflect.InvocationTargetException e) {
                                throw e.getCause();
                            }
                        });

        List<dev.etcdoperator.core.backup.StoredBackup> found = new BackupStore(gated, PART, 2)
                .periodicBackups(new S3Location(BUCKET, "p/x"), deadline());

        assertThat(found).extracting(dev.etcdoperator.core.backup.StoredBackup::key)
                .containsExactlyElementsOf(keys.stream().sorted().toList());
        assertThat(found).allSatisfy(b -> assertThat(b.owner()).isEqualTo(ME));
        assertThat(heads).as("each object read once").hasSize(20).doesNotHaveDuplicates();
        assertThat(most.get()).as("reads at once").isBetween(2, BackupStore.PARALLEL_READS);
    }

    @Test
    void cleanUpOfAPeriodicPrefixTouchesOnlyItsOwnPartialUploadsUnderExactlyThatPrefix() {
        Instant t = Instant.parse("2026-11-30T08:00:00Z");
        String mine = BackupNames.periodicKey("p/x", 10, t);
        String sibling = BackupNames.periodicKey("p/x-2", 10, t);
        String mineOld = s3.startUpload(BackupNames.partialKey(mine, ME, "0000000a"), Map.of(), LONG_AGO);
        String siblingOld = s3.startUpload(BackupNames.partialKey(sibling, ME, "0000000b"), Map.of(), LONG_AGO);
        String othersOld = s3.startUpload(BackupNames.partialKey(mine, OTHER, "0000000c"), Map.of(), LONG_AGO);
        byte[] data = {1};
        s3.put(mine, data, Map.of(BackupMetadata.OWNER, ME), LONG_AGO);
        s3.put(BackupNames.partialKey(mine, ME, "0000000d"), data, Map.of(BackupMetadata.OWNER, ME), LONG_AGO);
        s3.put(BackupNames.partialKey(sibling, ME, "0000000e"), data, Map.of(BackupMetadata.OWNER, ME), LONG_AGO);

        int cleaned = store.cleanUpInterrupted(new S3Location(BUCKET, "p/x"), true, ME, Instant.now().minusSeconds(60),
                deadline());

        assertThat(cleaned).isEqualTo(2);
        assertThat(s3.uploads).containsOnlyKeys(siblingOld, othersOld).doesNotContainKey(mineOld);
        assertThat(s3.objects).containsOnlyKeys(mine, BackupNames.partialKey(sibling, ME, "0000000e"));
    }

    @Test
    void onAStoreThatListsUploadsByExactKeyOnlyTheCleanUpFindsUploadsThroughTheirPartialObjects() {
        s3.uploadsListedByExactKeyOnly = true;
        String key = "once/snapshot.db";
        byte[] none = {};
        String mineKey = BackupNames.partialKey(key, ME, "0000000a");
        String othersKey = BackupNames.partialKey(key, OTHER, "0000000b");
        String runningKey = BackupNames.partialKey(key, ME, "0000000c");
        // each interrupted upload: the empty object written before it, and the multipart upload itself
        s3.put(mineKey, none, Map.of(BackupMetadata.OWNER, ME), LONG_AGO);
        String mineOld = s3.startUpload(mineKey, Map.of(BackupMetadata.OWNER, ME), LONG_AGO);
        s3.put(othersKey, none, Map.of(BackupMetadata.OWNER, OTHER), LONG_AGO);
        String othersOld = s3.startUpload(othersKey, Map.of(BackupMetadata.OWNER, OTHER), LONG_AGO);
        s3.put(runningKey, none, Map.of(BackupMetadata.OWNER, ME), Instant.now());
        String mineRunning = s3.startUpload(runningKey, Map.of(BackupMetadata.OWNER, ME), Instant.now());
        assertThat(s3.listMultipartUploads(b -> b.bucket(BUCKET).prefix(key + ".partial-")).uploads())
                .as("such a store finds nothing by prefix").isEmpty();

        int cleaned = store.cleanUpInterrupted(new S3Location(BUCKET, key), false, ME, Instant.now().minusSeconds(60),
                deadline());

        assertThat(cleaned).isEqualTo(2);
        assertThat(s3.uploads).containsOnlyKeys(othersOld, mineRunning).doesNotContainKey(mineOld);
        assertThat(s3.objects).containsOnlyKeys(othersKey, runningKey);
    }

    @Test
    void anUploadWritesAnEmptyObjectAtItsPartialKeyBeforeItBegins() throws Exception {
        s3.uploadsListedByExactKeyOnly = true;
        java.util.List<String> seenWhenUploadBegan = new java.util.ArrayList<>();
        s3.onCreateMultipartUpload = key -> seenWhenUploadBegan.addAll(s3.objects.keySet());

        store.upload(new ByteArrayInputStream(snapshot(1, 2)), new S3Location(BUCKET, "once/x.db"),
                metadata(ME), deadline());

        assertThat(seenWhenUploadBegan).singleElement()
                .satisfies(k -> assertThat(BackupNames.isOwnPartial(k, "once/x.db", false, ME)).isTrue());
        assertThat(s3.objects).containsOnlyKeys("once/x.db");
    }

    @Test
    void onBothKindsOfStoreTheCleanUpAbortsAnUploadAtTheBackupKeyThatItsOwnPartialObjectMarks() {
        for (boolean exactKeyOnly : List.of(false, true)) {
            InMemoryS3 store = new InMemoryS3(BUCKET);
            store.uploadsListedByExactKeyOnly = exactKeyOnly;
            String key = "once/direct.db";
            byte[] none = {};
            Instant marked = LONG_AGO;
            store.put(BackupNames.partialKey(key, ME, "0000000a"), none, Map.of(BackupMetadata.OWNER, ME), marked);
            String mine = store.startUpload(key, Map.of(BackupMetadata.OWNER, ME), marked.plusMillis(300));
            String unmarked = store.startUpload(key, Map.of(), marked.plus(Duration.ofHours(1)));
            String otherKey = "once/direct.db.2";
            store.put(BackupNames.partialKey(otherKey, OTHER, "0000000b"), none, Map.of(BackupMetadata.OWNER, OTHER),
                    marked);
            String others = store.startUpload(otherKey, Map.of(BackupMetadata.OWNER, OTHER), marked.plusMillis(300));

            int cleaned = new BackupStore(store, PART, 2).cleanUpInterrupted(new S3Location(BUCKET, key), false, ME,
                    Instant.now().minusSeconds(60), deadline());

            assertThat(cleaned).as("exact key only: " + exactKeyOnly).isEqualTo(2);
            assertThat(store.uploads).as("exact key only: " + exactKeyOnly).containsOnlyKeys(unmarked, others)
                    .doesNotContainKey(mine);
            assertThat(store.objects).containsOnlyKeys(BackupNames.partialKey(otherKey, OTHER, "0000000b"));
        }
    }

    /**
     * An upload the store would not abort stays findable: its partial object is kept, and the next backup's clean-up
     * aborts it and removes that object (on a store that lists uploads by exact key only too).
     */
    @Test
    void anUploadThatCouldNotBeAbortedIsLeftToTheNextCleanUpThroughItsPartialObject() throws Exception {
        for (boolean exactKeyOnly : List.of(false, true)) {
            InMemoryS3 s = new InMemoryS3(BUCKET);
            s.uploadsListedByExactKeyOnly = exactKeyOnly;
            s.failedAborts = 1;
            BackupStore store = new BackupStore(s, PART, 2);
            byte[] corrupted = snapshot(2, 4);
            corrupted[100] ^= 1;
            S3Location target = new S3Location(BUCKET, "free/kept.db");

            assertThatThrownBy(() -> store.upload(new ByteArrayInputStream(corrupted), target, metadata(ME),
                    deadline())).isInstanceOf(BackupFailure.class);

            assertThat(s.uploads).as("exact key only: " + exactKeyOnly).hasSize(1);
            assertThat(s.objects.keySet()).as("exact key only: " + exactKeyOnly).singleElement()
                    .satisfies(k -> assertThat(BackupNames.isOwnPartial(k, target.key(), false, ME)).isTrue());

            int cleaned = store.cleanUpInterrupted(target, false, ME, Instant.now().plusSeconds(1), deadline());

            assertThat(cleaned).as("exact key only: " + exactKeyOnly).isEqualTo(2);
            assertThat(s.uploads).as("exact key only: " + exactKeyOnly).isEmpty();
            assertThat(s.objects).as("exact key only: " + exactKeyOnly).isEmpty();
        }
    }

    /** A completion the store did but answered too late, then an abort that fails: the object still goes. */
    @Test
    void aCompletionAnsweredTooLateLeavesNoObjectEvenWhenTheAbortFails() throws Exception {
        s3.completionAnsweredTooLate = true;
        s3.failedAborts = 1;
        S3Location target = new S3Location(BUCKET, "free/late.db");

        assertThatThrownBy(() -> store.upload(new ByteArrayInputStream(snapshot(2, 4)), target, metadata(ME),
                deadline())).isInstanceOf(BackupFailure.class);

        assertThat(s3.objects.keySet()).as("only the partial object, kept since the abort failed").singleElement()
                .satisfies(k -> assertThat(BackupNames.isOwnPartial(k, target.key(), false, ME)).isTrue());
        store.cleanUpInterrupted(target, false, ME, Instant.now().plusSeconds(1), deadline());
        assertThat(s3.objects).isEmpty();
        assertThat(s3.uploads).isEmpty();
    }

    @Test
    void aBackupToAFreeKeyIsUploadedThereAndItsChecksumsBecomeTagsWithoutACopy() throws Exception {
        List<String> uploadedTo = new java.util.ArrayList<>();
        s3.onCreateMultipartUpload = uploadedTo::add;
        byte[] snapshot = snapshot(5, 4);

        Uploaded up = store.upload(new ByteArrayInputStream(snapshot), new S3Location(BUCKET, "free/x.db"),
                metadata(ME), deadline());

        assertThat(uploadedTo).containsExactly("free/x.db");
        assertThat(s3.copies).isEmpty();
        assertThat(s3.objects.get("free/x.db").data()).isEqualTo(snapshot);
        assertThat(s3.objects.get("free/x.db").metadata()).containsEntry(BackupMetadata.OWNER, ME)
                .containsEntry(BackupMetadata.REVISION, "10").containsEntry(BackupMetadata.VERSION, "3.5.17")
                .doesNotContainKey(BackupMetadata.SHA256);
        assertThat(s3.tags.get("free/x.db")).containsEntry(BackupMetadata.SHA256, up.sha256())
                .containsEntry(BackupMetadata.SIZE, Long.toString(snapshot.length));
        assertThat(s3.objects).containsOnlyKeys("free/x.db");
        assertThat(s3.uploads).isEmpty();
        assertThat(store.verify(new S3Location(BUCKET, "free/x.db")).sha256()).isEqualTo(up.sha256());
    }

    @Test
    void aStoreThatSendsMetadataKeysCapitalizedIsReadAsOneThatSendsThemInLowerCase() throws Exception {
        s3.capitalizeMetadataKeys = true;
        byte[] snapshot = snapshot(8, 4);
        Uploaded up = store.upload(new ByteArrayInputStream(snapshot), new S3Location(BUCKET, "caps/x.db"),
                metadata(ME), deadline());
        assertThat(s3.objects.get("caps/x.db").data()).isEqualTo(snapshot);
        assertThat(store.verify(new S3Location(BUCKET, "caps/x.db")).sha256()).isEqualTo(up.sha256());
        // a second backup of the same owner to the key replaces its own object (as a one-shot backup taken again)
        store.upload(new ByteArrayInputStream(snapshot(9, 4)), new S3Location(BUCKET, "caps/x.db"), metadata(ME),
                deadline());
        assertThat(s3.objects.get("caps/x.db").data()).isEqualTo(snapshot(9, 4));
        assertThatThrownBy(() -> store.upload(new ByteArrayInputStream(snapshot(10, 4)),
                new S3Location(BUCKET, "caps/x.db"), metadata(OTHER), deadline()))
                .isInstanceOfSatisfying(BackupFailure.class, f -> assertThat(f.getMessage()).contains(ME));
    }

    @Test
    void whereTagsAreRefusedTheChecksumsJoinTheMetadataByACopyOfTheObjectOntoItself() throws Exception {
        s3.refuseTagging = true;
        byte[] snapshot = snapshot(6, 4);

        Uploaded up = store.upload(new ByteArrayInputStream(snapshot), new S3Location(BUCKET, "free/y.db"),
                metadata(ME), deadline());

        assertThat(s3.copies).containsExactly("free/y.db -> free/y.db");
        assertThat(s3.objects.get("free/y.db").metadata()).containsEntry(BackupMetadata.SHA256, up.sha256())
                .containsEntry(BackupMetadata.OWNER, ME).containsEntry(BackupMetadata.REVISION, "10");
        assertThat(store.verify(new S3Location(BUCKET, "free/y.db")).sha256()).isEqualTo(up.sha256());
    }

    /** A policy that lets tags be written but not read: the backup just written is kept, not taken for another's. */
    @Test
    void whereTagsAreWrittenButNotReadTheBackupIsKept() throws Exception {
        s3.refuseTagReads = true;
        byte[] snapshot = snapshot(6, 4);

        Uploaded up = store.upload(new ByteArrayInputStream(snapshot), new S3Location(BUCKET, "free/w.db"),
                metadata(ME), deadline());

        assertThat(s3.objects.get("free/w.db").data()).isEqualTo(snapshot);
        assertThat(s3.tags.get("free/w.db")).containsEntry(BackupMetadata.SHA256, up.sha256());
    }

    /** A read the store or the connection cut short is a failed read, tried again: not a damaged backup. */
    @Test
    void aBodyThatEndsBeforeItsAnnouncedLengthIsAFailedReadNotADamagedBackup() throws Exception {
        store.upload(new ByteArrayInputStream(snapshot(7, 4)), new S3Location(BUCKET, "free/cut.db"), metadata(ME),
                deadline());
        s3.cutGetBodyBy = 4096;

        assertThatThrownBy(() -> store.verify(new S3Location(BUCKET, "free/cut.db"))).isInstanceOf(BackupFailure.class)
                .satisfies(e -> assertThat(((BackupFailure) e).reason()).isEqualTo(BackupFailure.UPLOAD_FAILED))
                .satisfies(e -> assertThat(((BackupFailure) e).retryable()).isTrue())
                .hasMessageContaining("announced");

        s3.cutGetBodyBy = 0;
        assertThat(store.verify(new S3Location(BUCKET, "free/cut.db")).sha256()).isNotBlank();
    }

    @Test
    void anObjectChangedAfterItsChecksumTagsWereSetFailsVerification() throws Exception {
        store.upload(new ByteArrayInputStream(snapshot(7, 4)), new S3Location(BUCKET, "free/z.db"), metadata(ME),
                deadline());
        // another whole snapshot under the same key, metadata and tags: only the recorded checksum tells
        Map<String, String> tagsBefore = s3.tags.get("free/z.db");
        s3.put("free/z.db", snapshot(8, 4), s3.objects.get("free/z.db").metadata(), Instant.now());
        s3.tags.put("free/z.db", tagsBefore);

        assertThatThrownBy(() -> store.verify(new S3Location(BUCKET, "free/z.db"))).isInstanceOf(BackupFailure.class)
                .satisfies(e -> assertThat(((BackupFailure) e).reason()).isEqualTo(BackupFailure.VERIFICATION_FAILED))
                .hasMessageContaining("recorded");
    }

    static Stream<Arguments> failedUploadsToAFreeKey() throws Exception {
        byte[] good = snapshot(2, 4);
        byte[] corrupted = good.clone();
        corrupted[100] ^= 1;
        Consumer<InMemoryS3> nothing = s -> { };
        return Stream.of(
                Arguments.of("a corrupted snapshot", corrupted, nothing, BackupFailure.VERIFICATION_FAILED, null),
                Arguments.of("a store that loses bytes", good, (Consumer<InMemoryS3>) s -> s.dropOnComplete = 1,
                        BackupFailure.VERIFICATION_FAILED, null),
                Arguments.of("tags refused, then a copy of the metadata that fails", good, (Consumer<InMemoryS3>) s -> {
                    s.refuseTagging = true;
                    s.failCopy = true;
                }, BackupFailure.UPLOAD_FAILED, null),
                Arguments.of("another writer replacing the object after the tags", good,
                        (Consumer<InMemoryS3>) s -> s.afterTagging = key -> s.put(key, new byte[] {8},
                                Map.of(BackupMetadata.OWNER, OTHER), Instant.now()),
                        BackupFailure.PATH_IN_USE, OTHER),
                Arguments.of("another writer taking the key during the upload", good,
                        (Consumer<InMemoryS3>) s -> s.onCreateMultipartUpload = key -> {
                            if (!BackupNames.isPartial(key)) {
                                s.put(key, new byte[] {7}, Map.of(BackupMetadata.OWNER, OTHER), Instant.now());
                            }
                        }, BackupFailure.PATH_IN_USE, OTHER),
                Arguments.of("a completion the store did, answered after the client stopped waiting", good,
                        (Consumer<InMemoryS3>) s -> s.completionAnsweredTooLate = true, BackupFailure.TIMEOUT, null),
                Arguments.of("tags refused, then another writer replacing the object after the copy", good,
                        (Consumer<InMemoryS3>) s -> {
                            s.refuseTagging = true;
                            s.afterCopy = key -> s.put(key, new byte[] {9}, Map.of(BackupMetadata.OWNER, OTHER),
                                    Instant.now());
                        }, BackupFailure.PATH_IN_USE, OTHER));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("failedUploadsToAFreeKey")
    void aFailedBackupToAFreeKeyLeavesNothingThereButAnotherWritersObject(String fault, byte[] snapshot,
            Consumer<InMemoryS3> setUp, String reason, String leftOwner) {
        String key = "free/snapshot.db";
        setUp.accept(s3);

        assertThatThrownBy(() -> store.upload(new ByteArrayInputStream(snapshot), new S3Location(BUCKET, key),
                metadata(ME), deadline())).isInstanceOf(BackupFailure.class)
                .extracting(e -> ((BackupFailure) e).reason()).isEqualTo(reason);

        if (leftOwner == null) {
            assertThat(s3.objects).as("nothing that could pass for a backup").isEmpty();
        } else {
            assertThat(s3.objects).containsOnlyKeys(key);
            assertThat(s3.objects.get(key).metadata()).containsEntry(BackupMetadata.OWNER, leftOwner);
        }
        assertThat(s3.uploads).as("no upload is left").isEmpty();
    }

    // ---- the object at the key: never another's, never lost to a failed replacement

    static Stream<Arguments> failedReplacements() throws Exception {
        byte[] good = snapshot(2, 4);
        byte[] corrupted = good.clone();
        corrupted[100] ^= 1;
        byte[] truncated = Arrays.copyOf(good, good.length - 512);
        Consumer<InMemoryS3> nothing = s -> { };
        return Stream.of(
                Arguments.of("a corrupted snapshot", corrupted, nothing, BackupFailure.VERIFICATION_FAILED),
                Arguments.of("a truncated snapshot", truncated, nothing, BackupFailure.VERIFICATION_FAILED),
                Arguments.of("a store that loses bytes", good, (Consumer<InMemoryS3>) s -> s.dropOnComplete = 1,
                        BackupFailure.VERIFICATION_FAILED),
                Arguments.of("a copy that fails", good, (Consumer<InMemoryS3>) s -> s.failCopy = true,
                        BackupFailure.UPLOAD_FAILED),
                Arguments.of("a completion the store did, answered after the client stopped waiting", good,
                        (Consumer<InMemoryS3>) s -> s.completionAnsweredTooLate = true, BackupFailure.TIMEOUT),
                Arguments.of("another writer replacing the object after the copy", good,
                        (Consumer<InMemoryS3>) s -> s.afterCopy = key -> s.put(key, new byte[] {9},
                                Map.of(BackupMetadata.OWNER, OTHER), Instant.now()),
                        BackupFailure.PATH_IN_USE));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("failedReplacements")
    void aFailedBackupNeverDestroysTheObjectAtItsKey(String fault, byte[] snapshot, Consumer<InMemoryS3> setUp,
            String reason) throws Exception {
        String key = "once/snapshot.db";
        byte[] previous = snapshot(1, 2);
        s3.put(key, previous, Map.of(BackupMetadata.OWNER, ME, BackupMetadata.SHA256, "previous"), LONG_AGO);
        setUp.accept(s3);
        byte[] expected = s3.objects.get(key).data();

        assertThatThrownBy(() -> store.upload(new ByteArrayInputStream(snapshot), new S3Location(BUCKET, key),
                metadata(ME), deadline())).isInstanceOf(BackupFailure.class)
                .extracting(e -> ((BackupFailure) e).reason()).isEqualTo(reason);

        assertThat(s3.objects).as("what is at the key stays there").containsKey(key);
        if (!fault.startsWith("another writer")) {
            assertThat(s3.objects.get(key).data()).isEqualTo(expected);
            assertThat(s3.objects.get(key).metadata()).containsEntry(BackupMetadata.SHA256, "previous");
        } else {
            assertThat(s3.objects.get(key).metadata()).containsEntry(BackupMetadata.OWNER, OTHER);
        }
        assertThat(s3.objects.keySet()).as("no partial object is left").allMatch(k -> !BackupNames.isPartial(k));
        assertThat(s3.uploads).as("no upload is left").isEmpty();
    }

    /**
     * Server-side encryption asked of a store that ignores it: the upload replacing an earlier backup is refused
     * before its copy, so the earlier backup stays (it was deleted with the unencrypted copy).
     */
    @Test
    void anUnencryptedUploadNeverReplacesTheEarlierBackup() throws Exception {
        String key = "once/snapshot.db";
        byte[] previous = snapshot(1, 2);
        s3.put(key, previous, Map.of(BackupMetadata.OWNER, ME, BackupMetadata.SHA256, "previous"), LONG_AGO);
        BackupStore encrypting = new BackupStore(s3, new dev.etcdoperator.storage.S3Settings("k", "s", null,
                "us-east-1", java.net.URI.create("http://s3:9000"), true, new ServerSideEncryption(
                        ServerSideEncryption.AES256, null)), PART, 2);
        assertThatThrownBy(() -> encrypting.upload(new ByteArrayInputStream(snapshot(3, 4)),
                new S3Location(BUCKET, key), metadata(ME), deadline())).isInstanceOf(BackupFailure.class)
                .extracting(e -> ((BackupFailure) e).reason()).isEqualTo(BackupFailure.NOT_ENCRYPTED);
        assertThat(s3.objects.get(key).data()).isEqualTo(previous);
        assertThat(s3.copies).isEmpty();
        assertThat(s3.objects.keySet()).allMatch(k -> !BackupNames.isPartial(k));
    }

    @Test
    void aVerifiedBackupReplacesItsOwnEarlierObject() throws Exception {
        String key = "once/snapshot.db";
        s3.put(key, snapshot(1, 2), Map.of(BackupMetadata.OWNER, ME), LONG_AGO);
        byte[] snapshot = snapshot(3, 4);
        List<String> uploadedTo = new java.util.ArrayList<>();
        s3.onCreateMultipartUpload = uploadedTo::add;
        Uploaded up = store.upload(new ByteArrayInputStream(snapshot), new S3Location(BUCKET, key), metadata(ME), deadline());
        assertThat(uploadedTo).as("the earlier backup is replaced only by a copy").singleElement()
                .satisfies(k -> assertThat(BackupNames.isOwnPartial(k, key, false, ME)).isTrue());
        assertThat(s3.copies).containsExactly(uploadedTo.get(0) + " -> " + key);
        assertThat(s3.objects.get(key).data()).isEqualTo(snapshot);
        assertThat(s3.objects.get(key).metadata()).containsEntry(BackupMetadata.SHA256, up.sha256())
                .containsEntry(BackupMetadata.OWNER, ME);
        assertThat(s3.objects).containsOnlyKeys(key);
    }

    @Test
    void anObjectAnotherOwnerOrAUserWroteIsNeverReplaced() throws Exception {
        for (Map<String, String> foreign : List.of(Map.of(BackupMetadata.OWNER, OTHER), Map.<String, String>of())) {
            String key = "shared/snapshot.db";
            byte[] theirs = {4, 5, 6};
            s3.put(key, theirs, foreign, LONG_AGO);
            assertThatThrownBy(() -> store.upload(new ByteArrayInputStream(snapshot(3, 4)), new S3Location(BUCKET, key),
                    metadata(ME), deadline())).isInstanceOf(BackupFailure.class)
                    .extracting(e -> ((BackupFailure) e).reason()).isEqualTo(BackupFailure.PATH_IN_USE);
            assertThat(s3.objects.get(key).data()).isEqualTo(theirs);
            assertThat(s3.objects).containsOnlyKeys(key);
            assertThat(s3.uploads).isEmpty();
        }
    }

    @Test
    void everyCallEndsAtTheDeadline() {
        Instant past = Instant.now().minusMillis(1);
        S3Location at = new S3Location(BUCKET, "k");
        for (Runnable call : List.<Runnable>of(() -> store.checkBucket(BUCKET, past), () -> store.find(at, past),
                () -> store.periodicBackups(at, past), () -> store.delete(at, past),
                () -> store.upload(new ByteArrayInputStream(new byte[0]), at, metadata(ME), past))) {
            assertThatThrownBy(call::run).isInstanceOf(BackupFailure.class)
                    .extracting(e -> ((BackupFailure) e).reason()).isEqualTo(BackupFailure.TIMEOUT);
        }
        assertThat(store.cleanUpInterrupted(at, false, ME, Instant.now(), past)).isZero();
    }
}
