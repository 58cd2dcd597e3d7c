package dev.etcdoperator.storage;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;

import dev.etcdoperator.core.backup.StoredBackup;

/**
 * What the metadata of each periodic backup object said (its owner, revision, cluster), by store, key and ETag: an
 * object keeps its metadata while its ETag stays, so each run of a periodic backup reads only the objects it has
 * not seen, not one HEAD per object it keeps (thousands after months of hourly backups).
 */
final class StoredBackupCache {
    static final int MAX_ENTRIES = 50_000;
    private final int capacity;
    /** In order of use: when full, the entry used least recently goes (one that is read each run stays). */
    private final Map<String, StoredBackup> seen;

    StoredBackupCache() {
        this(MAX_ENTRIES);
    }

    StoredBackupCache(int capacity) {
        this.capacity = capacity;
        this.seen = new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, StoredBackup> eldest) {
                return size() > StoredBackupCache.this.capacity;
            }
        };
    }

    StoredBackup get(String store, String bucket, String key, String etag, Supplier<StoredBackup> read) {
        if (etag == null || etag.isBlank()) {
            return read.get();
        }
        String id = store + "\n" + bucket + "\n" + key + "\n" + etag;
        synchronized (seen) {
            StoredBackup known = seen.get(id);
            if (known != null) {
                return known;
            }
        }
        StoredBackup fresh = read.get();
        synchronized (seen) {
            seen.put(id, fresh);
        }
        return fresh;
    }

    /** What was read of this version of the object, if it was. */
    java.util.Optional<StoredBackup> known(String store, String bucket, String key, String etag) {
        if (etag == null || etag.isBlank()) {
            return java.util.Optional.empty();
        }
        synchronized (seen) {
            return java.util.Optional.ofNullable(seen.get(store + "\n" + bucket + "\n" + key + "\n" + etag));
        }
    }

    int size() {
        synchronized (seen) {
            return seen.size();
        }
    }
}
