package dev.etcdoperator.etcd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/** {@link JetcdAdmin} against a real etcd that serves clients over TLS and requires a client certificate. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class JetcdAdminTlsTest {
    private static final EtcdAdminOptions OPTIONS = EtcdAdminOptions.defaults().withCallTimeout(Duration.ofSeconds(2));

    private EtcdProcesses etcd;
    private TestCertificates certs;
    private EtcdProcesses.Node node;
    private EtcdAdmin admin;

    @BeforeAll
    void startTlsEtcd() {
        Assumptions.assumeTrue(TestCertificates.opensslAvailable(), "openssl is needed to make test certificates");
        etcd = new EtcdProcesses();
        certs = TestCertificates.create(etcd.workDir().resolve("pki"), etcd.ip(1));
        etcd.requireClientTls(certs.file("server.crt"), certs.file("server.key"), certs.file("ca.crt"));
        node = etcd.startSeed("tls1", 1);
        assertThat(node.clientUrl()).startsWith("https://");
        admin = new JetcdAdmin(List.of(node.clientUrl()), tls(certs), OPTIONS);
        etcd.awaitHealthy(admin, node, Duration.ofSeconds(15));
    }

    @AfterAll
    void stop() {
        try {
            if (admin != null) {
                admin.close();
            }
        } finally {
            if (etcd != null) {
                etcd.close();
            }
        }
    }

    @Test
    void everyCallWorksOverTlsWithAClientCertificate() {
        assertThat(admin.members()).singleElement().satisfies(m -> {
            assertThat(m.name()).isEqualTo("tls1");
            assertThat(m.clientUrls()).containsExactly(node.clientUrl());
        });
        assertThat(admin.status(node.clientUrl()).version()).isEqualTo("3.4.23");
        assertThat(admin.health(node.clientUrl()).healthy()).isTrue();
        assertThat(admin.revision(node.clientUrl())).isPositive();
    }

    @Test
    void aClientKeyInTraditionalSec1FormWorksToo() {
        certs.withTraditionalClientKey();
        EtcdTls sec1 = new EtcdTls(certs.bytes("ca.crt"), certs.bytes("client.crt"), certs.bytes("client-sec1.key"));
        try (EtcdAdmin traditional = new JetcdAdmin(List.of(node.clientUrl()), sec1, OPTIONS)) {
            assertThat(traditional.members()).hasSize(1);
        }
    }

    @Test
    void anUntrustedServerIsRefusedWithinTheTimeout() {
        TestCertificates stranger = TestCertificates.otherCa(etcd.workDir().resolve("other-pki"));
        EtcdTls wrongTrust = new EtcdTls(stranger.bytes("ca.crt"), certs.bytes("client.crt"), certs.bytes("client.key"));
        try (EtcdAdmin wrong = new JetcdAdmin(List.of(node.clientUrl()), wrongTrust, OPTIONS)) {
            assertTimeoutPreemptively(Duration.ofSeconds(5), () -> {
                assertThatThrownBy(wrong::members).isInstanceOf(EtcdAdminException.class)
                        .hasMessageContaining(node.clientUrl()).hasMessageContaining("unable to find valid certification path");
                assertThatThrownBy(() -> wrong.status(node.clientUrl())).isInstanceOf(EtcdAdminException.class)
                        .hasMessageContaining("unable to find valid certification path")
                        .hasMessageNotContaining("\n");
                MemberHealth health = wrong.health(node.clientUrl());
                assertThat(health.healthy()).isFalse();
                assertThat(health.detail()).contains("unable to find valid certification path");
            });
        }
    }

    @Test
    void withoutAClientCertificateTheServerRefuses() {
        EtcdTls serverOnly = new EtcdTls(certs.bytes("ca.crt"), null, null);
        try (EtcdAdmin anonymous = new JetcdAdmin(List.of(node.clientUrl()), serverOnly, OPTIONS)) {
            assertTimeoutPreemptively(Duration.ofSeconds(5), () -> {
                assertThatThrownBy(() -> anonymous.status(node.clientUrl())).isInstanceOf(EtcdAdminException.class)
                        .hasMessageContaining("bad_certificate");
                assertThat(anonymous.health(node.clientUrl()).healthy()).isFalse();
            });
        }
    }

    @Test
    void unusableTlsMaterialIsReportedPlainly() {
        EtcdTls garbage = new EtcdTls("not a certificate".getBytes(), null, null);
        assertThatThrownBy(() -> new JetcdAdmin(List.of(node.clientUrl()), garbage, OPTIONS))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("cannot use the etcd TLS material");
    }

    private static EtcdTls tls(TestCertificates certs) {
        return new EtcdTls(certs.bytes("ca.crt"), certs.bytes("client.crt"), certs.bytes("client.key"));
    }
}
