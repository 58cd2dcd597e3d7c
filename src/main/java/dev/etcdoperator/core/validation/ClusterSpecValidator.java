package dev.etcdoperator.core.validation;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;

import dev.etcdoperator.api.v1beta2.ApiGroup;
import dev.etcdoperator.api.v1beta2.Defragmentation;
import dev.etcdoperator.api.v1beta2.EtcdClusterSpec;
import dev.etcdoperator.api.v1beta2.EtcdSettings;
import dev.etcdoperator.api.v1beta2.InputRules;
import dev.etcdoperator.api.v1beta2.MemberSecret;
import dev.etcdoperator.api.v1beta2.PodPolicy;
import dev.etcdoperator.api.v1beta2.QuorumLossRecovery;
import dev.etcdoperator.api.v1beta2.SemVer;
import dev.etcdoperator.api.v1beta2.StaticTls;
import dev.etcdoperator.core.cluster.Version;
import dev.etcdoperator.core.schedule.CronSchedule;

/**
 * The operator's own check of an EtcdCluster spec: the rules the CRD schema states, again, because schema
 * validation can be bypassed or absent; and the rules only the operator can check (the cluster's name, the
 * etcdEnv names, the claim's storage class), through {@link #validate(String, EtcdClusterSpec, PodInputs)}.
 */
