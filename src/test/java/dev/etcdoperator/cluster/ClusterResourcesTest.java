package dev.etcdoperator.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

import dev.etcdoperator.api.v1beta2.EtcdCluster;
import dev.etcdoperator.api.v1beta2.EtcdClusterSpec;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodSecurityContext;
import io.fabric8.kubernetes.api.model.Probe;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.Test;

class ClusterResourcesTest {

    private static EtcdCluster cluster(String spec) {
        EtcdCluster c = Serialization.unmarshal("""
                apiVersion: etcd.database.coreos.com/v1beta2
                kind: EtcdCluster
                metadata: {name: example, namespace: prod, uid: 1234}
                spec:
                """ + spec.indent(2), EtcdCluster.class);
        return c;
    }

    private static ClusterResources.MemberPodSpec member(String state) {
        return new ClusterResources.MemberPodSpec("example-abc", "http://example-abc.example.prod.svc:2380",
                "http://example-abc.example.prod.svc:2379", "example-abc=http://example-abc.example.prod.svc:2380",
                state, "example-abc.example.prod.svc");
    }

    @Test
    void servicesAreNamedAndSelectAsTheOriginalDid() {
        EtcdCluster c = cluster("size: 3");
        Service client = ClusterResources.clientService(c);
        Service peer = ClusterResources.peerService(c);
        assertThat(client.getMetadata().getName()).isEqualTo("example-client");
        assertThat(client.getSpec().getPorts()).extracting(p -> p.getPort()).containsExactly(2379);
        assertThat(peer.getMetadata().getName()).isEqualTo("example");
        assertThat(peer.getSpec().getClusterIP()).isEqualTo("None");
        assertThat(peer.getSpec().getPublishNotReadyAddresses()).isTrue();
        assertThat(peer.getSpec().getPorts()).extracting(p -> p.getPort()).containsExactly(2379, 2380);
        for (Service s : new Service[] { client, peer }) {
            assertThat(s.getSpec().getSelector()).isEqualTo(Map.of("app", "etcd", "etcd_cluster", "example"));
            assertThat(s.getMetadata().getOwnerReferences()).singleElement()
                    .satisfies(o -> assertThat(o.getUid()).isEqualTo("1234"));
        }
    }

    @Test
    void aMemberPodCarriesItsIdentityLabelsAndDnsName() {
        Pod pod = ClusterResources.memberPod(cluster("""
                size: 3
                version: v3.5.17
                pod:
                  labels: {team: storage}
                  annotations: {a: b}
                  etcdEnv: [{name: ETCD_QUOTA_BACKEND_BYTES, value: "1"}]
                """), member("new"));
        assertThat(pod.getMetadata().getLabels()).containsEntry("app", "etcd").containsEntry("etcd_cluster", "example")
                .containsEntry("etcd_node", "example-abc").containsEntry("team", "storage");
        assertThat(pod.getMetadata().getAnnotations()).containsEntry("a", "b");
        assertThat(pod.getSpec().getHostname()).isEqualTo("example-abc");
        assertThat(pod.getSpec().getSubdomain()).isEqualTo("example");
        assertThat(pod.getSpec().getContainers().get(0).getImage()).isEqualTo("quay.io/coreos/etcd:v3.5.17");
        assertThat(pod.getSpec().getContainers().get(0).getCommand()).contains("--initial-cluster-state=new",
                "--name=example-abc", "--initial-cluster-token=1234",
                "--initial-advertise-peer-urls=http://example-abc.example.prod.svc:2380");
        assertThat(pod.getSpec().getContainers().get(0).getEnv()).extracting(e -> e.getName())
                .containsExactly("ETCD_QUOTA_BACKEND_BYTES");
        assertThat(pod.getSpec().getInitContainers().get(0).getCommand())
                .containsExactly("/bin/sh", "-c", ClusterResources.DNS_WAIT_SCRIPT, "check-dns",
                        "example-abc.example.prod.svc", "0", "0");
        assertThat(pod.getSpec().getVolumes().get(0).getEmptyDir()).isNotNull();
        assertThat(ClusterResources.podVersion(pod)).isEqualTo("3.5.17");
        // an etcd that fails is started again in its pod, on its data, by the kubelet
        assertThat(pod.getSpec().getRestartPolicy()).isEqualTo("Always");
    }

    @Test
    void aPersistentMemberMountsItsOwnClaimAndAJoiningMemberHasNoToken() {
        EtcdCluster c = cluster("""
                size: 3
                pod:
                  persistentVolumeClaimSpec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}
                  antiAffinity: true
                  DNSTimeoutInSecond: 30
                """);
        Pod pod = ClusterResources.memberPod(c, member("existing"));
        assertThat(pod.getSpec().getVolumes().get(0).getPersistentVolumeClaim().getClaimName())
                .isEqualTo("example-abc");
        assertThat(pod.getSpec().getContainers().get(0).getCommand()).contains("--initial-cluster-state=existing")
                .noneMatch(a -> a.startsWith("--initial-cluster-token"));
        assertThat(pod.getSpec().getAffinity().getPodAntiAffinity()
                .getRequiredDuringSchedulingIgnoredDuringExecution().get(0).getTopologyKey())
                .isEqualTo("kubernetes.io/hostname");
        assertThat(pod.getSpec().getInitContainers().get(0).getCommand()).endsWith("300", "30");
        assertThat(ClusterResources.memberClaim(c, "example-abc").getSpec().getResources().getRequests())
                .containsKey("storage");
        assertThat(ClusterResources.memberClaim(c, "example-abc").getMetadata().getOwnerReferences()).hasSize(1);
        c.getSpec().getPod().setPersistentVolumeClaimRetention("Retain");
        assertThat(ClusterResources.memberClaim(c, "example-abc").getMetadata().getOwnerReferences()).isNullOrEmpty();
        assertThat(ClusterResources.disruptionBudget(c, 3).getSpec().getMinAvailable().getIntVal()).isEqualTo(2);
        assertThat(ClusterResources.disruptionBudget(c, 5).getSpec().getMinAvailable().getIntVal()).isEqualTo(3);
    }

