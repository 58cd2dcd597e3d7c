package dev.etcdoperator.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;

import dev.etcdoperator.etcd.TestCertificates;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CaIdsTest {
    /** A CA named {@code name} (key {@code name}.key) and a leaf it signs ({@code name}-leaf.crt). */
    private static void ca(Path dir, String name, String subject) {
        TestCertificates.openssl(dir, "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                "-keyout", name + ".key", "-subj", "/CN=" + subject, "-days", "1", "-out", name + ".crt");
        TestCertificates.openssl(dir, "req", "-new", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                "-keyout", name + "-leaf.key", "-subj", "/CN=leaf of " + name, "-out", name + "-leaf.csr");
        TestCertificates.openssl(dir, "x509", "-req", "-in", name + "-leaf.csr", "-CA", name + ".crt", "-CAkey",
                name + ".key", "-CAcreateserial", "-days", "1", "-out", name + "-leaf.crt");
    }

    @Test
    void aCaIsNamedByItsKeyAndACertificateByTheBundleCaThatSignedIt(@TempDir Path dir) throws Exception {
        ca(dir, "old", "etcd CA");
        // the new CA has the same subject: only its key tells it apart
        ca(dir, "new", "etcd CA");
        byte[] oldCa = Files.readAllBytes(dir.resolve("old.crt"));
        byte[] newCa = Files.readAllBytes(dir.resolve("new.crt"));
        byte[] bundle = (new String(oldCa) + new String(newCa)).getBytes();
        String oldId = CaIds.of(oldCa).iterator().next();
        String newId = CaIds.of(newCa).iterator().next();
        assertThat(oldId).hasSize(16).isNotEqualTo(newId);
        assertThat(CaIds.of(bundle)).containsExactlyInAnyOrder(oldId, newId);

        assertThat(CaIds.issuer(Files.readAllBytes(dir.resolve("old-leaf.crt")), bundle)).contains(oldId);
        assertThat(CaIds.issuer(Files.readAllBytes(dir.resolve("new-leaf.crt")), bundle)).contains(newId);
        assertThat(CaIds.issuer(Files.readAllBytes(dir.resolve("new-leaf.crt")), oldCa)).as("not in the bundle")
                .isEmpty();

        // the same CA key issued again (a renewed CA certificate) is the same CA
        TestCertificates.openssl(dir, "req", "-x509", "-new", "-key", "old.key", "-subj", "/CN=etcd CA", "-days", "3",
                "-out", "old-renewed.crt");
        assertThat(CaIds.of(Files.readAllBytes(dir.resolve("old-renewed.crt")))).containsExactly(oldId);
    }

    @Test
    void aChainLeadsThroughItsIntermediateToTheBundleCa(@TempDir Path dir) throws Exception {
        ca(dir, "root", "root CA");
        Files.writeString(dir.resolve("ca.ext"), "basicConstraints=critical,CA:TRUE\nkeyUsage=critical,keyCertSign\n");
        TestCertificates.openssl(dir, "req", "-new", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                "-keyout", "mid.key", "-subj", "/CN=intermediate", "-out", "mid.csr");
        TestCertificates.openssl(dir, "x509", "-req", "-in", "mid.csr", "-CA", "root.crt", "-CAkey", "root.key",
                "-CAcreateserial", "-days", "1", "-extfile", "ca.ext", "-out", "mid.crt");
        TestCertificates.openssl(dir, "req", "-new", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                "-keyout", "leaf.key", "-subj", "/CN=leaf", "-out", "leaf.csr");
        TestCertificates.openssl(dir, "x509", "-req", "-in", "leaf.csr", "-CA", "mid.crt", "-CAkey", "mid.key",
                "-CAcreateserial", "-days", "1", "-out", "leaf.crt");
        byte[] chain = (Files.readString(dir.resolve("leaf.crt")) + Files.readString(dir.resolve("mid.crt")))
                .getBytes();
        byte[] root = Files.readAllBytes(dir.resolve("root.crt"));
        assertThat(CaIds.issuer(chain, root)).contains(CaIds.of(root).iterator().next());
        assertThat(CaIds.issuer("not a certificate".getBytes(), root)).isEmpty();
        assertThat(CaIds.of("not a certificate".getBytes())).isEmpty();
    }
}