public final class ClusterSpecValidator {
    public static final int MIN_SIZE = 1;
    public static final int MAX_SIZE = 7;
    /**
     * The longest cluster name: member pods are named {@code <cluster>-<10 characters>}, which must stay a DNS
     * label (a pod's hostname), at most 63 characters.
     */
    public static final int MAX_NAME_LENGTH = 52;
    /** The label by which a restore drill finds its pods (it deletes only those its EtcdBackup owns). */
    private static final String DRILL_LABEL = ApiGroup.GROUP + "/restore-drill";
    /** A member is named {@code <cluster>-<10 characters>}. */
    private static final int MEMBER_SUFFIX_LENGTH = 11;
    private static final int MAX_DNS_NAME_LENGTH = 253;
    /**
     * Environment variables etcd reads as the flags the operator sets on its command line: one in etcdEnv would
     * clash with the flag (etcd refuses to start) or change what the operator relies on.
     */
    public static final Set<String> RESERVED_ENV = Set.of("ETCD_DATA_DIR", "ETCD_NAME",
            "ETCD_INITIAL_ADVERTISE_PEER_URLS", "ETCD_LISTEN_PEER_URLS", "ETCD_LISTEN_CLIENT_URLS",
            "ETCD_ADVERTISE_CLIENT_URLS", "ETCD_INITIAL_CLUSTER", "ETCD_INITIAL_CLUSTER_STATE",
            "ETCD_INITIAL_CLUSTER_TOKEN", "ETCD_LOGGER", "ETCD_PEER_CLIENT_CERT_AUTH", "ETCD_PEER_TRUSTED_CA_FILE",
            "ETCD_PEER_CERT_FILE", "ETCD_PEER_KEY_FILE", "ETCD_CLIENT_CERT_AUTH", "ETCD_TRUSTED_CA_FILE",
            "ETCD_CERT_FILE", "ETCD_KEY_FILE");
    private static final String NAMED_BY_THE_OPERATOR = "the operator names a cluster's members itself; a discovery"
            + " service cannot be used";
    /**
     * Environment variables that would make etcd ignore the operator's flags or give up what keeps its data: a
     * configuration file (etcd then reads nothing else), a new one-member cluster from a member's data on each
     * restart, writes not synced to disk, and a discovery service in place of the members the operator names.
     */
    public static final Map<String, String> FORBIDDEN_ENV = Map.ofEntries(
            Map.entry("ETCD_CONFIG_FILE", "etcd would read its configuration from that file and ignore every flag the"
                    + " operator sets"),
            Map.entry("ETCD_FORCE_NEW_CLUSTER", "each member that restarts would make a cluster of its own, splitting"
                    + " the cluster"),
            Map.entry("ETCD_UNSAFE_NO_FSYNC", "etcd would not sync its writes to disk, and lose acknowledged writes when"
                    + " a node fails"),
            Map.entry("ETCD_DISCOVERY", NAMED_BY_THE_OPERATOR),
            Map.entry("ETCD_DISCOVERY_SRV", NAMED_BY_THE_OPERATOR),
            Map.entry("ETCD_DISCOVERY_ENDPOINTS", NAMED_BY_THE_OPERATOR));
    /**
     * etcdctl variables that would turn the readiness probe of a member whose clients use TLS (etcdctl in the etcd
     * container, which has the container's environment) away from its own member or from the v3 API, or make it
     * fail: etcdctl exits when a variable shadows a flag the probe passes ("conflicting environment variable").
     * {@code ETCDCTL_USER} is refused only without a password (neither {@code user:password} nor
     * {@code ETCDCTL_PASSWORD}): etcdctl would ask for one on a terminal the probe does not have.
     */
    static final Set<String> ETCDCTL_PROBE_ENV = Set.of("ETCDCTL_API", "ETCDCTL_DISCOVERY_SRV",
            "ETCDCTL_DISCOVERY_SRV_NAME", "ETCDCTL_ENDPOINTS", "ETCDCTL_CACERT", "ETCDCTL_CERT", "ETCDCTL_KEY",
            "ETCDCTL_DIAL_TIMEOUT", "ETCDCTL_COMMAND_TIMEOUT");
    /** The annotations the operator writes on member pods (see ClusterResources), and reads back. */
    static final Set<String> OPERATOR_POD_ANNOTATIONS = Set.of("etcd.database.coreos.com/tls-fingerprint",
            "etcd.database.coreos.com/placement", "etcd.database.coreos.com/tls-trusted-cas",
            "etcd.database.coreos.com/tls-issuing-cas", "etcd.database.coreos.com/restore-staged-for");
    private static final Pattern SEMVER = Pattern.compile(SemVer.PATTERN);
    private static final Pattern CLUSTER_NAME = Pattern.compile("^[a-z]([-a-z0-9]*[a-z0-9])?$");
    private static final Pattern CLUSTER_DOMAIN = Pattern.compile(InputRules.CLUSTER_DOMAIN);
    private static final Pattern REPOSITORY = Pattern.compile(InputRules.IMAGE_REPOSITORY);
    private static final Pattern IMAGE = Pattern.compile(InputRules.IMAGE);
    private static final Pattern LABEL_VALUE = Pattern.compile(InputRules.LABEL_VALUE);
    private static final Pattern QUALIFIED_NAME = Pattern.compile(InputRules.QUALIFIED_NAME);
    private static final Pattern DNS_SUBDOMAIN = Pattern.compile(InputRules.DNS_SUBDOMAIN);
    private static final Pattern ENV_NAME = Pattern.compile(InputRules.ENV_NAME);
    private static final Pattern COMPACTION_RETENTION = Pattern.compile(InputRules.COMPACTION_RETENTION);
    private static final Pattern REVISION_RETENTION = Pattern.compile(InputRules.REVISION_RETENTION);

    /**
     * What the pod policy holds in Kubernetes model types, which the pure core does not read itself.
     *
     * @param etcdEnvNames     the names in {@code spec.pod.etcdEnv}, in order
     * @param etcdEnvValues    their values, in the same order (null for one taken from a source)
     * @param storageClassName {@code spec.pod.persistentVolumeClaimSpec.storageClassName}, or null
     */
    public record PodInputs(List<String> etcdEnvNames, List<String> etcdEnvValues, String storageClassName) {
        public static final PodInputs NONE = new PodInputs(List.of(), null);

