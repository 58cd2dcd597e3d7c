package dev.etcdoperator.cluster;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import dev.etcdoperator.api.v1beta2.EtcdClusterSpec;
import dev.etcdoperator.etcd.EtcdTls;
import dev.etcdoperator.support.SecretData;
import io.fabric8.kubernetes.api.model.Secret;

/**
 * The TLS secrets of a cluster with {@code spec.TLS.static}, checked before anything is created or changed: the
 * peer secret ({@code peer.crt}, {@code peer.key}, {@code peer-ca.crt}), the server secret ({@code server.crt},
 * {@code server.key}, {@code server-ca.crt}) and the operator's client secret ({@code etcd-client.crt},
 * {@code etcd-client.key}, {@code etcd-client-ca.crt}), named and keyed as the CoreOS operator did.
 */
final class ClusterTls {
    static final String REASON_MISSING = "TLSSecretMissing";
    static final String REASON_INVALID = "TLSSecretInvalid";

    /** What the secrets gave: the operator's client TLS (null when members serve plain http), or a problem. */
    record Loaded(EtcdTls clientTls, String problem) {
        boolean ok() {
            return problem == null;
        }
    }

    /** Looks a secret up by name; null when there is none. */
    @FunctionalInterface
    interface Secrets {
        Secret get(String name);
    }

    private ClusterTls() {
    }

    static boolean enabled(EtcdClusterSpec spec) {
        return ClusterResources.staticTls(spec) != null;
    }

    /** True when the operator must talk https to members. */
    static boolean clientTls(EtcdClusterSpec spec) {
        return ClusterResources.serverSecret(spec) != null;
    }

    static Loaded load(EtcdClusterSpec spec, String namespace, Secrets secrets) {
        List<String> problems = new ArrayList<>();
        String peer = ClusterResources.peerSecret(spec);
        String server = ClusterResources.serverSecret(spec);
        String operator = ClusterResources.operatorSecret(spec);
        if (peer != null) {
            check(secrets, namespace, peer, "spec.TLS.static.member.peerSecret", problems,
                    ClusterResources.PEER_CERT, ClusterResources.PEER_KEY, ClusterResources.PEER_CA);
        }
        if (server != null) {
            check(secrets, namespace, server, "spec.TLS.static.member.serverSecret", problems,
                    ClusterResources.SERVER_CERT, ClusterResources.SERVER_KEY, ClusterResources.SERVER_CA);
        }
        Map<String, byte[]> client = null;
        if (server != null && operator == null) {
            problems.add("spec.TLS.static.member.serverSecret makes members require client certificates, so "
                    + "spec.TLS.static.operatorSecret must name a Secret with " + ClusterResources.CLIENT_CERT + ", "
                    + ClusterResources.CLIENT_KEY + " and " + ClusterResources.CLIENT_CA + ".");
        } else if (operator != null) {
            client = check(secrets, namespace, operator, "spec.TLS.static.operatorSecret", problems,
                    ClusterResources.CLIENT_CERT, ClusterResources.CLIENT_KEY, ClusterResources.CLIENT_CA);
        }
        if (!problems.isEmpty()) {
            return new Loaded(null, String.join(" ", problems)
                    + " The operator creates and changes nothing for this cluster until the secrets are there.");
        }
        EtcdTls tls = server == null ? null
                : new EtcdTls(client.get(ClusterResources.CLIENT_CA), client.get(ClusterResources.CLIENT_CERT),
                        client.get(ClusterResources.CLIENT_KEY));
        return new Loaded(tls, null);
    }

    /** The decoded keys of the secret, or null after adding what is missing to {@code problems}. */
    private static Map<String, byte[]> check(Secrets secrets, String namespace, String name, String field,
            List<String> problems, String... keys) {
        Secret secret = secrets.get(name);
        if (secret == null) {
            problems.add("Secret " + namespace + "/" + name + " (" + field + ") does not exist; it must hold "
                    + String.join(", ", keys) + ".");
            return null;
        }
        Map<String, byte[]> values = new java.util.HashMap<>();
        List<String> missing = new ArrayList<>();
        for (String key : keys) {
            byte[] value = SecretData.value(secret, key);
            if (value == null || value.length == 0) {
                missing.add(key);
            } else {
                values.put(key, value);
            }
        }
        if (!missing.isEmpty()) {
            problems.add("Secret " + namespace + "/" + name + " (" + field + ") has no key "
                    + String.join(", ", missing) + "; it must hold " + String.join(", ", keys) + ".");
            return null;
        }
        return values;
    }
}
