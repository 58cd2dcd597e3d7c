package dev.etcdoperator.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import dev.etcdoperator.etcd.TestCertificates;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KeyMatchTest {
    @TempDir
    Path dir;

    private byte[] read(String file) throws Exception {
        return Files.readAllBytes(dir.resolve(file));
    }

    @Test
    void aKeyIsCheckedAgainstItsCertificateWhateverItsPemForm() throws Exception {
        assumeTrue(TestCertificates.opensslAvailable(), "openssl is not on this machine: the pairs cannot be made");
        TestCertificates.openssl(dir, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "rsa.key", "-out",
                "rsa.crt", "-subj", "/CN=a", "-days", "1");
        TestCertificates.openssl(dir, "genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048", "-out",
                "other-rsa.key");
        TestCertificates.openssl(dir, "ecparam", "-name", "prime256v1", "-genkey", "-noout", "-out", "ec.key");
        TestCertificates.openssl(dir, "req", "-x509", "-key", "ec.key", "-out", "ec.crt", "-subj", "/CN=b", "-days",
                "1");

        assertThat(KeyMatch.mismatch(read("rsa.crt"), read("rsa.key"))).isEmpty();
        assertThat(KeyMatch.mismatch(read("ec.crt"), read("ec.key"))).as("a SEC1 EC key").isEmpty();
        assertThat(KeyMatch.mismatch(read("rsa.crt"), read("other-rsa.key"))).get().asString()
                .contains("does not belong to its certificate");
        assertThat(KeyMatch.mismatch(read("rsa.crt"), read("ec.key"))).get().asString()
                .contains("not an RSA key");
        assertThat(KeyMatch.mismatch(read("ec.crt"), read("rsa.key"))).isPresent();
        // a Secret rewritten with a key of another pair: refused before any member is restarted onto it
        dev.etcdoperator.api.v1beta2.EtcdClusterSpec spec = io.fabric8.kubernetes.client.utils.Serialization.unmarshal("""
                size: 3
                TLS:
                  static:
                    member: {peerSecret: etcd-peer-tls}
                """, dev.etcdoperator.api.v1beta2.EtcdClusterSpec.class);
        java.util.Map<String, io.fabric8.kubernetes.api.model.Secret> secrets = java.util.Map.of("etcd-peer-tls",
                new io.fabric8.kubernetes.api.model.SecretBuilder().withNewMetadata().withName("etcd-peer-tls")
                        .endMetadata().addToData("peer.crt", b64(read("rsa.crt")))
                        .addToData("peer.key", b64(read("other-rsa.key"))).addToData("peer-ca.crt", b64(read("rsa.crt")))
                        .build());
        ClusterTls.Loaded loaded = ClusterTls.load(spec, "prod", secrets::get);
        assertThat(loaded.ok()).isFalse();
        assertThat(loaded.problem()).contains("Secret prod/etcd-peer-tls", "does not belong to its certificate",
                "peer.key", "changes nothing", "until the secrets are fixed");
        assertThat(loaded.reason()).isEqualTo("TLSSecretInvalid");
        // a key behind a line that looks like a block's start and end: the key's own block is read, as etcd reads it
        byte[] behindAFalseBlock = ("-----BEGIN PRIVATE KEY-----END PRIVATE KEY-----\n"
                + Files.readString(dir.resolve("rsa.key"))).getBytes();
        assertThat(KeyMatch.mismatch(read("rsa.crt"), behindAFalseBlock)).isEmpty();
        byte[] otherBehindAFalseBlock = ("-----BEGIN PRIVATE KEY-----END PRIVATE KEY-----\n"
                + Files.readString(dir.resolve("other-rsa.key"))).getBytes();
        assertThat(KeyMatch.mismatch(read("rsa.crt"), otherBehindAFalseBlock)).get().asString()
                .contains("does not belong to its certificate");
        // what cannot be read as a pair is left to the checks that read it
        for (String unreadable : List.of("-----BEGIN PRIVATE KEY-----END PRIVATE KEY-----",
                "-----BEGIN PRIVATE KEY-----\n!!!\n-----END PRIVATE KEY-----",
                "-----END PRIVATE KEY-----\n-----BEGIN PRIVATE KEY-----")) {
            assertThat(KeyMatch.mismatch(read("rsa.crt"), unreadable.getBytes())).as(unreadable).isEmpty();
        }
        assertThat(KeyMatch.mismatch(read("rsa.crt"), "-----BEGIN PRIVATE KEY-----\nQQ\n-----END PRIVATE KEY-----"
                .getBytes())).get().asString().contains("not an RSA key");
        assertThat(KeyMatch.mismatch("x".getBytes(), read("rsa.key"))).isEmpty();
        assertThat(KeyMatch.mismatch(read("rsa.crt"), "x".getBytes())).isEmpty();
    }

    private static String b64(byte[] bytes) {
        return java.util.Base64.getEncoder().encodeToString(bytes);
    }
}