    @Test
    void theDisruptionBudgetKeepsAMajorityOfTheMembersWhenThereAreMoreThanTheSize() {
        EtcdCluster c = new EtcdCluster();
        c.setMetadata(new io.fabric8.kubernetes.api.model.ObjectMetaBuilder().withName("example").withNamespace("prod")
                .build());
        c.setSpec(new dev.etcdoperator.api.v1beta2.EtcdClusterSpec());
        c.getSpec().setSize(1);
        assertThat(EtcdClusterReconciler.budgetSize(c)).isEqualTo(1);
        // one member added to replace a seed whose pod runs once: two voters, both needed
        c.setStatus(new dev.etcdoperator.api.v1beta2.EtcdClusterStatus());
        c.getStatus().setSize(2);
        assertThat(EtcdClusterReconciler.budgetSize(c)).isEqualTo(2);
        assertThat(ClusterResources.disruptionBudget(c, EtcdClusterReconciler.budgetSize(c)).getSpec()
                .getMinAvailable().getIntVal()).isEqualTo(2);
        // growing: the size it grows to
        c.getSpec().setSize(5);
        assertThat(EtcdClusterReconciler.budgetSize(c)).isEqualTo(5);
    }

    private static final String TLS_SPEC = """
            size: 3
            TLS:
              static:
                member: {peerSecret: etcd-peer-tls, serverSecret: etcd-server-tls}
                operatorSecret: etcd-client-tls
            """;

    private static ClusterResources.MemberPodSpec tlsMember() {
        return new ClusterResources.MemberPodSpec("example-abc", "https://example-abc.example.prod.svc:2380",
                "https://example-abc.example.prod.svc:2379", "example-abc=https://example-abc.example.prod.svc:2380",
                "new", "example-abc.example.prod.svc");
    }

    @Test
    void aTlsMemberMountsThePeerAndServerSecretsAndListensOnHttps() {
        Pod pod = ClusterResources.memberPod(cluster(TLS_SPEC), tlsMember());
        Container etcd = pod.getSpec().getContainers().get(0);
        assertThat(etcd.getCommand()).contains(
                "--listen-peer-urls=https://0.0.0.0:2380",
                "--listen-client-urls=https://0.0.0.0:2379",
                "--initial-advertise-peer-urls=https://example-abc.example.prod.svc:2380",
                "--advertise-client-urls=https://example-abc.example.prod.svc:2379",
                "--peer-client-cert-auth=true",
                "--peer-cert-file=/etc/etcdtls/member/peer-tls/peer.crt",
                "--peer-key-file=/etc/etcdtls/member/peer-tls/peer.key",
                "--peer-trusted-ca-file=/etc/etcdtls/member/peer-tls/peer-ca.crt",
                "--client-cert-auth=true",
                "--cert-file=/etc/etcdtls/member/server-tls/server.crt",
                "--key-file=/etc/etcdtls/member/server-tls/server.key",
                "--trusted-ca-file=/etc/etcdtls/member/server-tls/server-ca.crt");
        Map<String, String> mounts = etcd.getVolumeMounts().stream()
                .collect(Collectors.toMap(VolumeMount::getMountPath, VolumeMount::getName));
        assertThat(mounts).containsKeys("/var/etcd", "/etc/etcdtls/member/peer-tls",
                "/etc/etcdtls/member/server-tls", "/etc/etcdtls/operator/etcd-tls");
        Map<String, String> secretByVolume = pod.getSpec().getVolumes().stream().filter(v -> v.getSecret() != null)
                .collect(Collectors.toMap(Volume::getName, v -> v.getSecret().getSecretName()));
        assertThat(secretByVolume.get(mounts.get("/etc/etcdtls/member/peer-tls"))).isEqualTo("etcd-peer-tls");
        assertThat(secretByVolume.get(mounts.get("/etc/etcdtls/member/server-tls"))).isEqualTo("etcd-server-tls");
        assertThat(secretByVolume.get(mounts.get("/etc/etcdtls/operator/etcd-tls"))).isEqualTo("etcd-client-tls");
        assertThat(etcd.getVolumeMounts()).filteredOn(m -> m.getMountPath().startsWith("/etc/etcdtls"))
                .allSatisfy(m -> assertThat(m.getReadOnly()).isTrue());
    }

    @Test
    void aTlsMemberIsProbedWithEtcdctlOverHttpsByItsDnsName() {
        Probe probe = ClusterResources.memberPod(cluster(TLS_SPEC), tlsMember()).getSpec().getContainers().get(0)
                .getReadinessProbe();
        assertThat(probe.getHttpGet()).isNull();
        assertThat(probe.getExec().getCommand()).startsWith("/usr/local/bin/etcdctl")
                .contains("--endpoints=https://example-abc.example.prod.svc:2379",
                        "--cacert=/etc/etcdtls/operator/etcd-tls/etcd-client-ca.crt",
                        "--cert=/etc/etcdtls/operator/etcd-tls/etcd-client.crt",
                        "--key=/etc/etcdtls/operator/etcd-tls/etcd-client.key")
                .endsWith("endpoint", "health");
    }

