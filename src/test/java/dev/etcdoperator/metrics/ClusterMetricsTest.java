package dev.etcdoperator.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import java.util.Set;

import dev.etcdoperator.core.cluster.CertificateValidity;
import dev.etcdoperator.core.cluster.ClusterHealth;
import dev.etcdoperator.core.cluster.MemberDatabase;
import dev.etcdoperator.core.cluster.Step;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

class ClusterMetricsTest {
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final ClusterMetrics metrics = new ClusterMetrics(registry);

    private double gauge(String name, String cluster, String... tags) {
        return registry.get(name).tags("namespace", "ns", "etcd_cluster", cluster).tags(tags).gauge().value();
    }

    private double counter(String name, String cluster, String... tags) {
        return registry.get(name).tags("namespace", "ns", "etcd_cluster", cluster).tags(tags).counter().count();
    }

    @Test
    void theGaugesShowTheLastObservation() {
        metrics.observed("ns", "a", new ClusterHealth(2, 1, 1, 3, 5, true, false));
        assertThat(gauge(ClusterMetrics.MEMBERS, "a", "state", "healthy")).isEqualTo(2);
        assertThat(gauge(ClusterMetrics.MEMBERS, "a", "state", "unhealthy")).isEqualTo(1);
        assertThat(gauge(ClusterMetrics.MEMBERS, "a", "state", "learner")).isEqualTo(1);
        assertThat(gauge(ClusterMetrics.READY_MEMBERS, "a")).isEqualTo(3);
        assertThat(gauge(ClusterMetrics.DESIRED_MEMBERS, "a")).isEqualTo(5);
        assertThat(gauge(ClusterMetrics.QUORUM, "a")).isEqualTo(1);
        assertThat(gauge(ClusterMetrics.HAS_LEADER, "a")).isEqualTo(0);

        metrics.observed("ns", "a", new ClusterHealth(1, 2, 0, 1, 3, false, true));
        assertThat(gauge(ClusterMetrics.MEMBERS, "a", "state", "healthy")).isEqualTo(1);
        assertThat(gauge(ClusterMetrics.DESIRED_MEMBERS, "a")).isEqualTo(3);
        assertThat(gauge(ClusterMetrics.QUORUM, "a")).isEqualTo(0);
        assertThat(gauge(ClusterMetrics.HAS_LEADER, "a")).isEqualTo(1);
    }

    @Test
    void observingAgainRegistersNothingNew() {
        metrics.observed("ns", "a", new ClusterHealth(3, 0, 0, 3, 3, true, true));
        int meters = registry.getMeters().size();
        metrics.observed("ns", "a", new ClusterHealth(5, 0, 0, 5, 5, true, true));
        assertThat(registry.getMeters()).hasSize(meters);
        assertThat(registry.find(ClusterMetrics.MEMBERS).tags("state", "healthy").gauges()).singleElement()
                .extracting(Gauge::value).isEqualTo(5.0);
    }

    @Test
    void countersStartAtZeroAndCountOnlyMembershipChanges() {
        metrics.observed("ns", "a", new ClusterHealth(0, 0, 0, 0, 3, false, false));
        for (String name : new String[] { ClusterMetrics.ADDITIONS, ClusterMetrics.REMOVALS,
                ClusterMetrics.REPLACEMENTS, ClusterMetrics.UPGRADES }) {
            assertThat(counter(name, "a")).as(name).isZero();
        }
        metrics.acted("ns", "a", new Step.CreateSeed("a-1", "http://a-1:2380", "3.5.17"), 1);
        metrics.acted("ns", "a", new Step.AddMember("a-2", "http://a-2:2380", "3.5.17"), 1);
        // planned again from a view that had not seen the pod yet: it existed, nobody was added
        metrics.acted("ns", "a", new Step.CreateSeed("a-1", "http://a-1:2380", "3.5.17"), 0);
        metrics.acted("ns", "a", new Step.CreateInitialMembers(List.of("a-5", "a-6"),
                "a-5=http://a-5:2380,a-6=http://a-6:2380", "3.5.17"), 1);
        metrics.acted("ns", "a", new Step.PromoteLearner(2, "a-2"), 0);
        metrics.acted("ns", "a", new Step.RemoveMember(2, "a-2", Step.RemoveMember.SCALE_DOWN), 0);
        metrics.acted("ns", "a", new Step.RemoveMember(1, "a-1", Step.RemoveMember.DEAD_MEMBER), 0);
        metrics.acted("ns", "a", new Step.MoveLeader(3, "a-3", 4, "a-4"), 0);
        metrics.acted("ns", "a", new Step.RemoveMember(3, "a-3", Step.RemoveMember.RUNS_ONCE), 0);
        metrics.acted("ns", "a", new Step.UpgradeMember("a-3", "3.5.17", "3.5.18"), 0);
        metrics.acted("ns", "a", new Step.DeletePod("a-1", Step.DeletePod.NOT_A_MEMBER), 0);
        metrics.acted("ns", "a", new Step.Wait(Step.Wait.MEMBER_STARTING, "waiting"), 0);
        assertThat(counter(ClusterMetrics.ADDITIONS, "a")).isEqualTo(3);
        assertThat(counter(ClusterMetrics.REMOVALS, "a")).isEqualTo(1);
        // a dead member, and one whose pod runs once, were replaced
        assertThat(counter(ClusterMetrics.REPLACEMENTS, "a")).isEqualTo(2);
        assertThat(counter(ClusterMetrics.UPGRADES, "a")).isEqualTo(1);
    }

