package dev.etcdoperator.cluster;

import java.io.ByteArrayInputStream;
import java.security.cert.Certificate;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.Collection;
import java.util.Comparator;
import java.util.Optional;

import dev.etcdoperator.core.cluster.CertificateValidity;

/** Reads when the certificates of one PEM value (a certificate, a chain or a CA bundle) expire. */
final class CertificateDates {
    private CertificateDates() {
    }

    /** The first of the value's certificates to expire; empty when it holds none that can be read. */
    static Optional<CertificateValidity> of(String secret, String key, byte[] pem) {
        if (pem == null || pem.length == 0) {
            return Optional.empty();
        }
        Collection<? extends Certificate> certificates;
        try {
            certificates = CertificateFactory.getInstance("X.509")
                    .generateCertificates(new ByteArrayInputStream(pem));
        } catch (CertificateException e) {
            return Optional.empty();
        }
        return certificates.stream().filter(X509Certificate.class::isInstance).map(X509Certificate.class::cast)
                .min(Comparator.comparing(X509Certificate::getNotAfter))
                .map(c -> new CertificateValidity(secret, key, c.getSubjectX500Principal().getName(),
                        c.getNotAfter().toInstant()));
    }
}