    @Test
    void aMemberOfEtcd353OrLaterIsRestartedInPlaceWhenItsOwnHealthStopsAnswering() {
        for (String spec : List.of("size: 3", TLS_SPEC)) {
            Container etcd = ClusterResources.memberPod(cluster(spec), member("new"), "3.5.3").getSpec().getContainers()
                    .get(0);
            for (Probe probe : List.of(etcd.getLivenessProbe(), etcd.getStartupProbe())) {
                assertThat(probe.getHttpGet().getPath())
                        .isEqualTo("/health?serializable=true&exclude=NOSPACE&exclude=CORRUPT");
                assertThat(probe.getHttpGet().getScheme()).isEqualTo("HTTP");
                assertThat(probe.getHttpGet().getPort().getIntVal()).isEqualTo(ClusterResources.METRICS_PORT);
                assertThat(probe.getInitialDelaySeconds()).isNull();
            }
            assertThat(etcd.getLivenessProbe().getPeriodSeconds() * etcd.getLivenessProbe().getFailureThreshold())
                    .as("a defragmentation of 2 GiB").isEqualTo(80);
            assertThat(etcd.getStartupProbe().getPeriodSeconds()).as("readiness waits for it").isEqualTo(1);
            assertThat(etcd.getStartupProbe().getPeriodSeconds() * etcd.getStartupProbe().getFailureThreshold())
                    .as("a long start").isEqualTo(3600);
        }
        assertThat(ClusterResources.memberPod(cluster("size: 3"), member("existing"), "3.6.16").getSpec()
                .getContainers().get(0).getLivenessProbe()).isNotNull();
    }

    @Test
    void theLivenessProbeWaitsOutADefragmentationOfAsLargeADatabaseAsTheQuotaAllows() {
        Probe flag = ClusterResources.memberPod(cluster("size: 3\netcd: {quotaBackendBytes: 8589934592}"),
                member("new"), "3.6.16").getSpec().getContainers().get(0).getLivenessProbe();
        assertThat(flag.getPeriodSeconds() * flag.getFailureThreshold()).isEqualTo(80 + 6 * 30);
        Probe env = ClusterResources.memberPod(cluster("""
                size: 3
                pod: {etcdEnv: [{name: ETCD_QUOTA_BACKEND_BYTES, value: "4294967296"}]}
                """), member("new"), "3.6.16").getSpec().getContainers().get(0).getLivenessProbe();
        assertThat(env.getPeriodSeconds() * env.getFailureThreshold()).isEqualTo(80 + 2 * 30);
    }

    @Test
    void noLivenessProbeWhereARestartCouldDoHarmOrTheProbeCouldNotAnswer() {
        // before 3.5.3 /health needs a leader: a quorum loss would restart every member
        assertThat(ClusterResources.memberPod(cluster("size: 3"), member("new"), "3.5.2").getSpec().getContainers()
                .get(0).getLivenessProbe()).isNull();
        assertThat(ClusterResources.memberPod(cluster("size: 3"), member("new"), "3.4.23").getSpec().getContainers()
                .get(0).getLivenessProbe()).isNull();
        // the metrics listener is the user's
        assertThat(ClusterResources.memberPod(cluster("""
                size: 3
                pod: {etcdEnv: [{name: ETCD_LISTEN_METRICS_URLS, value: "http://127.0.0.1:9999"}]}
                """), member("new"), "3.6.16").getSpec().getContainers().get(0).getLivenessProbe()).isNull();
        // a pod that runs once would end, with its data
        Pod seed = ClusterResources.memberPod(cluster("size: 1"), member("new"), "3.6.16",
                java.util.Optional.of("r1-snapshot"));
        assertThat(seed.getSpec().getRestartPolicy()).isEqualTo("Never");
        assertThat(seed.getSpec().getContainers().get(0).getLivenessProbe()).isNull();
        assertThat(seed.getSpec().getContainers().get(0).getStartupProbe()).isNull();
    }

    /** Both given, both kept: the user's affinity, and the anti-affinity of members on one node. */
    @Test
    void antiAffinityIsAddedToTheGivenAffinity() {
        EtcdCluster c = cluster("""
                size: 3
                pod:
                  antiAffinity: true
                  affinity:
                    nodeAffinity:
                      requiredDuringSchedulingIgnoredDuringExecution:
                        nodeSelectorTerms: [{matchExpressions: [{key: zone, operator: In, values: [a]}]}]
                    podAntiAffinity:
                      preferredDuringSchedulingIgnoredDuringExecution:
                      - weight: 10
                        podAffinityTerm: {topologyKey: zone, labelSelector: {matchLabels: {app: web}}}
                """);
        var affinity = ClusterResources.memberPod(c, member("new")).getSpec().getAffinity();
        assertThat(affinity.getNodeAffinity().getRequiredDuringSchedulingIgnoredDuringExecution()
                .getNodeSelectorTerms()).hasSize(1);
        assertThat(affinity.getPodAntiAffinity().getPreferredDuringSchedulingIgnoredDuringExecution()).hasSize(1);
        assertThat(affinity.getPodAntiAffinity().getRequiredDuringSchedulingIgnoredDuringExecution()).singleElement()
                .satisfies(t -> {
                    assertThat(t.getTopologyKey()).isEqualTo("kubernetes.io/hostname");
                    assertThat(t.getLabelSelector().getMatchLabels()).containsEntry("etcd_cluster", "example");
                });
        assertThat(c.getSpec().getPod().getAffinity().getPodAntiAffinity()
                .getRequiredDuringSchedulingIgnoredDuringExecution()).as("the spec is left as it was").isNullOrEmpty();
        c.getSpec().getPod().setAntiAffinity(false);
        assertThat(ClusterResources.memberPod(c, member("new")).getSpec().getAffinity())
                .isEqualTo(c.getSpec().getPod().getAffinity());
    }