    @Test
    void refusalsAndFailedStepsAreCountedByReasonAndStep() {
        metrics.refused("ns", "a", "Downgrade");
        metrics.refused("ns", "a", "Downgrade");
        metrics.refused("ns", "a", "SkippedMinorVersion");
        metrics.stepFailed("ns", "a", new Step.AddMember("a-2", "http://a-2:2380", "3.5.17"));
        assertThat(counter(ClusterMetrics.REFUSALS, "a", "reason", "Downgrade")).isEqualTo(2);
        assertThat(counter(ClusterMetrics.REFUSALS, "a", "reason", "SkippedMinorVersion")).isEqualTo(1);
        assertThat(counter(ClusterMetrics.STEP_FAILURES, "a", "step", "AddMember")).isEqualTo(1);
    }

    @Test
    void forgettingAClusterRemovesItsMetersAndNoOtherClusters() {
        registry.counter("etcd.operator.backups", "namespace", "ns", "etcd_cluster", "a");
        metrics.observed("ns", "a", new ClusterHealth(3, 0, 0, 3, 3, true, true));
        metrics.refused("ns", "a", "Downgrade");
        metrics.observed("ns", "b", new ClusterHealth(1, 0, 0, 1, 1, true, true));
        metrics.observed("other", "a", new ClusterHealth(1, 0, 0, 1, 1, true, true));

        metrics.forget("ns", "a");

        assertThat(registry.getMeters()).map(Meter::getId)
                .noneMatch(id -> id.getName().startsWith("etcd.operator.cluster.") && "ns".equals(id.getTag("namespace"))
                        && "a".equals(id.getTag("etcd_cluster")))
                .anyMatch(id -> id.getName().equals("etcd.operator.backups"))
                .anyMatch(id -> "b".equals(id.getTag("etcd_cluster")))
                .anyMatch(id -> "other".equals(id.getTag("namespace")));

        // a cluster created again under the same name starts afresh
        metrics.observed("ns", "a", new ClusterHealth(1, 0, 0, 0, 3, true, true));
        assertThat(gauge(ClusterMetrics.MEMBERS, "a", "state", "healthy")).isEqualTo(1);
        assertThat(registry.find(ClusterMetrics.ADDITIONS).tags("etcd_cluster", "a", "namespace", "ns").counters())
                .singleElement().extracting(Counter::count).isEqualTo(0.0);
    }

    @Test
    void eachMemberHasItsDatabaseGaugesUntilItNoLongerAnswers() {
        metrics.observedDatabases("ns", "a", 16L << 20, List.of(
                new MemberDatabase("a-1", 4000, 3000, 77, Set.of()),
                new MemberDatabase("a-2", 16L << 20, 1000, 70, Set.of("NOSPACE"))));
        assertThat(gauge(ClusterMetrics.QUOTA, "a")).isEqualTo(16L << 20);
        assertThat(gauge(ClusterMetrics.MEMBER_DB_SIZE, "a", "member", "a-1")).isEqualTo(4000);
        assertThat(gauge(ClusterMetrics.MEMBER_DB_SIZE_IN_USE, "a", "member", "a-1")).isEqualTo(3000);
        assertThat(gauge(ClusterMetrics.MEMBER_DB_FRAGMENTED, "a", "member", "a-1")).isEqualTo(1000);
        assertThat(gauge(ClusterMetrics.MEMBER_RAFT_INDEX, "a", "member", "a-1")).isEqualTo(77);
        assertThat(gauge(ClusterMetrics.MEMBER_ALARM, "a", "member", "a-1", "alarm", "NOSPACE")).isZero();
        assertThat(gauge(ClusterMetrics.MEMBER_ALARM, "a", "member", "a-2", "alarm", "NOSPACE")).isEqualTo(1);
        assertThat(gauge(ClusterMetrics.MEMBER_ALARM, "a", "member", "a-2", "alarm", "CORRUPT")).isZero();
        assertThat(registry.get(ClusterMetrics.MEMBER_DB_SIZE).tags("member", "a-1").gauge().getId().getBaseUnit())
                .isEqualTo("bytes");

        metrics.observedDatabases("ns", "a", 16L << 20, List.of(new MemberDatabase("a-2", 2000, 1000, 90, Set.of())));
        assertThat(registry.find(ClusterMetrics.MEMBER_DB_SIZE).tags("member", "a-1").gauges()).isEmpty();
        assertThat(registry.find(ClusterMetrics.MEMBER_ALARM).tags("member", "a-1").gauges()).isEmpty();
        assertThat(gauge(ClusterMetrics.MEMBER_ALARM, "a", "member", "a-2", "alarm", "NOSPACE")).isZero();
        assertThat(gauge(ClusterMetrics.MEMBER_DB_FRAGMENTED, "a", "member", "a-2")).isEqualTo(1000);

        metrics.forget("ns", "a");
        assertThat(registry.find(ClusterMetrics.MEMBER_DB_SIZE).gauges()).isEmpty();
        assertThat(registry.find(ClusterMetrics.QUOTA).gauges()).isEmpty();
    }

