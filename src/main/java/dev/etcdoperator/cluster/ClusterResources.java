package dev.etcdoperator.cluster;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;

import dev.etcdoperator.core.Digests;
import dev.etcdoperator.api.v1beta2.EtcdCluster;
import dev.etcdoperator.core.cluster.MemberNaming;
import dev.etcdoperator.api.v1beta2.EtcdClusterSpec;
import dev.etcdoperator.api.v1beta2.EtcdSettings;
import dev.etcdoperator.api.v1beta2.PodPolicy;
import dev.etcdoperator.api.v1beta2.StaticTls;
import dev.etcdoperator.core.cluster.Version;
import io.fabric8.kubernetes.api.model.Affinity;
import io.fabric8.kubernetes.api.model.AffinityBuilder;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.EnvVarBuilder;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Probe;
import io.fabric8.kubernetes.api.model.ProbeBuilder;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.VolumeMountBuilder;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudgetBuilder;
import io.fabric8.kubernetes.client.utils.Serialization;

/**
 * The Kubernetes objects of an etcd cluster, as the CoreOS operator named and labelled them: the client
 * Service {@code <cluster>-client}, the headless peer Service {@code <cluster>}, one pod per member (and a PVC
 * per member when the spec asks for one), and a PodDisruptionBudget keeping quorum. Pure builders: no I/O.
 */
public final class ClusterResources {
    public static final String LABEL_APP = "app";
    public static final String LABEL_CLUSTER = "etcd_cluster";
    public static final String LABEL_NODE = "etcd_node";
    public static final String APP = "etcd";
    public static final String ETCD_CONTAINER = "etcd";
    /** The init container that waits until the member's DNS name (and a majority of the first members') resolves. */
    public static final String DNS_WAIT_CONTAINER = "check-dns";
    /** The init container of a pod made again in place that checks its member's data is on the claim. */
    public static final String CHECK_DATA = "check-data";
    /** Its exit code when the data directory holds no etcd member data. */
    public static final int CHECK_DATA_MISSING = 3;
    /**
     * A member's etcd that ends is started again by the kubelet in its pod, on its data (at once the first time): a
     * killed process, even a majority of them, comes back with everything it had.
     */
    static final String RESTARTS_IN_PLACE = "Always";
    /**
     * A pod whose init containers make its data once (a snapshot restored into an empty data directory) never runs
     * them again: were its pod's sandbox made again (a node restarted), they would find that data and fail over it.
     * Its etcd that ends is replaced, as a member whose pod ended.
     */
    static final String RUNS_ONCE = "Never";
    public static final String DATA_VOLUME = "etcd-data";
    public static final String DATA_MOUNT = "/var/etcd";
    public static final String DATA_DIR = DATA_MOUNT + "/data";
    /**
     * Where a snapshot is restored before it becomes the data directory in one rename: a pod made again on the same
     * claim after a restore broke off finds no half-restored data directory (which etcd's restore refuses), and one
     * made again after the data directory was placed keeps it.
     */
    public static final String RESTORE_DIR = DATA_MOUNT + "/restoring";
    public static final int CLIENT_PORT = 2379;
    public static final int PEER_PORT = 2380;
    /** etcd's own Prometheus metrics (and /health), plain HTTP even when clients must use TLS. */
    public static final int METRICS_PORT = 2381;
    static final String METRICS_ENV = "ETCD_LISTEN_METRICS_URLS";
    static final String LIVENESS_PATH = "/health?serializable=true&exclude=NOSPACE&exclude=CORRUPT";
    private static final Version LIVENESS_SINCE = new Version(3, 5, 3, null);
    private static final int LIVENESS_PERIOD = 10;
    public static final String DEFAULT_BUSYBOX = "busybox:1.36";
    /** How often check-dns looks the member's name up: a name that resolves starts etcd without delay. */
    static final String DNS_POLL = "0.1";
    private static final int DNS_POLLS_PER_SECOND = 10;

