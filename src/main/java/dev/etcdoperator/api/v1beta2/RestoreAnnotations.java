package dev.etcdoperator.api.v1beta2;

/**
 * Annotations through which the restore controller and the cluster controller cooperate. A restored EtcdCluster
 * carries {@link #RESTORED_BY} and {@link #SNAPSHOT_SECRET}; its seed member fetches and restores the snapshot the
 * Secret points at before etcd starts. While a restore checks and deletes the template cluster, the template
 * carries {@link #RESTORING}.
 */
public final class RestoreAnnotations {
    /** On the template cluster: the EtcdRestore that is about to replace it. */
    public static final String RESTORING = ApiGroup.GROUP + "/restoring";
    /** On a restored cluster: the EtcdRestore that created it. */
    public static final String RESTORED_BY = ApiGroup.GROUP + "/restored-by";
    /**
     * On a restored cluster: the uid of the cluster of that name it replaced (the restore's template), then those that
     * one was restored in place of, comma-separated. Its backups go on at their paths across the restore, and their
     * newest stands for the restored cluster's until one is taken of it.
     */
    public static final String RESTORED_FROM_UID = ApiGroup.GROUP + "/restored-from-uid";
    /**
     * On a restored cluster: the Secret with the snapshot's URL ({@link #URL_KEY}), its ETag ({@link #ETAG_KEY}) and,
     * unless the store refuses the URL for any other object, its SHA-256 ({@link #SHA256_KEY}).
     */
    public static final String SNAPSHOT_SECRET = ApiGroup.GROUP + "/restore-snapshot-secret";
    /**
     * On a restored cluster: the name of its seed member, whose pod the restore started beside the template and
     * hands over to the cluster (see {@code EtcdRestoreStatus.stagedSeed}).
     */
    public static final String SEED_MEMBER = ApiGroup.GROUP + "/restore-seed-member";
    public static final String URL_KEY = "url";
    public static final String SHA256_KEY = "sha256";
    /** The ETag of the verified backup object, sent as {@code If-Match} (the URL is signed for it); may be absent. */
    public static final String ETAG_KEY = "etag";

    private static final java.util.regex.Pattern OBJECT_NAME = java.util.regex.Pattern.compile(InputRules.DNS_SUBDOMAIN);

    private RestoreAnnotations() {
    }

    /**
     * An annotation's value that can name an object (a DNS subdomain of at most 253 characters); any other value
     * (anyone may write these annotations) names none, and is never put into an API path.
     */
    public static java.util.Optional<String> objectName(String value) {
        return java.util.Optional.ofNullable(value).filter(v -> v.length() <= InputRules.DNS_SUBDOMAIN_MAX_LENGTH && OBJECT_NAME.matcher(v).matches());
    }
}