    @Test
    void aMemberPodSaysWhichPlacementRulesItWasMadeFrom() {
        String plain = ClusterResources.placement(cluster("size: 3").getSpec());
        assertThat(ClusterResources.memberPod(cluster("size: 3"), member("new")).getMetadata().getAnnotations())
                .containsEntry(ClusterResources.PLACEMENT_ANNOTATION, plain);
        for (String changed : List.of("pod: {nodeSelector: {disk: ssd}}", "pod: {antiAffinity: true}",
                "pod: {tolerations: [{key: dedicated, operator: Exists}]}",
                "pod: {resources: {requests: {memory: 1Gi}}}")) {
            assertThat(ClusterResources.placement(cluster("size: 3\n" + changed).getSpec())).as(changed)
                    .isNotEqualTo(plain);
        }
        for (String same : List.of("pod: {labels: {team: a}}", "pod: {annotations: {a: b}}", "size: 5",
                "pod: {persistentVolumeClaimSpec: {resources: {requests: {storage: 1Gi}}}}",
                "pod: {nodeSelector: {}, tolerations: [], antiAffinity: false}")) {
            assertThat(ClusterResources.placement(cluster("version: 3.6.16\n" + same).getSpec())).as(same)
                    .isEqualTo(plain);
        }
        String affinity = "pod: {affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution:"
                + " {nodeSelectorTerms: [{matchExpressions: [{key: disk, operator: In, values: [ssd]}]}]}}}}";
        assertThat(ClusterResources.placement(cluster("size: 3\n" + affinity.replace("pod: {", "pod: {antiAffinity:"
                + " true, ")).getSpec())).as("antiAffinity is used beside affinity")
                .isNotEqualTo(ClusterResources.placement(cluster("size: 3\n" + affinity).getSpec()));
        assertThat(ClusterResources.placement(cluster("size: 3\npod: {nodeSelector: {a: '1', b: '2'}}").getSpec()))
                .as("the same rules in another order").isEqualTo(ClusterResources.placement(
                        cluster("size: 3\npod: {nodeSelector: {b: '2', a: '1'}}").getSpec()));
    }

    @Test
    void peerTlsAloneLeavesTheClientSideOnPlainHttp() {
        Pod pod = ClusterResources.memberPod(cluster("""
                size: 3
                TLS: {static: {member: {peerSecret: etcd-peer-tls}}}
                """), member("new"));
        Container etcd = pod.getSpec().getContainers().get(0);
        assertThat(etcd.getCommand()).contains("--listen-peer-urls=https://0.0.0.0:2380",
                "--listen-client-urls=http://0.0.0.0:2379", "--peer-client-cert-auth=true")
                .noneMatch(a -> a.startsWith("--client-cert-auth") || a.startsWith("--cert-file"));
        assertThat(etcd.getVolumeMounts()).extracting(VolumeMount::getMountPath)
                .containsExactly("/var/etcd", "/etc/etcdtls/member/peer-tls");
        assertThat(etcd.getReadinessProbe().getHttpGet().getPath()).isEqualTo("/health");
    }

    @Test
    void aPlainMemberHasNoTlsFlagsNorSecretVolumes() {
        Pod pod = ClusterResources.memberPod(cluster("size: 3"), member("new"));
        assertThat(pod.getSpec().getContainers().get(0).getCommand()).contains("--listen-peer-urls=http://0.0.0.0:2380",
                "--listen-client-urls=http://0.0.0.0:2379").noneMatch(a -> a.contains("etcdtls"));
        assertThat(pod.getSpec().getVolumes()).noneMatch(v -> v.getSecret() != null);
    }

    @Test
    void tlsSecretsAreCheckedForEveryKeyAndNamedInTheProblem() {
        EtcdClusterSpec spec = cluster(TLS_SPEC).getSpec();
        Map<String, Secret> secrets = new HashMap<>();
        secrets.put("etcd-peer-tls", secret("peer.crt", "peer.key", "peer-ca.crt"));
        secrets.put("etcd-server-tls", secret("server.crt", "server-ca.crt"));
        ClusterTls.Loaded loaded = ClusterTls.load(spec, "prod", secrets::get);
        assertThat(loaded.ok()).isFalse();
        assertThat(loaded.problem()).contains("Secret prod/etcd-server-tls", "has no key server.key")
                .contains("Secret prod/etcd-client-tls", "does not exist").doesNotContain("etcd-peer-tls");

        secrets.put("etcd-server-tls", secret("server.crt", "server.key", "server-ca.crt"));
        secrets.put("etcd-client-tls", secret("etcd-client.crt", "etcd-client.key", "etcd-client-ca.crt"));
        loaded = ClusterTls.load(spec, "prod", secrets::get);
        assertThat(loaded.ok()).isTrue();
        assertThat(new String(loaded.clientTls().caCert())).isEqualTo("etcd-client-ca.crt-value");
        assertThat(new String(loaded.clientTls().clientKey())).isEqualTo("etcd-client.key-value");
    }

