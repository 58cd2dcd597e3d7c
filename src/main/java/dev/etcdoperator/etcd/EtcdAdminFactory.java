package dev.etcdoperator.etcd;

import java.util.List;

/** Opens an {@link EtcdAdmin} for one cluster; the controller holds one of these, a test a fake. */
@FunctionalInterface
public interface EtcdAdminFactory {

    /**
     * @param clientUrls the cluster's client endpoints, {@code http(s)://host:2379}
     * @param tls        client TLS material, or null for plain HTTP
     */
    EtcdAdmin open(List<String> clientUrls, EtcdTls tls);

    /** Real etcd through jetcd, with these time limits. */
    static EtcdAdminFactory jetcd(EtcdAdminOptions options) {
        return (clientUrls, tls) -> new JetcdAdmin(clientUrls, tls, options);
    }
}
