package dev.etcdoperator.core.cluster;

import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * When one certificate of a cluster's TLS Secrets stops being valid: the earliest {@code notAfter} of the certificates
 * in one key of one Secret (a chain or a CA bundle counts by its first certificate to expire).
 *
 * @param secret   the Secret's name
 * @param key      the key in it, e.g. {@code server.crt} or {@code ca.crt}
 * @param subject  the subject of that certificate
 * @param notAfter when it expires
 */
public record CertificateValidity(String secret, String key, String subject, Instant notAfter) {
    /** How early a certificate about to expire is reported. */
    public static final Duration WARN_BEFORE = Duration.ofDays(14);

    public boolean expired(Instant now) {
        return !now.isBefore(notAfter);
    }

    public boolean expiresSoon(Instant now) {
        return !expired(now) && now.plus(WARN_BEFORE).isAfter(notAfter);
    }

    public static Optional<CertificateValidity> firstToExpire(List<CertificateValidity> certificates) {
        return certificates.stream().min(Comparator.comparing(CertificateValidity::notAfter)
                .thenComparing(CertificateValidity::secret).thenComparing(CertificateValidity::key));
    }

    public String label() {
        return secret + "/" + key + " (" + subject + ")";
    }
}
