package dev.etcdoperator.storage;

import static org.assertj.core.api.Assertions.assertThat;

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

    @Test
    void withoutAnETagNothingIsKept() {
        cache.get("aws", "b", "p_v10", null, () -> read("p_v10", "ns/a"));
        cache.get("aws", "b", "p_v10", null, () -> read("p_v10", "ns/a"));
        assertThat(heads).hasValue(2);
        assertThat(cache.size()).isZero();
    }
}
