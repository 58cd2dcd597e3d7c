package dev.etcdoperator.storage;

import jakarta.enterprise.context.ApplicationScoped;

import org.eclipse.microprofile.config.inject.ConfigProperty;

/** Backup storage on S3 or an S3-compatible store: each {@link #open(S3Settings)} builds a client of its own. */
@ApplicationScoped
public class S3BackupStorage implements BackupStorage {
    private final int partSize;
    private final int parallelParts;
    private final SnapshotLinks links;
    private final StoredBackupCache seen = new StoredBackupCache();

    public S3BackupStorage(
            @ConfigProperty(name = "etcd-operator.backup.part-size", defaultValue = "8388608") int partSize,
            @ConfigProperty(name = "etcd-operator.backup.parallel-parts", defaultValue = "2") int parallelParts,
            SnapshotLinks links) {
        this.partSize = partSize;
        this.parallelParts = parallelParts;
        this.links = links;
    }

    @Override
    public Store open(S3Settings settings) {
        return new BackupStore(S3Clients.create(settings), settings, partSize, parallelParts, links, seen);
    }

    @Override
    public boolean servesDecrypted() {
        return links.available();
    }
}
