package dev.etcdoperator.cluster;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;

import dev.etcdoperator.etcd.EtcdAdmin;
import dev.etcdoperator.etcd.EtcdAdminFactory;
import dev.etcdoperator.etcd.EtcdAdminOptions;
import dev.etcdoperator.etcd.EtcdTls;

/**
 * One etcd admin connection per cluster, kept while the cluster's endpoints stay the same, replaced when they
 * change and closed when the cluster is gone.
 */
@ApplicationScoped
public class EtcdAdmins {
    private record Entry(List<String> endpoints, EtcdTls tls, EtcdAdmin admin) {
    }

    private final Map<String, Entry> byCluster = new ConcurrentHashMap<>();
    private final EtcdAdminFactory factory;

    public EtcdAdmins() {
        this(EtcdAdminFactory.jetcd(EtcdAdminOptions.defaults()));
    }

    EtcdAdmins(EtcdAdminFactory factory) {
        this.factory = factory;
    }

    /** The admin for {@code cluster} (namespace/name) over exactly these plain http endpoints. */
    public EtcdAdmin forCluster(String cluster, List<String> endpoints) {
        return forCluster(cluster, endpoints, null);
    }

    /**
     * The admin for {@code cluster} (namespace/name) over exactly these endpoints with this client TLS material
     * (null for plain http); a change of either closes the old connection and opens a new one.
     *
     * @throws IllegalArgumentException when the TLS material cannot be used (not PEM, key not PKCS#8, ...)
     */
    public synchronized EtcdAdmin forCluster(String cluster, List<String> endpoints, EtcdTls tls) {
        List<String> sorted = endpoints.stream().sorted().toList();
        Entry entry = byCluster.get(cluster);
        if (entry != null && Objects.equals(entry.endpoints(), sorted) && sameTls(entry.tls(), tls)) {
            return entry.admin();
        }
        if (entry != null) {
            byCluster.remove(cluster);
            entry.admin().close();
        }
        EtcdAdmin admin = factory.open(sorted, tls);
        byCluster.put(cluster, new Entry(sorted, tls, admin));
        return admin;
    }

    /** EtcdTls holds arrays, whose record equality is identity: compare the bytes. */
    static boolean sameTls(EtcdTls a, EtcdTls b) {
        if (a == null || b == null) {
            return a == b;
        }
        return Arrays.equals(a.caCert(), b.caCert()) && Arrays.equals(a.clientCert(), b.clientCert())
                && Arrays.equals(a.clientKey(), b.clientKey());
    }

    public synchronized void forget(String cluster) {
        Entry entry = byCluster.remove(cluster);
        if (entry != null) {
            entry.admin().close();
        }
    }

    @PreDestroy
    synchronized void closeAll() {
        byCluster.values().forEach(e -> e.admin().close());
        byCluster.clear();
    }
}