    /** Where members find their TLS material, as the original mounted it. */
    public static final String PEER_TLS_DIR = "/etc/etcdtls/member/peer-tls";
    public static final String SERVER_TLS_DIR = "/etc/etcdtls/member/server-tls";
    /** The operator's client certificate, mounted into members for their readiness probe (as the original did). */
    public static final String OPERATOR_TLS_DIR = "/etc/etcdtls/operator/etcd-tls";
    public static final String PEER_TLS_VOLUME = "member-peer-tls";
    public static final String SERVER_TLS_VOLUME = "member-server-tls";
    public static final String OPERATOR_TLS_VOLUME = "etcd-client-tls";
    /**
     * On a member pod of a cluster with TLS: the fingerprint of the TLS Secrets' content the pod was started on (see
     * {@link MemberTlsKeys#fingerprint()}). A pod whose value differs from the Secrets' current one, or that has none,
     * is restarted on the current content, one member at a time.
     */
    public static final String TLS_FINGERPRINT_ANNOTATION = "etcd.database.coreos.com/tls-fingerprint";
    /** A digest of the placement rules of spec.pod the member pod was made from (see {@link #placement}). */
    public static final String PLACEMENT_ANNOTATION = "etcd.database.coreos.com/placement";
    /** On a member pod of a cluster with TLS: the CAs its bundles trusted when it started (see {@link CaIds}). */
    public static final String TLS_TRUSTED_CAS_ANNOTATION = "etcd.database.coreos.com/tls-trusted-cas";
    /** On a member pod of a cluster with TLS: the CAs that issued the certificates it started with. */
    public static final String TLS_ISSUING_CAS_ANNOTATION = "etcd.database.coreos.com/tls-issuing-cas";

    private ClusterResources() {
    }

    /** How members of {@code cluster} are named and reached. */
    public static MemberNaming naming(EtcdCluster cluster) {
        EtcdClusterSpec spec = cluster.getSpec();
        String domain = spec.getPod() == null || spec.getPod().getClusterDomain() == null ? ""
                : spec.getPod().getClusterDomain();
        return new MemberNaming(cluster.getMetadata().getName(), cluster.getMetadata().getNamespace(), domain,
                peerSecret(spec) != null);
    }

    public static Map<String, String> selector(String cluster) {
        Map<String, String> labels = new LinkedHashMap<>();
        labels.put(LABEL_APP, APP);
        labels.put(LABEL_CLUSTER, cluster);
        return labels;
    }

    public static String clientServiceName(String cluster) {
        return cluster + "-client";
    }

    public static Service clientService(EtcdCluster cluster) {
        String name = cluster.getMetadata().getName();
        return new ServiceBuilder()
                .withMetadata(owned(cluster, clientServiceName(name), selector(name)))
                .withNewSpec()
                .withSelector(selector(name))
                .addNewPort().withName("client").withPort(CLIENT_PORT).withTargetPort(new IntOrString(CLIENT_PORT))
                .withProtocol("TCP").endPort()
                .endSpec()
                .build();
    }

    /** Headless, publishing not-ready addresses: members must resolve each other before they are ready. */
    public static Service peerService(EtcdCluster cluster) {
        String name = cluster.getMetadata().getName();
        return new ServiceBuilder()
                .withMetadata(owned(cluster, name, selector(name)))
                .withNewSpec()
                .withClusterIP("None")
                .withPublishNotReadyAddresses(true)
                .withSelector(selector(name))
                .addNewPort().withName("client").withPort(CLIENT_PORT).withTargetPort(new IntOrString(CLIENT_PORT))
                .withProtocol("TCP").endPort()
                .addNewPort().withName("peer").withPort(PEER_PORT).withTargetPort(new IntOrString(PEER_PORT))
                .withProtocol("TCP").endPort()
                .endSpec()
                .build();
    }

    /** Keeps a majority of members available through voluntary disruptions. */
    public static PodDisruptionBudget disruptionBudget(EtcdCluster cluster, int size) {
        String name = cluster.getMetadata().getName();
        return new PodDisruptionBudgetBuilder()
                .withMetadata(owned(cluster, name, selector(name)))
                .withNewSpec()
                .withMinAvailable(new IntOrString(size / 2 + 1))
                .withSelector(new LabelSelectorBuilder().withMatchLabels(selector(name)).build())
                .endSpec()
                .build();
    }

    /** {@code spec.TLS.static}, or null. */
    public static StaticTls staticTls(EtcdClusterSpec spec) {
        return spec.getTls() == null ? null : spec.getTls().getStaticTls();
    }