        public PodInputs {
            etcdEnvNames = etcdEnvNames == null ? List.of() : java.util.Collections.unmodifiableList(
                    new java.util.ArrayList<>(etcdEnvNames));
            etcdEnvValues = etcdEnvValues == null ? java.util.Collections.nCopies(etcdEnvNames.size(), null)
                    : java.util.Collections.unmodifiableList(new java.util.ArrayList<>(etcdEnvValues));
        }

        /** Names whose values are not known (each taken as given by a source). */
        public PodInputs(List<String> etcdEnvNames, String storageClassName) {
            this(etcdEnvNames, null, storageClassName);
        }

        String value(int i) {
            return i < etcdEnvValues.size() ? etcdEnvValues.get(i) : null;
        }
    }

    /** The spec's own rules: what the CRD schema states. */
    public Validation validate(EtcdClusterSpec spec) {
        return validate(null, spec, PodInputs.NONE);
    }

    /**
     * The spec's rules, the cluster's name (which becomes Service, pod and DNS names, and etcd's --name) when
     * given, and the pod policy's model-typed fields.
     */
    public Validation validate(String name, EtcdClusterSpec spec, PodInputs inputs) {
        return validate(name, null, spec, inputs);
    }

    /**
     * As {@link #validate(String, EtcdClusterSpec, PodInputs)}, and, with the namespace, that the members' DNS names
     * ({@code <member>.<cluster>.<namespace>.svc<ClusterDomain>}) fit DNS's 253 characters.
     */
    public Validation validate(String name, String namespace, EtcdClusterSpec spec, PodInputs inputs) {
        Checks checks = new Checks();
        if (name != null && namespace != null && spec != null) {
            String domain = spec.getPod() == null || spec.getPod().getClusterDomain() == null ? ""
                    : spec.getPod().getClusterDomain().strip();
            int length = name.length() + MEMBER_SUFFIX_LENGTH + 1 + name.length() + 1 + namespace.length()
                    + ".svc".length() + domain.length() + (domain.isEmpty() || domain.startsWith(".") ? 0 : 1);
            if (length > MAX_DNS_NAME_LENGTH) {
                checks.fail("spec.pod.ClusterDomain", "the members' DNS names (<cluster>-<10 characters>.<cluster>."
                        + "<namespace>.svc<ClusterDomain>) would be " + length + " characters, more than DNS allows ("
                        + MAX_DNS_NAME_LENGTH + "): use a shorter cluster name, namespace or ClusterDomain");
            }
        }
        if (name != null && (name.length() > MAX_NAME_LENGTH || !CLUSTER_NAME.matcher(name).matches())) {
            checks.fail("metadata.name", "must be a DNS-1035 label of at most " + MAX_NAME_LENGTH
                    + " characters (a lower case letter, then lower case letters, digits and '-'): member pods are "
                    + "named <cluster>-<10 characters>, got " + Checks.quote(name));
        }
        if (spec == null) {
            checks.fail("spec", "Required value");
            return checks.result();
        }
        if (spec.getSize() == null) {
            checks.fail("spec.size", "Required value");
        } else if (spec.getSize() < MIN_SIZE || spec.getSize() > MAX_SIZE) {
            checks.fail("spec.size", "must be between " + MIN_SIZE + " and " + MAX_SIZE + ", got " + spec.getSize());
        }
        if (checks.requireFormat("spec.version", spec.getVersion(), SEMVER, InputRules.VERSION_MAX_LENGTH,
                "a semantic version such as 3.5.17") && spec.getVersion() != null) {
            Version oldest = Version.parse(InputRules.OLDEST_ETCD_VERSION).orElseThrow();
            if (Version.parse(spec.getVersion()).isEmpty()) {
                // the pattern lets through pre-releases semver refuses; the version rules would skip such a version
                checks.fail("spec.version", "must be a semantic version such as 3.5.17 or 3.6.0-rc.1 (pre-release"
                        + " parts not empty, numeric ones without leading zeros), got "
                        + Checks.quote(spec.getVersion()));
            }
            Version.parse(spec.getVersion()).filter(v -> v.compareTo(oldest) < 0).ifPresent(v -> checks.fail(
                    "spec.version", "must be " + InputRules.OLDEST_ETCD_VERSION + " or later (members join as"
                            + " learners, which etcd has from 3.4 on), got " + Checks.quote(spec.getVersion())
                            + "; nothing is changed while it is older"));
        }
        if (spec.getRepository() != null && spec.getRepository().isBlank()) {
            checks.fail("spec.repository", "must not be blank");
        } else {
            checks.requireFormat("spec.repository", spec.getRepository(), REPOSITORY,
                    InputRules.IMAGE_REPOSITORY_MAX_LENGTH,
                    "an image repository without tag or digest, such as quay.io/coreos/etcd");
        }
        pod(checks, spec.getPod(), inputs == null ? PodInputs.NONE : inputs, clientTls(spec));
        etcd(checks, spec.getEtcd(), inputs == null ? PodInputs.NONE : inputs);
        tls(checks, spec.getTls() == null ? null : spec.getTls().getStaticTls());
        quorumLossRecovery(checks, spec.getQuorumLossRecovery());
        return checks.result();
    }

