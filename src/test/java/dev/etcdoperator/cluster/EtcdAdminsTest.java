package dev.etcdoperator.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import dev.etcdoperator.etcd.EtcdAdmin;
import dev.etcdoperator.etcd.EtcdTls;
import org.junit.jupiter.api.Test;

class EtcdAdminsTest {
    record Opened(List<String> endpoints, EtcdTls tls, AtomicInteger closed) {
    }

    private final List<Opened> opened = new ArrayList<>();
    private final EtcdAdmins admins = new EtcdAdmins((endpoints, tls) -> {
        Opened o = new Opened(endpoints, tls, new AtomicInteger());
        opened.add(o);
        return (EtcdAdmin) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] { EtcdAdmin.class },
                (proxy, method, args) -> {
                    if (method.getName().equals("close")) {
                        o.closed().incrementAndGet();
                    }
                    return null;
                });
    });

    private static EtcdTls tls(String ca) {
        return new EtcdTls(ca.getBytes(), "cert".getBytes(), "key".getBytes());
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
}