    /** The peer secret's name when peers talk TLS, else null. */
    public static String peerSecret(EtcdClusterSpec spec) {
        StaticTls tls = staticTls(spec);
        return tls == null || tls.getMember() == null || blank(tls.getMember().getPeerSecret()) ? null
                : tls.getMember().getPeerSecret();
    }

    /** The server secret's name when clients must talk TLS to members, else null. */
    public static String serverSecret(EtcdClusterSpec spec) {
        StaticTls tls = staticTls(spec);
        return tls == null || tls.getMember() == null || blank(tls.getMember().getServerSecret()) ? null
                : tls.getMember().getServerSecret();
    }

    /** The operator's client certificate secret, else null. */
    public static String operatorSecret(EtcdClusterSpec spec) {
        StaticTls tls = staticTls(spec);
        return tls == null || blank(tls.getOperatorSecret()) ? null : tls.getOperatorSecret();
    }

    private static boolean blank(String s) {
        return s == null || s.isBlank();
    }

    /** A member's claim; owned by the cluster (deleted with it) unless the spec retains claims. */
    public static PersistentVolumeClaim memberClaim(EtcdCluster cluster, String member) {
        ObjectMeta meta = owned(cluster, member, memberLabels(cluster.getMetadata().getName(), member));
        if (cluster.getSpec().getPod().retainsClaims()) {
            meta.setOwnerReferences(null);
        }
        return new PersistentVolumeClaimBuilder()
                .withMetadata(meta)
                .withSpec(cluster.getSpec().getPod().getPersistentVolumeClaimSpec())
                .build();
    }

    /** What a member pod needs to know about its place in the cluster. */
    public record MemberPodSpec(String member, String peerUrl, String clientUrl, String initialCluster,
            String initialClusterState, String dnsName) {
    }

    public static Pod memberPod(EtcdCluster cluster, MemberPodSpec member) {
        return memberPod(cluster, member, version(cluster.getSpec()));
    }

    /** A member pod running {@code etcdVersion}, which may differ from the spec's while an upgrade waits. */
    public static Pod memberPod(EtcdCluster cluster, MemberPodSpec member, String etcdVersion) {
        return memberPod(cluster, member, etcdVersion, Optional.empty());
    }

    /**
     * A member pod; a seed member ({@code new}) of a restored cluster also gets the init containers that fetch and
     * restore the snapshot of {@code snapshotSecret}, which the caller has confirmed (see {@link RestoreSeed#check}):
     * the cluster's annotations alone never mount a Secret.
     */
    public static Pod memberPod(EtcdCluster cluster, MemberPodSpec member, String etcdVersion,
            Optional<String> snapshotSecret) {
        return memberPod(cluster, member, etcdVersion, snapshotSecret, MemberTlsKeys.COREOS);
    }

