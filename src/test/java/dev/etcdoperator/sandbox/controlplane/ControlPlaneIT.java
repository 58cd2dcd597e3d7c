package dev.etcdoperator.sandbox.controlplane;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import dev.etcdoperator.sandbox.support.Kubectl;
import io.fabric8.kubernetes.api.model.Secret;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * The project's CRDs and the kubectl commands of the docs against a real kube-apiserver, exactly as shipped:
 * both copies of the CRDs (crds/ and the Helm chart's) are admitted by the API server's own CRD validation.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ControlPlaneIT {
    static ControlPlane plane;
    static Kubectl kubectl;

    @BeforeAll
    static void start() throws Exception {
        Path dir = Path.of("target", "control-plane-it");
        plane = ControlPlane.start(dir, 0);
        Path kubeconfig = dir.resolve("kubeconfig").toAbsolutePath();
        Files.writeString(kubeconfig, plane.kubeconfig("sandbox-admin", plane.adminToken(), "default"));
        kubectl = new Kubectl(kubeconfig);
    }

    @AfterAll
    static void stop() {
        if (plane != null) {
            plane.close();
        }
    }

    @Test
    @Order(1)
    void theHelmChartsCrdsAreAdmittedByTheApiServer() {
        Kubectl.Result created = kubectl.run("create", "--dry-run=server", "-f", "helm/etcd-operator/crds/");
        assertThat(created.ok()).as(created.output()).isTrue();
        assertThat(created.output()).contains(
                "customresourcedefinition.apiextensions.k8s.io/etcdbackups.etcd.database.coreos.com created (server dry run)",
                "customresourcedefinition.apiextensions.k8s.io/etcdclusters.etcd.database.coreos.com created (server dry run)",
                "customresourcedefinition.apiextensions.k8s.io/etcdrestores.etcd.database.coreos.com created (server dry run)");
    }

    @Test
    @Order(2)
    void theCrdsApplyAndApplyAgainUnchangedAndBecomeEstablished() {
        Kubectl.Result first = kubectl.run("apply", "-f", "crds/");
        assertThat(first.ok()).as(first.output()).isTrue();
        assertThat(first.output()).contains("etcdclusters.etcd.database.coreos.com created",
                "etcdbackups.etcd.database.coreos.com created", "etcdrestores.etcd.database.coreos.com created");
        Kubectl.Result established = kubectl.run("wait", "--for=condition=Established", "--timeout=60s",
                "crd/etcdclusters.etcd.database.coreos.com", "crd/etcdbackups.etcd.database.coreos.com",
                "crd/etcdrestores.etcd.database.coreos.com");
        assertThat(established.ok()).as(established.output()).isTrue();
        Map<String, String> versions = resourceVersions();
        // kubectl may say "configured" for a CRD with printer columns: the generated CRDs spell out "priority: 0",
        // which the API server does not store, so its client-side patch is not empty; the server changes nothing
        Kubectl.Result second = kubectl.run("apply", "-f", "crds/");
        assertThat(second.ok()).as(second.output()).isTrue();
        Kubectl.Result chart = kubectl.run("apply", "-f", "helm/etcd-operator/crds/");
        assertThat(chart.ok()).as(chart.output()).isTrue();
        assertThat(resourceVersions()).as("applying the same CRDs again changes nothing").isEqualTo(versions);
    }

    private static Map<String, String> resourceVersions() {
        return plane.client().apiextensions().v1().customResourceDefinitions().list().getItems().stream()
                .collect(Collectors.toMap(c -> c.getMetadata().getName(), c -> c.getMetadata().getResourceVersion()));
    }

    @Test
    @Order(3)
    void kubectlExplainsTheResources() {
        // the API server publishes a new CRD's schema for explain shortly after the CRD is established
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(250)).untilAsserted(() -> {
            Kubectl.Result explained = kubectl.run("explain", "etcdcluster.spec.size");
            assertThat(explained.ok()).as(explained.output()).isTrue();
            assertThat(explained.output()).contains("Desired number of members");
        });
    }

    @Test
    @Order(4)
    void credentialsSecretsAreCreatedFromFilesAsUsersDo(@TempDir Path files) throws Exception {
        Path credentials = Files.writeString(files.resolve("credentials"),
                "[default]\naws_access_key_id = id\naws_secret_access_key = secret\n");
        Path config = Files.writeString(files.resolve("config"), "[default]\nregion = us-east-1\n");
        Kubectl.Result created = kubectl.run("create", "secret", "generic", "aws", "--from-file=" + credentials,
                "--from-file=" + config);
        assertThat(created.ok()).as(created.output()).isTrue();
        Secret secret = plane.client().secrets().inNamespace("default").withName("aws").get();
        assertThat(secret.getData()).containsOnlyKeys("credentials", "config");
    }

    /**
     * A manifest written for the CoreOS operator, whose CRD had no schema, may give a quantity as a number, as a pod
     * may: the CRD takes it; a string must still read as a quantity, and an object, a list or a boolean is refused
     * (the operator could not read it, and one object it cannot read would stop its watch of every EtcdCluster).
     */
    @Test
    @Order(4)
    void quantitiesMayBeNumbersAsInAPod(@TempDir Path files) throws Exception {
        Kubectl.Result created = createDryRun(files, "resources: {requests: {cpu: 0.5, memory: 1Gi},"
                + " limits: {cpu: 2, memory: \"2Gi\"}}");
        assertThat(created.ok()).as(created.output()).isTrue();
        Kubectl.Result refused = createDryRun(files, "resources: {requests: {cpu: lots}}");
        assertThat(refused.ok()).as(refused.output()).isFalse();
        assertThat(refused.output()).contains("spec.pod.resources.requests.cpu");
        for (String value : List.of("{amount: 1}", "{}", "[1]", "[]", "true", "false")) {
            Kubectl.Result notAQuantity = createDryRun(files, "resources: {limits: {cpu: 1, memory: " + value + "}}");
            assertThat(notAQuantity.ok()).as(value + ": " + notAQuantity.output()).isFalse();
            assertThat(notAQuantity.output()).as(value).contains("spec.pod.resources.limits.memory");
            Kubectl.Result notAStorage = createDryRun(files, "persistentVolumeClaimSpec: {resources: {requests:"
                    + " {storage: " + value + "}}}");
            assertThat(notAStorage.ok()).as(value + ": " + notAStorage.output()).isFalse();
            assertThat(notAStorage.output()).as(value)
                    .contains("spec.pod.persistentVolumeClaimSpec.resources.requests.storage");
        }
        Kubectl.Result claim = createDryRun(files, "persistentVolumeClaimSpec: {resources: {requests: {storage: 1}}}");
        assertThat(claim.ok()).as(claim.output()).isTrue();
    }

    /** {@code kubectl create --dry-run=server} of an EtcdCluster whose spec.pod is {@code pod}, one line of YAML. */
    private Kubectl.Result createDryRun(Path files, String pod) throws Exception {
        Path manifest = Files.writeString(files.resolve("cluster.yaml"), """
                apiVersion: etcd.database.coreos.com/v1beta2
                kind: EtcdCluster
                metadata: {name: quantities, namespace: default}
                spec:
                  size: 3
                  pod: {%s}
                """.formatted(pod));
        return kubectl.run("create", "--dry-run=server", "-f", manifest.toString());
    }

    @Test
    @Order(5)
    void serviceAccountTokensAuthenticateAsTheirAccount() {
        String token = plane.tokenFor("default", "default", Duration.ofMinutes(10));
        try (var client = new io.fabric8.kubernetes.client.KubernetesClientBuilder()
                .withConfig(plane.clientConfig(token, "default")).build()) {
            var review = client.authorization().v1().selfSubjectAccessReview().create(
                    new io.fabric8.kubernetes.api.model.authorization.v1.SelfSubjectAccessReviewBuilder().withNewSpec()
                            .withNewResourceAttributes().withVerb("list").withResource("secrets")
                            .withNamespace("default").endResourceAttributes().endSpec().build());
            assertThat(review.getStatus().getAllowed()).as("RBAC gives the default account nothing").isFalse();
        }
    }
}
