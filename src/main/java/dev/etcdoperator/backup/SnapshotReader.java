package dev.etcdoperator.backup;

import java.io.InputStream;
import java.time.Instant;

import dev.etcdoperator.etcd.EtcdTls;
import dev.etcdoperator.etcd.SnapshotStream;

/** Opens the snapshot stream of one member, bounded by the backup's deadline; tests give bytes of their own. */
@FunctionalInterface
interface SnapshotReader {

    InputStream open(String clientUrl, EtcdTls tls, Instant deadline);

    static SnapshotReader etcd() {
        return SnapshotStream::open;
    }
}