    /** The member's pod, its TLS secrets mounted with the keys {@code tlsKeys} found in them. */
    public static Pod memberPod(EtcdCluster cluster, MemberPodSpec member, String etcdVersion,
            Optional<String> snapshotSecret, MemberTlsKeys tlsKeys) {
        EtcdClusterSpec spec = cluster.getSpec();
        PodPolicy policy = spec.getPod() == null ? new PodPolicy() : spec.getPod();
        String clusterName = cluster.getMetadata().getName();

        Map<String, String> labels = new LinkedHashMap<>();
        if (policy.getLabels() != null) {
            labels.putAll(policy.getLabels());
        }
        labels.putAll(memberLabels(clusterName, member.member()));
        ObjectMeta meta = owned(cluster, member.member(), labels);
        Map<String, String> annotations = policy.getAnnotations() == null ? new LinkedHashMap<>()
                : new LinkedHashMap<>(policy.getAnnotations());
        annotations.put(PLACEMENT_ANNOTATION, placement(spec));
        if (tlsKeys.material() != null) {
            annotations.put(TLS_FINGERPRINT_ANNOTATION, tlsKeys.fingerprint());
            annotations.put(TLS_TRUSTED_CAS_ANNOTATION, String.join(",",
                    new TreeSet<>(tlsKeys.material().trusted())));
            annotations.put(TLS_ISSUING_CAS_ANNOTATION, String.join(",",
                    new TreeSet<>(tlsKeys.material().issuers())));
        }
        meta.setAnnotations(annotations);

        boolean restoresSnapshot = "new".equals(member.initialClusterState()) && snapshotSecret.isPresent();
        String peerSecret = peerSecret(spec);
        String serverSecret = serverSecret(spec);
        String operatorSecret = operatorSecret(spec);
        List<String> command = new ArrayList<>(List.of("/usr/local/bin/etcd",
                "--data-dir=" + DATA_DIR,
                "--name=" + member.member(),
                "--initial-advertise-peer-urls=" + member.peerUrl(),
                "--listen-peer-urls=" + (peerSecret != null ? "https" : "http") + "://0.0.0.0:" + PEER_PORT,
                "--listen-client-urls=" + (serverSecret != null ? "https" : "http") + "://0.0.0.0:" + CLIENT_PORT,
                "--advertise-client-urls=" + member.clientUrl(),
                "--initial-cluster=" + member.initialCluster(),
                "--initial-cluster-state=" + member.initialClusterState(),
                "--logger=zap"));
        if ("new".equals(member.initialClusterState())) {
            command.add("--initial-cluster-token=" + cluster.getMetadata().getUid());
        }
        // a cluster that already sets it in etcdEnv keeps its own: etcd refuses a variable and its flag together
        if (policy.getEtcdEnv() == null || policy.getEtcdEnv().stream().noneMatch(e -> METRICS_ENV.equals(e.getName()))) {
            command.add("--listen-metrics-urls=http://0.0.0.0:" + METRICS_PORT);
        }
        command.addAll(etcdSettingFlags(spec.getEtcd()));
        List<VolumeMount> mounts = new ArrayList<>(List.of(
                new VolumeMountBuilder().withName(DATA_VOLUME).withMountPath(DATA_MOUNT).build()));
        List<Volume> tlsVolumes = new ArrayList<>();
        if (peerSecret != null) {
            command.addAll(List.of("--peer-client-cert-auth=true",
                    "--peer-trusted-ca-file=" + PEER_TLS_DIR + "/" + tlsKeys.peer().ca(),
                    "--peer-cert-file=" + PEER_TLS_DIR + "/" + tlsKeys.peer().cert(),
                    "--peer-key-file=" + PEER_TLS_DIR + "/" + tlsKeys.peer().key()));
            mounts.add(secretMount(PEER_TLS_VOLUME, PEER_TLS_DIR));
            tlsVolumes.add(secretVolume(PEER_TLS_VOLUME, peerSecret));
        }
        if (serverSecret != null) {
            command.addAll(List.of("--client-cert-auth=true",
                    "--trusted-ca-file=" + SERVER_TLS_DIR + "/" + tlsKeys.server().ca(),
                    "--cert-file=" + SERVER_TLS_DIR + "/" + tlsKeys.server().cert(),
                    "--key-file=" + SERVER_TLS_DIR + "/" + tlsKeys.server().key()));
            mounts.add(secretMount(SERVER_TLS_VOLUME, SERVER_TLS_DIR));
            tlsVolumes.add(secretVolume(SERVER_TLS_VOLUME, serverSecret));
            if (operatorSecret != null) {
                mounts.add(secretMount(OPERATOR_TLS_VOLUME, OPERATOR_TLS_DIR));
                tlsVolumes.add(secretVolume(OPERATOR_TLS_VOLUME, operatorSecret));
            }
        }
        List<EnvVar> env = new ArrayList<>();
        if (policy.getEtcdEnv() != null) {
            env.addAll(policy.getEtcdEnv());
        }
        Container etcd = new ContainerBuilder()
                .withName(ETCD_CONTAINER)
                .withImage(image(spec, etcdVersion))
                .withCommand(command)
                .withEnv(env)
                .addNewPort().withName("client").withContainerPort(CLIENT_PORT).withProtocol("TCP").endPort()
                .addNewPort().withName("peer").withContainerPort(PEER_PORT).withProtocol("TCP").endPort()
                .addNewPort().withName("metrics").withContainerPort(METRICS_PORT).withProtocol("TCP").endPort()
                .withReadinessProbe(readinessProbe(member,
                        serverSecret != null && operatorSecret != null ? tlsKeys.operator() : null))
                .withStartupProbe(startupProbe(etcdVersion, spec, !restoresSnapshot).orElse(null))
                .withLivenessProbe(livenessProbe(etcdVersion, spec, !restoresSnapshot).orElse(null))
                .withResources(policy.getResources())
                .withVolumeMounts(mounts)
                .build();

        long dnsTimeout = policy.getDnsTimeoutInSecond() == null ? 0 : policy.getDnsTimeoutInSecond();
        Container waitForDns = new ContainerBuilder()
                .withName(DNS_WAIT_CONTAINER)
                .withImage(policy.getBusyboxImage() == null ? DEFAULT_BUSYBOX : policy.getBusyboxImage())
                .withCommand(dnsWaitCommand(member.dnsName(), otherInitialMembers(member), dnsTimeout))
                .build();

        Volume data = policy.getPersistentVolumeClaimSpec() != null
                ? new VolumeBuilder().withName(DATA_VOLUME).withNewPersistentVolumeClaim()
                        .withClaimName(member.member()).endPersistentVolumeClaim().build()
                : new VolumeBuilder().withName(DATA_VOLUME).withNewEmptyDir().endEmptyDir().build();

        List<Container> restore = restoresSnapshot
                ? RestoreSeed.initContainers(cluster, snapshotSecret.get(), member, etcdVersion, image(spec, etcdVersion))
                : List.of();
        PodBuilder pod = new PodBuilder()
                .withMetadata(meta)
                .withNewSpec()
                .withHostname(member.member())
                .withSubdomain(clusterName)
                .withRestartPolicy(restoresSnapshot ? RUNS_ONCE : RESTARTS_IN_PLACE)
                // a seed fetches and restores its snapshot first: only etcd, which starts next, needs its name
                .withInitContainers(restore)
                .addToInitContainers(waitForDns)
                .withContainers(etcd)
                .withVolumes(data)
                .addAllToVolumes(tlsVolumes)
                .withNodeSelector(policy.getNodeSelector())
                .withTolerations(policy.getTolerations())
                .endSpec();
        if (policy.getAffinity() != null || Boolean.TRUE.equals(policy.getAntiAffinity())) {
            pod.editSpec().withAffinity(affinity(policy, clusterName)).endSpec();
        }
        return MemberSecurity.restrict(pod.build(), policy);
    }

