package dev.etcdoperator.sandbox.pods;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.PodSecurityContextBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.SecurityContextBuilder;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PodRuntimeTest {
    private static final String ETCD_IMAGE = "quay.io/coreos/etcd:v3.5.17";

    @TempDir
    static Path stateDir;

    static KubernetesMockServer server;
    static KubernetesClient client;
    static ClusterDns dns;
    static PodRuntime runtime;

    /** The mock server logs every request at INFO; kept in a field so the setting is not collected. */
    private static final java.util.logging.Logger MOCK_LOG = java.util.logging.Logger.getLogger("io.fabric8.mockwebserver");

    @BeforeAll
    static void startSandbox() throws IOException {
        MOCK_LOG.setLevel(java.util.logging.Level.WARNING);
        server = new KubernetesMockServer(new Context(), new MockWebServer(), new HashMap<>(), new KubernetesCrudDispatcher(),
                false);
        server.init(InetAddress.getByName("127.0.0.1"), 0);
        client = server.createClient();
        dns = new ClusterDns(client, stateDir.resolve("dns"));
        dns.start();
        runtime = new PodRuntime(client, stateDir.resolve("state"), dns,
                RuntimeSettings.defaults().withFirstIp("127.1.0.2").withCloseGrace(Duration.ofSeconds(2)));
        runtime.start();
    }

    @AfterAll
    static void stopSandbox() {
        if (runtime != null) {
            runtime.close();
            runtime.close();
        }
        if (dns != null) {
            dns.close();
        }
        if (client != null) {
            client.close();
        }
        if (server != null) {
            server.destroy();
        }
        assertThat(ProcessHandle.allProcesses().filter(p -> p.info().commandLine().orElse("").contains(stateDir.toString())))
                .as("processes of the sandbox left running").isEmpty();
    }

    @Test
    void etcdPodBecomesReadyServesKeysAndStopsWhenDeleted() throws Exception {
        String ns = namespace("etcd");
        client.pods().inNamespace(ns).resource(etcdPod("m0", null)).create();

        Pod pod = awaitReady(ns, "m0");
        String ip = pod.getStatus().getPodIP();
        assertThat(ip).startsWith("127.1.");
        assertThat(pod.getStatus().getHostIP()).isEqualTo("127.0.0.1");
        assertThat(pod.getStatus().getPhase()).isEqualTo("Running");
        assertThat(etcdctl(ip, "put", "greeting", "hello")).contains("OK");
        assertThat(etcdctl(ip, "get", "greeting", "--print-value-only")).contains("hello");

        long pid = pid(pod.getStatus().getContainerStatuses().get(0));
        assertThat(ProcessHandle.of(pid)).map(ProcessHandle::isAlive).contains(true);
        client.pods().inNamespace(ns).withName("m0").delete();
        await().atMost(Duration.ofSeconds(15)).until(() -> ProcessHandle.of(pid).map(p -> !p.isAlive()).orElse(true));
    }

    @Test
    void aPodOfTheRestrictedStandardRunsAndEtcdServesItsMetricsOnThePodsOwnAddress() throws Exception {
        String ns = namespace("restricted");
        Pod pod = etcdPod("m0", null);
        // accepted and not applied: every process runs as root
        pod.getSpec().setSecurityContext(new PodSecurityContextBuilder().withRunAsNonRoot(true).withRunAsUser(9000L)
                .withRunAsGroup(9000L).withFsGroup(9000L).withNewSeccompProfile().withType("RuntimeDefault")
                .endSeccompProfile().build());
        Container etcd = pod.getSpec().getContainers().get(0);
        etcd.setSecurityContext(new SecurityContextBuilder().withAllowPrivilegeEscalation(false)
                .withNewCapabilities().withDrop("ALL").endCapabilities().build());
        etcd.getCommand().add("--listen-metrics-urls=http://0.0.0.0:2381");
        client.pods().inNamespace(ns).resource(pod).create();

        String ip = awaitReady(ns, "m0").getStatus().getPodIP();
        HttpResponse<String> metrics = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create("http://" + ip + ":2381/metrics")).timeout(Duration.ofSeconds(5)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(metrics.statusCode()).isEqualTo(200);
        assertThat(metrics.body()).contains("etcd_server_has_leader 1");
        client.pods().inNamespace(ns).withName("m0").delete();
    }

    @Test
    void aChangedImageRestartsTheContainerInPlaceWithItsVolumes() throws Exception {
        String ns = namespace("inplace");
        client.pods().inNamespace(ns).resource(etcdPod("m0", null)).create();
        Pod pod = awaitReady(ns, "m0");
        String ip = pod.getStatus().getPodIP();
        assertThat(etcdctl(ip, "put", "before", "upgrade")).contains("OK");
        long firstPid = pid(pod.getStatus().getContainerStatuses().get(0));

        client.pods().inNamespace(ns).withName("m0").edit(p -> new PodBuilder(p).editSpec().editFirstContainer()
                .withImage("quay.io/coreos/etcd:v3.5.18").endContainer().endSpec().build());

        await().atMost(Duration.ofSeconds(30)).until(() -> {
            Pod p = client.pods().inNamespace(ns).withName("m0").get();
            ContainerStatus s = p.getStatus().getContainerStatuses().get(0);
            return "quay.io/coreos/etcd:v3.5.18".equals(s.getImage()) && Boolean.TRUE.equals(s.getReady())
                    && pid(s) != firstPid;
        });
        Pod after = client.pods().inNamespace(ns).withName("m0").get();
        assertThat(after.getStatus().getPodIP()).isEqualTo(ip);
        assertThat(after.getStatus().getContainerStatuses().get(0).getRestartCount()).isEqualTo(1);
        assertThat(ProcessHandle.of(firstPid).map(ProcessHandle::isAlive).orElse(false)).isFalse();
        assertThat(etcdctl(ip, "get", "before", "--print-value-only")).contains("upgrade");
        client.pods().inNamespace(ns).withName("m0").delete();
    }

    @Test
    void claimOutlivesItsPodAndIsReadByTheNextOne() throws Exception {
        String ns = namespace("pvc");
        client.persistentVolumeClaims().inNamespace(ns).resource(new PersistentVolumeClaimBuilder()
                .withNewMetadata().withName("data").endMetadata()
                .withNewSpec().withAccessModes("ReadWriteOnce").withNewResources()
                .withRequests(Map.of("storage", new Quantity("1Gi"))).endResources().endSpec().build()).create();
        await().atMost(Duration.ofSeconds(10)).until(() -> Optional.ofNullable(
                client.persistentVolumeClaims().inNamespace(ns).withName("data").get().getStatus())
                .map(s -> "Bound".equals(s.getPhase())).orElse(false));

        client.pods().inNamespace(ns).resource(etcdPod("m0", "data")).create();
        String firstIp = awaitReady(ns, "m0").getStatus().getPodIP();
        assertThat(etcdctl(firstIp, "put", "kept", "across-pods")).contains("OK");
        client.pods().inNamespace(ns).withName("m0").delete();

        client.pods().inNamespace(ns).resource(etcdPod("m0", "data")).create();
        String secondIp = awaitReady(ns, "m0").getStatus().getPodIP();
        assertThat(etcdctl(secondIp, "get", "kept", "--print-value-only")).contains("across-pods");
        assertThat(runtime.claimDirectory(ns, "data").resolve("data/member")).isDirectory();

        client.pods().inNamespace(ns).withName("m0").delete();
        client.persistentVolumeClaims().inNamespace(ns).withName("data").delete();
        await().atMost(Duration.ofSeconds(15)).until(() -> !Files.exists(runtime.claimDirectory(ns, "data")));
    }

    @Test
    void podWithMissingClaimStaysPendingAndSaysWhy() {
        String ns = namespace("noclaim");
        client.pods().inNamespace(ns).resource(etcdPod("m0", "absent")).create();
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            Pod pod = client.pods().inNamespace(ns).withName("m0").get();
            assertThat(pod.getStatus()).isNotNull();
            assertThat(pod.getStatus().getPhase()).isEqualTo("Pending");
            assertThat(condition(pod, "PodScheduled")).hasValueSatisfying(c -> {
                assertThat(c.getStatus()).isEqualTo("False");
                assertThat(c.getMessage()).contains("persistentvolumeclaim \"absent\" not found");
            });
        });
        client.pods().inNamespace(ns).withName("m0").delete();
    }

    @Test
    void podsResolveEachOtherThroughTheHeadlessService() throws IOException {
        String ns = namespace("dns");
        client.services().inNamespace(ns).resource(new ServiceBuilder().withNewMetadata().withName("peers").endMetadata()
                .withNewSpec().withClusterIP("None").withPublishNotReadyAddresses(true).withSelector(Map.of("app", "dns"))
                .endSpec().build()).create();
        String other = "b.peers." + ns + ".svc.cluster.local";
        client.pods().inNamespace(ns).resource(shellPod("a", "Always",
                "hostname; until getent hosts " + other + "; do sleep 0.2; done; exec sleep 600")).create();
        client.pods().inNamespace(ns).resource(shellPod("b", "Always", "exec sleep 600")).create();

        Pod b = awaitReady(ns, "b");
        Pod a = awaitReady(ns, "a");
        Path log = runtime.logFile(a, "main");
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(Files.readString(log))
                .contains(b.getStatus().getPodIP() + " ").contains("a\n"));
        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> assertThat(Files.readString(dns.hostsFile(ns)))
                .contains("127.0.0.1 localhost")
                .contains("peers." + ns + ".svc.cluster.local")
                .contains("peers." + ns + ".svc")
                .contains(" peers")
                .contains("a.peers." + ns + ".svc"));
        assertThat(Files.readString(dns.hostsFile("default"))).contains("peers." + ns + ".svc")
                .doesNotContain(" peers\n").doesNotContain(" peers ");
        client.pods().inNamespace(ns).withName("a").delete();
        client.pods().inNamespace(ns).withName("b").delete();
    }

    @Test
    void unknownImageFailsLoudly() {
        String ns = namespace("image");
        client.pods().inNamespace(ns).resource(new PodBuilder().withNewMetadata().withName("web").endMetadata()
                .withNewSpec().addNewContainer().withName("web").withImage("nginx:1.27").endContainer().endSpec().build())
                .create();
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            Pod pod = client.pods().inNamespace(ns).withName("web").get();
            assertThat(pod.getStatus()).isNotNull();
            assertThat(pod.getStatus().getPhase()).isEqualTo("Pending");
            assertThat(pod.getStatus().getContainerStatuses().get(0).getState().getWaiting().getReason())
                    .isEqualTo("ImageNotEmulated");
            List<Event> events = client.v1().events().inNamespace(ns).list().getItems();
            assertThat(events).anySatisfy(e -> {
                assertThat(e.getType()).isEqualTo("Warning");
                assertThat(e.getReason()).isEqualTo("ImageNotEmulated");
                assertThat(e.getMessage()).contains("nginx:1.27");
            });
        });
        client.pods().inNamespace(ns).withName("web").delete();
    }

    @Test
    void failingContainerWithRestartNeverFailsThePod() {
        String ns = namespace("never");
        client.pods().inNamespace(ns).resource(shellPod("once", "Never", "exit 1")).create();
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            Pod pod = client.pods().inNamespace(ns).withName("once").get();
            assertThat(pod.getStatus()).isNotNull();
            assertThat(pod.getStatus().getPhase()).isEqualTo("Failed");
            ContainerStatus status = pod.getStatus().getContainerStatuses().get(0);
            assertThat(status.getState().getTerminated().getExitCode()).isEqualTo(1);
            assertThat(status.getRestartCount()).isZero();
        });
        client.pods().inNamespace(ns).withName("once").delete();
    }

    @Test
    void failingContainerWithRestartAlwaysIsRestarted() {
        String ns = namespace("always");
        client.pods().inNamespace(ns).resource(shellPod("crash", "Always", "exit 1")).create();
        // at once the first time, as the kubelet does; the second time after the 10 s back-off
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            Pod pod = client.pods().inNamespace(ns).withName("crash").get();
            assertThat(pod.getStatus()).isNotNull();
            ContainerStatus status = pod.getStatus().getContainerStatuses().get(0);
            assertThat(status.getRestartCount()).isGreaterThanOrEqualTo(2);
            assertThat(status.getLastState().getTerminated().getExitCode()).isEqualTo(1);
            assertThat(pod.getStatus().getPhase()).isEqualTo("Running");
        });
        client.pods().inNamespace(ns).withName("crash").delete();
    }

    private static String namespace(String name) {
        client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(name).endMetadata().build()).create();
        return name;
    }

    private static Pod etcdPod(String name, String claim) {
        PodBuilder pod = new PodBuilder().withNewMetadata().withName(name).addToLabels("app", "etcd").endMetadata()
                .withNewSpec().withTerminationGracePeriodSeconds(5L).withHostname(name).withSubdomain("etcd")
                .addNewContainer().withName("etcd").withImage(ETCD_IMAGE)
                .withCommand("/usr/local/bin/etcd", "--name", "$(POD_NAME)", "--data-dir", "/var/etcd/data",
                        "--logger", "zap",
                        "--listen-client-urls", "http://0.0.0.0:2379",
                        "--advertise-client-urls", "http://$(POD_IP):2379",
                        "--listen-peer-urls", "http://0.0.0.0:2380",
                        "--initial-advertise-peer-urls", "http://$(POD_IP):2380",
                        "--initial-cluster", "$(POD_NAME)=http://$(POD_IP):2380")
                .addNewEnv().withName("POD_NAME").withNewValueFrom().withNewFieldRef().withFieldPath("metadata.name")
                .endFieldRef().endValueFrom().endEnv()
                .addNewEnv().withName("POD_IP").withNewValueFrom().withNewFieldRef().withFieldPath("status.podIP")
                .endFieldRef().endValueFrom().endEnv()
                .addNewVolumeMount().withName("data").withMountPath("/var/etcd").endVolumeMount()
                .withNewReadinessProbe().withNewHttpGet().withPath("/health").withNewPort(2379).endHttpGet()
                .withPeriodSeconds(1).endReadinessProbe()
                .endContainer().endSpec();
        if (claim == null) {
            pod.editSpec().addNewVolume().withName("data").withNewEmptyDir().endEmptyDir().endVolume().endSpec();
        } else {
            pod.editSpec().addNewVolume().withName("data").withNewPersistentVolumeClaim().withClaimName(claim)
                    .endPersistentVolumeClaim().endVolume().endSpec();
        }
        return pod.build();
    }

    private static Pod shellPod(String name, String restartPolicy, String script) {
        return new PodBuilder().withNewMetadata().withName(name).addToLabels("app", "dns").endMetadata()
                .withNewSpec().withRestartPolicy(restartPolicy).withTerminationGracePeriodSeconds(2L)
                .withHostname(name).withSubdomain("peers")
                .addNewContainer().withName("main").withImage("busybox:1.36").withCommand("sh", "-c", script)
                .endContainer().endSpec().build();
    }

    private static Pod awaitReady(String ns, String name) {
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            Pod pod = client.pods().inNamespace(ns).withName(name).get();
            return pod != null && condition(pod, "Ready").map(c -> "True".equals(c.getStatus())).orElse(false);
        });
        return client.pods().inNamespace(ns).withName(name).get();
    }

    private static Optional<PodCondition> condition(Pod pod, String type) {
        if (pod.getStatus() == null || pod.getStatus().getConditions() == null) {
            return Optional.empty();
        }
        return pod.getStatus().getConditions().stream().filter(c -> type.equals(c.getType())).findFirst();
    }

    private static long pid(ContainerStatus status) {
        return Long.parseLong(status.getContainerID().substring("sandbox://".length()));
    }

    private static String etcdctl(String ip, String... args) throws Exception {
        List<String> command = new java.util.ArrayList<>(List.of("etcdctl", "--endpoints", "http://" + ip + ":2379",
                "--command-timeout=5s"));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().put("ETCDCTL_API", "3");
        Process process = builder.start();
        if (!process.waitFor(15, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor();
            throw new AssertionError("etcdctl " + String.join(" ", args) + " timed out");
        }
        String output = new String(process.getInputStream().readAllBytes());
        assertThat(process.exitValue()).as("etcdctl " + String.join(" ", args) + ": " + output).isZero();
        return output;
    }
}