    @Test
    void secretsInCertManagersLayoutAreAcceptedAndTheirKeysMountedAsTheyAre() {
        EtcdClusterSpec spec = cluster(TLS_SPEC).getSpec();
        Map<String, Secret> secrets = new HashMap<>();
        secrets.put("etcd-peer-tls", secret("tls.crt", "tls.key", "ca.crt"));
        secrets.put("etcd-server-tls", secret("server.crt", "server.key", "server-ca.crt"));
        secrets.put("etcd-client-tls", secret("tls.crt", "tls.key", "ca.crt"));
        ClusterTls.Loaded loaded = ClusterTls.load(spec, "prod", secrets::get);
        assertThat(loaded.ok()).as(loaded.problem()).isTrue();
        assertThat(new MemberTlsKeys(loaded.keys().peer(), loaded.keys().server(), loaded.keys().operator()))
                .isEqualTo(new MemberTlsKeys(TlsSecretKeys.KUBERNETES_TLS, TlsSecretKeys.SERVER,
                        TlsSecretKeys.KUBERNETES_TLS));
        assertThat(new String(loaded.clientTls().caCert())).isEqualTo("ca.crt-value");
        assertThat(new String(loaded.clientTls().clientCert())).isEqualTo("tls.crt-value");
        assertThat(new String(loaded.clientTls().clientKey())).isEqualTo("tls.key-value");

        Container etcd = ClusterResources.memberPod(cluster(TLS_SPEC), tlsMember(), "3.5.35", Optional.empty(),
                loaded.keys()).getSpec().getContainers().get(0);
        assertThat(etcd.getCommand()).contains(
                "--peer-cert-file=/etc/etcdtls/member/peer-tls/tls.crt",
                "--peer-key-file=/etc/etcdtls/member/peer-tls/tls.key",
                "--peer-trusted-ca-file=/etc/etcdtls/member/peer-tls/ca.crt",
                "--cert-file=/etc/etcdtls/member/server-tls/server.crt",
                "--trusted-ca-file=/etc/etcdtls/member/server-tls/server-ca.crt");
        assertThat(etcd.getReadinessProbe().getExec().getCommand()).contains(
                "--cacert=/etc/etcdtls/operator/etcd-tls/ca.crt",
                "--cert=/etc/etcdtls/operator/etcd-tls/tls.crt",
                "--key=/etc/etcdtls/operator/etcd-tls/tls.key");
    }

    @Test
    void theFingerprintFollowsTheMaterialMembersUseAndIsRecordedOnTheirPods() {
        EtcdClusterSpec spec = cluster(TLS_SPEC).getSpec();
        Map<String, Secret> secrets = new HashMap<>();
        secrets.put("etcd-peer-tls", secret("peer.crt", "peer.key", "peer-ca.crt"));
        secrets.put("etcd-server-tls", secret("server.crt", "server.key", "server-ca.crt"));
        secrets.put("etcd-client-tls", secret("etcd-client.crt", "etcd-client.key", "etcd-client-ca.crt"));
        String first = ClusterTls.load(spec, "prod", secrets::get).keys().fingerprint();
        assertThat(first).hasSize(64);

        // the same material written again, with a key members do not use and a label: nothing to restart for
        Secret again = secret("peer.crt", "peer.key", "peer-ca.crt", "unused");
        again.getMetadata().setLabels(Map.of("written", "again"));
        again.getMetadata().setResourceVersion("42");
        secrets.put("etcd-peer-tls", again);
        assertThat(ClusterTls.load(spec, "prod", secrets::get).keys().fingerprint()).isEqualTo(first);

        // a new CA bundle, a new certificate or a new operator key each change it
        for (String[] change : new String[][] { { "etcd-peer-tls", "peer-ca.crt" },
                { "etcd-server-tls", "server.crt" }, { "etcd-client-tls", "etcd-client.key" } }) {
            Map<String, Secret> changed = new HashMap<>(secrets);
            Secret s = new SecretBuilder(secrets.get(change[0])).build();
            Map<String, String> data = new HashMap<>(s.getData());
            data.put(change[1], Base64.getEncoder().encodeToString("renewed".getBytes()));
            s.setData(data);
            changed.put(change[0], s);
            assertThat(ClusterTls.load(spec, "prod", changed::get).keys().fingerprint()).as(change[1])
                    .isNotEqualTo(first);
        }

        Pod pod = ClusterResources.memberPod(cluster(TLS_SPEC), tlsMember(), "3.5.35", Optional.empty(),
                ClusterTls.load(spec, "prod", secrets::get).keys());
        assertThat(pod.getMetadata().getAnnotations()).containsEntry(ClusterResources.TLS_FINGERPRINT_ANNOTATION,
                first);
        assertThat(ClusterObserver.memberPod(pod, first).staleTls()).isFalse();
        assertThat(ClusterObserver.memberPod(pod, "another").staleTls()).isTrue();
        assertThat(ClusterObserver.memberPod(pod, null).staleTls()).as("no TLS").isFalse();
        Pod unannotated = ClusterResources.memberPod(cluster(TLS_SPEC), tlsMember());
        assertThat(unannotated.getMetadata().getAnnotations()).doesNotContainKey(
                ClusterResources.TLS_FINGERPRINT_ANNOTATION);
        assertThat(ClusterObserver.memberPod(unannotated, first).staleTls())
                .as("a pod that does not say what it was started on").isTrue();
    }

    /** A pod made again in place whose data check failed, now or on an earlier try: its member's data is gone. */
    @Test
    void aPodWhoseDataCheckFailedIsSeenWithoutItsData() {
        for (boolean earlier : List.of(false, true)) {
            var terminated = new io.fabric8.kubernetes.api.model.ContainerStateBuilder().withNewTerminated()
                    .withExitCode(ClusterResources.CHECK_DATA_MISSING).endTerminated().build();
            var waiting = new io.fabric8.kubernetes.api.model.ContainerStateBuilder().withNewWaiting()
                    .withReason("CrashLoopBackOff").endWaiting().build();
            Pod pod = new io.fabric8.kubernetes.api.model.PodBuilder().withNewMetadata().withName("alpha-a")
                    .endMetadata().withNewSpec().endSpec().withNewStatus().withPhase("Pending")
                    .addNewInitContainerStatus().withName(ClusterResources.CHECK_DATA)
                    .withState(earlier ? waiting : terminated).withLastState(earlier ? terminated : null)
                    .endInitContainerStatus().endStatus().build();
            assertThat(ClusterObserver.memberPod(pod).dataMissing()).as("earlier %s", earlier).isTrue();
        }
        Pod other = new io.fabric8.kubernetes.api.model.PodBuilder().withNewMetadata().withName("alpha-a")
                .endMetadata().withNewSpec().endSpec().withNewStatus().withPhase("Pending")
                .addNewInitContainerStatus().withName(ClusterResources.DNS_WAIT_CONTAINER).withNewState()
                .withNewTerminated().withExitCode(ClusterResources.CHECK_DATA_MISSING).endTerminated().endState()
                .endInitContainerStatus().endStatus().build();
        assertThat(ClusterObserver.memberPod(other).dataMissing()).as("another init container").isFalse();
    }