    /**
     * {@code spec.pod.affinity}, with the required anti-affinity on the node of {@code antiAffinity: true} added to
     * it: both are kept when both are given.
     */
    private static Affinity affinity(PodPolicy policy, String clusterName) {
        AffinityBuilder affinity = policy.getAffinity() == null ? new AffinityBuilder()
                : new AffinityBuilder(Serialization.clone(policy.getAffinity()));
        if (!Boolean.TRUE.equals(policy.getAntiAffinity())) {
            return affinity.build();
        }
        if (!affinity.hasPodAntiAffinity()) {
            affinity.withNewPodAntiAffinity().endPodAntiAffinity();
        }
        return affinity.editPodAntiAffinity().addNewRequiredDuringSchedulingIgnoredDuringExecution()
                .withTopologyKey("kubernetes.io/hostname")
                .withNewLabelSelector().withMatchLabels(selector(clusterName)).endLabelSelector()
                .endRequiredDuringSchedulingIgnoredDuringExecution()
                .endPodAntiAffinity().build();
    }

    /**
     * {@code pod}, made again in place on its member's claim, with a first init container that checks that the
     * member's data is there: without it etcd would refuse to start for good (a member that joined before cannot
     * join again without its data), and the operator replaces the member instead of making its pod again and again.
     */
    static Pod withDataCheck(Pod pod, EtcdCluster cluster) {
        PodPolicy policy = cluster.getSpec().getPod() == null ? new PodPolicy() : cluster.getSpec().getPod();
        Container check = new ContainerBuilder()
                .withName(CHECK_DATA)
                .withImage(policy.getBusyboxImage() == null ? DEFAULT_BUSYBOX : policy.getBusyboxImage())
                .withCommand("/bin/sh", "-c", String.join("\n",
                        "if [ -d " + DATA_DIR + "/member ]; then exit 0; fi",
                        // a directory this user cannot read is no proof that the data is gone
                        "for d in " + DATA_MOUNT + " " + DATA_DIR + "; do",
                        "  if [ -e \"$d\" ] && ! ls -a \"$d\" > /dev/null 2>&1; then echo \"cannot read $d\" >&2;"
                                + " exit 1; fi",
                        "done",
                        "echo \"no etcd data in " + DATA_DIR + " on this claim: the member cannot start again on"
                                + " it\" >&2",
                        "exit " + CHECK_DATA_MISSING))
                .withVolumeMounts(new io.fabric8.kubernetes.api.model.VolumeMountBuilder().withName(DATA_VOLUME)
                        .withMountPath(DATA_MOUNT).build())
                .build();
        List<Container> init = new java.util.ArrayList<>();
        init.add(check);
        init.addAll(pod.getSpec().getInitContainers());
        pod.getSpec().setInitContainers(init);
        return MemberSecurity.restrict(pod, policy);
    }

