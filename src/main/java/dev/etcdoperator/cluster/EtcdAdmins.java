package dev.etcdoperator.cluster;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.etcdoperator.etcd.EtcdAdmin;
import dev.etcdoperator.etcd.EtcdAdminFactory;
import dev.etcdoperator.etcd.EtcdAdminOptions;
import dev.etcdoperator.etcd.EtcdTls;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/**
 * One etcd admin connection per cluster, kept while what identifies it stays the same (the cluster's uid, its
 * endpoints, the addresses behind them and the client TLS material), replaced when any of it changes and closed when
 * the cluster is gone. At most {@code capacity} are kept: opening one more closes the one whose cluster was asked for
 * least recently. Connections are opened and closed outside the lock, so a slow close never holds up another cluster.
 */
@ApplicationScoped
public class EtcdAdmins {
    static final int DEFAULT_CAPACITY = 256;
    private static final Logger LOG = Logger.getLogger(EtcdAdmins.class);

    /**
     * What a connection is made for.
     *
     * @param uid       the EtcdCluster's uid: a cluster deleted and created again under its name gets a new connection
     * @param endpoints the client URLs to connect to
     * @param addresses the members' IP addresses, for endpoints that are DNS names: a member that came back at a new
     *                  address is reached through a new connection
     * @param tls       client TLS material, or null for plain http
     */
    public record Target(String uid, Set<String> endpoints, Set<String> addresses, EtcdTls tls) {
        public Target {
            endpoints = Set.copyOf(endpoints);
            addresses = Set.copyOf(addresses);
        }

        /** EtcdTls holds arrays, whose record equality is identity: its bytes are compared. */
        boolean sameAs(Target other) {
            return Objects.equals(uid, other.uid) && endpoints.equals(other.endpoints)
                    && addresses.equals(other.addresses) && sameTls(tls, other.tls);
        }
    }

    private record Entry(Target target, EtcdAdmin admin) {
    }

    private final Map<String, Entry> byCluster = new LinkedHashMap<>(16, 0.75f, true);
    private final EtcdAdminFactory factory;
    private final int capacity;

    @Inject
    public EtcdAdmins(@ConfigProperty(name = "etcd-operator.cluster.max-connections", defaultValue = "256") int capacity) {
        this(EtcdAdminFactory.jetcd(EtcdAdminOptions.defaults()), capacity);
    }

    EtcdAdmins() {
        this(EtcdAdminFactory.jetcd(EtcdAdminOptions.defaults()), DEFAULT_CAPACITY);
    }

    EtcdAdmins(EtcdAdminFactory factory) {
        this(factory, DEFAULT_CAPACITY);
    }

    EtcdAdmins(EtcdAdminFactory factory, int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("etcd-operator.cluster.max-connections must be at least 1, not " + capacity);
        }
        this.factory = factory;
        this.capacity = capacity;
    }

    /** The admin for {@code cluster} (namespace/name) over exactly these plain http endpoints. */
    public EtcdAdmin forCluster(String cluster, List<String> endpoints) {
        return forCluster(cluster, new Target(null, Set.copyOf(endpoints), Set.of(), null));
    }

    /** The admin for {@code cluster} (namespace/name) over exactly these endpoints with this client TLS (or null). */
    public EtcdAdmin forCluster(String cluster, List<String> endpoints, EtcdTls tls) {
        return forCluster(cluster, new Target(null, Set.copyOf(endpoints), Set.of(), tls));
    }

    /**
     * The admin for {@code cluster} (namespace/name) made for {@code target}; a change of anything in it closes the
     * old connection and opens a new one.
     *
     * @throws IllegalArgumentException when the TLS material cannot be used (not PEM, key not PKCS#8, ...)
     */
    public EtcdAdmin forCluster(String cluster, Target target) {
        synchronized (this) {
            Entry entry = byCluster.get(cluster);
            if (entry != null && entry.target().sameAs(target)) {
                return entry.admin();
            }
        }
        EtcdAdmin opened = factory.open(target.endpoints().stream().sorted().toList(), target.tls());
        List<EtcdAdmin> toClose = new ArrayList<>();
        EtcdAdmin result;
        synchronized (this) {
            Entry entry = byCluster.get(cluster);
            if (entry != null && entry.target().sameAs(target)) {
                // opened meanwhile by another caller for the same target
                toClose.add(opened);
                result = entry.admin();
            } else {
                if (entry != null) {
                    toClose.add(entry.admin());
                }
                byCluster.put(cluster, new Entry(target, opened));
                Iterator<Entry> eldest = byCluster.values().iterator();
                while (byCluster.size() > capacity) {
                    toClose.add(eldest.next().admin());
                    eldest.remove();
                }
                result = opened;
            }
        }
        toClose.forEach(EtcdAdmins::close);
        return result;
    }

    /** Closes the cluster's connection, if it has one. */
    public void forget(String cluster) {
        Entry entry;
        synchronized (this) {
            entry = byCluster.remove(cluster);
        }
        if (entry != null) {
            close(entry.admin());
        }
    }

    /** How many connections are open. */
    synchronized int open() {
        return byCluster.size();
    }

    @PreDestroy
    void closeAll() {
        Collection<Entry> all;
        synchronized (this) {
            all = new ArrayList<>(byCluster.values());
            byCluster.clear();
        }
        all.forEach(e -> close(e.admin()));
    }

    private static void close(EtcdAdmin admin) {
        try {
            admin.close();
        } catch (RuntimeException e) {
            LOG.debugf("closing an etcd connection failed: %s", e.getMessage());
        }
    }

    static boolean sameTls(EtcdTls a, EtcdTls b) {
        if (a == null || b == null) {
            return a == b;
        }
        return Arrays.equals(a.caCert(), b.caCert()) && Arrays.equals(a.clientCert(), b.clientCert())
                && Arrays.equals(a.clientKey(), b.clientKey());
    }
}