    private void pod(Checks checks, PodPolicy pod, PodInputs inputs, boolean probedWithEtcdctl) {
        if (pod == null) {
            return;
        }
        if (pod.getLabels() != null) {
            pod.getLabels().keySet().stream()
                    .filter(key -> key.equals("app") || key.startsWith("etcd_") || key.equals(DRILL_LABEL))
                    .sorted()
                    .forEach(key -> checks.fail("spec.pod.labels", "label '" + key + "' is reserved for the operator"
                            + " ('app', 'etcd_*' and '" + DRILL_LABEL + "')"));
        }
        labels(checks, "spec.pod.labels", pod.getLabels(), true);
        labels(checks, "spec.pod.nodeSelector", pod.getNodeSelector(), true);
        labels(checks, "spec.pod.annotations", pod.getAnnotations(), false);
        if (pod.getAnnotations() != null) {
            pod.getAnnotations().keySet().stream().filter(OPERATOR_POD_ANNOTATIONS::contains).sorted()
                    .forEach(key -> checks.fail("spec.pod.annotations", "annotation '" + key + "' is reserved for the"
                            + " operator: it records on each pod what the pod was made from"));
            long bytes = pod.getAnnotations().entrySet().stream().mapToLong(e -> utf8(e.getKey()) + utf8(e.getValue()))
                    .sum();
            if (bytes > InputRules.POD_ANNOTATIONS_MAX_BYTES) {
                checks.fail("spec.pod.annotations", "must be at most " + InputRules.POD_ANNOTATIONS_MAX_BYTES
                        + " bytes in all (the API server's " + InputRules.ANNOTATIONS_MAX_BYTES + " less room for the"
                        + " operator's own annotations on each pod), got " + bytes);
            }
        }
        checks.requireFormat("spec.pod.busyboxImage", pod.getBusyboxImage(), IMAGE, InputRules.IMAGE_MAX_LENGTH,
                "an image reference (repository, optional :tag, optional @sha256:digest), such as busybox:1.36");
        checks.requireFormat("spec.pod.ClusterDomain", pod.getClusterDomain(), CLUSTER_DOMAIN,
                InputRules.CLUSTER_DOMAIN_MAX_LENGTH,
                "DNS labels (lower case letters, digits and '-') joined by dots, such as .cluster.local");
        checks.requireRange("spec.pod.DNSTimeoutInSecond", pod.getDnsTimeoutInSecond(),
                InputRules.MAX_DNS_TIMEOUT_SECONDS);
        String retention = pod.getPersistentVolumeClaimRetention();
        if (retention != null && !retention.equals("Delete") && !retention.equals("Retain")) {
            checks.fail("spec.pod.persistentVolumeClaimRetention",
                    "Unsupported value: \"" + retention + "\": supported values: \"Delete\", \"Retain\"");
        }
        List<String> env = inputs.etcdEnvNames();
        if (env.size() > InputRules.MAX_ENTRIES) {
            checks.fail("spec.pod.etcdEnv", "must have at most " + InputRules.MAX_ENTRIES + " items, got " + env.size());
        } else {
            for (int i = 0; i < env.size(); i++) {
                String path = "spec.pod.etcdEnv[" + i + "].name";
                String envName = env.get(i);
                if (checks.blank(envName)) {
                    checks.fail(path, "Required value");
                } else if (checks.requireFormat(path, envName, ENV_NAME, InputRules.ENV_NAME_MAX_LENGTH,
                        "an environment variable name (letters, digits, '_', '-', '.'; not starting with a digit)")
                        && RESERVED_ENV.contains(envName)) {
                    checks.fail(path, envName + " is set by the operator on etcd's command line; it cannot be "
                            + "changed through etcdEnv");
                } else if (FORBIDDEN_ENV.containsKey(envName)) {
                    checks.fail(path, envName + " cannot be set through etcdEnv: " + FORBIDDEN_ENV.get(envName));
                } else if (probedWithEtcdctl && envName.equals("ETCDCTL_USER") && inputs.value(i) != null
                        && !inputs.value(i).contains(":") && !env.contains("ETCDCTL_PASSWORD")) {
                    checks.fail(path, "ETCDCTL_USER without a password (user:password, or ETCDCTL_PASSWORD) cannot be"
                            + " set through etcdEnv of a cluster whose clients use TLS: each member's readiness probe"
                            + " runs etcdctl in the etcd container, which would ask for the password on a terminal it"
                            + " does not have");
                } else if (probedWithEtcdctl && ETCDCTL_PROBE_ENV.contains(envName)
                        && !(envName.equals("ETCDCTL_API") && apiValueAccepted(inputs.value(i)))) {
                    checks.fail(path, envName + (envName.equals("ETCDCTL_API") ? " can only be \"3\"" : " cannot be set")
                            + " through etcdEnv of a cluster whose clients use TLS: each member's readiness probe runs"
                            + " etcdctl (v3 API, the member's own address) in the etcd container, which reads it");
                }
            }
        }
        checks.requireFormat("spec.pod.persistentVolumeClaimSpec.storageClassName", inputs.storageClassName(),
                DNS_SUBDOMAIN, InputRules.DNS_SUBDOMAIN_MAX_LENGTH, "a DNS subdomain (a storage class name)");
    }

