package dev.etcdoperator.cluster;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

import dev.etcdoperator.api.v1beta2.EtcdClusterSpec;
import dev.etcdoperator.core.cluster.CertificateValidity;
import dev.etcdoperator.core.cluster.TlsMaterial;
import dev.etcdoperator.etcd.EtcdTls;
import dev.etcdoperator.support.SecretData;
import io.fabric8.kubernetes.api.model.Secret;

/**
 * The TLS secrets of a cluster with {@code spec.TLS.static}, checked before anything is created or changed: the
 * peer secret ({@code peer.crt}, {@code peer.key}, {@code peer-ca.crt}), the server secret ({@code server.crt},
 * {@code server.key}, {@code server-ca.crt}) and the operator's client secret ({@code etcd-client.crt},
 * {@code etcd-client.key}, {@code etcd-client-ca.crt}), named and keyed as the CoreOS operator did; each may
 * instead hold {@code tls.crt}, {@code tls.key} and {@code ca.crt}, as cert-manager writes them.
 */
final class ClusterTls {
    static final String REASON_MISSING = "TLSSecretMissing";
    static final String REASON_INVALID = "TLSSecretInvalid";
    private static final String UNUSABLE = "; etcd would not start on it.";
    /** The Secrets changed so that members still on the old content and members on the new would not trust each other. */
    static final String REASON_UNSAFE_CHANGE = "TLSChangeUnsafe";

