package dev.etcdoperator.core.validation;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;

import dev.etcdoperator.api.v1beta2.Defragmentation;
import dev.etcdoperator.api.v1beta2.EtcdClusterSpec;
import dev.etcdoperator.api.v1beta2.EtcdSettings;
import dev.etcdoperator.api.v1beta2.MemberSecret;
import dev.etcdoperator.api.v1beta2.PodPolicy;
import dev.etcdoperator.api.v1beta2.QuorumLossRecovery;
import dev.etcdoperator.api.v1beta2.StaticTls;
import dev.etcdoperator.api.v1beta2.TlsPolicy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ClusterSpecValidatorTest {
    private final ClusterSpecValidator validator = new ClusterSpecValidator();

    private static EtcdClusterSpec spec(int size, String retention) {
        EtcdClusterSpec spec = new EtcdClusterSpec();
        spec.setSize(size);
        PodPolicy pod = new PodPolicy();
        pod.setPersistentVolumeClaimRetention(retention);
        spec.setPod(pod);
        return spec;
    }

    @Test
    void claimRetentionIsDeleteOrRetain() {
        assertThat(validator.validate(spec(3, null)).valid()).isTrue();
        assertThat(validator.validate(spec(3, "Delete")).valid()).isTrue();
        assertThat(validator.validate(spec(3, "Retain")).valid()).isTrue();
        Validation bad = validator.validate(spec(3, "Keep"));
        assertThat(bad.errors()).singleElement().satisfies(e -> {
            assertThat(e.path()).isEqualTo("spec.pod.persistentVolumeClaimRetention");
            assertThat(e.message()).contains("\"Keep\"");
        });
    }

    @Test
    void everyProblemIsListedAtOnce() {
        EtcdClusterSpec spec = spec(0, "Keep");
        spec.setVersion("latest");
        spec.getPod().setLabels(java.util.Map.of("app", "x", "etcd_node", "y"));
        assertThat(validator.validate(spec).errors()).extracting(FieldError::path).containsExactly("spec.size",
                "spec.version", "spec.pod.labels", "spec.pod.labels", "spec.pod.persistentVolumeClaimRetention");
    }

    @Test
    void theMembersDnsNamesMustFitDns() {
        EtcdClusterSpec spec = spec(3, null);
        spec.getPod().setClusterDomain(".cluster.local");
        String name = "c".repeat(52);
        assertThat(validator.validate(name, "n".repeat(63), spec, ClusterSpecValidator.PodInputs.NONE).valid())
                .isTrue();
        // 63 + 1 + 52 + 1 + 63 + 4 + 71 = 255
        spec.getPod().setClusterDomain("." + "d".repeat(30) + "." + "e".repeat(39));
        assertThat(validator.validate(name, "n".repeat(63), spec, ClusterSpecValidator.PodInputs.NONE).errors())
                .singleElement().satisfies(e -> {
                    assertThat(e.path()).isEqualTo("spec.pod.ClusterDomain");
                    assertThat(e.message()).contains("255 characters", "253");
                });
        // the same without a leading dot counts the dot the name gets
        spec.getPod().setClusterDomain("d".repeat(30) + "." + "e".repeat(38));
        assertThat(validator.validate(name, "n".repeat(63), spec, ClusterSpecValidator.PodInputs.NONE).errors())
                .singleElement().satisfies(e -> assertThat(e.message()).contains("254 characters"));
    }

    @Test
    void labelsTheOperatorSelectsOrDeletesByAreRefused() {
        EtcdClusterSpec spec = spec(3, null);
        spec.getPod().setLabels(java.util.Map.of("etcd.database.coreos.com/restore-drill", "uid", "team", "a",
                "example.com/etcd.database.coreos.com", "b", "etcd.database.coreos.com/tier", "c"));
        assertThat(validator.validate(spec).errors()).singleElement().satisfies(e -> {
            assertThat(e.path()).isEqualTo("spec.pod.labels");
            assertThat(e.message()).contains("'etcd.database.coreos.com/restore-drill' is reserved");
        });
    }

    /** Shell metacharacters, newlines, flags, URL characters, traversal, case and length. */
    private static final List<String> HOSTILE_DOMAINS = List.of("cluster.local; touch /tmp/pwned", "$(id).local",
            "`id`.local", "cluster.local\nid", "cluster.local && id", "a b", "-x", "--x.local", "../etc",
            "cluster.local/", "evil.example?x", "evil.example#", "user@evil.example", "cluster.local:80",
            "Cluster.Local", "cluster..local", "cluster.local.", "-a.local", "a-.local", "'x'", "\"x\"", "x|y",
            "x>y", "x\ty", "a".repeat(64) + ".local", ".a" + ".aaaaaaaa".repeat(16));

    @Test
    void aClusterDomainIsDnsLabelsJoinedByDots() {
        for (String good : List.of("", "cluster.local", ".cluster.local", "example.com", "a", "k8s-1.example.org")) {
            EtcdClusterSpec spec = spec(3, null);
            spec.getPod().setClusterDomain(good);
            assertThat(validator.validate(spec).valid()).as("'%s' is valid", good).isTrue();
        }
        for (String hostile : HOSTILE_DOMAINS) {
            EtcdClusterSpec spec = spec(3, null);
            spec.getPod().setClusterDomain(hostile);
            assertThat(validator.validate(spec).errors()).as("'%s' is refused", hostile)
                    .extracting(FieldError::path).containsExactly("spec.pod.ClusterDomain");
        }
    }

    @Test
    void aRefusalQuotesTheValueWithItsControlCharactersEscapedAndCut() {
        EtcdClusterSpec spec = spec(3, null);
        spec.getPod().setClusterDomain("cluster.local\nid");
        assertThat(validator.validate(spec).message()).contains("'cluster.local\\u000aid'").doesNotContain("\n");
        spec.getPod().setClusterDomain("x".repeat(200));
        assertThat(validator.validate(spec).message()).contains("at most 128 characters, got 200");
    }

    @Test
    void imageNamesAreRepositoriesAndReferencesWithoutShellOrFlags() {
        for (String good : List.of("quay.io/coreos/etcd", "gcr.io/etcd-development/etcd", "localhost:5000/etcd",
                "registry.k8s.io/etcd", "etcd", "registry.example/team__x/etcd_copy-2")) {
            EtcdClusterSpec spec = spec(3, null);
            spec.setRepository(good);
            assertThat(validator.validate(spec).valid()).as("repository '%s'", good).isTrue();
        }
        for (String hostile : List.of("quay.io/coreos/etcd:v3.5.17", "quay.io/coreos/etcd@sha256:" + "a".repeat(64),
                "-v", "quay.io/../etcd", "quay.io/coreos/etcd;id", "quay.io/coreos/etcd $(id)", "quay.io/etcd\n",
                "Quay.io/Coreos/etcd", "quay.io//etcd", "quay.io/etcd/", "https://quay.io/etcd", "a".repeat(256),
                "localhost:5000", "Quay.io", "registry.example:443")) {
            EtcdClusterSpec spec = spec(3, null);
            spec.setRepository(hostile);
            assertThat(validator.validate(spec).errors()).as("repository '%s'", hostile)
                    .extracting(FieldError::path).containsExactly("spec.repository");
        }
        for (String good : List.of("busybox", "busybox:1.36", "docker.io/library/busybox:1.36",
                "localhost:5000/busybox:1.36-musl", "busybox@sha256:" + "0".repeat(64), "Registry.Example:5000/busybox",
                "busybox:1.36@sha256:" + "0".repeat(64))) {
            EtcdClusterSpec spec = spec(3, null);
            spec.getPod().setBusyboxImage(good);
            assertThat(validator.validate(spec).valid()).as("busyboxImage '%s'", good).isTrue();
        }
        for (String hostile : List.of("busybox;id", "busybox $(id)", "-it", "--privileged", "busybox\nid",
                "busybox:1.36 sh", "busybox:-x", "busybox@sha256:xyz", "busybox:" + "1".repeat(129), "", " ",
                "busybox|id", "reg:5000:1.36", "Busybox:1.36")) {
            EtcdClusterSpec spec = spec(3, null);
            spec.getPod().setBusyboxImage(hostile);
            assertThat(validator.validate(spec).errors()).as("busyboxImage '%s'", hostile)
                    .extracting(FieldError::path).containsExactly("spec.pod.busyboxImage");
        }
    }

    /** etcd before 3.4 has no learners and refuses the members' flags: refused, so nothing is touched. */
    @Test
    void etcdOlderThanThreeFourIsRefused() {
        for (String old : List.of("3.2.13", "v3.3.27", "3.3.99", "2.3.8", "3.4.0-rc.1")) {
            EtcdClusterSpec spec = spec(3, null);
            spec.setVersion(old);
            assertThat(validator.validate(spec).errors()).as(old).singleElement().satisfies(e -> {
                assertThat(e.path()).isEqualTo("spec.version");
                assertThat(e.message()).contains("3.4.0 or later");
            });
        }
        for (String supported : List.of("3.4.0", "v3.4.23", "3.5.17", "3.6.16")) {
            EtcdClusterSpec spec = spec(3, null);
            spec.setVersion(supported);
            assertThat(validator.validate(spec).errors()).as(supported).isEmpty();
        }
    }

    /** Pre-releases semver refuses would pass by the version rules (oldest version, restore tool, probes). */
    @Test
    void aVersionWhosePreReleaseSemverRefusesIsRefused() {
        for (String malformed : List.of("3.3.0-.", "3.5.0-rc..1", "3.5.0-01", "3.6.0-rc.", "3.2.0-.x", "3.5.0--.")) {
            EtcdClusterSpec spec = spec(3, null);
            spec.setVersion(malformed);
            assertThat(validator.validate(spec).errors()).as(malformed).extracting(FieldError::path)
                    .containsExactly("spec.version");
        }
        for (String fine : List.of("3.6.0-rc.1", "3.5.0-alpha.0", "3.5.0-x-y.1a", "3.5.0--")) {
            EtcdClusterSpec spec = spec(3, null);
            spec.setVersion(fine);
            assertThat(validator.validate(spec).errors()).as(fine).isEmpty();
        }
    }

    @Test
    void aVersionIsSemverOfBoundedLength() {
        for (String hostile : List.of("3.5.17\n", "3.5.17;id", "3.5.17 --x", "-3.5.17", "3.5.17-" + "a".repeat(70),
                "3.5.17+$(id)", "3.5.17/../x", "3.5.17+build1", "3.5.1234567890")) {
            EtcdClusterSpec spec = spec(3, null);
            spec.setVersion(hostile);
            assertThat(validator.validate(spec).errors()).as("version '%s'", hostile)
                    .extracting(FieldError::path).containsExactly("spec.version");
        }
    }

    @Test
    void labelsNodeSelectorsAndAnnotationsHaveKubernetesKeysAndValues() {
        EtcdClusterSpec ok = spec(3, null);
        ok.getPod().setLabels(Map.of("team", "storage", "example.com/tier", "gold_1.x", "empty", ""));
        ok.getPod().setNodeSelector(Map.of("kubernetes.io/os", "linux"));
        ok.getPod().setAnnotations(Map.of("example.com/note", "anything; even $(this)\nand newlines"));
        assertThat(validator.validate(ok).valid()).isTrue();

        for (String hostile : List.of("a;b", "$(id)", "x\ny", "-x", "x-", "a b", "a/b", "a".repeat(64))) {
            EtcdClusterSpec spec = spec(3, null);
            spec.getPod().setLabels(Map.of("team", hostile));
            spec.getPod().setNodeSelector(Map.of("disk", hostile));
            assertThat(validator.validate(spec).errors()).as("value '%s'", hostile).extracting(FieldError::path)
                    .containsExactly("spec.pod.labels.team", "spec.pod.nodeSelector.disk");
        }
        for (String hostile : List.of("a;b", "-x", "x\n", "a/b/c", "/x", "Example.com/x", "a b", "", "x".repeat(64))) {
            EtcdClusterSpec spec = spec(3, null);
            spec.getPod().setLabels(Map.of(hostile, "v"));
            spec.getPod().setAnnotations(Map.of(hostile, "v"));
            assertThat(validator.validate(spec).errors()).as("key '%s'", hostile).extracting(FieldError::path)
                    .containsExactly("spec.pod.labels", "spec.pod.annotations");
        }
        EtcdClusterSpec many = spec(3, null);
        Map<String, String> labels = new java.util.HashMap<>();
        for (int i = 0; i < 65; i++) {
            labels.put("l" + i, "v");
        }
        many.getPod().setLabels(labels);
        many.getPod().setAnnotations(Map.of("big", "x".repeat(256 * 1024)));
        assertThat(validator.validate(many).errors()).extracting(FieldError::path)
                .containsExactly("spec.pod.labels", "spec.pod.annotations");
    }

    @Test
    void podAnnotationsLeaveRoomForTheOperatorsOwn() {
        EtcdClusterSpec fits = spec(3, null);
        fits.getPod().setAnnotations(Map.of("a", "x".repeat(240 * 1024 - 1)));
        assertThat(validator.validate(fits).valid()).isTrue();
        // the API server's limit exactly: the pod, with the operator's annotations, would be refused
        EtcdClusterSpec full = spec(3, null);
        full.getPod().setAnnotations(Map.of("a", "x".repeat(256 * 1024 - 1)));
        assertThat(validator.validate(full).errors()).singleElement().satisfies(e -> {
            assertThat(e.path()).isEqualTo("spec.pod.annotations");
            assertThat(e.message()).contains("operator's own annotations");
        });
    }

    /** What the operator records on each pod (its TLS material, its placement rules) is not the user's to set. */
    @Test
    void theOperatorsPodAnnotationsAreReserved() {
        EtcdClusterSpec spec = spec(3, null);
        spec.getPod().setAnnotations(Map.of("etcd.database.coreos.com/tls-fingerprint", "x",
                "etcd.database.coreos.com/placement", "y", "example.com/etcd.database.coreos.com", "z",
                "etcd.database.coreos.com/team", "w"));
        assertThat(validator.validate(spec).errors()).extracting(FieldError::message)
                .containsExactly("annotation 'etcd.database.coreos.com/placement' is reserved for the operator: it"
                        + " records on each pod what the pod was made from",
                        "annotation 'etcd.database.coreos.com/tls-fingerprint' is reserved for the operator: it"
                                + " records on each pod what the pod was made from");
    }

    /** A restore's staged seed pod carries what it was started for: set from the spec, it would stop the staging. */
    @Test
    void theStagedSeedsAnnotationIsReserved() {
        EtcdClusterSpec spec = spec(3, null);
        spec.getPod().setAnnotations(Map.of("etcd.database.coreos.com/restore-staged-for", "x"));
        assertThat(validator.validate(spec).errors()).extracting(FieldError::message).containsExactly(
                "annotation 'etcd.database.coreos.com/restore-staged-for' is reserved for the operator: it records on"
                        + " each pod what the pod was made from");
    }

    @Test
    void aKeyPrefixIsAtMostADnsSubdomainLong() {
        EtcdClusterSpec ok = spec(3, null);
        ok.getPod().setLabels(Map.of("a".repeat(253) + "/x", "v"));
        assertThat(validator.validate(ok).valid()).isTrue();
        EtcdClusterSpec spec = spec(3, null);
        String key = "a".repeat(254) + "/x";
        spec.getPod().setLabels(Map.of(key, "v"));
        spec.getPod().setNodeSelector(Map.of(key, "v"));
        spec.getPod().setAnnotations(Map.of(key, "v"));
        assertThat(validator.validate(spec).errors()).extracting(FieldError::path)
                .containsExactly("spec.pod.labels", "spec.pod.nodeSelector", "spec.pod.annotations");
    }

    @ParameterizedTest
    @ValueSource(longs = { 86_401, Integer.MAX_VALUE, Long.MAX_VALUE / 10 + 1, Long.MAX_VALUE, -1, Long.MIN_VALUE })
    void theDnsTimeoutIsAtMostADay(long seconds) {
        EtcdClusterSpec spec = spec(3, null);
        spec.getPod().setDnsTimeoutInSecond(seconds);
        assertThat(validator.validate(spec).errors()).extracting(FieldError::path)
                .containsExactly("spec.pod.DNSTimeoutInSecond");
        spec.getPod().setDnsTimeoutInSecond(86_400L);
        assertThat(validator.validate(spec).valid()).isTrue();
    }

    @Test
    void secretNamesAreDnsLabels() {
        for (String hostile : List.of("../x", "x/y", "a b", "-x", "X", "x\n", "x".repeat(64))) {
            EtcdClusterSpec spec = spec(3, null);
            MemberSecret member = new MemberSecret();
            member.setPeerSecret(hostile);
            member.setServerSecret(hostile);
            StaticTls tls = new StaticTls();
            tls.setMember(member);
            tls.setOperatorSecret(hostile);
            spec.setTls(new TlsPolicy());
            spec.getTls().setStaticTls(tls);
            assertThat(validator.validate(spec).errors()).as("'%s'", hostile).extracting(FieldError::path)
                    .containsExactlyInAnyOrder("spec.TLS.static.operatorSecret", "spec.TLS.static.member.peerSecret",
                            "spec.TLS.static.member.serverSecret");
        }
    }

    @Test
    void theClusterNameMustLeaveRoomForMemberNamesAndBeALabel() {
        EtcdClusterSpec spec = spec(3, null);
        assertThat(validator.validate("example", spec, ClusterSpecValidator.PodInputs.NONE).valid()).isTrue();
        assertThat(validator.validate("a".repeat(52), spec, ClusterSpecValidator.PodInputs.NONE).valid()).isTrue();
        for (String hostile : List.of("a".repeat(53), "a.b", "1abc", "-a", "a-", "A", "a_b")) {
            assertThat(validator.validate(hostile, spec, ClusterSpecValidator.PodInputs.NONE).errors())
                    .as("'%s'", hostile).extracting(FieldError::path).containsExactly("metadata.name");
        }
    }

    @Test
    void etcdEnvCannotSetWhatTheOperatorSetsNorBeAStrangeName() {
        EtcdClusterSpec spec = spec(3, null);
        assertThat(validator.validate("example", spec, new ClusterSpecValidator.PodInputs(
                List.of("ETCD_QUOTA_BACKEND_BYTES", "GOMAXPROCS", "my.var-x", "ETCDCTL_API"), null)).valid())
                .isTrue();
        for (String hostile : List.of("ETCD_NAME", "ETCD_INITIAL_CLUSTER", "ETCD_DATA_DIR", "ETCD_LISTEN_CLIENT_URLS",
                "ETCD_INITIAL_CLUSTER_STATE", "ETCD_PEER_TRUSTED_CA_FILE", "ETCD_CONFIG_FILE", "ETCD_FORCE_NEW_CLUSTER",
                "ETCD_UNSAFE_NO_FSYNC", "ETCD_DISCOVERY", "ETCD_DISCOVERY_SRV", "1BAD", "A=B", "A B", "A;id", "A\nB", "")) {
            assertThat(validator.validate("example", spec, new ClusterSpecValidator.PodInputs(List.of(hostile), null))
                    .errors()).as("'%s'", hostile).extracting(FieldError::path)
                    .containsExactly("spec.pod.etcdEnv[0].name");
        }
    }

    /** Members whose clients use TLS are probed by etcdctl in their container, which reads etcdctl's variables. */
    @Test
    void etcdEnvCannotTurnTheTlsReadinessProbeAway() {
        EtcdClusterSpec plain = spec(3, null);
        EtcdClusterSpec tls = spec(3, null);
        MemberSecret member = new MemberSecret();
        member.setPeerSecret("peer");
        member.setServerSecret("server");
        StaticTls statics = new StaticTls();
        statics.setMember(member);
        statics.setOperatorSecret("operator");
        tls.setTls(new TlsPolicy());
        tls.getTls().setStaticTls(statics);
        // the API and discovery turn the probe away; the others shadow a flag the probe passes, and etcdctl exits
        for (List<String> env : List.of(List.of("ETCDCTL_API", "2"), List.of("ETCDCTL_DISCOVERY_SRV", "example.com"),
                List.of("ETCDCTL_DISCOVERY_SRV_NAME", "x"), List.of("ETCDCTL_ENDPOINTS", "https://x:2379"),
                List.of("ETCDCTL_CACERT", "/ca.crt"), List.of("ETCDCTL_CERT", "/c.crt"), List.of("ETCDCTL_KEY", "/k"),
                List.of("ETCDCTL_DIAL_TIMEOUT", "5s"), List.of("ETCDCTL_COMMAND_TIMEOUT", "9s"),
                List.of("ETCDCTL_USER", "root"))) {
            var inputs = new ClusterSpecValidator.PodInputs(List.of(env.get(0)), List.of(env.get(1)), null);
            assertThat(validator.validate("example", plain, inputs).valid()).as("%s without TLS", env).isTrue();
            assertThat(validator.validate("example", tls, inputs).errors()).as("%s", env)
                    .extracting(FieldError::path).containsExactly("spec.pod.etcdEnv[0].name");
        }
        assertThat(validator.validate("example", tls, new ClusterSpecValidator.PodInputs(List.of("ETCDCTL_API"),
                List.of("3"), null)).valid()).isTrue();
        // a user with a password: the probe authenticates
        assertThat(validator.validate("example", tls, new ClusterSpecValidator.PodInputs(List.of("ETCDCTL_USER"),
                List.of("root:secret"), null)).valid()).isTrue();
        assertThat(validator.validate("example", tls, new ClusterSpecValidator.PodInputs(
                List.of("ETCDCTL_USER", "ETCDCTL_PASSWORD"), java.util.Arrays.asList("root", null), null)).valid())
                .isTrue();
        assertThat(validator.validate("example", tls, new ClusterSpecValidator.PodInputs(List.of("ETCDCTL_API"),
                null, null)).valid()).as("from a source: not known here, not refused").isTrue();
    }

    @Test
    void theStorageClassIsADnsSubdomain() {
        EtcdClusterSpec spec = spec(3, null);
        assertThat(validator.validate("example", spec, new ClusterSpecValidator.PodInputs(List.of(), "gp3.encrypted"))
                .valid()).isTrue();
        for (String hostile : List.of("fast;id", "Fast", "../x", "a b", "-x", "x".repeat(254))) {
            assertThat(validator.validate("example", spec, new ClusterSpecValidator.PodInputs(List.of(), hostile))
                    .errors()).as("'%s'", hostile).extracting(FieldError::path)
                    .containsExactly("spec.pod.persistentVolumeClaimSpec.storageClassName");
        }
    }

    private static EtcdClusterSpec withEtcd(Long quota, String mode, String retention) {
        EtcdClusterSpec spec = spec(3, null);
        EtcdSettings etcd = new EtcdSettings();
        etcd.setQuotaBackendBytes(quota);
        etcd.setAutoCompactionMode(mode);
        etcd.setAutoCompactionRetention(retention);
        spec.setEtcd(etcd);
        return spec;
    }

    private static EtcdClusterSpec withDefragmentation(Long minBytes, Integer minPercent) {
        EtcdClusterSpec spec = withEtcd(null, null, null);
        Defragmentation d = new Defragmentation();
        d.setMinFragmentedBytes(minBytes);
        d.setMinFragmentedPercent(minPercent);
        spec.getEtcd().setDefragmentation(d);
        return spec;
    }

    @Test
    void theQuorumLossPolicyIsOneOfThreeAndItsGracePeriodIsBounded() {
        for (String policy : new String[] { null, "Manual", "FromSurvivor", "FromBackup" }) {
            assertThat(validator.validate(withQuorumLossRecovery(policy, null)).valid()).as(policy).isTrue();
        }
        assertThat(validator.validate(withQuorumLossRecovery(null, 10)).valid()).isTrue();
        assertThat(validator.validate(withQuorumLossRecovery(null, 86_400)).valid()).isTrue();
        assertThat(validator.validate(withQuorumLossRecovery("Always", null)).errors()).singleElement()
                .satisfies(e -> {
                    assertThat(e.path()).isEqualTo("spec.quorumLossRecovery.policy");
                    assertThat(e.message()).contains("'Always'", "\"Manual\", \"FromSurvivor\", \"FromBackup\"");
                });
        for (int bad : new int[] { 0, 9, 86_401 }) {
            assertThat(validator.validate(withQuorumLossRecovery(null, bad)).errors()).as("%d", bad).singleElement()
                    .satisfies(e -> {
                        assertThat(e.path()).isEqualTo("spec.quorumLossRecovery.gracePeriodSeconds");
                        assertThat(e.message()).contains("between 10 and 86400", "got " + bad);
                    });
        }
    }

    private static EtcdClusterSpec withQuorumLossRecovery(String policy, Integer grace) {
        EtcdClusterSpec spec = new EtcdClusterSpec();
        spec.setSize(3);
        QuorumLossRecovery r = new QuorumLossRecovery();
        r.setPolicy(policy);
        r.setGracePeriodSeconds(grace);
        spec.setQuorumLossRecovery(r);
        return spec;
    }

    @Test
    void theDefragmentationThresholdsAreCheckedForBounds() {
        assertThat(validator.validate(withDefragmentation(null, null)).valid()).as("defaults").isTrue();
        assertThat(validator.validate(withDefragmentation(1L << 20, 1)).valid()).isTrue();
        assertThat(validator.validate(withDefragmentation(8L << 30, 100)).valid()).isTrue();

        assertThat(validator.validate(withDefragmentation((1L << 20) - 1, null)).errors()).singleElement()
                .satisfies(e -> {
                    assertThat(e.path()).isEqualTo("spec.etcd.defragmentation.minFragmentedBytes");
                    assertThat(e.message()).contains("1048576 (1 MiB)", "8589934592 (8 GiB)", "got 1048575");
                });
        assertThat(validator.validate(withDefragmentation((8L << 30) + 1, null)).errors())
                .extracting(FieldError::path).containsExactly("spec.etcd.defragmentation.minFragmentedBytes");
        for (int bad : new int[] { 0, -5, 101 }) {
            assertThat(validator.validate(withDefragmentation(null, bad)).errors()).as("%d", bad).singleElement()
                    .satisfies(e -> {
                        assertThat(e.path()).isEqualTo("spec.etcd.defragmentation.minFragmentedPercent");
                        assertThat(e.message()).contains("between 1 and 100", "got " + bad);
                    });
        }
    }

    @Test
    void theDefragmentationScheduleIsACronScheduleThatFires() {
        for (String good : new String[] { "0 3 * * 0", "*/10 * * * *", "@daily", " 0 0 1 1 * " }) {
            EtcdClusterSpec spec = withDefragmentation(null, null);
            spec.getEtcd().getDefragmentation().setSchedule(good);
            assertThat(validator.validate(spec).valid()).as(good).isTrue();
        }
        Map<String, String> bad = Map.of("0 3 * *", "five fields", "0 0 30 2 *", "never fires", "61 * * * *",
                "is not a schedule", "@every 1h", "@daily", "", "empty", "0 3 * * *".repeat(12), "at most 100");
        bad.forEach((schedule, says) -> {
            EtcdClusterSpec spec = withDefragmentation(null, null);
            spec.getEtcd().getDefragmentation().setSchedule(schedule);
            assertThat(validator.validate(spec).errors()).as(schedule).singleElement().satisfies(e -> {
                assertThat(e.path()).isEqualTo("spec.etcd.defragmentation.schedule");
                assertThat(e.message()).contains(says);
            });
        });
    }

    @Test
    void theEtcdSettingsAreCheckedForBoundsAndFormat() {
        assertThat(validator.validate(withEtcd(null, null, null)).valid()).isTrue();
        assertThat(validator.validate(withEtcd(1L << 20, "periodic", "1h30m")).valid()).isTrue();
        assertThat(validator.validate(withEtcd(8L << 30, "revision", "10000")).valid()).isTrue();
        assertThat(validator.validate(withEtcd(2L << 30, null, "5")).valid()).isTrue();
        for (String good : List.of("0", "1h", "45m", "90s", "1h5m30s", "2m10s")) {
            assertThat(validator.validate(withEtcd(null, "periodic", good)).valid()).as(good).isTrue();
        }

        assertThat(validator.validate(withEtcd((1L << 20) - 1, null, null)).errors()).singleElement()
                .satisfies(e -> {
                    assertThat(e.path()).isEqualTo("spec.etcd.quotaBackendBytes");
                    assertThat(e.message()).contains("1048576 (1 MiB)", "8589934592 (8 GiB)", "1048575");
                });
        assertThat(validator.validate(withEtcd((8L << 30) + 1, null, null)).errors())
                .extracting(FieldError::path).containsExactly("spec.etcd.quotaBackendBytes");
        assertThat(validator.validate(withEtcd(null, "hourly", null)).errors()).singleElement()
                .satisfies(e -> assertThat(e.message()).contains("'hourly'", "\"periodic\", \"revision\""));
        for (String bad : List.of("", "1d", "-1", "1h;id", "--x", "1.5h", "30m1h", "1h\n", "1".repeat(40))) {
            assertThat(validator.validate(withEtcd(null, "periodic", bad)).errors()).as("'%s'", bad)
                    .extracting(FieldError::path).containsExactly("spec.etcd.autoCompactionRetention");
        }
        assertThat(validator.validate(withEtcd(null, "revision", "1h")).errors()).singleElement().satisfies(e -> {
            assertThat(e.path()).isEqualTo("spec.etcd");
            assertThat(e.message()).contains("a number of revisions when autoCompactionMode is revision", "'1h'");
        });
    }

    @Test
    void anEtcdSettingCannotAlsoBeSetThroughEtcdEnv() {
        ClusterSpecValidator.PodInputs env = new ClusterSpecValidator.PodInputs(
                List.of("GOMAXPROCS", "ETCD_QUOTA_BACKEND_BYTES", "ETCD_AUTO_COMPACTION_RETENTION"), null);
        assertThat(validator.validate("example", withEtcd(null, null, null), env).valid()).isTrue();
        Validation both = validator.validate("example", withEtcd(1L << 30, "periodic", null), env);
        assertThat(both.errors()).singleElement().satisfies(e -> {
            assertThat(e.path()).isEqualTo("spec.pod.etcdEnv[1].name");
            assertThat(e.message()).contains("ETCD_QUOTA_BACKEND_BYTES", "spec.etcd.quotaBackendBytes");
        });
    }
}