    /**
     * {@code spec.etcd}: bounds and formats, and no etcdEnv variable for a flag it sets (etcd refuses to start with a
     * flag and its variable both set).
     */
    private void etcd(Checks checks, EtcdSettings etcd, PodInputs inputs) {
        if (etcd == null) {
            return;
        }
        Long quota = etcd.getQuotaBackendBytes();
        if (quota != null && (quota < InputRules.MIN_QUOTA_BACKEND_BYTES || quota > InputRules.MAX_QUOTA_BACKEND_BYTES)) {
            checks.fail("spec.etcd.quotaBackendBytes", "must be between " + InputRules.MIN_QUOTA_BACKEND_BYTES
                    + " (1 MiB) and " + InputRules.MAX_QUOTA_BACKEND_BYTES + " (8 GiB), got " + quota);
        }
        String mode = etcd.getAutoCompactionMode();
        if (mode != null && !mode.equals(EtcdSettings.PERIODIC) && !mode.equals(EtcdSettings.REVISION)) {
            checks.fail("spec.etcd.autoCompactionMode",
                    "Unsupported value: " + Checks.quote(mode) + ": supported values: \"periodic\", \"revision\"");
        }
        String retention = etcd.getAutoCompactionRetention();
        if (checks.requireFormat("spec.etcd.autoCompactionRetention", retention, COMPACTION_RETENTION,
                InputRules.COMPACTION_RETENTION_MAX_LENGTH,
                "a number, or a duration of hours, minutes and seconds such as 1h30m")
                && retention != null && EtcdSettings.REVISION.equals(mode)
                && !REVISION_RETENTION.matcher(retention).matches()) {
            checks.fail("spec.etcd", InputRules.REVISION_RETENTION_MESSAGE + ", got " + Checks.quote(retention));
        }
        defragmentation(checks, etcd.getDefragmentation());
        Map<String, Object> flagsByEnv = new TreeMap<>();
        flagsByEnv.put("ETCD_QUOTA_BACKEND_BYTES", quota);
        flagsByEnv.put("ETCD_AUTO_COMPACTION_MODE", mode);
        flagsByEnv.put("ETCD_AUTO_COMPACTION_RETENTION", retention);
        List<String> env = inputs.etcdEnvNames();
        for (int i = 0; i < env.size(); i++) {
            String name = env.get(i);
            if (name != null && flagsByEnv.get(name) != null) {
                checks.fail("spec.pod.etcdEnv[" + i + "].name", name + " sets what spec.etcd."
                        + settingOf(name) + " sets; etcd refuses both together: keep one");
            }
        }
    }