    /**
     * Plain members answer {@code GET /health} on their client port. A member that requires client certificates
     * is probed with {@code etcdctl endpoint health} over https with the operator's client certificate (as the
     * original did), by the member's own DNS name, which its certificate covers; no shell is needed, so this
     * also works on etcd's distroless images.
     *
     * @param clientKeys the layout of the operator's client Secret when members require client certificates,
     *                   else null
     */
    static Probe readinessProbe(MemberPodSpec member, TlsSecretKeys clientKeys) {
        ProbeBuilder probe = new ProbeBuilder()
                .withPeriodSeconds(1).withTimeoutSeconds(3).withFailureThreshold(3);
        if (clientKeys == null) {
            return probe.withNewHttpGet().withPath("/health").withPort(new IntOrString(CLIENT_PORT))
                    .withScheme("HTTP").endHttpGet().build();
        }
        return probe.withNewExec().withCommand("/usr/local/bin/etcdctl",
                "--endpoints=https://" + member.dnsName() + ":" + CLIENT_PORT,
                "--cacert=" + OPERATOR_TLS_DIR + "/" + clientKeys.ca(),
                "--cert=" + OPERATOR_TLS_DIR + "/" + clientKeys.cert(),
                "--key=" + OPERATOR_TLS_DIR + "/" + clientKeys.key(),
                "--dial-timeout=3s", "--command-timeout=4s",
                "endpoint", "health").endExec().build();
    }

    /**
     * A digest of what in spec.pod decides which node a member pod may run on: its node selector, tolerations,
     * affinity and anti-affinity, and resources. A claim's spec is not in it: a pod made again keeps its claim.
     */
    public static String placement(EtcdClusterSpec spec) {
        PodPolicy policy = spec.getPod() == null ? new PodPolicy() : spec.getPod();
        Map<String, Object> rules = new LinkedHashMap<>();
        rules.put("nodeSelector", policy.getNodeSelector() == null || policy.getNodeSelector().isEmpty() ? null
                : new TreeMap<>(policy.getNodeSelector()));
        rules.put("tolerations", policy.getTolerations() == null || policy.getTolerations().isEmpty() ? null
                : policy.getTolerations());
        rules.put("affinity", policy.getAffinity());
        rules.put("antiAffinity", Boolean.TRUE.equals(policy.getAntiAffinity()));
        rules.put("resources", policy.getResources());
        return Digests.shortSha256(Serialization.asJson(rules), 8);
    }

    /**
     * Restarts an etcd that stopped answering (frozen, hung), in place on its data: etcd's own health of the member
     * alone ({@code serializable}: no leader needed, so a quorum loss fails no member's probe; a full database or a
     * corruption alarm is no reason to restart either), on the plain metrics listener, which TLS does not change.
     * Only from etcd 3.5.3, which knows {@code serializable}; only where the metrics listener is the operator's; never
     * in a pod that runs once (a kill would end it, and its emptyDir with it: a frozen etcd may yet come back). It
     * starts once the {@link #startupProbe} passed, and allows a defragmentation of a database as large as the quota,
     * which blocks the check meanwhile: 80 s, and 30 s more for each GiB of quota over 2 GiB.
     */
    static Optional<Probe> livenessProbe(String etcdVersion, EtcdClusterSpec spec, boolean restartsInPlace) {
        if (!probedForLiveness(etcdVersion, spec, restartsInPlace)) {
            return Optional.empty();
        }
        long quotaGiB = ClusterObserver.quotaBytes(spec) >> 30;
        int defragmentationSeconds = 80 + (int) Math.max(0, Math.min(quotaGiB, 64) - 2) * 30;
        return Optional.of(liveness().withPeriodSeconds(LIVENESS_PERIOD).withTimeoutSeconds(10)
                .withFailureThreshold((defragmentationSeconds + LIVENESS_PERIOD - 1) / LIVENESS_PERIOD).build());
    }

