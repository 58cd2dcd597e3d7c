package dev.etcdoperator.etcd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.KeyFactory;
import java.security.interfaces.ECPrivateKey;
import java.security.interfaces.RSAPrivateCrtKey;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Base64;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Traditional PEM keys become PKCS#8 that the JDK alone reads (no BouncyCastle in the operator). */
class PemPrivateKeysTest {
    @TempDir
    Path dir;

    @BeforeEach
    void needsOpenssl() {
        Assumptions.assumeTrue(TestCertificates.opensslAvailable(), "openssl is needed to make test keys");
    }

    @Test
    void pkcs1RsaBecomesTheSameKeyInPkcs8() throws Exception {
        TestCertificates keys = TestCertificates.keyPair(dir, "RSA");
        assertThat(new String(keys.bytes("traditional.key"), StandardCharsets.US_ASCII)).startsWith("-----BEGIN RSA PRIVATE KEY-----");

        RSAPrivateCrtKey converted = (RSAPrivateCrtKey) read("RSA", PemPrivateKeys.toPkcs8(keys.bytes("traditional.key")));
        RSAPrivateCrtKey original = (RSAPrivateCrtKey) read("RSA", keys.bytes("pkcs8.key"));

        assertThat(converted.getModulus()).isEqualTo(original.getModulus());
        assertThat(converted.getPrivateExponent()).isEqualTo(original.getPrivateExponent());
    }

    @Test
    void sec1EcBecomesTheSameKeyInPkcs8() throws Exception {
        TestCertificates keys = TestCertificates.keyPair(dir, "EC");
        assertThat(new String(keys.bytes("traditional.key"), StandardCharsets.US_ASCII)).startsWith("-----BEGIN EC PRIVATE KEY-----");

        ECPrivateKey converted = (ECPrivateKey) read("EC", PemPrivateKeys.toPkcs8(keys.bytes("traditional.key")));
        ECPrivateKey original = (ECPrivateKey) read("EC", keys.bytes("pkcs8.key"));

        assertThat(converted.getS()).isEqualTo(original.getS());
        assertThat(converted.getParams().getCurve()).isEqualTo(original.getParams().getCurve());
    }

    @Test
    void pkcs8IsLeftAlone() {
        byte[] pkcs8 = TestCertificates.keyPair(dir, "EC").bytes("pkcs8.key");
        assertThat(PemPrivateKeys.toPkcs8(pkcs8)).isSameAs(pkcs8);
    }

    @Test
    void encryptedAndNonKeysAreRefusedPlainly() {
        assertThatThrownBy(() -> PemPrivateKeys.toPkcs8("-----BEGIN ENCRYPTED PRIVATE KEY-----\nAAAA\n-----END ENCRYPTED PRIVATE KEY-----\n"
                .getBytes(StandardCharsets.US_ASCII))).hasMessageContaining("encrypted");
        assertThatThrownBy(() -> PemPrivateKeys.toPkcs8("hello".getBytes(StandardCharsets.US_ASCII)))
                .hasMessageContaining("not a PEM private key");
    }

    private static java.security.PrivateKey read(String algorithm, byte[] pem) throws Exception {
        String text = new String(pem, StandardCharsets.US_ASCII);
        assertThat(text).startsWith("-----BEGIN PRIVATE KEY-----");
        String body = text.replaceAll("-----[A-Z ]+-----", "").replaceAll("\\s", "");
        return KeyFactory.getInstance(algorithm).generatePrivate(new PKCS8EncodedKeySpec(Base64.getDecoder().decode(body)));
    }
}
