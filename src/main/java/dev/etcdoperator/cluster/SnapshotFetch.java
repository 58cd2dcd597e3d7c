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
     * The exit code of {@link #script} when the download itself failed (refused, not found, cut off, the object
     * changed): the link may be made again and the step retried. A file that could not be written, or a snapshot
     * whose SHA-256 is not the recorded one, exits with 1.
     */
    public static final int DOWNLOAD_FAILED = 3;
    /** The name of the init container that runs {@link #script}. */
    public static final String CONTAINER = "fetch-snapshot";

    /**
     * Downloads the snapshot to {@code file} and, when {@code SNAPSHOT_SHA256} is set, hashes it in the same pass (no
     * second read of the file). The URL is signed for the If-Match header: the store answers 412 if the object is no
     * longer the one the restore verified. Without {@code SNAPSHOT_SHA256} that is all that binds the download to the
     * verified object (the restore gives none only for a store that was seen to refuse another ETag), and etcd's
     * restore checks the snapshot's own hash trailer; with neither set the script refuses. Without pipefail in every
     * sh, a failed download or write leaves a marker file instead (one each, so that the exit code says which:
     * {@link #DOWNLOAD_FAILED} for the download).
     */
    public static String script(String file) {
        String failed = file + ".failed";
        String unfetched = file + ".unfetched";
        String sum = file + ".sha256";
        String all = file + " " + sum + " " + failed + " " + unfetched;
        String download = "{ if [ -n \"$SNAPSHOT_ETAG\" ]; then wget -q --header \"If-Match: $SNAPSHOT_ETAG\" -O -"
                + " \"$SNAPSHOT_URL\"; else wget -q -O - \"$SNAPSHOT_URL\"; fi || touch " + unfetched + "; }";
        return String.join("\n",
                "rm -f " + all,
                "if [ -z \"$SNAPSHOT_SHA256\" ] && [ -z \"$SNAPSHOT_ETAG\" ]; then echo \"neither a SHA-256 nor an ETag"
                        + " binds the download to the verified backup\" >&2; exit 1; fi",
                "if [ -n \"$SNAPSHOT_SHA256\" ]; then",
                "  " + download + " | { tee " + file + " || touch " + failed + "; } | sha256sum > " + sum,
                "else",
                // the pipeline's status is cat's, in this shell: a file that cannot be written ends the script, even
                // where no marker could be written
                "  " + download + " | cat > " + file + " || { echo \"the snapshot could not be stored whole\" >&2;"
                        + " rm -f " + all + "; exit 1; }",
                "fi",
                "if [ -e " + failed + " ]; then echo \"the snapshot could not be stored whole\" >&2;"
                        + " rm -f " + all + "; exit 1; fi",
                "if [ -e " + unfetched + " ]; then echo \"the snapshot could not be downloaded whole (the link was"
                        + " refused, or the download broke off)\" >&2; rm -f " + all + "; exit " + DOWNLOAD_FAILED + "; fi",
                "[ -n \"$SNAPSHOT_SHA256\" ] || exit 0",
                "read -r got rest < " + sum + "; rm -f " + sum,
                "if [ \"$got\" != \"$SNAPSHOT_SHA256\" ]; then echo \"the snapshot's SHA-256 is $got, not $SNAPSHOT_SHA256"
                        + " as the restore recorded\" >&2; rm -f " + file + "; exit 1; fi");
    }

    /** The files {@link #script} may leave beside {@code file}, and the file, space-separated. */
    public static String files(String file) {
        return file + " " + file + ".sha256 " + file + ".failed " + file + ".unfetched";
    }

    /**
     * etcdctl restores snapshots up to 3.5 (deprecated there); from 3.6 only etcdutl does, its pre-releases
     * ({@code 3.6.0-rc.0}) included: by minor version, not by precedence.
     */
    public static String restoreTool(String etcdVersion) {
        boolean etcdutl = Version.parse(etcdVersion).map(v -> v.major() > 3 || v.major() == 3 && v.minor() >= 6)
                .orElse(false);
        return etcdutl ? "/usr/local/bin/etcdutl" : "/usr/local/bin/etcdctl";
    }
}
