package dev.etcdoperator.sandbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Stream;

import dev.etcdoperator.api.v1beta2.EtcdCluster;
import dev.etcdoperator.api.v1beta2.EtcdClusterSpec;
import dev.etcdoperator.sandbox.support.Etcdctl;
import dev.etcdoperator.sandbox.support.Kubectl;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceQuota;
import io.fabric8.kubernetes.api.model.ResourceQuotaBuilder;
import io.fabric8.kubernetes.api.model.ResourceQuotaStatusBuilder;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The sandbox as a user sees it: kubectl against its API server, real etcd in its pods, and the packaged
 * operator answering on /q/health and /q/metrics.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class SandboxIT {
    static Sandbox sandbox;
    static Kubectl kubectl;

    @BeforeAll
    static void start() {
        sandbox = Sandbox.start(Sandbox.options().stateDir(Path.of("target", "sandbox-it")));
        kubectl = new Kubectl(sandbox.kubeconfig());
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
    void theOperatorAnswersHealthAndMetrics() {
        assertThat(sandbox.operator().get("/q/health").statusCode()).isEqualTo(200);
        assertThat(sandbox.operator().get("/q/health").body()).contains("\"status\": \"UP\"");
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(sandbox.operator().get("/q/metrics")
                .body()).contains("jvm_memory_used_bytes"));
    }

    @Test
    @Order(1)
    void theOperatorRunsWithTheClassDataArchiveItsImageMakes() throws Exception {
        // the JVM maps an archive it accepts; one made by another JVM or from other jars it ignores without a word
        assertThat(Files.readString(Path.of("/proc", String.valueOf(sandbox.operator().pid()), "maps")))
                .contains(Path.of("target", "quarkus-app", "operator.jsa").toAbsolutePath().toString());
    }

    @Test
    @Order(2)
    void aBareEtcdPodRunsKeepsItsDataOnItsClaimAndStopsWhenDeleted() throws Exception {
        assumeTrue(Kubectl.available(), "kubectl is not installed: the kubectl scenario is skipped");
        Kubectl.Result applied = kubectl.run("apply", "-f", "docs/examples/sandbox/etcd-pod.yaml");
        assertThat(applied.ok()).as(applied.output()).isTrue();
        Pod pod = awaitReady("etcd-standalone");
        assertThat(pod.getStatus().getPodIP()).startsWith("127.");
        Etcdctl etcd = new Etcdctl("http://" + pod.getStatus().getPodIP() + ":2379");
        etcd.put("greeting", "hello from the sandbox");
        assertThat(etcd.get("greeting")).isEqualTo("hello from the sandbox");

        long pid = Long.parseLong(pod.getStatus().getContainerStatuses().get(0).getContainerID()
                .replace("sandbox://", ""));
        assertThat(ProcessHandle.of(pid)).isPresent();
        Kubectl.Result deleted = kubectl.run("delete", "pod", "etcd-standalone");
        assertThat(deleted.ok()).as(deleted.output()).isTrue();
        await().atMost(Duration.ofSeconds(40)).until(() -> ProcessHandle.of(pid).map(p -> !p.isAlive()).orElse(true));

        Kubectl.Result again = kubectl.run("apply", "-f", "docs/examples/sandbox/etcd-pod.yaml");
        assertThat(again.ok()).as(again.output()).isTrue();
        Pod second = awaitReady("etcd-standalone");
        assertThat(new Etcdctl("http://" + second.getStatus().getPodIP() + ":2379").get("greeting"))
                .isEqualTo("hello from the sandbox");
        assertThat(kubectl.run("delete", "-f", "docs/examples/sandbox/etcd-pod.yaml").ok()).isTrue();
    }

    @Test
    @Order(3)
    void theExamplesApplyAndListWithTheirPrinterColumns() {
        assumeTrue(Kubectl.available(), "kubectl is not installed: the kubectl scenario is skipped");
        Kubectl.Result applied = kubectl.run("apply", "-f", "docs/examples/");
        assertThat(applied.ok()).as(applied.output()).isTrue();
        assertThat(applied.output()).contains("etcdcluster.etcd.database.coreos.com/example created",
                "etcdbackup.etcd.database.coreos.com/example-backup created",
                "etcdrestore.etcd.database.coreos.com/example-restore created");
        Kubectl.Result listed = kubectl.run("get", "etcdclusters");
        assertThat(listed.output().lines().findFirst().orElseThrow())
                .matches("NAME\\s+SIZE\\s+VERSION\\s+PHASE\\s+READY\\s+AVAILABLE\\s+AGE\\s*");
        assertThat(listed.output()).containsPattern("(?m)^example\\s+3\\s+3\\.5\\.35");
        Kubectl.Result deleted = kubectl.run("delete", "-f", "docs/examples/");
        assertThat(deleted.ok()).as(deleted.output()).isTrue();
    }

    /** The kubectl walk-through of the README, verb by verb, against the real API server. */
    @Test
    @Order(7)
    void theReadmeWalkThroughWorksWithKubectl() {
        Kubectl.Result explained = kubectl.run("explain", "etcdcluster.spec");
        assertThat(explained.ok()).as(explained.output()).isTrue();
        assertThat(explained.output()).contains("size", "version");
        assertThat(unwrapped(explained)).contains("Desired number of members, 1 to 7.");
        Kubectl.Result embedded = kubectl.run("explain", "etcdcluster.spec.pod.tolerations.tolerationSeconds");
        assertThat(unwrapped(embedded)).as("a field of an embedded Kubernetes type")
                .contains("(which must be of effect NoExecute, otherwise this field is ignored)");
        Kubectl.Result backupStatus = kubectl.run("explain", "etcdbackup.status.backupSize");
        assertThat(unwrapped(backupStatus)).contains("Bytes of the last successful backup.");
        Kubectl.Result applied = kubectl.run("apply", "-f", "docs/examples/etcdcluster.yaml");
        assertThat(applied.ok()).as(applied.output()).isTrue();
        Kubectl.Result again = kubectl.run("apply", "-f", "docs/examples/etcdcluster.yaml");
        assertThat(again.ok()).as(again.output()).isTrue();
        Kubectl.Result available = kubectl.run("wait", "--for=condition=Ready", "etcdcluster/example",
                "--timeout=150s");
        assertThat(available.ok()).as(available.output()).isTrue();
        Kubectl.Result watched = kubectl.run("get", "etcdclusters", "-w", "--request-timeout=3s");
        assertThat(watched.output()).contains("example");
        Kubectl.Result scaled = kubectl.run("scale", "etcdcluster", "example", "--replicas=1");
        assertThat(scaled.ok()).as(scaled.output()).isTrue();
        await().atMost(Duration.ofSeconds(150)).until(() -> client().pods().inNamespace("default")
                .withLabel("etcd_cluster", "example").list().getItems().size() == 1);
        Kubectl.Result patched = kubectl.run("patch", "etcdcluster", "example", "--type=merge", "-p",
                "{\"spec\":{\"size\":3}}");
        assertThat(patched.ok()).as(patched.output()).isTrue();
        Kubectl.Result grown = kubectl.run("wait", "--for=jsonpath={.status.readyMembers}=3", "etcdcluster/example",
                "--timeout=150s");
        assertThat(grown.ok()).as(grown.output()).isTrue();
        Kubectl.Result ready = kubectl.run("wait", "--for=condition=Ready", "etcdcluster/example", "--timeout=150s");
        assertThat(ready.ok()).as(ready.output()).isTrue();
        assertThat(kubectl.run("get", "etcdclusters", "example").output())
                .containsPattern("(?m)^example\\s+3\\s+3\\.5\\.35\\s+Running\\s+3/3\\s+True\\s+\\S+\\s*$");
        Kubectl.Result described = kubectl.run("describe", "etcdcluster", "example");
        assertThat(described.ok()).as(described.output()).isTrue();
        assertThat(described.output()).contains("Conditions", "Events:", "MemberAdded", "MemberRemoved");
        assertThat(kubectl.run("delete", "-f", "docs/examples/etcdcluster.yaml").ok()).isTrue();
    }

    /**
     * A step that fails the same way every second (a ResourceQuota refuses every pod) leaves one Warning Event whose
     * count grows, shown by kubectl describe with its count.
     */
    @Test
    @Order(8)
    void aStepFailingOverAndOverLeavesOneEventWhoseCountGrows() {
        String namespace = "no-pods";
        sandbox.namespace(namespace);
        ResourceQuota quota = client().resource(new ResourceQuotaBuilder().withNewMetadata().withName("no-pods")
                .withNamespace(namespace).endMetadata().withNewSpec().addToHard("pods", new Quantity("0")).endSpec()
                .build()).create();
        // what kube-controller-manager's quota controller would write (the sandbox does not run it)
        quota.setStatus(new ResourceQuotaStatusBuilder().addToHard("pods", new Quantity("0"))
                .addToUsed("pods", new Quantity("0")).build());
        client().resource(quota).updateStatus();
        EtcdCluster cluster = new EtcdCluster();
        cluster.setMetadata(new ObjectMetaBuilder().withName("refused").withNamespace(namespace).build());
        cluster.setSpec(new EtcdClusterSpec());
        cluster.getSpec().setSize(1);
        cluster.getSpec().setVersion("3.5.35");
        client().resource(cluster).create();

        await().atMost(Duration.ofSeconds(90)).untilAsserted(() -> {
            List<Event> failed = client().v1().events().inNamespace(namespace).list().getItems().stream()
                    .filter(e -> "refused".equals(e.getInvolvedObject().getName()) && "StepFailed".equals(e.getReason()))
                    .toList();
            assertThat(failed).singleElement().satisfies(e -> {
                assertThat(e.getType()).isEqualTo("Warning");
                assertThat(e.getMessage()).contains("exceeded quota");
                assertThat(e.getCount()).isGreaterThanOrEqualTo(3);
                assertThat(e.getInvolvedObject().getKind()).isEqualTo("EtcdCluster");
                assertThat(e.getInvolvedObject().getUid()).isNotBlank();
            });
        });
        if (Kubectl.available()) {
            Kubectl.Result described = kubectl.run("describe", "etcdcluster", "refused", "-n", namespace);
            assertThat(described.ok()).as(described.output()).isTrue();
            assertThat(described.output()).containsPattern("StepFailed\\s+\\S+ \\(x\\d+ over \\S+\\)");
        }
        client().resource(cluster).delete();
    }

    /**
     * {@code kubectl describe} finds the operator's Events of every kind: it looks them up by involved object (kind,
     * name, namespace, uid), so what the operator records must name the resource exactly. A backup and a restore that
     * cannot succeed here (no such cluster, no S3 server) record a Warning each and are Ready=False.
     */
    @Test
    @Order(8)
    void kubectlDescribeShowsTheOperatorsEventsOfABackupAndARestore() throws Exception {
        Path dir = Files.createDirectories(Path.of("target", "sandbox-it", "manifests"));
        Path manifests = dir.resolve("describe.yaml");
        Files.writeString(manifests, """
                apiVersion: etcd.database.coreos.com/v1beta2
                kind: EtcdBackup
                metadata:
                  name: described-backup
                spec:
                  etcdEndpoints: [http://nowhere-client:2379]
                  storageType: S3
                  backupPolicy: {timeoutInSecond: 5}
                  s3: {path: etcd-backups/nowhere/snapshot.db, awsSecret: aws, endpoint: http://127.0.0.1:9, forcePathStyle: true}
                ---
                apiVersion: etcd.database.coreos.com/v1beta2
                kind: EtcdRestore
                metadata:
                  name: described-restore
                spec:
                  etcdCluster: {name: nowhere}
                  backupStorageType: S3
                  s3: {path: etcd-backups/nowhere/snapshot.db, awsSecret: aws, endpoint: http://127.0.0.1:9, forcePathStyle: true}
                """);
        Kubectl.Result applied = kubectl.run("apply", "-f", manifests.toString());
        assertThat(applied.ok()).as(applied.output()).isTrue();
        for (String[] resource : List.of(new String[] {"EtcdBackup", "etcdbackup", "described-backup"},
                new String[] {"EtcdRestore", "etcdrestore", "described-restore"})) {
            GenericKubernetesResource stored = client().genericKubernetesResources("etcd.database.coreos.com/v1beta2",
                    resource[0]).inNamespace("default").withName(resource[2]).get();
            Event event = await().atMost(Duration.ofSeconds(60)).until(() -> client().v1().events()
                    .inNamespace("default").list().getItems().stream()
                    .filter(e -> stored.getMetadata().getUid().equals(e.getInvolvedObject().getUid()))
                    .findFirst().orElse(null), Objects::nonNull);
            assertThat(event.getInvolvedObject().getKind()).isEqualTo(resource[0]);
            assertThat(event.getInvolvedObject().getApiVersion()).isEqualTo("etcd.database.coreos.com/v1beta2");
            assertThat(event.getInvolvedObject().getName()).isEqualTo(resource[2]);
            assertThat(event.getInvolvedObject().getNamespace()).isEqualTo("default");
            Kubectl.Result described = kubectl.run("describe", resource[1], resource[2]);
            assertThat(described.ok()).as(described.output()).isTrue();
            assertThat(described.output()).as(resource[0]).contains("Events:", event.getReason(), "etcd-operator");
            Kubectl.Result notReady = kubectl.run("wait", "--for=condition=Ready=False", resource[1] + "/" + resource[2],
                    "--timeout=60s");
            assertThat(notReady.ok()).as(notReady.output()).isTrue();
        }
        Kubectl.Result backups = kubectl.run("get", "etcdbackups");
        assertThat(backups.output().lines().findFirst().orElseThrow())
                .matches("NAME\\s+SUCCEEDED\\s+LAST SUCCESS\\s+PATH\\s+SIZE\\s+AGE\\s*");
        Kubectl.Result restores = kubectl.run("get", "etcdrestores");
        assertThat(restores.output().lines().findFirst().orElseThrow())
                .matches("NAME\\s+PHASE\\s+CLUSTER\\s+SUCCEEDED\\s+AGE\\s*");
        assertThat(restores.output()).containsPattern("(?m)^described-restore\\s+Failed\\s+nowhere\\s+false");
        assertThat(kubectl.run("delete", "-f", manifests.toString()).ok()).isTrue();
    }

    static Stream<Path> invalidManifests() throws Exception {
        try (Stream<Path> files = Files.list(Path.of("src/test/resources/manifests/invalid"))) {
            return files.sorted().toList().stream();
        }
    }

    @ParameterizedTest
    @MethodSource("invalidManifests")
    @Order(4)
    void kubectlApplyOfAnInvalidManifestIsRefusedWithTheFieldError(Path manifest) throws Exception {
        assumeTrue(Kubectl.available(), "kubectl is not installed: the kubectl scenario is skipped");
        ExpectedError expected = ExpectedError.of(manifest);
        Kubectl.Result refused = kubectl.run("apply", "-f", manifest.toString());
        assertThat(refused.ok()).as(refused.output()).isFalse();
        assertThat(refused.output()).contains("is invalid").contains(expected.field()).contains(expected.message());
    }

    static Stream<Path> deserializableInvalidManifests() throws Exception {
        return invalidManifests().filter(p -> {
            try {
                return ExpectedError.of(p).deserializable();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
    }

    /**
     * Schema validation bypassed (the CRDs' schemas replaced by ones that keep anything, as with CRDs older than the
     * operator): the operator's own checks mark each resource invalid with a condition and an Event, and create
     * nothing for it.
     */
    @Test
    @Order(5)
    void theOperatorRefusesWhatTheSchemaWouldHaveRefused() throws Exception {
        List<Path> manifests = deserializableInvalidManifests().toList();
        assertThat(manifests).isNotEmpty();
        Map<Path, HasMetadata> resources = new java.util.LinkedHashMap<>();
        for (Path manifest : manifests) {
            String namespace = manifest.getFileName().toString().replace(".yaml", "");
            HasMetadata resource = Serialization.unmarshal(Files.readString(manifest));
            resource.getMetadata().setNamespace(namespace);
            sandbox.namespace(namespace);
            resources.put(manifest, resource);
        }
        // the operator writes its status while the schema is lax: a real API server checks the whole object, spec
        // included, on a status update
        sandbox.withoutSchemaChecks(() -> {
            resources.values().forEach(SandboxIT::createUnlessThere);
            await().atMost(Duration.ofSeconds(90)).untilAsserted(() -> {
                for (Map.Entry<Path, HasMetadata> e : resources.entrySet()) {
                    HasMetadata resource = e.getValue();
                    GenericKubernetesResource stored = client().genericKubernetesResources(resource.getApiVersion(),
                            resource.getKind()).inNamespace(resource.getMetadata().getNamespace())
                            .withName(resource.getMetadata().getName()).get();
                    Map<String, Object> status = stored.get("status");
                    assertThat(status).as("status of " + e.getKey()).isNotNull();
                    assertThat(String.valueOf(status.get("conditions"))).as(e.getKey().toString())
                            .contains("type=Valid", "status=False", "reason=InvalidSpec",
                                    ExpectedError.of(e.getKey()).field());
                }
            });
        });
        for (HasMetadata resource : resources.values()) {
            String namespace = resource.getMetadata().getNamespace();
            List<Event> events = client().v1().events().inNamespace(namespace).list().getItems();
            assertThat(events).as(namespace).anySatisfy(e -> {
                assertThat(e.getType()).isEqualTo("Warning");
                assertThat(e.getReason()).isEqualTo("InvalidSpec");
                assertThat(e.getInvolvedObject().getName()).isEqualTo(resource.getMetadata().getName());
            });
            assertThat(client().pods().inNamespace(namespace).list().getItems()).as(namespace).isEmpty();
            assertThat(client().services().inNamespace(namespace).list().getItems()).as(namespace).isEmpty();
            assertThat(client().persistentVolumeClaims().inNamespace(namespace).list().getItems()).as(namespace)
                    .isEmpty();
        }
    }

    private static void createUnlessThere(HasMetadata resource) {
        try {
            client().resource(resource).create();
        } catch (io.fabric8.kubernetes.client.KubernetesClientException e) {
            if (e.getCode() != 409) {
                throw e;
            }
        }
    }

    @Test
    @Order(6)
    void theReconcileMetricsOfTheControllersAreExported() {
        String metrics = sandbox.operator().get("/q/metrics").body();
        assertThat(metrics).containsPattern("reconciliations_started_total\\{[^}]*etcdcluster");
        assertThat(metrics).containsPattern("reconciliations_started_total\\{[^}]*etcdbackup");
        assertThat(metrics).containsPattern("reconciliations_started_total\\{[^}]*etcdrestore");
    }

    @Test
    @Order(9)
    void anOperatorThatExitsByItselfIsStartedAgainAsItsPodsContainerWouldBe() throws Exception {
        OperatorProcess operator = sandbox.operator();
        long first = operator.pid();
        int restartsBefore = operator.restarts();
        // not through the sandbox: as the operator's own exit on a lost lease, or a crash
        ProcessHandle.of(first).orElseThrow().destroyForcibly();
        await().atMost(Duration.ofMinutes(2)).ignoreExceptions().until(() -> operator.pid() != first
                && operator.alive() && operator.get("/q/health/ready").statusCode() == 200);
        assertThat(operator.restarts()).isEqualTo(restartsBefore + 1);
        assertThat(Files.readString(operator.logFile())).contains("sandbox: the operator exited with");
    }

    /**
     * SIGTERM, as the kubelet stops a pod, to an operator that holds the leader lease: it stops within seconds (the
     * election stopped while shutting down must not exit from the shutdown hook, where an exit blocks for good), and
     * is started again.
     */
    @Test
    @Order(10)
    void aLeaderAskedToStopStopsWithinSecondsAndIsStartedAgain() throws Exception {
        OperatorProcess operator = sandbox.operator();
        await().atMost(Duration.ofMinutes(2)).ignoreExceptions().until(() -> operator.alive()
                && operator.get("/q/health/ready").statusCode() == 200);
        await().atMost(Duration.ofSeconds(30)).until(() -> Files.readString(operator.logFile())
                .contains("New leader with identity"));
        long first = operator.pid();
        int restartsBefore = operator.restarts();
        ProcessHandle process = ProcessHandle.of(first).orElseThrow();
        process.destroy();
        await().atMost(Duration.ofSeconds(15)).until(() -> !process.isAlive());
        await().atMost(Duration.ofMinutes(2)).ignoreExceptions().until(() -> operator.pid() != first
                && operator.alive() && operator.get("/q/health/ready").statusCode() == 200);
        assertThat(operator.restarts()).isEqualTo(restartsBefore + 1);
    }

    /** The "# expect: <field> <message>" line every invalid manifest starts with. */
    record ExpectedError(String field, String message, boolean deserializable) {
        static ExpectedError of(Path manifest) throws Exception {
            List<String> lines = Files.readAllLines(manifest);
            String expect = lines.stream().filter(l -> l.startsWith("# expect: ")).findFirst().orElseThrow()
                    .substring("# expect: ".length());
            int space = expect.indexOf(' ');
            boolean deserializable = lines.stream().noneMatch(l -> l.startsWith("# java: undeserializable"));
            return new ExpectedError(expect.substring(0, space), expect.substring(space + 1), deserializable);
        }
    }

    /** kubectl's output with its line wrapping undone. */
    private static String unwrapped(Kubectl.Result result) {
        return result.output().replaceAll("\\s+", " ");
    }

    private static Pod awaitReady(String name) {
        await().atMost(Duration.ofSeconds(60)).until(() -> {
            Pod p = client().pods().inNamespace("default").withName(name).get();
            return p != null && p.getStatus() != null && p.getStatus().getConditions() != null
                    && p.getStatus().getConditions().stream()
                            .anyMatch(c -> c.getType().equals("Ready") && c.getStatus().equals("True"));
        });
        return client().pods().inNamespace("default").withName(name).get();
    }
}
