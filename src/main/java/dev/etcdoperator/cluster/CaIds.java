package dev.etcdoperator.cluster;

import java.io.ByteArrayInputStream;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Names a CA by its public key (the first 16 hex digits of the SHA-256 of its encoded key): a CA certificate issued
 * again for the same key signs the same certificates, and one of a new key does not, whatever its subject.
 */
final class CaIds {
    /** Far deeper than any real chain; bounds the signatures checked for a Secret of a thousand certificates. */
    private static final int MAX_CHAIN_STEPS = 10;

    private CaIds() {
    }

    /** The ids of the certificates of a PEM bundle; empty when it holds none that can be read. */
    static Set<String> of(byte[] pem) {
        Set<String> ids = new TreeSet<>();
        certificates(pem).forEach(c -> ids.add(id(c)));
        return ids;
    }

    /**
     * The id of the CA of {@code bundle} that a certificate (or chain, leaf first) leads to: the one whose key
     * verifies the leaf, or an intermediate of the chain that the leaf leads to; empty when none does.
     */
    static Optional<String> issuer(byte[] chainPem, byte[] bundlePem) {
        List<X509Certificate> chain = certificates(chainPem);
        List<X509Certificate> bundle = certificates(bundlePem);
        if (chain.isEmpty()) {
            return Optional.empty();
        }
        X509Certificate current = chain.get(0);
        for (int step = 0; step < Math.min(chain.size(), MAX_CHAIN_STEPS); step++) {
            for (X509Certificate ca : bundle) {
                if (signs(ca, current)) {
                    return Optional.of(id(ca));
                }
            }
            X509Certificate up = null;
            for (X509Certificate c : chain) {
                if (c != current && signs(c, current)) {
                    up = c;
                    break;
                }
            }
            if (up == null) {
                return Optional.empty();
            }
            current = up;
        }
        return Optional.empty();
    }

    private static boolean signs(X509Certificate ca, X509Certificate cert) {
        if (!ca.getSubjectX500Principal().equals(cert.getIssuerX500Principal())) {
            return false;
        }
        try {
            cert.verify(ca.getPublicKey());
            return true;
        } catch (GeneralSecurityException | RuntimeException e) {
            return false;
        }
    }

    static String id(X509Certificate c) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(c.getPublicKey().getEncoded());
            return HexFormat.of().formatHex(digest).substring(0, 16);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static List<X509Certificate> certificates(byte[] pem) {
        List<X509Certificate> out = new ArrayList<>();
        if (pem == null || pem.length == 0) {
            return out;
        }
        try {
            CertificateFactory.getInstance("X.509").generateCertificates(new ByteArrayInputStream(pem)).stream()
                    .filter(X509Certificate.class::isInstance).map(X509Certificate.class::cast).forEach(out::add);
        } catch (CertificateException e) {
            return out;
        }
        return out;
    }
}
