package dev.etcdoperator.api.v1beta2;

/**
 * The formats and bounds of every user string and number that reaches a command line, a URL, a file path, an
 * image name or an S3 key. The CRD schema states them (through the generator annotations) and the operator's
 * validators check them again, from these same constants. Every pattern is anchored and linear (no nested
 * repetition that can backtrack), and written so that Go's regexp (the API server's) and Java's read it alike.
 */
public final class InputRules {
    /**
     * The oldest etcd the operator runs: members join as learners (etcd 3.4 on) and run with flags etcd 3.3 and
     * older do not know ({@code --logger}).
     */
    public static final String OLDEST_ETCD_VERSION = "3.4.0";

    /** An RFC 1123 label: lower case letters, digits and '-', starting and ending with a letter or digit. */
    private static final String LABEL = "[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?";

    /**
     * {@code spec.pod.ClusterDomain}: empty, or DNS labels joined by dots with an optional leading dot (for
     * example {@code .cluster.local}). No spaces, no shell or URL characters, no trailing dot.
     */
    public static final String CLUSTER_DOMAIN = "^(\\.?" + LABEL + "(\\." + LABEL + ")*)?$";
    public static final long CLUSTER_DOMAIN_MAX_LENGTH = 128;

    /**
     * A registry host (letters, digits, '.', '-'), with an optional port: always followed by a path, as the
     * distribution reference grammar has it ({@code localhost:5000} alone would be a name and a tag).
     */
    private static final String REGISTRY = "[a-zA-Z0-9]([-a-zA-Z0-9.]{0,252}[a-zA-Z0-9])?(:[0-9]{1,5})?";
    /** A path component of an image repository, as the distribution reference grammar has it. */
    private static final String REPOSITORY_COMPONENT = "[a-z0-9]+(([._]|__|-+)[a-z0-9]+)*";

    /**
     * {@code spec.repository}: an image repository without tag or digest ({@code quay.io/coreos/etcd},
     * {@code localhost:5000/etcd}); the operator appends {@code :v<version>}.
     */
    public static final String IMAGE_REPOSITORY = "^(" + REGISTRY + "/)?" + REPOSITORY_COMPONENT + "(/"
            + REPOSITORY_COMPONENT + ")*$";
    public static final long IMAGE_REPOSITORY_MAX_LENGTH = 255;

    /** {@code spec.pod.busyboxImage}: a repository, an optional tag and an optional sha256 digest. */
    public static final String IMAGE = "^(" + REGISTRY + "/)?" + REPOSITORY_COMPONENT + "(/" + REPOSITORY_COMPONENT
            + ")*(:[a-zA-Z0-9_][a-zA-Z0-9_.-]{0,127})?(@sha256:[a-f0-9]{64})?$";
    public static final long IMAGE_MAX_LENGTH = 512;

    /** {@code spec.version}: semver, at most this long. */
    public static final long VERSION_MAX_LENGTH = 64;

    /** A Kubernetes object name the operator uses (Secrets, the EtcdCluster a backup or restore names). */
    public static final long NAME_MAX_LENGTH = 63;

    /**
     * An S3 bucket name ({@code [a-z0-9.-]}, 3 to 63), a slash, and a key of path segments joined by single
     * slashes. A segment is letters, digits and {@code . _ - = : ,}, and is never {@code .} or {@code ..}: no
     * traversal, no empty segment, no leading or trailing slash, no spaces, no URL or shell characters.
     */
    public static final String S3_PATH = "^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]/"
            + "\\.*[A-Za-z0-9_=:,-][A-Za-z0-9._=:,-]*(/\\.*[A-Za-z0-9_=:,-][A-Za-z0-9._=:,-]*)*$";
    /** Leaves room under S3's 1024-byte key for the periodic suffix and the in-progress suffix. */
    public static final long S3_PATH_MAX_LENGTH = 900;
    /**
     * What a periodic backup appends to its path ({@code _v<revision>_<yyyy-MM-dd-HH:mm:ss>}, the revision at most 19
     * digits): a periodic backup's path is shorter by this much, so that an EtcdRestore can name every backup it takes.
     */
    public static final long PERIODIC_SUFFIX_MAX_LENGTH = 2 + 19 + 1 + 19;

    /**
     * {@code s3.endpoint}: http or https, a host name, an IPv4 or a bracketed IPv6 address, an optional port and
     * an optional trailing slash; no user info, path, query or fragment.
     */
    public static final String S3_ENDPOINT = "^https?://([a-zA-Z0-9]([-a-zA-Z0-9.]{0,251}[a-zA-Z0-9])?|\\[[0-9a-fA-F:.]{2,45}\\])"
            + "(:[0-9]{1,5})?/?$";
    public static final long S3_ENDPOINT_MAX_LENGTH = 300;

    /** {@code etcdEndpoints[]}: an etcd client URL (or host:port); the same shape as {@link #S3_ENDPOINT}, scheme optional. */
    public static final String ETCD_ENDPOINT = "^(https?://)?([a-zA-Z0-9]([-a-zA-Z0-9.]{0,251}[a-zA-Z0-9])?"
            + "|\\[[0-9a-fA-F:.]{2,45}\\])(:[0-9]{1,5})?/?$";
    public static final long ETCD_ENDPOINTS_MAX_ITEMS = 32;

