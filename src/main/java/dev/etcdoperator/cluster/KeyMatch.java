package dev.etcdoperator.cluster;

import java.io.ByteArrayInputStream;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Optional;

import dev.etcdoperator.etcd.PemPrivateKeys;

/**
 * Whether a Secret's private key belongs to its certificate: etcd started on a pair that does not match exits at
 * once, so a Secret rewritten with such a pair must be refused before any member is restarted onto it. A pair that
 * cannot be read as a certificate and a private key is left to the checks that read them.
 */
final class KeyMatch {
    private static final SecureRandom RANDOM = new SecureRandom();

    private KeyMatch() {
    }

    /** Why the key does not belong to the certificate, or empty when it does (or either cannot be read). */
    static Optional<String> mismatch(byte[] certificatePem, byte[] keyPem) {
        if (certificatePem == null || keyPem == null) {
            return Optional.empty();
        }
        X509Certificate certificate;
        byte[] pkcs8;
        try {
            certificate = (X509Certificate) CertificateFactory.getInstance("X.509")
                    .generateCertificate(new ByteArrayInputStream(certificatePem));
            pkcs8 = PemPrivateKeys.toPkcs8Der(keyPem);
        } catch (GeneralSecurityException | RuntimeException e) {
            return Optional.empty();
        }
        String algorithm = certificate.getPublicKey().getAlgorithm();
        String signing = switch (algorithm) {
            case "RSA" -> "SHA256withRSA";
            case "EC" -> "SHA256withECDSA";
            case "Ed25519", "EdDSA" -> "Ed25519";
            default -> null;
        };
        if (signing == null) {
            return Optional.empty();
        }
        PrivateKey key;
        try {
            key = KeyFactory.getInstance(algorithm).generatePrivate(new PKCS8EncodedKeySpec(pkcs8));
        } catch (GeneralSecurityException | RuntimeException e) {
            return Optional.of("its private key is not an " + algorithm + " key, as its certificate's is");
        }
        try {
            byte[] probe = new byte[32];
            RANDOM.nextBytes(probe);
            Signature sign = Signature.getInstance(signing);
            sign.initSign(key);
            sign.update(probe);
            byte[] signature = sign.sign();
            Signature verify = Signature.getInstance(signing);
            verify.initVerify(certificate.getPublicKey());
            verify.update(probe);
            return verify.verify(signature) ? Optional.empty()
                    : Optional.of("its private key does not belong to its certificate");
        } catch (GeneralSecurityException e) {
            return Optional.of("its private key does not belong to its certificate (" + e.getMessage() + ")");
        }
    }
}