    @Test
    void eachCertificateKeyHasItsExpiryAndKeysThatWentLoseTheirSeries() {
        Instant peer = Instant.parse("2027-01-01T00:00:00Z");
        Instant ca = Instant.parse("2030-06-01T12:00:00Z");
        metrics.certificates("ns", "a", List.of(new CertificateValidity("peer", "peer.crt", "CN=a", peer),
                new CertificateValidity("peer", "peer-ca.crt", "CN=ca", ca)));
        assertThat(gauge(ClusterMetrics.CERTIFICATE_EXPIRY, "a", "secret", "peer", "key", "peer.crt"))
                .isEqualTo(peer.getEpochSecond());
        assertThat(gauge(ClusterMetrics.CERTIFICATE_EXPIRY, "a", "secret", "peer", "key", "peer-ca.crt"))
                .isEqualTo(ca.getEpochSecond());

        Instant renewed = Instant.parse("2027-04-01T00:00:00Z");
        metrics.certificates("ns", "a", List.of(new CertificateValidity("peer", "tls.crt", "CN=a", renewed)));
        assertThat(registry.find(ClusterMetrics.CERTIFICATE_EXPIRY).gauges()).singleElement()
                .satisfies(g -> {
                    assertThat(g.getId().getTag("key")).isEqualTo("tls.crt");
                    assertThat(g.value()).isEqualTo(renewed.getEpochSecond());
                });

        metrics.certificates("ns", "a", List.of());
        assertThat(registry.find(ClusterMetrics.CERTIFICATE_EXPIRY).gauges()).isEmpty();
    }

    @Test
    void whatTheOperatorDidToFreeSpaceIsCounted() {
        metrics.observed("ns", "a", new ClusterHealth(3, 0, 0, 3, 3, true, true));
        assertThat(counter(ClusterMetrics.COMPACTIONS, "a")).isZero();
        metrics.acted("ns", "a", new Step.CompactKeyspace(10), 0);
        metrics.acted("ns", "a", new Step.DefragmentMember(1, "a-1", false), 0);
        metrics.acted("ns", "a", new Step.DefragmentMember(2, "a-2", true), 0);
        metrics.acted("ns", "a", new Step.DisarmNoSpace(List.of(), "disarmed"), 0);
        assertThat(counter(ClusterMetrics.COMPACTIONS, "a")).isEqualTo(1);
        assertThat(counter(ClusterMetrics.DEFRAGMENTATIONS, "a", "reason", "NoSpace")).isEqualTo(2);
        assertThat(counter(ClusterMetrics.DEFRAGMENTATIONS, "a", "reason", "Fragmented")).as("there from the start")
                .isZero();
        assertThat(counter(ClusterMetrics.DISARMS, "a")).isEqualTo(1);
    }

    @Test
    void defragmentationsPastTheThresholdAreCountedApart() {
        metrics.observed("ns", "a", new ClusterHealth(3, 0, 0, 3, 3, true, true));
        metrics.acted("ns", "a", new Step.DefragmentMember(1, "a-1", false, Step.DefragmentMember.FRAGMENTED, 5000), 0);
        assertThat(counter(ClusterMetrics.DEFRAGMENTATIONS, "a", "reason", "Fragmented")).isEqualTo(1);
        assertThat(counter(ClusterMetrics.DEFRAGMENTATIONS, "a", "reason", "NoSpace")).isZero();
    }
}