    /**
     * What the secrets gave: the operator's client TLS (null when members serve plain http) and the layout of each
     * secret, or a problem.
     */
    /** @param reason why it cannot be used ({@link #REASON_MISSING}, {@link #REASON_INVALID}), with the problem */
    record Loaded(EtcdTls clientTls, MemberTlsKeys keys, String problem, List<CertificateValidity> certificates,
            String reason) {
        Loaded {
            certificates = certificates == null ? List.of() : List.copyOf(certificates);
        }

        Loaded(EtcdTls clientTls, MemberTlsKeys keys, String problem, List<CertificateValidity> certificates) {
            this(clientTls, keys, problem, certificates, problem == null ? null : REASON_MISSING);
        }

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

    /**
     * {@link #load}, where content of the Secrets that a reader fails on in a way it was not written for is the
     * Secrets' fault (TLSSecretInvalid), not a reconcile that throws each time; a failed read of the API is thrown.
     */
    static Loaded loadOrRefuse(EtcdClusterSpec spec, String namespace, Secrets secrets) {
        try {
            return load(spec, namespace, secrets);
        } catch (io.fabric8.kubernetes.client.KubernetesClientException e) {
            throw e;
        } catch (RuntimeException e) {
            return new Loaded(null, null, "The TLS Secrets of spec.TLS.static cannot be read (" + e + "). The"
                    + " operator creates and changes nothing for this cluster until the secrets are fixed.", List.of(),
                    REASON_INVALID);
        }
    }

    static Loaded load(EtcdClusterSpec spec, String namespace, Secrets secrets) {
        List<String> problems = new ArrayList<>();
        String peer = ClusterResources.peerSecret(spec);
        String server = ClusterResources.serverSecret(spec);
        String operator = ClusterResources.operatorSecret(spec);
        Found peerFound = null;
        Found serverFound = null;
        Found clientFound = null;
        if (peer != null) {
            peerFound = check(secrets, namespace, peer, "spec.TLS.static.member.peerSecret", problems,
                    TlsSecretKeys.PEER);
        }
        if (server != null) {
            serverFound = check(secrets, namespace, server, "spec.TLS.static.member.serverSecret", problems,
                    TlsSecretKeys.SERVER);
        }
        if (server != null && operator == null) {
            problems.add("spec.TLS.static.member.serverSecret makes members require client certificates, so "
                    + "spec.TLS.static.operatorSecret must name a Secret with "
                    + TlsSecretKeys.accepted(TlsSecretKeys.CLIENT) + ".");
        } else if (operator != null) {
            clientFound = check(secrets, namespace, operator, "spec.TLS.static.operatorSecret", problems,
                    TlsSecretKeys.CLIENT);
        }
        if (!problems.isEmpty()) {
            boolean onlyInvalid = problems.stream().allMatch(p -> p.contains(UNUSABLE));
            return new Loaded(null, null, String.join(" ", problems)
                    + " The operator creates and changes nothing for this cluster until the secrets are "
                    + (onlyInvalid ? "fixed." : "there."), List.of(), onlyInvalid ? REASON_INVALID : REASON_MISSING);
        }
        MemberTlsKeys keys = new MemberTlsKeys(peerFound == null ? TlsSecretKeys.PEER : peerFound.keys(),
                serverFound == null ? TlsSecretKeys.SERVER : serverFound.keys(),
                clientFound == null ? TlsSecretKeys.CLIENT : clientFound.keys(),
                peerFound == null && serverFound == null ? null
                        // the operator's Secret is mounted in members only with the server Secret
                        : material(peerFound, serverFound, serverFound == null ? null : clientFound));
        EtcdTls tls = server == null ? null : clientFound.tls();
        List<CertificateValidity> certificates = new ArrayList<>();
        for (Found found : new Found[] { peerFound, serverFound, clientFound }) {
            if (found != null) {
                certificates.addAll(found.validity());
            }
        }
        return new Loaded(tls, keys, null, certificates);
    }

    /** The Secrets' fingerprint, the CAs their bundles trust and the CAs that issued their certificates. */
    static TlsMaterial material(Found peer, Found server, Found client) {
        Set<String> trusted = new TreeSet<>();
        Set<String> issuers = new TreeSet<>();
        for (Found f : new Found[] { peer, server, client }) {
            if (f != null) {
                byte[] bundle = SecretData.value(f.secret(), f.keys().ca());
                trusted.addAll(CaIds.of(bundle));
                CaIds.issuer(SecretData.value(f.secret(), f.keys().cert()), bundle).ifPresent(issuers::add);
            }
        }
        return new TlsMaterial(fingerprint(peer, server, client), trusted, issuers);
    }

    /**
     * SHA-256 (hex) of what members are started on: each Secret's role, name and the values of the keys its layout
     * uses (certificate, key, CA bundle); other keys of the Secrets, their labels and their resource versions do
     * not count, so a Secret written again with the same material changes nothing.
     */
    static String fingerprint(Found peer, Found server, Found client) {
        MessageDigest sha;
        try {
            sha = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
        String[] roles = { "peer", "server", "operator" };
        Found[] found = { peer, server, client };
        for (int i = 0; i < found.length; i++) {
            if (found[i] == null) {
                continue;
            }
            update(sha, roles[i].getBytes(StandardCharsets.UTF_8));
            update(sha, found[i].name().getBytes(StandardCharsets.UTF_8));
            for (String key : found[i].keys().names()) {
                update(sha, key.getBytes(StandardCharsets.UTF_8));
                byte[] value = SecretData.value(found[i].secret(), key);
                update(sha, value == null ? new byte[0] : value);
            }
        }
        return HexFormat.of().formatHex(sha.digest());
    }

    /** Length first, so that no two different sequences of values give the same input. */
    private static void update(MessageDigest sha, byte[] value) {
        sha.update(ByteBuffer.allocate(Integer.BYTES).putInt(value.length).array());
        sha.update(value);
    }

    /** A secret's layout and its material. */
    record Found(String name, TlsSecretKeys keys, Secret secret) {
        EtcdTls tls() {
            return new EtcdTls(SecretData.value(secret, keys.ca()), SecretData.value(secret, keys.cert()),
                    SecretData.value(secret, keys.key()));
        }

        /** When its certificate and its CA expire. */
        List<CertificateValidity> validity() {
            List<CertificateValidity> out = new ArrayList<>();
            for (String key : new String[] { keys.cert(), keys.ca() }) {
                CertificateDates.of(name, key, SecretData.value(secret, key)).ifPresent(out::add);
            }
            return out;
        }
    }

    /** The secret and its layout, or null after adding what is missing to {@code problems}. */
    private static Found check(Secrets secrets, String namespace, String name, String field,
            List<String> problems, TlsSecretKeys coreos) {
        Secret secret = secrets.get(name);
        if (secret == null) {
            problems.add("Secret " + namespace + "/" + name + " (" + field + ") does not exist; it must hold "
                    + TlsSecretKeys.accepted(coreos) + ".");
            return null;
        }
        var keys = TlsSecretKeys.of(secret, coreos);
        if (keys.isEmpty()) {
            // name what is missing from the layout the secret comes closer to
            List<String> missing = coreos.missingIn(secret);
            List<String> missingTls = TlsSecretKeys.KUBERNETES_TLS.missingIn(secret);
            if (missingTls.size() < missing.size()) {
                missing = missingTls;
            }
            problems.add("Secret " + namespace + "/" + name + " (" + field + ") has no key "
                    + String.join(", ", missing) + "; it must hold " + TlsSecretKeys.accepted(coreos) + ".");
            return null;
        }
        Optional<String> mismatch = KeyMatch.mismatch(SecretData.value(secret, keys.get().cert()),
                SecretData.value(secret, keys.get().key()));
        if (mismatch.isPresent()) {
            problems.add("Secret " + namespace + "/" + name + " (" + field + "): " + mismatch.get() + " ("
                    + keys.get().key() + ", " + keys.get().cert() + ")" + UNUSABLE);
            return null;
        }
        return new Found(name, keys.get(), secret);
    }
}