    /** {@code spec.pod.DNSTimeoutInSecond}: at most a day. */
    public static final long MAX_DNS_TIMEOUT_SECONDS = 86_400;
    /** {@code backupPolicy.timeoutInSecond}: at most a day. */
    public static final long MAX_BACKUP_TIMEOUT_SECONDS = 86_400;
    /** {@code backupPolicy.backupIntervalInSecond}: at most a year (366 days). */
    public static final long MAX_BACKUP_INTERVAL_SECONDS = 31_622_400;
    /** {@code backupPolicy.maxBackups}. */
    public static final long MAX_BACKUPS = 10_000;
    /** {@code restoreDrill.every}: a drill after every that many backups. */
    public static final long MAX_DRILL_EVERY = 10_000;
    /** {@code restoreDrill.timeoutInSecond}: one drill, from reading the backup to deleting its pod. */
    public static final long MAX_DRILL_TIMEOUT_SECONDS = 3_600;

    /** {@code spec.etcd.quotaBackendBytes}: 1 MiB to 8 GiB (etcd warns above 8 GiB). */
    public static final long MIN_QUOTA_BACKEND_BYTES = 1L << 20;
    public static final long MAX_QUOTA_BACKEND_BYTES = 8L << 30;
    /** {@code spec.etcd.defragmentation.minFragmentedBytes}: 1 MiB to 8 GiB, the range of the quota. */
    public static final long MIN_FRAGMENTED_BYTES = 1L << 20;
    public static final long MAX_FRAGMENTED_BYTES = 8L << 30;
    /** {@code spec.etcd.defragmentation.minFragmentedPercent}. */
    public static final long MIN_FRAGMENTED_PERCENT = 1;
    public static final long MAX_FRAGMENTED_PERCENT = 100;
    /** A cron schedule ({@code spec.etcd.defragmentation.schedule}, {@code spec.restoreDrill.schedule}). */
    public static final long SCHEDULE_MAX_LENGTH = 100;
    /** The shape of a cron schedule: five fields, or a macro; the operator checks each field's values. */
    public static final String SCHEDULE = "^\\s*(@[A-Za-z]+|[0-9A-Za-z*/,?-]+(\\s+[0-9A-Za-z*/,?-]+){4})\\s*$";
    /**
     * {@code spec.etcd.autoCompactionRetention}: a number (hours for periodic, revisions for revision), or a duration
     * of hours, minutes and seconds in that order ({@code 1h30m}, {@code 45m}, {@code 90s}).
     */
    public static final String COMPACTION_RETENTION = "^([0-9]{1,9}|[0-9]{1,6}h([0-9]{1,6}m)?([0-9]{1,6}s)?"
            + "|[0-9]{1,6}m([0-9]{1,6}s)?|[0-9]{1,6}s)$";
    public static final long COMPACTION_RETENTION_MAX_LENGTH = 32;
    /** {@code spec.etcd.autoCompactionRetention} with mode {@code revision}: a number of revisions. */
    public static final String REVISION_RETENTION = "^[0-9]{1,9}$";
    public static final String REVISION_RETENTION_MESSAGE =
            "autoCompactionRetention must be a number of revisions when autoCompactionMode is revision";

    /** A label value (also a nodeSelector value): empty, or alphanumerics with '-', '_', '.' inside. */
    public static final String LABEL_VALUE = "^(([A-Za-z0-9][-A-Za-z0-9_.]{0,61})?[A-Za-z0-9])?$";
    public static final long LABEL_VALUE_MAX_LENGTH = 63;
    /** A label or annotation key: an optional DNS subdomain prefix and a slash, then a name of up to 63 characters. */
    public static final String QUALIFIED_NAME = "^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?"
            + "[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?$";
    /** A DNS subdomain, as a storage class name must be. */
    public static final String DNS_SUBDOMAIN = "^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$";
    public static final long DNS_SUBDOMAIN_MAX_LENGTH = 253;
    /** An environment variable name, as Kubernetes accepts it. */
    public static final String ENV_NAME = "^[-._a-zA-Z][-._a-zA-Z0-9]*$";
    public static final long ENV_NAME_MAX_LENGTH = 256;
    /** All annotations of a pod together, as Kubernetes limits them (256 KiB). */
    public static final long ANNOTATIONS_MAX_BYTES = 256 * 1024;
    /**
     * spec.pod.annotations in all: what the API server allows on an object, less room for the annotations the operator
     * adds to each pod (placement, TLS certificate and CA ids, restore staging).
     */
    public static final long POD_ANNOTATIONS_MAX_BYTES = ANNOTATIONS_MAX_BYTES - 16 * 1024;
    /** The prefix of a qualified name (a label or annotation key) is a DNS subdomain: at most this long. */
    public static final int QUALIFIED_NAME_PREFIX_MAX_LENGTH = 253;

    /** Pod labels, annotations, nodeSelector entries and etcdEnv entries: at most this many each. */
    public static final long MAX_ENTRIES = 64;

    private InputRules() {
    }

    /** {@code spec.quorumLossRecovery.gracePeriodSeconds}: long enough for a leader election, at most a day. */
    public static final long MIN_QUORUM_LOSS_GRACE_SECONDS = 10;
    public static final long MAX_QUORUM_LOSS_GRACE_SECONDS = 86_400;
}
