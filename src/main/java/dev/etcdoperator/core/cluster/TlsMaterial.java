package dev.etcdoperator.core.cluster;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * What a cluster's TLS Secrets hold, as far as changing them safely goes: a fingerprint of their content, the CAs
 * their bundles trust and the CAs that issued their certificates (each CA named by its key). A member pod records the
 * material it was started on; members still on older material and members restarted on the current one must trust
 * each other's certificates, and so must the operator, which uses the current material at once.
 *
 * @param fingerprint the content's fingerprint
 * @param trusted     the CAs of the peer, server and operator CA bundles
 * @param issuers     the CAs (of those bundles) that issued the peer, server and operator certificates; a certificate
 *                    whose CA is not in its own bundle adds none
 */
public record TlsMaterial(String fingerprint, Set<String> trusted, Set<String> issuers) {
    public TlsMaterial {
        trusted = Set.copyOf(trusted == null ? Set.of() : trusted);
        issuers = Set.copyOf(issuers == null ? Set.of() : issuers);
    }

    /**
     * Why rolling the members of {@code started} (pod name to the material each was started on; pods that do not say
     * which CAs they trust are left out) onto this material would cut members off from each other or from the
     * operator; empty when it would not. Safe when every member still on older material trusts the CAs that issued
     * the current certificates, and the current bundles trust the CAs that issued the certificates those members
     * present.
     */
    public Optional<String> unsafeChangeFrom(java.util.Map<String, TlsMaterial> started) {
        List<String> problems = new ArrayList<>();
        for (var e : new java.util.TreeMap<>(started).entrySet()) {
            TlsMaterial old = e.getValue();
            if (fingerprint.equals(old.fingerprint()) || old.trusted().isEmpty()) {
                continue;
            }
            Set<String> untrustedNew = new TreeSet<>(issuers);
            untrustedNew.removeAll(old.trusted());
            Set<String> untrustedOld = new TreeSet<>(old.issuers());
            untrustedOld.removeAll(trusted);
            if (!untrustedNew.isEmpty()) {
                problems.add("member " + e.getKey() + " trusts only CA " + String.join(", ", new TreeSet<>(old.trusted()))
                        + ", not CA " + String.join(", ", untrustedNew) + " that issued the new certificates");
            } else if (!untrustedOld.isEmpty()) {
                problems.add("member " + e.getKey() + " presents certificates of CA " + String.join(", ", untrustedOld)
                        + ", which the new CA bundles no longer trust");
            }
        }
        return problems.isEmpty() ? Optional.empty() : Optional.of(String.join("; ", problems));
    }
}