    @Test
    void withoutAServerSecretTheOperatorsSecretIsNotMountedAndDoesNotCount() {
        EtcdClusterSpec spec = cluster("""
                size: 3
                TLS: {static: {member: {peerSecret: p}, operatorSecret: o}}
                """).getSpec();
        Map<String, Secret> secrets = new HashMap<>();
        secrets.put("p", secret("peer.crt", "peer.key", "peer-ca.crt"));
        secrets.put("o", secret("etcd-client.crt", "etcd-client.key", "etcd-client-ca.crt"));
        String first = ClusterTls.load(spec, "prod", secrets::get).keys().fingerprint();
        secrets.put("o", secret("etcd-client.crt", "etcd-client.key", "etcd-client-ca.crt", "x"));
        secrets.get("o").getData().put("etcd-client.key", Base64.getEncoder().encodeToString("renewed".getBytes()));
        assertThat(ClusterTls.load(spec, "prod", secrets::get).keys().fingerprint()).isEqualTo(first);
        secrets.get("p").getData().put("peer.key", Base64.getEncoder().encodeToString("renewed".getBytes()));
        assertThat(ClusterTls.load(spec, "prod", secrets::get).keys().fingerprint()).isNotEqualTo(first);
    }

    @Test
    void theCoreOsNamesWinWhenASecretHoldsBothLayouts() {
        Secret both = secret("peer.crt", "peer.key", "peer-ca.crt", "tls.crt", "tls.key", "ca.crt");
        assertThat(TlsSecretKeys.of(both, TlsSecretKeys.PEER)).contains(TlsSecretKeys.PEER);
        assertThat(TlsSecretKeys.of(secret("tls.crt", "tls.key", "ca.crt"), TlsSecretKeys.PEER))
                .contains(TlsSecretKeys.KUBERNETES_TLS);
    }

    @Test
    void aSecretWithNeitherLayoutWholeNamesWhatTheCloserLayoutLacks() {
        EtcdClusterSpec spec = cluster("""
                size: 1
                TLS: {static: {member: {peerSecret: p}}}
                """).getSpec();
        // cert-manager leaves ca.crt out for issuers that do not know the CA
        ClusterTls.Loaded loaded = ClusterTls.load(spec, "prod", n -> secret("tls.crt", "tls.key"));
        assertThat(loaded.ok()).isFalse();
        assertThat(loaded.problem()).contains("Secret prod/p", "has no key ca.crt;",
                "peer.crt, peer.key, peer-ca.crt (or tls.crt, tls.key, ca.crt");
        loaded = ClusterTls.load(spec, "prod", n -> secret("peer.crt", "peer-ca.crt", "tls.key"));
        assertThat(loaded.problem()).contains("has no key peer.key;");
    }

    @Test
    void aServerSecretWithoutAnOperatorSecretIsAProblem() {
        EtcdClusterSpec spec = cluster("""
                size: 1
                TLS: {static: {member: {serverSecret: s}}}
                """).getSpec();
        ClusterTls.Loaded loaded = ClusterTls.load(spec, "prod",
                n -> secret("server.crt", "server.key", "server-ca.crt"));
        assertThat(loaded.ok()).isFalse();
        assertThat(loaded.problem()).contains("spec.TLS.static.operatorSecret");
    }

    private static Secret secret(String... keys) {
        Map<String, String> data = new HashMap<>();
        for (String k : keys) {
            data.put(k, Base64.getEncoder().encodeToString((k + "-value").getBytes()));
        }
        return new SecretBuilder().withNewMetadata().endMetadata().withData(data).build();
    }

    /** Values that would run a command, end the script or inject a flag if they were pasted into the script. */
    private static final java.util.List<String> HOSTILE = java.util.List.of("x; touch /tmp/pwned", "$(id)", "`id`",
            "x\nid", "x' ; id ; '", "x\" ; id ; \"", "-x", "--help", "x && id", "x | id", "x > /etc/passwd");

    @Test
    void theDnsCheckScriptIsAConstantAndTheNameOnlyAnArgument() {
        for (String hostile : HOSTILE) {
            ClusterResources.MemberPodSpec member = new ClusterResources.MemberPodSpec("example-abc",
                    "http://example-abc.example.prod.svc" + hostile + ":2380", "http://x:2379", "example-abc=x", "new",
                    "example-abc.example.prod.svc" + hostile);
            for (String timeout : new String[] { "", "DNSTimeoutInSecond: 30" }) {
                Pod pod = ClusterResources.memberPod(cluster("size: 1\npod: {" + timeout + "}"), member);
                java.util.List<String> command = pod.getSpec().getInitContainers().get(0).getCommand();
                assertThat(command.subList(0, 4)).as(hostile)
                        .containsExactly("/bin/sh", "-c", ClusterResources.DNS_WAIT_SCRIPT, "check-dns");
                assertThat(command.get(4)).isEqualTo("example-abc.example.prod.svc" + hostile);
                assertThat(ClusterResources.DNS_WAIT_SCRIPT).doesNotContain("example");
            }
        }
        assertThat(ClusterResources.DNS_WAIT_SCRIPT).contains("\"$1\"").doesNotContain(" $1 >");
    }