    /**
     * Holds the liveness probe back while etcd starts, however long opening a large database and replaying its log
     * takes (up to an hour); checked every second, so that the readiness probe, which waits for it, starts soon.
     */
    static Optional<Probe> startupProbe(String etcdVersion, EtcdClusterSpec spec, boolean restartsInPlace) {
        if (!probedForLiveness(etcdVersion, spec, restartsInPlace)) {
            return Optional.empty();
        }
        return Optional.of(liveness().withPeriodSeconds(1).withTimeoutSeconds(5).withFailureThreshold(3600).build());
    }

    private static boolean probedForLiveness(String etcdVersion, EtcdClusterSpec spec, boolean restartsInPlace) {
        PodPolicy policy = spec.getPod() == null ? new PodPolicy() : spec.getPod();
        boolean ownMetrics = policy.getEtcdEnv() == null
                || policy.getEtcdEnv().stream().noneMatch(e -> METRICS_ENV.equals(e.getName()));
        boolean serializable = Version.parse(etcdVersion).map(v -> v.compareTo(LIVENESS_SINCE) >= 0).orElse(false);
        return restartsInPlace && ownMetrics && serializable;
    }

    private static ProbeBuilder liveness() {
        return new ProbeBuilder().withNewHttpGet().withPath(LIVENESS_PATH).withPort(new IntOrString(METRICS_PORT))
                .withScheme("HTTP").endHttpGet();
    }

    private static VolumeMount secretMount(String volume, String path) {
        return new VolumeMountBuilder().withName(volume).withMountPath(path).withReadOnly(true).build();
    }

    private static Volume secretVolume(String volume, String secret) {
        return new VolumeBuilder().withName(volume).withNewSecret().withSecretName(secret).endSecret().build();
    }

    public static String image(EtcdClusterSpec spec) {
        return image(spec, version(spec));
    }

    public static String image(EtcdClusterSpec spec, String etcdVersion) {
        String repository = spec.getRepository() == null || spec.getRepository().isBlank()
                ? EtcdClusterSpec.DEFAULT_REPOSITORY : spec.getRepository();
        String v = etcdVersion == null ? version(spec) : etcdVersion;
        return repository + ":v" + (v.startsWith("v") ? v.substring(1) : v);
    }

    public static String version(EtcdClusterSpec spec) {
        String v = spec.getVersion() == null ? EtcdClusterSpec.DEFAULT_VERSION : spec.getVersion();
        return v.startsWith("v") ? v.substring(1) : v;
    }

    /** The etcd version a pod runs, from its image tag; null when the tag is not a version. */
    public static String podVersion(Pod pod) {
        for (Container c : pod.getSpec().getContainers()) {
            if (ETCD_CONTAINER.equals(c.getName()) && c.getImage() != null && c.getImage().contains(":")) {
                String tag = c.getImage().substring(c.getImage().lastIndexOf(':') + 1);
                return tag.startsWith("v") ? tag.substring(1) : tag;
            }
        }
        return null;
    }

    /**
     * The check-dns init container's script, a constant: it looks the member's own name ({@code $1}) up every
     * 0.1 s until it resolves (its address is published only once the pod has one, so the first lookups fail)
     * and, when {@code $2} (polls) is above 0, gives up after that many polls ({@code $3} seconds). With more
     * arguments ({@code $4} a count, then the other first members' names), it waits until its own name and that
     * many names in all resolve: the first members of a cluster started together start etcd only once a majority of
     * their pods exists. Values reach it only as arguments, never as script text.
     */
    static final String DNS_WAIT_SCRIPT = "n=0; need=1; own=\"$1\"; polls=\"$2\"; secs=\"$3\"; shift 3; "
            + "if [ \"$#\" -gt 0 ]; then need=\"$1\"; shift; fi; "
            + "until c=0; for h in \"$own\" \"$@\"; do "
            + "if getent hosts \"$h\" >/dev/null 2>&1 || nslookup \"$h\" >/dev/null 2>&1; then c=$((c+1)); "
            + "elif [ \"$h\" = \"$own\" ]; then break; fi; done; [ \"$c\" -ge \"$need\" ]; "
            + "do n=$((n+1)); if [ \"$polls\" -gt 0 ] && [ \"$n\" -ge \"$polls\" ]; then "
            + "if [ \"$need\" -gt 1 ]; then echo \"fewer than $need of the first members' DNS names ($own and the others)"
            + " resolved in $secs s\"; else echo \"DNS name $own did not resolve in $secs s\"; fi; "
            + "exit 1; fi; sleep " + DNS_POLL + "; done";

