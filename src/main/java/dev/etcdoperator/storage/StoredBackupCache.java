package dev.etcdoperator.storage;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

import dev.etcdoperator.core.backup.StoredBackup;

/**
 * What the metadata of each periodic backup object said (its owner, revision, cluster), by store, key and ETag: an
 * object keeps its metadata while its ETag stays, so each run of a periodic backup reads only the objects it has
 * not seen, not one HEAD per object it keeps (thousands after months of hourly backups).
 */
final class StoredBackupCache {
    private static final int MAX_ENTRIES = 50_000;
    private final Map<String, StoredBackup> seen = new ConcurrentHashMap<>();

    StoredBackup get(String store, String bucket, String key, String etag, Supplier<StoredBackup> read) {
        if (etag == null || etag.isBlank()) {
            return read.get();
        }
        String id = store + "\n" + bucket + "\n" + key + "\n" + etag;
        StoredBackup known = seen.get(id);
        if (known != null) {
            return known;
        }
        StoredBackup fresh = read.get();
        if (seen.size() >= MAX_ENTRIES) {
            seen.clear();
        }
        seen.put(id, fresh);
        return fresh;
    }

    int size() {
        return seen.size();
    }
}