    @Test
    void aFirstMemberStartedWithOthersWaitsForAMajorityOfTheirNames() {
        String initialCluster = "example-abc=http://example-abc.example.prod.svc:2380,"
                + "example-def=http://example-def.example.prod.svc:2380,example-ghi=http://example-ghi.example.prod.svc:2380";
        ClusterResources.MemberPodSpec first = new ClusterResources.MemberPodSpec("example-abc",
                "http://example-abc.example.prod.svc:2380", "http://example-abc.example.prod.svc:2379", initialCluster,
                "new", "example-abc.example.prod.svc");
        Pod pod = ClusterResources.memberPod(cluster("size: 3\npod: {DNSTimeoutInSecond: 30}"), first);
        assertThat(pod.getSpec().getInitContainers().get(0).getCommand()).containsExactly("/bin/sh", "-c",
                ClusterResources.DNS_WAIT_SCRIPT, "check-dns", "example-abc.example.prod.svc", "300", "30", "2",
                "example-def.example.prod.svc", "example-ghi.example.prod.svc");
        assertThat(pod.getSpec().getContainers().get(0).getCommand()).contains("--initial-cluster=" + initialCluster,
                "--initial-cluster-state=new");

        // a member joining with the same list, or a seed, waits for its own name only
        ClusterResources.MemberPodSpec joining = new ClusterResources.MemberPodSpec("example-abc",
                "http://example-abc.example.prod.svc:2380", "http://example-abc.example.prod.svc:2379", initialCluster,
                "existing", "example-abc.example.prod.svc");
        assertThat(ClusterResources.memberPod(cluster("size: 3"), joining).getSpec().getInitContainers().get(0)
                .getCommand()).endsWith("example-abc.example.prod.svc", "0", "0");
        assertThat(ClusterResources.memberPod(cluster("size: 1"), member("new")).getSpec().getInitContainers().get(0)
                .getCommand()).endsWith("example-abc.example.prod.svc", "0", "0");
    }

    /** The script itself, run by the machine's shell, on names that resolve here and one that cannot. */
    @Test
    void theDnsCheckPassesOnceItsOwnNameAndEnoughOthersResolve() throws Exception {
        assertThat(runDnsCheck(ClusterResources.dnsWaitCommand("localhost", 1))).startsWith("0:");
        assertThat(runDnsCheck(ClusterResources.dnsWaitCommand("no-such-name.invalid", 1)))
                .startsWith("1:").contains("DNS name no-such-name.invalid did not resolve in 1 s");
        assertThat(runDnsCheck(ClusterResources.dnsWaitCommand("localhost",
                List.of("no-such-name.invalid", "127.0.0.1"), 1))).as("2 of 3").startsWith("0:");
        assertThat(runDnsCheck(ClusterResources.dnsWaitCommand("localhost",
                List.of("no-such-name.invalid", "other-no-such-name.invalid"), 1))).as("1 of 3").startsWith("1:")
                .contains("fewer than 2 of the first members' DNS names");
        assertThat(runDnsCheck(ClusterResources.dnsWaitCommand("no-such-name.invalid",
                List.of("localhost", "127.0.0.1"), 1))).as("not without its own").startsWith("1:");
    }

    private static String runDnsCheck(List<String> command) throws Exception {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        return p.waitFor() + ":" + out;
    }

    @Test
    void aHugeDnsTimeoutDoesNotOverflowIntoAnImmediateFailure() {
        for (long seconds : new long[] { 86_400, Integer.MAX_VALUE, Long.MAX_VALUE / 10 + 1, Long.MAX_VALUE }) {
            java.util.List<String> command = ClusterResources.dnsWaitCommand("x.example.prod.svc", seconds);
            assertThat(Long.parseLong(command.get(5))).as("%d s", seconds).isGreaterThanOrEqualTo(seconds);
        }
        assertThat(ClusterResources.dnsWaitCommand("x", -5)).endsWith("0", "0");
    }

    @Test
    void everyFlagTheOperatorSetsIsAnEnvironmentVariableEtcdEnvMayNotSet() {
        Pod pod = ClusterResources.memberPod(cluster("""
                size: 3
                TLS: {static: {member: {peerSecret: p, serverSecret: s}, operatorSecret: o}}
                """), member("new"));
        for (String arg : pod.getSpec().getContainers().get(0).getCommand()) {
            if (arg.startsWith("--") && !arg.startsWith("--listen-metrics-urls=")) {
                String env = "ETCD_" + arg.substring(2, arg.indexOf('=')).toUpperCase().replace('-', '_');
                assertThat(dev.etcdoperator.core.validation.ClusterSpecValidator.RESERVED_ENV).as(arg).contains(env);
            }
        }
    }

    private static EtcdCluster annotated(String restoredBy, String secret) {
        EtcdCluster c = cluster("size: 3\npod: {busyboxImage: attacker.example/exfiltrate:1}");
        c.getMetadata().setAnnotations(Map.of("etcd.database.coreos.com/restored-by", restoredBy,
                "etcd.database.coreos.com/restore-snapshot-secret", secret));
        return c;
    }

    private static java.util.List<String> secretsIn(Pod pod) {
        java.util.List<String> names = new java.util.ArrayList<>();
        for (Container c : pod.getSpec().getInitContainers()) {
            if (c.getEnv() != null) {
                c.getEnv().stream().filter(e -> e.getValueFrom() != null && e.getValueFrom().getSecretKeyRef() != null)
                        .forEach(e -> names.add(e.getValueFrom().getSecretKeyRef().getName()));
            }
        }
        return names;
    }

    @Test
    void theSnapshotAnnotationAloneMountsNothing() {
        for (String secret : java.util.List.of("db-password", "r1-snapshot", "aws")) {
            Pod seed = ClusterResources.memberPod(annotated("r1", secret), member("new"));
            assertThat(seed.getSpec().getInitContainers()).as(secret).extracting(Container::getName)
                    .containsExactly("check-dns");
            assertThat(secretsIn(seed)).isEmpty();
        }
    }

