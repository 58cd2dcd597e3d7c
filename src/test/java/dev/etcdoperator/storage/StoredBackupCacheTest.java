package dev.etcdoperator.storage;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import dev.etcdoperator.core.backup.StoredBackup;
import org.junit.jupiter.api.Test;

class StoredBackupCacheTest {
    private final StoredBackupCache cache = new StoredBackupCache();
    private final AtomicInteger heads = new AtomicInteger();

    private StoredBackup read(String key, String owner) {
        heads.incrementAndGet();
        return new StoredBackup(key, owner, 10L, "c1");
    }

    @Test
    void anObjectIsReadOncePerVersion() {
        assertThat(cache.get("http://minio:9000", "b", "p_v10", "\"e1\"", () -> read("p_v10", "ns/a")).owner())
                .isEqualTo("ns/a");
        assertThat(cache.get("http://minio:9000", "b", "p_v10", "\"e1\"", () -> read("p_v10", "ns/other")).owner())
                .as("the same version: not read again").isEqualTo("ns/a");
        assertThat(heads).hasValue(1);

        // the key written again: another ETag, read again
        assertThat(cache.get("http://minio:9000", "b", "p_v10", "\"e2\"", () -> read("p_v10", "ns/other")).owner())
                .isEqualTo("ns/other");
        // another store or bucket with the same key and ETag is another object
        cache.get("https://s3.example", "b", "p_v10", "\"e1\"", () -> read("p_v10", "ns/x"));
        cache.get("http://minio:9000", "c", "p_v10", "\"e1\"", () -> read("p_v10", "ns/x"));
        assertThat(heads).hasValue(4);
    }

    /** Full, the cache lets go of what was used least recently: the objects each run reads stay known. */
    @Test
    void whenFullTheLeastRecentlyUsedEntryGoes() {
        StoredBackupCache small = new StoredBackupCache(3);
        for (String key : List.of("p_v1", "p_v2", "p_v3")) {
            small.get("aws", "b", key, "e", () -> read(key, "ns/a"));
        }
        small.get("aws", "b", "p_v1", "e", () -> read("p_v1", "ns/a"));
        small.get("aws", "b", "p_v4", "e", () -> read("p_v4", "ns/a"));
        assertThat(heads).hasValue(4);
        assertThat(small.size()).isEqualTo(3);

        small.get("aws", "b", "p_v1", "e", () -> read("p_v1", "ns/a"));
        small.get("aws", "b", "p_v3", "e", () -> read("p_v3", "ns/a"));
        small.get("aws", "b", "p_v4", "e", () -> read("p_v4", "ns/a"));
        assertThat(heads).as("still known").hasValue(4);
        small.get("aws", "b", "p_v2", "e", () -> read("p_v2", "ns/a"));
        assertThat(heads).as("the least recently used went").hasValue(5);
    }

    @Test
    void withoutAnETagNothingIsKept() {
        cache.get("aws", "b", "p_v10", null, () -> read("p_v10", "ns/a"));
        cache.get("aws", "b", "p_v10", null, () -> read("p_v10", "ns/a"));
        assertThat(heads).hasValue(2);
        assertThat(cache.size()).isZero();
    }
}
