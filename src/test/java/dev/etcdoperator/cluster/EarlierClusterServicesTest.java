package dev.etcdoperator.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;

import jakarta.inject.Inject;

import dev.etcdoperator.api.v1beta2.EtcdCluster;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import org.junit.jupiter.api.Test;

/**
 * An EtcdCluster made again under the name of one just deleted, whose Services or pods the garbage collector has not
 * deleted yet: when it deletes the Services, the members' DNS names go with them, so no member may start before; the
 * pods carry the cluster's labels, so the new Services would send clients to them.
 */
@QuarkusTest
@WithKubernetesTestServer
class EarlierClusterServicesTest {
    @Inject
    KubernetesClient client;

    @Test
    void membersWaitUntilTheServicesOfAnEarlierClusterOfTheSameNameAreGone() {
        for (String service : List.of("again", "again-client")) {
            client.services().inNamespace("default").resource(earlierService(service)).create();
        }
        createCluster("again");
        await().atMost(Duration.ofSeconds(30)).until(() -> client.v1().events().inNamespace("default").list()
                .getItems().stream().map(Event::getReason).anyMatch("WaitingForEarlierCluster"::equals));
        assertThat(client.pods().inNamespace("default").withLabel(ClusterResources.LABEL_CLUSTER, "again").list()
                .getItems()).as("no member while the earlier cluster's Services are there").isEmpty();

        // what the garbage collector does
        client.services().inNamespace("default").withName("again").delete();
        client.services().inNamespace("default").withName("again-client").delete();
        String uid = client.resources(EtcdCluster.class).inNamespace("default").withName("again").get().getMetadata()
                .getUid();
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            assertThat(client.pods().inNamespace("default").withLabel(ClusterResources.LABEL_CLUSTER, "again").list()
                    .getItems()).hasSize(1);
            for (String service : List.of("again", "again-client")) {
                assertThat(client.services().inNamespace("default").withName(service).get().getMetadata()
                        .getOwnerReferences()).singleElement().satisfies(o -> assertThat(o.getUid()).isEqualTo(uid));
            }
        });
    }

    @Test
    void nothingIsMadeWhileAPodOfAnEarlierClusterOfTheSameNameIsThere() {
        client.pods().inNamespace("default").resource(new PodBuilder().withNewMetadata().withName("later-old")
                .withNamespace("default").addToLabels(ClusterResources.LABEL_APP, ClusterResources.APP)
                .addToLabels(ClusterResources.LABEL_CLUSTER, "later").withOwnerReferences(ownedByDeleted("later"))
                .endMetadata().withNewSpec().addNewContainer().withName("etcd").withImage("quay.io/coreos/etcd:v3.5.17")
                .endContainer().endSpec().build()).create();
        createCluster("later");
        await().atMost(Duration.ofSeconds(30)).until(() -> client.v1().events().inNamespace("default").list()
                .getItems().stream().anyMatch(e -> "WaitingForEarlierCluster".equals(e.getReason())
                        && e.getMessage().contains("Pod later-old")));
        assertThat(client.pods().inNamespace("default").withLabel(ClusterResources.LABEL_CLUSTER, "later").list()
                .getItems()).as("no member beside the earlier cluster's pod").extracting(p -> p.getMetadata().getName())
                .containsExactly("later-old");
        assertThat(client.services().inNamespace("default").withName("later-client").get())
                .as("no Service that would select the earlier cluster's pod").isNull();
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(client.resources(EtcdCluster.class)
                .inNamespace("default").withName("later").get().getStatus().getConditions())
                .anySatisfy(c -> assertThat(c).extracting("type", "status", "reason")
                        .containsExactly("Ready", "False", "WaitingForEarlierCluster")));

        client.pods().inNamespace("default").withName("later-old").delete();
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            assertThat(client.pods().inNamespace("default").withLabel(ClusterResources.LABEL_CLUSTER, "later").list()
                    .getItems()).hasSize(1).noneMatch(p -> "later-old".equals(p.getMetadata().getName()));
            assertThat(client.services().inNamespace("default").withName("later-client").get()).isNotNull();
        });
    }

    @Test
    void aServiceOfAnotherApplicationUnderTheClustersNameIsNeitherTakenNorChanged() {
        Service foreign = new ServiceBuilder().withNewMetadata().withName("taken-client").withNamespace("default")
                .endMetadata().withNewSpec().addToSelector("app", "web").addNewPort().withName("http").withPort(80)
                .endPort().endSpec().build();
        client.services().inNamespace("default").resource(foreign).create();
        createCluster("taken");
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(client.resources(EtcdCluster.class)
                .inNamespace("default").withName("taken").get().getStatus().getConditions())
                .anySatisfy(c -> assertThat(c).extracting("type", "status", "reason")
                        .containsExactly("Ready", "False", "ServiceNameTaken")));
        assertThat(client.v1().events().inNamespace("default").list().getItems())
                .anySatisfy(e -> assertThat(e.getMessage()).contains("Service default/taken-client", "no owner",
                        "neither takes it over nor changes it"));
        assertThat(client.pods().inNamespace("default").withLabel(ClusterResources.LABEL_CLUSTER, "taken").list()
                .getItems()).as("no member behind a Service that does not select it").isEmpty();
        Service after = client.services().inNamespace("default").withName("taken-client").get();
        assertThat(after.getSpec().getSelector()).containsExactly(java.util.Map.entry("app", "web"));
        assertThat(after.getMetadata().getOwnerReferences()).isNullOrEmpty();

        client.services().inNamespace("default").withName("taken-client").delete();
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            assertThat(client.pods().inNamespace("default").withLabel(ClusterResources.LABEL_CLUSTER, "taken").list()
                    .getItems()).hasSize(1);
            assertThat(client.services().inNamespace("default").withName("taken-client").get().getMetadata()
                    .getOwnerReferences()).singleElement().satisfies(o -> assertThat(o.getName()).isEqualTo("taken"));
        });
    }

    /** A client Service made by hand for the cluster (one a restore of the original operator lost, say) serves it. */
    @Test
    void aServiceMadeByHandThatSelectsTheMembersIsKeptAsItIs() {
        client.services().inNamespace("default").resource(new ServiceBuilder().withNewMetadata()
                .withName("kept-client").withNamespace("default").endMetadata().withNewSpec()
                .addToSelector(ClusterResources.LABEL_APP, ClusterResources.APP)
                .addToSelector(ClusterResources.LABEL_CLUSTER, "kept").addNewPort().withName("client").withPort(2379)
                .endPort().endSpec().build()).create();
        createCluster("kept");
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            assertThat(client.pods().inNamespace("default").withLabel(ClusterResources.LABEL_CLUSTER, "kept").list()
                    .getItems()).hasSize(1);
            assertThat(client.services().inNamespace("default").withName("kept").get()).isNotNull();
        });
        assertThat(client.services().inNamespace("default").withName("kept-client").get().getMetadata()
                .getOwnerReferences()).isNullOrEmpty();
    }

    @Test
    void clustersNamedXAndXClientCannotShareANamespaceAndTheLaterOneSaysSo() {
        createCluster("pair");
        await().atMost(Duration.ofSeconds(30)).until(() -> client.services().inNamespace("default")
                .withName("pair-client").get() != null);
        createCluster("pair-client");
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(client.resources(EtcdCluster.class)
                .inNamespace("default").withName("pair-client").get().getStatus().getConditions())
                .anySatisfy(c -> {
                    assertThat(c).extracting("type", "status", "reason")
                            .containsExactly("Ready", "False", "ServiceNameTaken");
                    assertThat(c.getMessage()).contains("EtcdCluster pair", "cannot share a namespace");
                }));
        assertThat(client.pods().inNamespace("default").withLabel(ClusterResources.LABEL_CLUSTER, "pair-client")
                .list().getItems()).isEmpty();
        assertThat(client.services().inNamespace("default").withName("pair-client").get().getMetadata()
                .getOwnerReferences()).singleElement().satisfies(o -> assertThat(o.getName()).isEqualTo("pair"));
        assertThat(client.services().inNamespace("default").withName("pair-client-client").get())
                .as("no Service made beside the name taken").isNull();
    }

    @Test
    void aDisruptionBudgetOfAnotherApplicationUnderTheClustersNameIsLeftAsItIs() {
        client.policy().v1().podDisruptionBudget().inNamespace("default").resource(
                new io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudgetBuilder().withNewMetadata()
                        .withName("budgeted").withNamespace("default").endMetadata().withNewSpec()
                        .withMaxUnavailable(new io.fabric8.kubernetes.api.model.IntOrString(1))
                        .withNewSelector().addToMatchLabels("app", "web").endSelector().endSpec().build()).create();
        createCluster("budgeted");
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            assertThat(client.pods().inNamespace("default").withLabel(ClusterResources.LABEL_CLUSTER, "budgeted")
                    .list().getItems()).hasSize(1);
            assertThat(client.v1().events().inNamespace("default").list().getItems())
                    .anySatisfy(e -> assertThat(e).extracting(Event::getReason, Event::getType)
                            .containsExactly("DisruptionBudgetNameTaken", "Warning"));
        });
        var budget = client.policy().v1().podDisruptionBudget().inNamespace("default").withName("budgeted").get();
        assertThat(budget.getSpec().getMinAvailable()).isNull();
        assertThat(budget.getSpec().getMaxUnavailable().getIntVal()).isEqualTo(1);
        assertThat(budget.getSpec().getSelector().getMatchLabels()).containsExactly(java.util.Map.entry("app", "web"));
    }

    @Test
    void itsOwnBudgetEditedToMaxUnavailableIsPutBack() {
        createCluster("edited");
        await().atMost(Duration.ofSeconds(30)).until(() -> client.policy().v1().podDisruptionBudget()
                .inNamespace("default").withName("edited").get() != null);
        client.policy().v1().podDisruptionBudget().inNamespace("default").withName("edited").edit(b -> {
            b.getSpec().setMinAvailable(null);
            b.getSpec().setMaxUnavailable(new io.fabric8.kubernetes.api.model.IntOrString(1));
            return b;
        });
        // a Service deleted by hand makes the next reconcile look at every object of the cluster's at once
        client.services().inNamespace("default").withName("edited-client").delete();
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            var budget = client.policy().v1().podDisruptionBudget().inNamespace("default").withName("edited").get();
            assertThat(budget.getSpec().getMaxUnavailable()).isNull();
            assertThat(budget.getSpec().getMinAvailable().getIntVal()).isEqualTo(1);
        });
    }

    private static Service earlierService(String name) {
        return new ServiceBuilder().withNewMetadata().withName(name).withNamespace("default")
                .withOwnerReferences(ownedByDeleted("again")).endMetadata().withNewSpec().withClusterIP("None").addToSelector(ClusterResources.LABEL_CLUSTER, "again")
                .addNewPort().withName("client").withPort(2379).endPort().endSpec().build();
    }

    private void createCluster(String name) {
        client.resource(Serialization.unmarshal("""
                apiVersion: etcd.database.coreos.com/v1beta2
                kind: EtcdCluster
                metadata: {name: %s, namespace: default}
                spec: {size: 1, version: 3.5.17}
                """.formatted(name), EtcdCluster.class)).create();
    }

    /** The controller reference of an EtcdCluster of that name that was deleted (another uid than the new one's). */
    private static OwnerReference ownedByDeleted(String cluster) {
        return new OwnerReferenceBuilder().withApiVersion("etcd.database.coreos.com/v1beta2").withKind("EtcdCluster")
                .withName(cluster).withUid("uid-of-the-deleted-" + cluster).withController(true).build();
    }
}