    @Test
    void aConfirmedSnapshotSecretIsFetchedByTheSeedOnly() {
        EtcdCluster c = annotated("r1", "r1-snapshot");
        Pod seed = ClusterResources.memberPod(c, member("new"), "3.5.17", java.util.Optional.of("r1-snapshot"));
        assertThat(seed.getSpec().getInitContainers()).extracting(Container::getName)
                .containsExactly("fetch-snapshot", "restore-snapshot", "place-restored-data", "check-dns");
        assertThat(secretsIn(seed)).containsOnly("r1-snapshot");
        Container fetch = seed.getSpec().getInitContainers().get(0);
        assertThat(fetch.getCommand().get(2)).contains("\"$SNAPSHOT_URL\"").doesNotContain("r1-snapshot")
                .contains("--header \"If-Match: $SNAPSHOT_ETAG\"");
        assertThat(fetch.getEnv()).filteredOn(e -> e.getName().equals("SNAPSHOT_ETAG")).singleElement()
                .satisfies(e -> assertThat(e.getValueFrom().getSecretKeyRef().getOptional()).isTrue());
        Pod joining = ClusterResources.memberPod(c, member("existing"), "3.5.17", java.util.Optional.of("r1-snapshot"));
        assertThat(secretsIn(joining)).isEmpty();
        // the restore runs once: a sandbox of the pod made again would run it over the restored data
        assertThat(seed.getSpec().getRestartPolicy()).isEqualTo("Never");
        assertThat(joining.getSpec().getRestartPolicy()).isEqualTo("Always");
    }

    @Test
    void everyContainerOfAMemberPassesTheRestrictedPodSecurityStandardByDefault() {
        EtcdCluster c = annotated("r1", "r1-snapshot");
        Pod seed = ClusterResources.memberPod(c, member("new"), "3.5.17", java.util.Optional.of("r1-snapshot"));
        PodSecurityContext pod = seed.getSpec().getSecurityContext();
        assertThat(pod.getRunAsNonRoot()).isTrue();
        assertThat(pod.getRunAsUser()).isEqualTo(9000L);
        assertThat(pod.getRunAsGroup()).isEqualTo(9000L);
        // the data volume (emptyDir or claim) is made writable for the member's group
        assertThat(pod.getFsGroup()).isEqualTo(9000L);
        assertThat(pod.getSeccompProfile().getType()).isEqualTo("RuntimeDefault");
        List<Container> containers = new ArrayList<>(seed.getSpec().getInitContainers());
        containers.addAll(seed.getSpec().getContainers());
        assertThat(containers).hasSize(5).allSatisfy(container -> {
            assertThat(container.getSecurityContext().getAllowPrivilegeEscalation()).isFalse();
            assertThat(container.getSecurityContext().getCapabilities().getDrop()).containsExactly("ALL");
            assertThat(container.getSecurityContext().getCapabilities().getAdd()).isNullOrEmpty();
            assertThat(container.getSecurityContext().getPrivileged()).isNull();
            assertThat(container.getSecurityContext().getRunAsUser()).isNull();
        });
    }

    @Test
    void theClustersSecurityContextReplacesTheDefaultAsItIs() {
        Pod pod = ClusterResources.memberPod(cluster("""
                size: 1
                pod:
                  securityContext: {runAsNonRoot: true, fsGroup: 1000680000}
                """), member("new"));
        PodSecurityContext security = pod.getSpec().getSecurityContext();
        assertThat(security.getRunAsNonRoot()).isTrue();
        assertThat(security.getFsGroup()).isEqualTo(1000680000L);
        // left unset for the platform to assign, as OpenShift does
        assertThat(security.getRunAsUser()).isNull();
        assertThat(security.getSeccompProfile()).isNull();
        assertThat(pod.getSpec().getContainers().get(0).getSecurityContext().getAllowPrivilegeEscalation()).isFalse();
    }

    @Test
    void membersServeEtcdsMetricsOnANamedPortUnlessEtcdEnvAlreadyListensForThem() {
        Container etcd = ClusterResources.memberPod(cluster("size: 3"), member("new")).getSpec().getContainers().get(0);
        assertThat(etcd.getCommand()).contains("--listen-metrics-urls=http://0.0.0.0:2381");
        assertThat(etcd.getPorts()).anySatisfy(p -> {
            assertThat(p.getName()).isEqualTo("metrics");
            assertThat(p.getContainerPort()).isEqualTo(2381);
        });

        Container own = ClusterResources.memberPod(cluster("""
                size: 3
                pod: {etcdEnv: [{name: ETCD_LISTEN_METRICS_URLS, value: "http://0.0.0.0:9379"}]}
                """), member("new")).getSpec().getContainers().get(0);
        assertThat(own.getCommand()).noneMatch(arg -> arg.startsWith("--listen-metrics-urls"));
        assertThat(own.getEnv()).extracting(e -> e.getName()).containsExactly("ETCD_LISTEN_METRICS_URLS");
    }

    @Test
    void theEtcdSettingsAreFlagsOfTheirOwnAndOnlyWhenSet() {
        Container plain = ClusterResources.memberPod(cluster("size: 3"), member("new")).getSpec().getContainers().get(0);
        assertThat(plain.getCommand()).noneMatch(arg -> arg.startsWith("--quota-backend-bytes")
                || arg.startsWith("--auto-compaction"));

        Container etcd = ClusterResources.memberPod(cluster("""
                size: 3
                etcd: {quotaBackendBytes: 16777216, autoCompactionMode: revision, autoCompactionRetention: "1000"}
                """), member("existing")).getSpec().getContainers().get(0);
        assertThat(etcd.getCommand()).contains("--quota-backend-bytes=16777216", "--auto-compaction-mode=revision",
                "--auto-compaction-retention=1000");
        assertThat(etcd.getCommand().get(0)).isEqualTo("/usr/local/bin/etcd");
        assertThat(etcd.getArgs()).isNullOrEmpty();
    }
}
