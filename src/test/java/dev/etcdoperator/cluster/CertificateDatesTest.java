package dev.etcdoperator.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

import dev.etcdoperator.core.cluster.CertificateValidity;
import dev.etcdoperator.etcd.TestCertificates;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** When the certificates of a PEM value expire: a leaf, a chain (the first to expire counts), and what is not PEM. */
class CertificateDatesTest {
    @Test
    void aChainCountsByItsFirstCertificateToExpire(@TempDir Path dir) throws Exception {
        assumeThat(opensslRuns()).as("openssl is needed to make certificates").isTrue();
        TestCertificates.openssl(dir, "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                "-keyout", "ca.key", "-out", "ca.crt", "-days", "400", "-subj", "/CN=test-ca");
        TestCertificates.openssl(dir, "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                "-keyout", "leaf.key", "-out", "leaf.crt", "-days", "5", "-subj", "/CN=member");
        byte[] chain = (Files.readString(dir.resolve("ca.crt")) + Files.readString(dir.resolve("leaf.crt")))
                .getBytes(StandardCharsets.US_ASCII);

        CertificateValidity v = CertificateDates.of("peer", "tls.crt", chain).orElseThrow();

        assertThat(v.secret()).isEqualTo("peer");
        assertThat(v.key()).isEqualTo("tls.crt");
        assertThat(v.subject()).isEqualTo("CN=member");
        assertThat(v.notAfter()).isCloseTo(Instant.now().plus(Duration.ofDays(5)), within(Duration.ofHours(1)));
        assertThat(v.expiresSoon(Instant.now())).isTrue();
        assertThat(CertificateDates.of("peer", "ca.crt", Files.readAllBytes(dir.resolve("ca.crt"))).orElseThrow()
                .expiresSoon(Instant.now())).isFalse();
    }

    @Test
    void whatIsNoCertificateGivesNothing() {
        assertThat(CertificateDates.of("s", "k", null)).isEmpty();
        assertThat(CertificateDates.of("s", "k", new byte[0])).isEmpty();
        assertThat(CertificateDates.of("s", "k", "not a certificate".getBytes(StandardCharsets.US_ASCII))).isEmpty();
    }

    private static org.assertj.core.data.TemporalUnitOffset within(Duration d) {
        return new org.assertj.core.data.TemporalUnitWithinOffset(d.toMinutes(), ChronoUnit.MINUTES);
    }

    private static boolean opensslRuns() {
        try {
            return new ProcessBuilder("openssl", "version").start().waitFor() == 0;
        } catch (Exception e) {
            return false;
        }
    }
}