    /** {@code sh -c <constant script> check-dns <name> <polls> <seconds>}: the name is an argument, not script. */
    static List<String> dnsWaitCommand(String dnsName, long timeoutSeconds) {
        return dnsWaitCommand(dnsName, List.of(), timeoutSeconds);
    }

    /**
     * As {@link #dnsWaitCommand(String, long)}, and when {@code others} (the DNS names of the other first members
     * started together with this one) is not empty, also waits until a majority of all of them resolves.
     */
    static List<String> dnsWaitCommand(String dnsName, List<String> others, long timeoutSeconds) {
        long seconds = Math.max(0, timeoutSeconds);
        long polls = seconds > Long.MAX_VALUE / DNS_POLLS_PER_SECOND ? Long.MAX_VALUE : seconds * DNS_POLLS_PER_SECOND;
        List<String> command = new ArrayList<>(List.of("/bin/sh", "-c", DNS_WAIT_SCRIPT, "check-dns", dnsName,
                Long.toString(polls), Long.toString(seconds)));
        if (!others.isEmpty()) {
            command.add(Integer.toString((others.size() + 1) / 2 + 1));
            command.addAll(others);
        }
        return List.copyOf(command);
    }

    /**
     * The DNS names of the other members a member starting with initial state {@code new} bootstraps with (the hosts
     * of the other peer URLs of its {@code --initial-cluster}); empty for a seed, or a member that joins.
     */
    static List<String> otherInitialMembers(MemberPodSpec member) {
        if (!"new".equals(member.initialClusterState()) || member.initialCluster() == null) {
            return List.of();
        }
        List<String> others = new ArrayList<>();
        for (String entry : member.initialCluster().split(",")) {
            int eq = entry.indexOf('=');
            String url = eq < 0 ? entry : entry.substring(eq + 1);
            if (!url.equals(member.peerUrl())) {
                int scheme = url.indexOf("://");
                String host = scheme < 0 ? url : url.substring(scheme + 3);
                others.add(host.lastIndexOf(':') < 0 ? host : host.substring(0, host.lastIndexOf(':')));
            }
        }
        return others;
    }

    static Map<String, String> memberLabels(String cluster, String member) {
        Map<String, String> labels = selector(cluster);
        labels.put(LABEL_NODE, member);
        return labels;
    }

    private static ObjectMeta owned(EtcdCluster cluster, String name, Map<String, String> labels) {
        return new ObjectMetaBuilder()
                .withName(name)
                .withNamespace(cluster.getMetadata().getNamespace())
                .withLabels(new LinkedHashMap<>(labels))
                .withOwnerReferences(ownerReference(cluster))
                .build();
    }

    public static OwnerReference ownerReference(EtcdCluster cluster) {
        return new OwnerReferenceBuilder()
                .withApiVersion(cluster.getApiVersion())
                .withKind(cluster.getKind())
                .withName(cluster.getMetadata().getName())
                .withUid(cluster.getMetadata().getUid())
                .withController(true)
                .withBlockOwnerDeletion(true)
                .build();
    }

    /** {@code spec.etcd} as etcd's flags, each one only when set (etcd keeps its default otherwise). */
    static List<String> etcdSettingFlags(EtcdSettings settings) {
        List<String> flags = new ArrayList<>();
        if (settings == null) {
            return flags;
        }
        if (settings.getQuotaBackendBytes() != null) {
            flags.add("--quota-backend-bytes=" + settings.getQuotaBackendBytes());
        }
        if (settings.getAutoCompactionMode() != null) {
            flags.add("--auto-compaction-mode=" + settings.getAutoCompactionMode());
        }
        if (settings.getAutoCompactionRetention() != null) {
            flags.add("--auto-compaction-retention=" + settings.getAutoCompactionRetention());
        }
        return flags;
    }
}
