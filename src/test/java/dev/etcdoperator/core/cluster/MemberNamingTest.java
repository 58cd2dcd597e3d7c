package dev.etcdoperator.core.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.random.RandomGenerator;

import org.junit.jupiter.api.Test;

class MemberNamingTest {
    private final MemberNaming naming = new MemberNaming("demo", "prod");

    @Test
    void newNamesAreTheClusterNameAndTenLowercaseAlphanumerics() {
        Set<String> seen = new HashSet<>();
        RandomGenerator random = new Random(42);
        for (int i = 0; i < 200; i++) {
            String name = naming.newMemberName(random);
            assertThat(name).matches("demo-[a-z0-9]{10}");
            assertThat(naming.isMemberName(name)).isTrue();
            seen.add(name);
        }
        assertThat(seen).hasSize(200);
    }

    /** A claim or pod of another form would become a member whose host name and label value are refused. */
    @Test
    void memberNamesAreTheClustersDnsLabels() {
        for (String member : List.of("demo-abc", "demo-0000", "demo-a1b2c3d4e5", "demo-" + "x".repeat(58))) {
            assertThat(naming.isMemberName(member)).as(member).isTrue();
        }
        for (String other : java.util.Arrays.asList(null, "demo", "demo-", "demox-abc", "demo-a.b", "demo-a_b",
                "demo-ABC", "demo-abc-", "demo-" + "x".repeat(59), "other-abc")) {
            assertThat(naming.isMemberName(other)).as(String.valueOf(other)).isFalse();
        }
    }

    @Test
    void theSameRandomSourceGivesTheSameNames() {
        assertThat(naming.newMemberName(new Random(7))).isEqualTo(naming.newMemberName(new Random(7)));
    }

    @Test
    void addressesFollowTheOriginalLayout() {
        assertThat(naming.dnsName("demo-abc")).isEqualTo("demo-abc.demo.prod.svc");
        assertThat(naming.peerUrl("demo-abc")).isEqualTo("http://demo-abc.demo.prod.svc:2380");
        assertThat(naming.clientUrl("demo-abc")).isEqualTo("http://demo-abc.demo.prod.svc:2379");
        assertThat(naming.clientServiceName()).isEqualTo("demo-client");
        assertThat(naming.peerServiceName()).isEqualTo("demo");
    }

    @Test
    void aClusterDomainAndTlsShowInTheUrls() {
        MemberNaming tls = new MemberNaming("demo", "prod", "cluster.local", true);
        assertThat(tls.clusterDomain()).isEqualTo(".cluster.local");
        assertThat(tls.peerUrl("demo-abc")).isEqualTo("https://demo-abc.demo.prod.svc.cluster.local:2380");
        assertThat(tls.clientUrl("demo-abc")).isEqualTo("https://demo-abc.demo.prod.svc.cluster.local:2379");
        assertThat(new MemberNaming("demo", "prod", ".cluster.local", false).dnsName("demo-x"))
                .isEqualTo("demo-x.demo.prod.svc.cluster.local");
        assertThat(new MemberNaming("demo", "prod", null, false).dnsName("demo-x")).isEqualTo("demo-x.demo.prod.svc");
    }

    @Test
    void aPeerUrlGivesBackItsMemberOnlyWhenItIsOneOfOurs() {
        assertThat(naming.memberOfPeerUrl("http://demo-abc.demo.prod.svc:2380")).contains("demo-abc");
        assertThat(naming.memberOfPeerUrl("https://demo-abc.demo.prod.svc:2380")).contains("demo-abc");
        assertThat(naming.memberOfPeerUrl("http://demo-abc.other.prod.svc:2380")).isEmpty();
        assertThat(naming.memberOfPeerUrl("http://demo-abc.demo.prod.svc:2379")).isEmpty();
        assertThat(naming.memberOfPeerUrl("http://x.demo-abc.demo.prod.svc:2380")).isEmpty();
        assertThat(naming.memberOfPeerUrl("http://other-abc.demo.prod.svc:2380")).isEmpty();
        assertThat(naming.memberOfPeerUrl("http://10.0.0.1:2380")).isEmpty();
        assertThat(naming.memberOfPeerUrl(null)).isEmpty();
    }

    @Test
    void memberNamesNeedTheClusterPrefixAndASuffix() {
        assertThat(naming.isMemberName("demo-1")).isTrue();
        assertThat(naming.isMemberName("demo-")).isFalse();
        assertThat(naming.isMemberName("demo")).isFalse();
        assertThat(naming.isMemberName("demox-1")).isFalse();
        assertThat(naming.isMemberName(null)).isFalse();
    }
}
