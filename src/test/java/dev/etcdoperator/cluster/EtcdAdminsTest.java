package dev.etcdoperator.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.lang.reflect.Proxy;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import dev.etcdoperator.api.v1beta2.EtcdCluster;
import dev.etcdoperator.etcd.EtcdAdmin;
import dev.etcdoperator.etcd.EtcdAdminFactory;
import dev.etcdoperator.etcd.EtcdTls;
import dev.etcdoperator.metrics.ClusterMetrics;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

class EtcdAdminsTest {
    record Opened(List<String> endpoints, EtcdTls tls, AtomicInteger closed) {
    }

    private final List<Opened> opened = new CopyOnWriteArrayList<>();
    private volatile CountDownLatch closing = new CountDownLatch(0);
    private final EtcdAdminFactory factory = (endpoints, tls) -> {
        Opened o = new Opened(endpoints, tls, new AtomicInteger());
        opened.add(o);
        return (EtcdAdmin) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] { EtcdAdmin.class },
                (proxy, method, args) -> {
                    if (method.isDefault()) {
                        return java.lang.reflect.InvocationHandler.invokeDefault(proxy, method, args);
                    }
                    if (method.getName().equals("close")) {
                        closing.await();
                        o.closed().incrementAndGet();
                    }
                    if (method.getName().equals("members") || method.getName().equals("alarms")) {
                        return List.of();
                    }
                    return null;
                });
    };
    private final EtcdAdmins admins = new EtcdAdmins(factory);

    private static EtcdTls tls(String ca) {
        return new EtcdTls(ca.getBytes(), "cert".getBytes(), "key".getBytes());
    }

    private static EtcdCluster cluster(String uid) {
        return Serialization.unmarshal("""
                apiVersion: etcd.database.coreos.com/v1beta2
                kind: EtcdCluster
                metadata: {name: demo, namespace: prod, uid: %s}
                spec: {size: 3, version: 3.5.17}
                """.formatted(uid), EtcdCluster.class);
    }

    private static Pod pod(String name, String ip) {
        return new PodBuilder().withNewMetadata().withName(name).withNamespace("prod").endMetadata()
                .withNewSpec().endSpec()
                .withNewStatus().withPhase("Running").withPodIP(ip).addNewContainerStatus().withName("etcd")
                .withNewState().withNewRunning().endRunning().endState().endContainerStatus().endStatus().build();
    }

    @Test
    void reconcilesOfOneClusterShareOneConnectionUntilAMemberMovesOrTheClusterIsReplacedOrDeleted() {
        ClusterObserver observer = new ClusterObserver(admins, Clock.fixed(Instant.EPOCH, ZoneOffset.UTC));
        List<Pod> pods = List.of(pod("demo-a", "127.0.1.1"), pod("demo-b", "127.0.1.2"), pod("demo-c", "127.0.1.3"));
        for (int i = 0; i < 50; i++) {
            observer.observe(cluster("uid-1"), pods, Set.of());
        }
        assertThat(opened).hasSize(1);
        assertThat(opened.get(0).endpoints()).containsExactly("http://127.0.1.1:2379", "http://127.0.1.2:2379",
                "http://127.0.1.3:2379");

        // demo-c replaced by a member at a new address
        List<Pod> moved = List.of(pods.get(0), pods.get(1), pod("demo-d", "127.0.1.4"));
        observer.observe(cluster("uid-1"), moved, Set.of());
        observer.observe(cluster("uid-1"), moved, Set.of());
        assertThat(opened).hasSize(2);
        assertThat(opened.get(1).endpoints()).contains("http://127.0.1.4:2379");
        assertThat(opened.get(0).closed()).hasValue(1);

        // deleted and created again under the same name
        observer.observe(cluster("uid-2"), moved, Set.of());
        assertThat(opened).hasSize(3);
        assertThat(opened.get(1).closed()).hasValue(1);

        new ClusterDeletion(admins, new ClusterMetrics(new SimpleMeterRegistry())).deleted("prod", "demo");
        assertThat(opened.get(2).closed()).hasValue(1);
        assertThat(admins.open()).isZero();
    }

    @Test
    void overDnsNamesAMemberBackAtANewAddressGetsANewConnection() {
        Set<String> urls = Set.of("https://demo-a.demo.prod.svc:2379");
        EtcdAdmin first = admins.forCluster("prod/demo", new EtcdAdmins.Target("uid-1", urls, Set.of("127.0.1.1"),
                tls("ca")));
        assertThat(admins.forCluster("prod/demo", new EtcdAdmins.Target("uid-1", urls, Set.of("127.0.1.1"), tls("ca"))))
                .isSameAs(first);
        EtcdAdmin second = admins.forCluster("prod/demo", new EtcdAdmins.Target("uid-1", urls, Set.of("127.0.1.7"),
                tls("ca")));
        assertThat(second).isNotSameAs(first);
        assertThat(opened.get(0).closed()).hasValue(1);
    }

    @Test
    void theSameTlsMaterialKeepsTheConnectionAndAChangeReopensIt() {
        List<String> urls = List.of("https://a.c.ns.svc:2379", "https://b.c.ns.svc:2379");
        EtcdAdmin first = admins.forCluster("ns/c", urls, tls("ca-1"));
        // equal bytes in new arrays, as read from the secret on the next reconcile
        assertThat(admins.forCluster("ns/c", List.of(urls.get(1), urls.get(0)), tls("ca-1"))).isSameAs(first);
        assertThat(opened).hasSize(1);

        EtcdAdmin second = admins.forCluster("ns/c", urls, tls("ca-2"));
        assertThat(second).isNotSameAs(first);
        assertThat(opened).hasSize(2);
        assertThat(opened.get(0).closed()).hasValue(1);
        assertThat(new String(opened.get(1).tls().caCert())).isEqualTo("ca-2");

        admins.forCluster("ns/c", List.of("http://127.0.0.2:2379"));
        assertThat(opened).hasSize(3);
        assertThat(opened.get(2).tls()).isNull();
        assertThat(opened.get(1).closed()).hasValue(1);
    }

    @Test
    void aRenewedClientCertificateOrKeyReopensTheConnection() {
        List<String> urls = List.of("https://a.c.ns.svc:2379");
        EtcdAdmin first = admins.forCluster("ns/c", urls, new EtcdTls("ca".getBytes(), "cert-1".getBytes(),
                "key-1".getBytes()));
        EtcdAdmin renewedCert = admins.forCluster("ns/c", urls, new EtcdTls("ca".getBytes(), "cert-2".getBytes(),
                "key-1".getBytes()));
        assertThat(renewedCert).isNotSameAs(first);
        assertThat(opened.get(0).closed()).hasValue(1);
        EtcdAdmin renewedKey = admins.forCluster("ns/c", urls, new EtcdTls("ca".getBytes(), "cert-2".getBytes(),
                "key-2".getBytes()));
        assertThat(renewedKey).isNotSameAs(renewedCert);
        assertThat(opened).hasSize(3);
        assertThat(new String(opened.get(2).tls().clientCert())).isEqualTo("cert-2");
        assertThat(new String(opened.get(2).tls().clientKey())).isEqualTo("key-2");
    }

    @Test
    void forgettingAClusterClosesItsConnectionOnlyAndTheNextCallOpensAFreshOne() {
        List<String> urls = List.of("http://127.0.0.2:2379");
        EtcdAdmin gone = admins.forCluster("ns/gone", urls);
        admins.forCluster("ns/kept", List.of("http://127.0.0.3:2379"));

        admins.forget("ns/gone");
        assertThat(opened.get(0).closed()).hasValue(1);
        assertThat(opened.get(1).closed()).hasValue(0);

        admins.forget("ns/gone");
        assertThat(opened.get(0).closed()).hasValue(1);

        assertThat(admins.forCluster("ns/gone", urls)).isNotSameAs(gone);
        assertThat(opened).hasSize(3);
    }

    @Test
    void theNumberOfConnectionsIsBoundedAndTheLeastRecentlyUsedGoesFirst() {
        EtcdAdmins two = new EtcdAdmins(factory, 2);
        two.forCluster("ns/a", List.of("http://127.0.0.2:2379"));
        two.forCluster("ns/b", List.of("http://127.0.0.3:2379"));
        two.forCluster("ns/a", List.of("http://127.0.0.2:2379"));
        two.forCluster("ns/c", List.of("http://127.0.0.4:2379"));

        assertThat(two.open()).isEqualTo(2);
        assertThat(opened.get(1).closed()).as("b, the least recently used").hasValue(1);
        assertThat(opened.get(0).closed()).hasValue(0);
        assertThat(opened.get(2).closed()).hasValue(0);
    }

    @Test
    void aSlowCloseHoldsUpNoOtherCluster() throws Exception {
        admins.forCluster("ns/slow", List.of("http://127.0.0.2:2379"));
        closing = new CountDownLatch(1);
        CompletableFuture<Void> forgetting = CompletableFuture.runAsync(() -> admins.forget("ns/slow"));
        await().atMost(Duration.ofSeconds(5)).until(() -> admins.open() == 0);

        EtcdAdmin other = CompletableFuture.supplyAsync(() -> admins.forCluster("ns/other",
                List.of("http://127.0.0.3:2379"))).get(5, TimeUnit.SECONDS);
        assertThat(other).isNotNull();
        assertThat(forgetting).isNotDone();

        closing.countDown();
        forgetting.get(5, TimeUnit.SECONDS);
        assertThat(opened.get(0).closed()).hasValue(1);
    }
}
