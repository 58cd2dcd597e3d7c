package dev.etcdoperator.cluster;

import dev.etcdoperator.core.cluster.Version;

/**
 * How a pod gets a backup onto its disk and into an etcd data directory: a busybox script that downloads the
 * snapshot by its presigned URL and checks its SHA-256 ({@code SNAPSHOT_URL}, {@code SNAPSHOT_SHA256},
 * {@code SNAPSHOT_ETAG} in its environment), and the etcd tool that restores it. A restored cluster's seed member
 * and a backup's restore drill both use it.
 */
public final class SnapshotFetch {

    private SnapshotFetch() {
    }

    /**
     * Downloads the snapshot to {@code file} and hashes it in the same pass (no second read of the file). The URL is
     * signed for the If-Match header: the store answers 412 if the object is no longer the one the restore verified.
     * Without pipefail in every sh, a failed download or write leaves a marker file instead.
     */
    public static String script(String file) {
        String failed = file + ".failed";
        String sum = file + ".sha256";
        return String.join("\n",
                "rm -f " + file + " " + sum + " " + failed,
                "{ if [ -n \"$SNAPSHOT_ETAG\" ]; then wget -q --header \"If-Match: $SNAPSHOT_ETAG\" -O - \"$SNAPSHOT_URL\";"
                        + " else wget -q -O - \"$SNAPSHOT_URL\"; fi || touch " + failed + "; }"
                        + " | { tee " + file + " || touch " + failed + "; } | sha256sum > " + sum,
                "if [ -e " + failed + " ]; then echo \"the snapshot could not be downloaded and stored whole\" >&2;"
                        + " rm -f " + file + " " + sum + " " + failed + "; exit 1; fi",
                "read -r got rest < " + sum + "; rm -f " + sum,
                "if [ \"$got\" != \"$SNAPSHOT_SHA256\" ]; then echo \"the snapshot's SHA-256 is $got, not $SNAPSHOT_SHA256"
                        + " as the restore recorded\" >&2; rm -f " + file + "; exit 1; fi");
    }

    /** etcdctl restores snapshots up to 3.5 (deprecated there); from 3.6 only etcdutl does. */
    public static String restoreTool(String etcdVersion) {
        boolean etcdutl = Version.parse(etcdVersion).map(v -> v.compareTo(Version.parse("3.6.0").orElseThrow()) >= 0)
                .orElse(false);
        return etcdutl ? "/usr/local/bin/etcdutl" : "/usr/local/bin/etcdctl";
    }
}