    private static void quorumLossRecovery(Checks checks, QuorumLossRecovery r) {
        if (r == null) {
            return;
        }
        String policy = r.getPolicy();
        if (policy != null && !List.of(QuorumLossRecovery.MANUAL, QuorumLossRecovery.FROM_SURVIVOR,
                QuorumLossRecovery.FROM_BACKUP).contains(policy)) {
            checks.fail("spec.quorumLossRecovery.policy", "Unsupported value: " + Checks.quote(policy)
                    + ": supported values: \"Manual\", \"FromSurvivor\", \"FromBackup\"");
        }
        Integer grace = r.getGracePeriodSeconds();
        if (grace != null && (grace < InputRules.MIN_QUORUM_LOSS_GRACE_SECONDS
                || grace > InputRules.MAX_QUORUM_LOSS_GRACE_SECONDS)) {
            checks.fail("spec.quorumLossRecovery.gracePeriodSeconds", "must be between "
                    + InputRules.MIN_QUORUM_LOSS_GRACE_SECONDS + " and " + InputRules.MAX_QUORUM_LOSS_GRACE_SECONDS
                    + " seconds, got " + grace);
        }
    }

    private static void defragmentation(Checks checks, Defragmentation d) {
        if (d == null) {
            return;
        }
        Long bytes = d.getMinFragmentedBytes();
        if (bytes != null && (bytes < InputRules.MIN_FRAGMENTED_BYTES || bytes > InputRules.MAX_FRAGMENTED_BYTES)) {
            checks.fail("spec.etcd.defragmentation.minFragmentedBytes", "must be between "
                    + InputRules.MIN_FRAGMENTED_BYTES + " (1 MiB) and " + InputRules.MAX_FRAGMENTED_BYTES
                    + " (8 GiB), got " + bytes);
        }
        Integer percent = d.getMinFragmentedPercent();
        if (percent != null && (percent < InputRules.MIN_FRAGMENTED_PERCENT
                || percent > InputRules.MAX_FRAGMENTED_PERCENT)) {
            checks.fail("spec.etcd.defragmentation.minFragmentedPercent", "must be between "
                    + InputRules.MIN_FRAGMENTED_PERCENT + " and " + InputRules.MAX_FRAGMENTED_PERCENT
                    + " (percent of the database file), got " + percent);
        }
        String schedule = d.getSchedule();
        if (schedule != null) {
            if (schedule.length() > InputRules.SCHEDULE_MAX_LENGTH) {
                checks.fail("spec.etcd.defragmentation.schedule", "must be at most " + InputRules.SCHEDULE_MAX_LENGTH
                        + " characters");
            } else {
                try {
                    CronSchedule.parse(schedule);
                } catch (IllegalArgumentException e) {
                    checks.fail("spec.etcd.defragmentation.schedule", e.getMessage());
                }
            }
        }
    }

