package dev.etcdoperator.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;

import jakarta.inject.Inject;

import dev.etcdoperator.api.v1beta2.EtcdBackup;
import dev.etcdoperator.api.v1beta2.EtcdCluster;
import dev.etcdoperator.api.v1beta2.EtcdRestore;
import dev.etcdoperator.core.status.Conditions;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import org.junit.jupiter.api.Test;

/** The controllers against the fabric8 mock API server: a spec the schema would refuse, let through. */
@QuarkusTest
@WithKubernetesTestServer
class InvalidSpecReconcileTest {
    @Inject
    KubernetesClient client;

    @Inject
    io.javaoperatorsdk.operator.Operator operator;

    /** A reconcile that failed until its retries ran out is tried again within minutes, for each controller. */
    @Test
    void everyControllerLooksAgainWithinFiveMinutesWhatever() {
        var controllers = operator.getRegisteredControllers();
        assertThat(controllers).hasSize(3);
        for (var controller : controllers) {
            java.util.Optional<Duration> interval = controller.getConfiguration().maxReconciliationInterval();
            assertThat(interval).as(controller.getConfiguration().getName()).isPresent();
            assertThat(interval.get()).as(controller.getConfiguration().getName())
                    .isLessThanOrEqualTo(Duration.ofMinutes(5));
        }
    }

    /** A cluster that was looked at, then made invalid: Available no longer claims what the last look saw. */
    @Test
    void aClusterMadeInvalidSaysItsAvailabilityIsNotKnown() {
        client.resource(Serialization.unmarshal("""
                apiVersion: etcd.database.coreos.com/v1beta2
                kind: EtcdCluster
                metadata: {name: later, namespace: default}
                spec: {size: 1, version: 3.5.17}
                """, EtcdCluster.class)).create();
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            EtcdCluster c = client.resources(EtcdCluster.class).inNamespace("default").withName("later").get();
            return c.getStatus() != null && Conditions.find(c.getStatus().getConditions(), "Available").isPresent();
        });
        // the operator writes the status meanwhile: the edit is made again on a conflict
        dev.etcdoperator.sandbox.Edits.edit(client.resources(EtcdCluster.class).inNamespace("default")
                .withName("later"), c -> {
                    c.getSpec().setVersion("latest");
                    return c;
                });
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            EtcdCluster c = client.resources(EtcdCluster.class).inNamespace("default").withName("later").get();
            assertThat(Conditions.find(c.getStatus().getConditions(), "Available")).hasValueSatisfying(a -> {
                assertThat(a.getStatus()).isEqualTo("Unknown");
                assertThat(a.getReason()).isEqualTo("NotObserved");
                assertThat(a.getMessage()).contains("the spec is invalid", "Last seen");
            });
        });
        client.resources(EtcdCluster.class).inNamespace("default").withName("later").delete();
    }

    @Test
    void anInvalidClusterIsMarkedAndNothingIsCreated() {
        client.resource(Serialization.unmarshal("""
                apiVersion: etcd.database.coreos.com/v1beta2
                kind: EtcdCluster
                metadata: {name: zero, namespace: default}
                spec: {size: 0, version: latest}
                """, EtcdCluster.class)).create();
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            EtcdCluster cluster = client.resources(EtcdCluster.class).inNamespace("default").withName("zero").get();
            assertThat(cluster.getStatus()).isNotNull();
            assertThat(cluster.getStatus().getPhase()).isEqualTo("Failed");
            assertThat(Conditions.has(cluster.getStatus().getConditions(), "Valid", "False", "InvalidSpec")).isTrue();
            assertThat(cluster.getStatus().getConditions().get(0).getMessage())
                    .contains("spec.size: must be between 1 and 7, got 0")
                    .contains("spec.version: must be a semantic version");
        });
        assertThat(warnings("zero")).singleElement()
                .satisfies(e -> assertThat(e.getInvolvedObject().getKind()).isEqualTo("EtcdCluster"));
        assertThat(client.pods().inAnyNamespace().withLabel(ClusterResources.LABEL_CLUSTER, "zero").list().getItems())
                .isEmpty();
        assertThat(client.services().inAnyNamespace().list().getItems())
                .noneMatch(svc -> svc.getMetadata().getName().startsWith("zero"));
    }

    @Test
    void anInvalidBackupAndRestoreAreMarked() {
        client.resource(Serialization.unmarshal("""
                apiVersion: etcd.database.coreos.com/v1beta2
                kind: EtcdBackup
                metadata: {name: nobucket, namespace: default}
                spec:
                  etcdEndpoints: [http://example-client:2379]
                  storageType: S3
                  s3: {path: snapshot.db, awsSecret: aws}
                """, EtcdBackup.class)).create();
        client.resource(Serialization.unmarshal("""
                apiVersion: etcd.database.coreos.com/v1beta2
                kind: EtcdRestore
                metadata: {name: abs, namespace: default}
                spec:
                  etcdCluster: {name: example}
                  backupStorageType: ABS
                """, EtcdRestore.class)).create();
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            EtcdBackup backup = client.resources(EtcdBackup.class).inNamespace("default").withName("nobucket").get();
            assertThat(backup.getStatus()).isNotNull();
            assertThat(backup.getStatus().getSucceeded()).isFalse();
            assertThat(backup.getStatus().getReason()).contains("spec.s3.path: must be <bucket>/<key>");
            EtcdRestore restore = client.resources(EtcdRestore.class).inNamespace("default").withName("abs").get();
            assertThat(restore.getStatus()).as("reconciled").isNotNull();
            assertThat(restore.getStatus().getSucceeded()).isFalse();
            assertThat(restore.getStatus().getReason()).contains("storage type ABS is not supported");
        });
        assertThat(warnings("nobucket")).hasSize(1);
        assertThat(warnings("abs")).hasSize(1);
    }

    private java.util.List<Event> warnings(String name) {
        return client.v1().events().inNamespace("default").list().getItems().stream()
                .filter(e -> e.getInvolvedObject().getName().equals(name))
                .filter(e -> "Warning".equals(e.getType()) && "InvalidSpec".equals(e.getReason()))
                .toList();
    }
}
