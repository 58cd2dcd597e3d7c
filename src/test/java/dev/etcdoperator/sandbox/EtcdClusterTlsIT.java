package dev.etcdoperator.sandbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import dev.etcdoperator.api.v1beta2.Condition;
import dev.etcdoperator.api.v1beta2.EtcdCluster;
import dev.etcdoperator.api.v1beta2.EtcdClusterStatus;
import dev.etcdoperator.etcd.TestCertificates;
import dev.etcdoperator.sandbox.support.ContinuousWriter;
import dev.etcdoperator.sandbox.support.Kubectl;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Static TLS as the CoreOS operator did it, on the sandbox with real etcd: a CA and certificates made with openssl
 * (DNS SANs {@code *.<cluster>.<ns>.svc[.cluster.local]}, as for a real cluster where pod IPs are not known
 * in advance; plus 127.0.0.1, the source address of every sandbox pod's connections), the peer, server and operator secrets, a cluster refused while a secret or key is missing, then
 * three healthy voters talking TLS, reached with etcdctl over https with a client certificate; a secret removed
 * later stops the operator without touching the members.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class EtcdClusterTlsIT {
    static final String NS = "default";
    static final String NAME = "secure";
    static final String PEER = "etcd-peer-tls";
    static final String SERVER = "etcd-server-tls";
    static final String OPERATOR = "etcd-client-tls";
    static final Duration CONVERGE = Duration.ofSeconds(150);
    static Sandbox sandbox;
    static Path certs;

    @BeforeAll
    static void start() throws IOException {
        Path state = Path.of("target", "sandbox-cluster-tls-it");
        sandbox = Sandbox.start(Sandbox.options().stateDir(state)
                .operatorProperty("etcd-operator.cluster.reconcile-interval", "4s"));
        // after the start, which empties the state directory
        certs = state.toAbsolutePath().resolve("certs");
        makeCertificates(certs);
    }

    @AfterAll
    static void stop() {
        if (sandbox != null) {
            sandbox.close();
        }
    }

    static KubernetesClient client() {
        return sandbox.client();
    }

    @Test
    @Order(1)
    void withoutItsSecretsTheClusterIsRefusedAndNothingIsCreated() {
        client().resource(Serialization.unmarshal("""
                apiVersion: etcd.database.coreos.com/v1beta2
                kind: EtcdCluster
                metadata: {name: %s, namespace: %s}
                spec:
                  size: 3
                  version: 3.5.35
                  TLS:
                    static:
                      member: {peerSecret: %s, serverSecret: %s}
                      operatorSecret: %s
                """.formatted(NAME, NS, PEER, SERVER, OPERATOR), EtcdCluster.class)).create();
        await().atMost(CONVERGE).untilAsserted(() -> {
            EtcdClusterStatus s = status();
            assertThat(s.getPhase()).isEqualTo("Failed");
            assertThat(s.getReason()).isEqualTo("TLSSecretMissing");
            assertThat(tlsCondition(s).getStatus()).isEqualTo("False");
            assertThat(tlsCondition(s).getMessage()).contains("default/" + PEER, "default/" + SERVER,
                    "default/" + OPERATOR, "does not exist");
            assertThat(events()).filteredOn(e -> e.getReason().equals("TLSSecretMissing"))
                    .allSatisfy(e -> assertThat(e.getType()).isEqualTo("Warning")).isNotEmpty();
        });

        // every secret but one key of the operator's
        createSecret(PEER, Map.of("peer.crt", "peer.crt", "peer.key", "peer.key", "peer-ca.crt", "ca.crt"));
        createSecret(SERVER, Map.of("server.crt", "server.crt", "server.key", "server.key", "server-ca.crt", "ca.crt"));
        createSecret(OPERATOR, Map.of("etcd-client.crt", "client.crt", "etcd-client-ca.crt", "ca.crt"));
        await().atMost(CONVERGE).untilAsserted(() -> {
            Condition c = tlsCondition(status());
            assertThat(c.getReason()).isEqualTo("TLSSecretMissing");
            assertThat(c.getMessage()).contains("default/" + OPERATOR, "has no key etcd-client.key")
                    .doesNotContain("default/" + PEER, "default/" + SERVER);
        });
        await().during(Duration.ofSeconds(5)).atMost(Duration.ofSeconds(10)).until(() -> pods().isEmpty()
                && client().services().inNamespace(NS).withName(NAME + "-client").get() == null);
    }

    @Test
    @Order(2)
    void withTheSecretsThreeMembersTalkTlsAndClientsNeedACertificate() {
        client().secrets().inNamespace(NS).withName(OPERATOR).delete();
        await().atMost(Duration.ofSeconds(10)).until(() -> client().secrets().inNamespace(NS).withName(OPERATOR)
                .get() == null);
        createSecret(OPERATOR, Map.of("etcd-client.crt", "client.crt", "etcd-client.key", "client.key",
                "etcd-client-ca.crt", "ca.crt"));
        EtcdClusterStatus s = awaitConverged(3);
        assertThat(s.getPhase()).isEqualTo("Running");
        assertThat(tlsCondition(s).getStatus()).isEqualTo("True");
        // the test certificates are valid for two days: within the fourteen days that are told
        assertThat(tlsCondition(s).getReason()).isEqualTo("CertificateExpiresSoon");
        assertThat(s.getCertificates()).extracting(c -> c.getSecret() + "/" + c.getKey()).containsExactlyInAnyOrder(
                PEER + "/peer.crt", PEER + "/peer-ca.crt", SERVER + "/server.crt", SERVER + "/server-ca.crt",
                OPERATOR + "/etcd-client.crt", OPERATOR + "/etcd-client-ca.crt");
        assertThat(s.getCertificates()).allSatisfy(c -> assertThat(java.time.Instant.parse(c.getNotAfter()))
                .isBetween(java.time.Instant.now(), java.time.Instant.now().plus(Duration.ofDays(2))));
        await().atMost(Duration.ofSeconds(30)).until(() -> client().v1().events().inNamespace(NS).list().getItems()
                .stream().anyMatch(e -> "CertificateExpiresSoon".equals(e.getReason())
                        && NAME.equals(e.getInvolvedObject().getName())));
        assertThat(s.getMemberDetails()).allSatisfy(m -> {
            assertThat(m.getPeerURL()).startsWith("https://").endsWith("." + NAME + "." + NS + ".svc:2380");
        });
        assertThat(pods()).allSatisfy(p -> assertThat(p.getSpec().getVolumes())
                .anySatisfy(v -> assertThat(v.getSecret() == null ? null : v.getSecret().getSecretName())
                        .isEqualTo(PEER)));

        String endpoints = pods().stream().map(p -> "https://" + p.getMetadata().getName() + "." + NAME + "." + NS
                + ".svc:2379").collect(Collectors.joining(","));
        List<String> tls = List.of("--cacert=" + certs.resolve("ca.crt"), "--cert=" + certs.resolve("client.crt"),
                "--key=" + certs.resolve("client.key"));
        assertThat(etcdctl(endpoints, tls, "put", "greeting", "over-tls").ok()).isTrue();
        Kubectl.Result got = etcdctl(endpoints, tls, "get", "greeting", "--print-value-only");
        assertThat(got.ok()).as(got.output()).isTrue();
        assertThat(got.output().strip()).isEqualTo("over-tls");
        Kubectl.Result members = etcdctl(endpoints, tls, "member", "list");
        assertThat(members.output().lines().filter(l -> l.contains("https://")).count()).isEqualTo(3);

        // the members require a client certificate: the CA alone is not enough
        Kubectl.Result anonymous = etcdctl(endpoints, List.of("--cacert=" + certs.resolve("ca.crt")), "get",
                "greeting");
        assertThat(anonymous.ok()).as(anonymous.output()).isFalse();
    }

    @Test
    @Order(3)
    void aSecretRemovedLaterStopsTheOperatorAndLeavesTheMembersRunning() {
        Set<String> uids = pods().stream().map(p -> p.getMetadata().getUid()).collect(Collectors.toSet());
        client().secrets().inNamespace(NS).withName(PEER).delete();
        await().atMost(CONVERGE).untilAsserted(() -> {
            assertThat(status().getReason()).isEqualTo("TLSSecretMissing");
            assertThat(tlsCondition(status()).getMessage()).contains("default/" + PEER);
        });
        await().during(Duration.ofSeconds(6)).atMost(Duration.ofSeconds(10)).until(() -> pods().stream()
                .map(p -> p.getMetadata().getUid()).collect(Collectors.toSet()).equals(uids));
        createSecret(PEER, Map.of("peer.crt", "peer.crt", "peer.key", "peer.key", "peer-ca.crt", "ca.crt"));
        awaitConverged(3);
        assertThat(pods().stream().map(p -> p.getMetadata().getUid()).collect(Collectors.toSet())).isEqualTo(uids);
    }

    @Test
    @Order(4)
    void secretsInCertManagersLayoutWorkAsTheyAre() {
        client().resources(EtcdCluster.class).inNamespace(NS).withName(NAME).delete();
        await().atMost(CONVERGE).until(() -> pods().isEmpty()
                && client().resources(EtcdCluster.class).inNamespace(NS).withName(NAME).get() == null);
        for (String secret : List.of(PEER, SERVER, OPERATOR)) {
            client().secrets().inNamespace(NS).withName(secret).delete();
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> client().secrets().inNamespace(NS).withName(secret).get() == null);
        }
        // what a cert-manager Certificate writes: type kubernetes.io/tls, tls.crt, tls.key and the issuer's ca.crt
        createSecret(PEER, "kubernetes.io/tls", Map.of("tls.crt", "peer.crt", "tls.key", "peer.key",
                "ca.crt", "ca.crt"));
        createSecret(SERVER, "kubernetes.io/tls", Map.of("tls.crt", "server.crt", "tls.key", "server.key",
                "ca.crt", "ca.crt"));
        createSecret(OPERATOR, "kubernetes.io/tls", Map.of("tls.crt", "client.crt", "tls.key", "client.key",
                "ca.crt", "ca.crt"));
        client().resource(Serialization.unmarshal("""
                apiVersion: etcd.database.coreos.com/v1beta2
                kind: EtcdCluster
                metadata: {name: %s, namespace: %s}
                spec:
                  size: 3
                  version: 3.6.16
                  TLS:
                    static:
                      member: {peerSecret: %s, serverSecret: %s}
                      operatorSecret: %s
                """.formatted(NAME, NS, PEER, SERVER, OPERATOR), EtcdCluster.class)).create();
        awaitConverged(3);
        assertThat(pods()).allSatisfy(p -> assertThat(p.getSpec().getContainers().get(0).getCommand())
                .contains("--peer-cert-file=/etc/etcdtls/member/peer-tls/tls.crt",
                        "--cert-file=/etc/etcdtls/member/server-tls/tls.crt"));

        String endpoints = pods().stream().map(p -> "https://" + p.getMetadata().getName() + "." + NAME + "." + NS
                + ".svc:2379").collect(Collectors.joining(","));
        List<String> tls = List.of("--cacert=" + certs.resolve("ca.crt"), "--cert=" + certs.resolve("client.crt"),
                "--key=" + certs.resolve("client.key"));
        assertThat(etcdctl(endpoints, tls, "put", "issued", "by-cert-manager").ok()).isTrue();
        Kubectl.Result members = etcdctl(endpoints, tls, "member", "list");
        assertThat(members.output().lines().filter(l -> l.contains("https://")).count()).as(members.output())
                .isEqualTo(3);
    }

    /**
     * A CA change under a continuous writer, in the three passes docs/clusters.md tells: the new CA added to every
     * Secret's CA bundle, then certificates of the new CA, then the old CA dropped. Each change rolls the members one
     * at a time (without claims, each is replaced by a new member on the current Secrets); no acknowledged write is
     * lost and the operator, whose own client certificate changes too, keeps the cluster ready.
     */
    @Test
    @Order(5)
    void aNewCaIsRolledInPassesUnderWritesWithoutLosingAnAcknowledgedWrite() throws IOException {
        Path next = certs.resolve("next");
        makeCertificates(next, "etcd-operator test CA 2");
        Files.writeString(certs.resolve("bundle.crt"), Files.readString(certs.resolve("ca.crt"))
                + Files.readString(next.resolve("ca.crt")));
        Set<String> before = podNames();
        java.util.concurrent.atomic.AtomicReference<String> clientDir = new java.util.concurrent.atomic.AtomicReference<>(
                "");
        // by pod address, which the certificates do not name: the writer checks who it writes to no further
        java.util.function.Supplier<List<String>> endpoints = () -> pods().stream()
                .filter(p -> p.getMetadata().getDeletionTimestamp() == null && p.getStatus() != null
                        && p.getStatus().getPodIP() != null && p.getStatus().getConditions() != null
                        && p.getStatus().getConditions().stream()
                                .anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus())))
                .map(p -> "https://" + p.getStatus().getPodIP() + ":2379").toList();
        List<String> report = new ArrayList<>();
        try (ContinuousWriter writer = new ContinuousWriter("rotation-", endpoints,
                () -> List.of("--insecure-skip-tls-verify", "--cert=" + certs.resolve(clientDir.get() + "client.crt"),
                        "--key=" + certs.resolve(clientDir.get() + "client.key")))) {
            await().atMost(Duration.ofSeconds(30)).until(() -> writer.acknowledgedCount() >= 10);

            // 1. every Secret's CA bundle holds both CAs; certificates still of the old CA
            long started = System.nanoTime();
            replaceSecrets("", "bundle.crt");
            before = awaitRolled(before);
            report.add("both CAs trusted: " + seconds(started) + " s");
            // 2. certificates of the new CA (the operator's and the writer's client certificate too)
            started = System.nanoTime();
            replaceSecrets("next/", "bundle.crt");
            clientDir.set("next/");
            before = awaitRolled(before);
            report.add("new certificates: " + seconds(started) + " s");
            // 3. the old CA dropped
            started = System.nanoTime();
            replaceSecrets("next/", "next/ca.crt");
            awaitRolled(before);
            report.add("old CA dropped: " + seconds(started) + " s");

            int acknowledgedBefore = writer.acknowledgedCount();
            await().atMost(Duration.ofSeconds(30)).until(() -> writer.acknowledgedCount() >= acknowledgedBefore + 5);
            writer.close();
            report.add(writer.acknowledgedCount() + " writes acknowledged, " + writer.failures()
                    + " attempts failed");

            // every acknowledged write is there, read with the new CA and client certificate alone
            String byName = pods().stream().map(p -> "https://" + p.getMetadata().getName() + "." + NAME + "." + NS
                    + ".svc:2379").collect(Collectors.joining(","));
            List<String> newTls = List.of("--cacert=" + next.resolve("ca.crt"), "--cert=" + next.resolve("client.crt"),
                    "--key=" + next.resolve("client.key"));
            Kubectl.Result keys = etcdctl(byName, newTls, "get", "rotation-", "--prefix", "--keys-only");
            assertThat(keys.ok()).as(keys.output()).isTrue();
            Set<String> present = keys.output().lines().filter(l -> !l.isBlank()).collect(Collectors.toSet());
            assertThat(present).as("acknowledged writes lost").containsAll(writer.acknowledged());
            report.add((present.size() - writer.acknowledged().size()) + " writes present without an acknowledgement");
            // a client of the old CA is refused now
            Kubectl.Result old = etcdctl(byName, List.of("--cacert=" + certs.resolve("ca.crt"),
                    "--cert=" + certs.resolve("client.crt"), "--key=" + certs.resolve("client.key")), "get", "x");
            assertThat(old.ok()).as(old.output()).isFalse();
        }
        // the operator, on its new client certificate, still reconciles: a deleted client Service comes back
        client().services().inNamespace(NS).withName(NAME + "-client").delete();
        await().atMost(CONVERGE).until(() -> client().services().inNamespace(NS).withName(NAME + "-client")
                .get() != null);
        EtcdClusterStatus s = awaitConverged(3);
        assertThat(s.getConditions()).anySatisfy(c -> {
            assertThat(c.getType()).isEqualTo("Ready");
            assertThat(c.getStatus()).isEqualTo("True");
        });
        // three passes over three members
        assertThat(events().stream().filter(e -> "MemberRestarted".equals(e.getReason()))
                .mapToInt(e -> e.getCount() == null ? 1 : e.getCount()).sum()).isGreaterThanOrEqualTo(9);
        System.out.println("CA rotation of 3 members: " + String.join("; ", report));
    }

    /**
     * A new CA put in together with its certificates, in one go, would cut restarted members off from the others:
     * the operator refuses it, restarts nothing, and carries on once the Secrets are put back.
     */
    @Test
    @Order(6)
    void aNewCaPutInAtOnceIsRefusedAndNothingRestarts() throws IOException {
        makeCertificates(certs.resolve("third"), "etcd-operator test CA 3");
        Set<String> uids = pods().stream().map(p -> p.getMetadata().getUid()).collect(Collectors.toSet());
        replaceSecrets("third/", "third/ca.crt");
        await().atMost(CONVERGE).untilAsserted(() -> {
            EtcdClusterStatus s = status();
            assertThat(s.getReason()).isEqualTo("TLSChangeUnsafe");
            assertThat(tlsCondition(s).getStatus()).isEqualTo("False");
            assertThat(tlsCondition(s).getMessage()).contains("trusts only CA", "that issued the new certificates");
            assertThat(events()).anySatisfy(e -> assertThat(e.getReason()).isEqualTo("TLSChangeUnsafe"));
        });
        await().during(Duration.ofSeconds(8)).atMost(Duration.ofSeconds(12)).until(() -> pods().stream()
                .map(p -> p.getMetadata().getUid()).collect(Collectors.toSet()).equals(uids));

        replaceSecrets("next/", "next/ca.crt");
        await().atMost(CONVERGE).untilAsserted(() -> assertThat(tlsCondition(status()).getStatus()).isEqualTo("True"));
        awaitConverged(3);
        assertThat(pods().stream().map(p -> p.getMetadata().getUid()).collect(Collectors.toSet())).isEqualTo(uids);
    }

    /**
     * A roll onto new TLS material while spec.pod asks what the API server refuses (memory requests above the limit,
     * changed after the pods were made): no member is stopped for a pod that could not be made, the refusal is told,
     * and the roll goes on once spec.pod is fixed.
     */
    @Test
    @Order(7)
    void aRollWhosePodsTheApiServerWouldRefuseStopsNoMember() throws IOException {
        Files.writeString(certs.resolve("bundle-3.crt"), Files.readString(certs.resolve("next").resolve("ca.crt"))
                + Files.readString(certs.resolve("third").resolve("ca.crt")));
        Set<String> uids = pods().stream().map(p -> p.getMetadata().getUid()).collect(Collectors.toSet());
        Edits.edit(client().resources(EtcdCluster.class).inNamespace(NS).withName(NAME), c -> {
            if (c.getSpec().getPod() == null) {
                c.getSpec().setPod(new dev.etcdoperator.api.v1beta2.PodPolicy());
            }
            c.getSpec().getPod().setResources(new io.fabric8.kubernetes.api.model.ResourceRequirementsBuilder()
                    .addToRequests("memory", new io.fabric8.kubernetes.api.model.Quantity("2Gi"))
                    .addToLimits("memory", new io.fabric8.kubernetes.api.model.Quantity("1Gi")).build());
            return c;
        });
        // a second CA added to every bundle: each member is to be restarted onto it
        replaceSecrets("next/", "bundle-3.crt");
        await().atMost(CONVERGE).untilAsserted(() -> assertThat(status().getConditions()).anySatisfy(c -> {
            assertThat(c.getType()).isEqualTo("Ready");
            assertThat(c.getReason()).isEqualTo("RejectedByApiServer");
            assertThat(c.getMessage()).contains("memory");
        }));
        await().during(Duration.ofSeconds(8)).atMost(Duration.ofSeconds(12)).until(() -> pods().stream()
                .map(p -> p.getMetadata().getUid()).collect(Collectors.toSet()).equals(uids));
        assertThat(status().getMemberDetails()).hasSize(3).allSatisfy(m -> assertThat(m.getHealthy()).isTrue());

        Edits.edit(client().resources(EtcdCluster.class).inNamespace(NS).withName(NAME), c -> {
            c.getSpec().getPod().setResources(null);
            return c;
        });
        awaitRolled(podNames());
    }

    /**
     * Waits until none of {@code before} is left, every member runs on the Secrets as they are and the cluster has
     * converged; returns the member pods then.
     */
    private static Set<String> awaitRolled(Set<String> before) {
        await().atMost(Duration.ofMinutes(5)).pollInterval(Duration.ofMillis(500)).untilAsserted(() -> {
            assertThat(podNames()).doesNotContainAnyElementsOf(before);
            assertThat(status().getConditions()).anySatisfy(c -> {
                assertThat(c.getType()).isEqualTo("CertificatesRotating");
                assertThat(c.getStatus()).isEqualTo("False");
            });
        });
        awaitConverged(3);
        return podNames();
    }

    /** Every Secret in cert-manager's layout: certificates from {@code dir}, the CA bundle from {@code ca}. */
    private static void replaceSecrets(String dir, String ca) {
        replaceSecret(PEER, Map.of("tls.crt", dir + "peer.crt", "tls.key", dir + "peer.key", "ca.crt", ca));
        replaceSecret(SERVER, Map.of("tls.crt", dir + "server.crt", "tls.key", dir + "server.key", "ca.crt", ca));
        replaceSecret(OPERATOR, Map.of("tls.crt", dir + "client.crt", "tls.key", dir + "client.key", "ca.crt", ca));
    }

    private static void replaceSecret(String name, Map<String, String> keyToFile) {
        Map<String, String> data = new LinkedHashMap<>();
        keyToFile.forEach((key, file) -> {
            try {
                data.put(key, Base64.getEncoder().encodeToString(Files.readAllBytes(certs.resolve(file))));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
        Edits.edit(client().secrets().inNamespace(NS).withName(name), s -> new SecretBuilder(s).withData(data).build());
    }

    private static Set<String> podNames() {
        return pods().stream().map(p -> p.getMetadata().getName()).collect(Collectors.toSet());
    }

    private static long seconds(long startedNanos) {
        return (System.nanoTime() - startedNanos) / 1_000_000_000;
    }

    // ---- helpers ----

    static Condition tlsCondition(EtcdClusterStatus s) {
        return s.getConditions().stream().filter(c -> c.getType().equals("TLSSecretsReady")).findFirst()
                .orElseThrow(() -> new AssertionError("no TLSSecretsReady condition in " + s.getConditions()));
    }

    static EtcdClusterStatus status() {
        EtcdCluster c = client().resources(EtcdCluster.class).inNamespace(NS).withName(NAME).get();
        return c.getStatus() == null ? new EtcdClusterStatus() : c.getStatus();
    }

    static EtcdClusterStatus awaitConverged(int size) {
        await().atMost(CONVERGE).pollInterval(Duration.ofMillis(500)).untilAsserted(() -> {
            EtcdClusterStatus s = status();
            assertThat(s.getConditions()).anySatisfy(c -> {
                assertThat(c.getType()).isEqualTo("Available");
                assertThat(c.getStatus()).isEqualTo("True");
            });
            assertThat(s.getMemberDetails()).hasSize(size)
                    .allSatisfy(m -> assertThat(m.getHealthy() && !m.getLearner()).isTrue());
            assertThat(s.getReadyMembers()).isEqualTo(size);
            assertThat(pods()).hasSize(size);
        });
        return status();
    }

    static List<Pod> pods() {
        return client().pods().inNamespace(NS).withLabel("etcd_cluster", NAME).list().getItems();
    }

    static List<Event> events() {
        return client().v1().events().inNamespace(NS).list().getItems().stream()
                .filter(e -> NAME.equals(e.getInvolvedObject().getName())).toList();
    }

    static void createSecret(String name, Map<String, String> keyToFile) {
        createSecret(name, "Opaque", keyToFile);
    }

    static void createSecret(String name, String type, Map<String, String> keyToFile) {
        Map<String, String> data = new LinkedHashMap<>();
        keyToFile.forEach((key, file) -> {
            try {
                data.put(key, Base64.getEncoder().encodeToString(Files.readAllBytes(certs.resolve(file))));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
        Secret secret = new SecretBuilder().withNewMetadata().withName(name).withNamespace(NS).endMetadata()
                .withType(type).withData(data).build();
        client().secrets().inNamespace(NS).resource(secret).create();
    }

    /**
     * The machine's etcdctl with the sandbox's cluster DNS: in a private mount namespace with the namespace's
     * hosts file over /etc/hosts, as the sandbox runs pods, so that it reaches members by the DNS names their
     * certificates are made for.
     */
    static Kubectl.Result etcdctl(String endpoints, List<String> tls, String... args) {
        List<String> command = new ArrayList<>(List.of("unshare", "--mount", "--propagation", "private", "sh", "-c",
                "mount --bind \"$0\" /etc/hosts && exec \"$@\"", sandbox.dns().hostsFile(NS).toString(),
                "etcdctl", "--endpoints", endpoints, "--dial-timeout=3s", "--command-timeout=5s"));
        command.addAll(tls);
        command.addAll(List.of(args));
        return run(command, Map.of("ETCDCTL_API", "3"));
    }

    static Kubectl.Result run(List<String> command, Map<String, String> env) {
        try {
            ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
            builder.environment().putAll(env);
            Process process = builder.start();
            process.getOutputStream().close();
            byte[] out = process.getInputStream().readAllBytes();
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IllegalStateException("did not finish: " + command);
            }
            return new Kubectl.Result(process.exitValue(), new String(out, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /**
     * A CA; peer and server certificates for every member name ({@code *.<cluster>.<ns>.svc} and
     * {@code *.<cluster>.<ns>.svc.cluster.local}) and the client Service; a client certificate. EC P-256 keys in
     * PKCS#8, which both etcd and the operator's TLS stack read.
     */
    static void makeCertificates(Path dir) throws IOException {
        makeCertificates(dir, "etcd-operator test CA");
    }

    /** The same, under a CA of that common name. */
    static void makeCertificates(Path dir, String caName) throws IOException {
        Files.createDirectories(dir);
        openssl(dir, "genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", "ca.key");
        openssl(dir, "req", "-x509", "-new", "-key", "ca.key", "-subj", "/CN=" + caName, "-days", "2",
                "-out", "ca.crt");
        // etcd checks a peer's client certificate against the connection's source address (an IP SAN, or a DNS
        // SAN the address reverse-resolves to: on Kubernetes a pod IP resolves to <pod>.<cluster>.<ns>.svc...,
        // which the wildcard covers). Sandbox pods share the host's loopback, so their outgoing connections come
        // from 127.0.0.1, which only an IP SAN can cover; that SAN is a sandbox artifact, not a requirement.
        String names = "DNS:*.%1$s.%2$s.svc,DNS:*.%1$s.%2$s.svc.cluster.local,DNS:%1$s-client.%2$s.svc,"
                + "DNS:%1$s-client.%2$s.svc.cluster.local,IP:127.0.0.1";
        Files.writeString(dir.resolve("member.ext"), "subjectAltName=" + names.formatted(NAME, NS)
                + "\nextendedKeyUsage=serverAuth,clientAuth\nkeyUsage=critical,digitalSignature,keyEncipherment\n");
        Files.writeString(dir.resolve("client.ext"),
                "extendedKeyUsage=clientAuth\nkeyUsage=critical,digitalSignature,keyEncipherment\n");
        for (String[] cert : new String[][] { { "peer", "member.ext" }, { "server", "member.ext" },
                { "client", "client.ext" } }) {
            openssl(dir, "genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out",
                    cert[0] + ".key");
            openssl(dir, "req", "-new", "-key", cert[0] + ".key", "-subj", "/CN=" + cert[0], "-out",
                    cert[0] + ".csr");
            openssl(dir, "x509", "-req", "-in", cert[0] + ".csr", "-CA", "ca.crt", "-CAkey", "ca.key",
                    "-CAcreateserial", "-days", "2", "-extfile", cert[1], "-out", cert[0] + ".crt");
        }
    }

    static void openssl(Path dir, String... args) {
        TestCertificates.openssl(dir, args);
    }
}
