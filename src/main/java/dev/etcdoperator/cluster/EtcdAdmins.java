package dev.etcdoperator.cluster;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;

import dev.etcdoperator.etcd.EtcdAdmin;
import dev.etcdoperator.etcd.EtcdAdminFactory;
import dev.etcdoperator.etcd.EtcdAdminOptions;

/**
 * One etcd admin connection per cluster, kept while the cluster's endpoints stay the same, replaced when they
 * change and closed when the cluster is gone.
 */
@ApplicationScoped
public class EtcdAdmins {
    private record Entry(List<String> endpoints, EtcdAdmin admin) {
    }

    private final Map<String, Entry> byCluster = new ConcurrentHashMap<>();
    private final EtcdAdminFactory factory;

    public EtcdAdmins() {
        this(EtcdAdminFactory.jetcd(EtcdAdminOptions.defaults()));
    }

    EtcdAdmins(EtcdAdminFactory factory) {
        this.factory = factory;
    }

    /** The admin for {@code cluster} (namespace/name) over exactly these endpoints. */
    public synchronized EtcdAdmin forCluster(String cluster, List<String> endpoints) {
        List<String> sorted = endpoints.stream().sorted().toList();
        Entry entry = byCluster.get(cluster);
        if (entry != null && Objects.equals(entry.endpoints(), sorted)) {
            return entry.admin();
        }
        if (entry != null) {
            entry.admin().close();
        }
        EtcdAdmin admin = factory.open(sorted, null);
        byCluster.put(cluster, new Entry(sorted, admin));
        return admin;
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
