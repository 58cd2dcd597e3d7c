package dev.etcdoperator.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.etcdoperator.api.v1beta2.EtcdCluster;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.Test;

class NameHolderTest {
    private static final String API = "etcd.database.coreos.com/v1beta2";

    private static EtcdCluster cluster(String name, String uid) {
        return Serialization.unmarshal("""
                apiVersion: %s
                kind: EtcdCluster
                metadata: {name: %s, namespace: prod, uid: %s}
                spec: {size: 3}
                """.formatted(API, name, uid), EtcdCluster.class);
    }

    private static OwnerReference owner(String apiVersion, String kind, String name, String uid, boolean controller) {
        return new OwnerReferenceBuilder().withApiVersion(apiVersion).withKind(kind).withName(name).withUid(uid)
                .withController(controller).build();
    }

    private static Service service(String name, OwnerReference... owners) {
        return new ServiceBuilder().withNewMetadata().withName(name).withNamespace("prod").withOwnerReferences(owners)
                .endMetadata().build();
    }

    @Test
    void tellsTheClusterItselfAnEarlierClusterOfItsNameAndAnythingElseApart() {
        EtcdCluster a = cluster("a", "u-a");
        assertThat(NameHolder.of(service("a", owner(API, "EtcdCluster", "a", "u-a", true)), a).kind())
                .isEqualTo(NameHolder.Kind.THIS_CLUSTER);
        assertThat(NameHolder.of(service("a", owner(API, "EtcdCluster", "a", "u-old", true)), a).kind())
                .isEqualTo(NameHolder.Kind.EARLIER_CLUSTER);
        assertThat(NameHolder.of(service("a"), a)).isEqualTo(new NameHolder(NameHolder.Kind.OTHER, "no owner"));
        assertThat(NameHolder.of(service("a", owner("example.com/v1", "EtcdCluster", "a", "u-x", true)), a))
                .as("a kind of that name in another group").extracting(NameHolder::kind)
                .isEqualTo(NameHolder.Kind.OTHER);
        assertThat(NameHolder.of(service("a", owner("v1", "ConfigMap", "c", "u-c", false),
                owner("apps/v1", "Deployment", "web", "u-w", true)), a).owner())
                .as("the controller named first").isEqualTo("Deployment web");
        assertThat(NameHolder.of(service("a", owner("v1", "ConfigMap", "c", "u-c", false)), a).owner())
                .isEqualTo("ConfigMap c");
    }

    @Test
    void namesTheClashOfClustersNamedXAndXClientEitherWay() {
        NameHolder byA = NameHolder.of(service("a-client", owner(API, "EtcdCluster", "a", "u-a", true)),
                cluster("a-client", "u-ac"));
        assertThat(byA.kind()).isEqualTo(NameHolder.Kind.OTHER);
        assertThat(byA.takenMessage("Service prod/a-client", cluster("a-client", "u-ac"), "starts no member"))
                .contains("belongs to EtcdCluster a", "EtcdCluster a's client Service is named a-client",
                        "clusters named a and a-client cannot share a namespace", "starts no member while it holds");
        NameHolder byAClient = NameHolder.of(service("a-client", owner(API, "EtcdCluster", "a-client", "u-ac", true)),
                cluster("a", "u-a"));
        assertThat(byAClient.takenMessage("Service prod/a-client", cluster("a", "u-a"), "starts no member"))
                .contains("The client Service of this cluster is named a-client",
                        "clusters named a and a-client cannot share a namespace");
        assertThat(NameHolder.of(service("a"), cluster("a", "u-a")).takenMessage("Service prod/a",
                cluster("a", "u-a"), "starts no member")).contains("it has no owner").doesNotContain("share");
    }
}