    private static String settingOf(String env) {
        return switch (env) {
            case "ETCD_QUOTA_BACKEND_BYTES" -> "quotaBackendBytes";
            case "ETCD_AUTO_COMPACTION_MODE" -> "autoCompactionMode";
            default -> "autoCompactionRetention";
        };
    }

    /** Keys are qualified names; with {@code labelValues}, values are label values. */
    private void labels(Checks checks, String path, Map<String, String> map, boolean labelValues) {
        if (map == null) {
            return;
        }
        if (map.size() > InputRules.MAX_ENTRIES) {
            checks.fail(path, "must have at most " + InputRules.MAX_ENTRIES + " entries, got " + map.size());
            return;
        }
        for (Map.Entry<String, String> e : new TreeMap<>(map).entrySet()) {
            if (!checks.requireFormat(path, e.getKey(), QUALIFIED_NAME, InputRules.DNS_SUBDOMAIN_MAX_LENGTH + 64,
                    "keys of the form [prefix/]name (name: at most 63 letters, digits, '-', '_', '.')")) {
                continue;
            }
            int slash = e.getKey().indexOf('/');
            if (slash > InputRules.QUALIFIED_NAME_PREFIX_MAX_LENGTH) {
                checks.fail(path, "key '" + e.getKey() + "': its prefix (before '/') must be at most "
                        + InputRules.QUALIFIED_NAME_PREFIX_MAX_LENGTH + " characters, got " + slash);
                continue;
            }
            if (labelValues) {
                checks.requireFormat(path + "." + e.getKey(), e.getValue() == null ? "" : e.getValue(), LABEL_VALUE,
                        InputRules.LABEL_VALUE_MAX_LENGTH,
                        "a label value (at most 63 letters, digits, '-', '_', '.', starting and ending alphanumeric)");
            }
        }
    }

    private static long utf8(String s) {
        return s == null ? 0 : s.getBytes(StandardCharsets.UTF_8).length;
    }

    /** Members whose clients use TLS: their readiness probe is etcdctl in the etcd container, not an HTTP GET. */
    private static boolean clientTls(EtcdClusterSpec spec) {
        StaticTls tls = spec.getTls() == null ? null : spec.getTls().getStaticTls();
        return tls != null && tls.getOperatorSecret() != null && !tls.getOperatorSecret().isBlank()
                && tls.getMember() != null && tls.getMember().getServerSecret() != null
                && !tls.getMember().getServerSecret().isBlank();
    }

    /** "3", empty (etcdctl's default, 3), or taken from a source (null: not known here, and not refused). */
    private static boolean apiValueAccepted(String value) {
        return value == null || value.isEmpty() || "3".equals(value);
    }

    private void tls(Checks checks, StaticTls tls) {
        if (tls == null) {
            return;
        }
        MemberSecret member = tls.getMember();
        if (tls.getOperatorSecret() != null && (member == null || checks.blank(member.getServerSecret()))) {
            checks.fail("spec.TLS.static", "operatorSecret requires member.serverSecret");
        }
        if (tls.getOperatorSecret() != null) {
            checks.requireName("spec.TLS.static.operatorSecret", tls.getOperatorSecret());
        }
        if (member != null) {
            if (member.getPeerSecret() != null) {
                checks.requireName("spec.TLS.static.member.peerSecret", member.getPeerSecret());
            }
            if (member.getServerSecret() != null) {
                checks.requireName("spec.TLS.static.member.serverSecret", member.getServerSecret());
            }
        }
    }
}
