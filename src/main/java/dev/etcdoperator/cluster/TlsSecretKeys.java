package dev.etcdoperator.cluster;

import java.util.List;
import java.util.Optional;

import dev.etcdoperator.support.SecretData;
import io.fabric8.kubernetes.api.model.Secret;

/**
 * The keys of a TLS Secret that hold the certificate, its key and the CA: either the CoreOS operator's names for
 * the Secret's role ({@code peer.crt}, {@code server.crt}, {@code etcd-client.crt}, ...) or the
 * {@code kubernetes.io/tls} names that cert-manager writes ({@code tls.crt}, {@code tls.key}, {@code ca.crt}).
 * The keys are also the file names in the member's mount of the Secret.
 */
public record TlsSecretKeys(String cert, String key, String ca) {
    public static final TlsSecretKeys PEER = new TlsSecretKeys("peer.crt", "peer.key", "peer-ca.crt");
    public static final TlsSecretKeys SERVER = new TlsSecretKeys("server.crt", "server.key", "server-ca.crt");
    public static final TlsSecretKeys CLIENT = new TlsSecretKeys("etcd-client.crt", "etcd-client.key",
            "etcd-client-ca.crt");
    public static final TlsSecretKeys KUBERNETES_TLS = new TlsSecretKeys("tls.crt", "tls.key", "ca.crt");

    /**
     * The layout the Secret uses for a role whose CoreOS names are {@code coreos}: those names when the Secret holds
     * all three (they win when both sets are there), else the {@code kubernetes.io/tls} names when it holds all
     * three of those; empty when it holds neither set whole.
     */
    public static Optional<TlsSecretKeys> of(Secret secret, TlsSecretKeys coreos) {
        if (coreos.presentIn(secret)) {
            return Optional.of(coreos);
        }
        return KUBERNETES_TLS.presentIn(secret) ? Optional.of(KUBERNETES_TLS) : Optional.empty();
    }

    public List<String> names() {
        return List.of(cert, key, ca);
    }

    /** The names of this layout that the Secret lacks or holds empty. */
    public List<String> missingIn(Secret secret) {
        return names().stream().filter(name -> {
            byte[] value = SecretData.value(secret, name);
            return value == null || value.length == 0;
        }).toList();
    }

    private boolean presentIn(Secret secret) {
        return missingIn(secret).isEmpty();
    }

    /** How a problem message names the two layouts accepted for a role. */
    public static String accepted(TlsSecretKeys coreos) {
        return String.join(", ", coreos.names()) + " (or " + String.join(", ", KUBERNETES_TLS.names())
                + " as cert-manager writes them)";
    }
}
