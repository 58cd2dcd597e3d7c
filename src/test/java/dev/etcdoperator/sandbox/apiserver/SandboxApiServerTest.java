package dev.etcdoperator.sandbox.apiserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import com.fasterxml.jackson.databind.JsonNode;
import dev.etcdoperator.api.v1beta2.EtcdCluster;
import dev.etcdoperator.sandbox.support.Kubectl;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SandboxApiServerTest {
    static SandboxApiServer api;
    static Kubectl kubectl;

    @TempDir
    static Path dir;

    @BeforeAll
    static void start() throws Exception {
        api = SandboxApiServer.start(0, Path.of("crds"), AdmissionControl.NONE);
        Path kubeconfig = dir.resolve("kubeconfig");
        Files.writeString(kubeconfig, api.kubeconfig());
        kubectl = new Kubectl(kubeconfig);
    }

    @AfterAll
    static void stop() {
        api.close();
    }

    @Test
    void kubectlDiscoversTheThreeKindsWithTheirShortName() {
        assumeTrue(Kubectl.available(), "kubectl is not installed: kubectl checks skipped");
        Kubectl.Result result = kubectl.run("api-resources", "--api-group=etcd.database.coreos.com");
        assertThat(result.ok()).as(result.output()).isTrue();
        assertThat(result.output()).contains("etcdclusters").contains("etcdbackups").contains("etcdrestores")
                .containsPattern("etcdclusters\\s+etcd\\s+etcd.database.coreos.com/v1beta2\\s+true\\s+EtcdCluster");
    }

    @Test
    void applyGetScaleAndDeleteTheExamples() {
        assumeTrue(Kubectl.available(), "kubectl is not installed: kubectl checks skipped");
        Kubectl.Result applied = kubectl.run("apply", "-f", "docs/examples/");
        assertThat(applied.ok()).as(applied.output()).isTrue();
        assertThat(applied.output()).contains("etcdcluster.etcd.database.coreos.com/example created")
                .contains("etcdbackup.etcd.database.coreos.com/example-backup created")
                .contains("etcdrestore.etcd.database.coreos.com/example-restore created");

        Kubectl.Result listed = kubectl.run("get", "etcdclusters");
        assertThat(listed.ok()).as(listed.output()).isTrue();
        assertThat(listed.output().lines().findFirst().orElseThrow())
                .matches("NAME\\s+AGE\\s+SIZE\\s+VERSION\\s+PHASE\\s+READY\\s*");
        assertThat(listed.output()).containsPattern("example\\s+\\d+s\\s+3\\s+3.5.17");

        Kubectl.Result scaled = kubectl.run("scale", "etcdcluster", "example", "--replicas=5");
        assertThat(scaled.ok()).as(scaled.output()).isTrue();
        assertThat(api.client().resources(EtcdCluster.class).withName("example").get().getSpec().getSize())
                .isEqualTo(5);

        Kubectl.Result reapplied = kubectl.run("apply", "-f", "docs/examples/etcdcluster.yaml");
        assertThat(reapplied.ok()).as(reapplied.output()).isTrue();
        assertThat(api.client().resources(EtcdCluster.class).withName("example").get().getSpec().getSize())
                .isEqualTo(3);

        Kubectl.Result deleted = kubectl.run("delete", "-f", "docs/examples/");
        assertThat(deleted.ok()).as(deleted.output()).isTrue();
        assertThat(api.client().resources(EtcdCluster.class).list().getItems()).isEmpty();
    }

    @Test
    void refusedAdmissionAnswersWithTheStatusItGives() {
        assumeTrue(Kubectl.available(), "kubectl is not installed: kubectl checks skipped");
        api.setAdmission((group, plural, operation, object, old) -> AdmissionControl.Decision.deny(422,
                "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},\"status\":\"Failure\","
                        + "\"message\":\"EtcdCluster.etcd.database.coreos.com \\\"example\\\" is invalid: spec.size: "
                        + "Invalid value: 3: refused by test\",\"reason\":\"Invalid\",\"code\":422}"));
        try {
            Kubectl.Result refused = kubectl.run("apply", "-f", "docs/examples/etcdcluster.yaml");
            assertThat(refused.ok()).isFalse();
            assertThat(refused.output()).contains("spec.size: Invalid value: 3: refused by test");
            assertThat(api.client().resources(EtcdCluster.class).withName("example").get()).isNull();
        } finally {
            api.setAdmission(AdmissionControl.NONE);
        }
    }

    @Test
    void ownedObjectsAreCollectedWithTheirOwner() {
        EtcdCluster owner = api.client().resource(
                io.fabric8.kubernetes.client.utils.Serialization.unmarshal(
                        "{\"apiVersion\":\"etcd.database.coreos.com/v1beta2\",\"kind\":\"EtcdCluster\","
                                + "\"metadata\":{\"name\":\"owner\",\"namespace\":\"default\"},\"spec\":{\"size\":1}}",
                        EtcdCluster.class))
                .create();
        api.client().configMaps().resource(new ConfigMapBuilder().withNewMetadata().withName("owned")
                .withNamespace("default").withOwnerReferences(new OwnerReferenceBuilder()
                        .withApiVersion(owner.getApiVersion()).withKind(owner.getKind())
                        .withName("owner").withUid(owner.getMetadata().getUid()).build())
                .endMetadata().build()).create();
        api.client().configMaps().resource(new ConfigMapBuilder().withNewMetadata().withName("unowned")
                .withNamespace("default").endMetadata().build()).create();
        assertThat(api.sweepGarbage()).isZero();

        api.client().resource(owner).delete();
        await().atMost(Duration.ofSeconds(10))
                .until(() -> api.client().configMaps().withName("owned").get() == null);
        assertThat(api.client().configMaps().withName("unowned").get()).isNotNull();
    }

    @Test
    void tablesAndFieldSelectorsAnswerAsAnApiServerDoes() throws Exception {
        JsonNode none = new com.fasterxml.jackson.databind.ObjectMapper().readTree(
                api.client().getHttpClient().sendAsync(api.client().getHttpClient().newHttpRequestBuilder()
                        .uri(api.url() + "/api/v1/namespaces/default/events?fieldSelector=involvedObject.name%3Dnothing")
                        .build(), String.class).get().body());
        assertThat(none.path("items").size()).isZero();
    }
}
