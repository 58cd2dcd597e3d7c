package dev.etcdoperator.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import dev.etcdoperator.api.v1beta2.Condition;
import dev.etcdoperator.api.v1beta2.EtcdCluster;
import dev.etcdoperator.api.v1beta2.EtcdClusterStatus;
import dev.etcdoperator.api.v1beta2.QuorumRecoveryStatus;
import dev.etcdoperator.core.cluster.QuorumLoss;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.Test;

/** What the spec, status and annotations of an EtcdCluster tell the planner about a lost quorum. */
class QuorumLossViewTest {
    private static EtcdCluster cluster(String spec) {
        return Serialization.unmarshal("""
                apiVersion: etcd.database.coreos.com/v1beta2
                kind: EtcdCluster
                metadata: {name: alpha, namespace: prod, uid: uid-alpha}
                spec:
                """ + spec.indent(2), EtcdCluster.class);
    }

    @Test
    void withoutTheFieldThePolicyIsManualWithASixtySecondGracePeriod() {
        QuorumLoss q = QuorumLossView.of(cluster("size: 3"), List.of());
        assertThat(q.policy()).isEqualTo(QuorumLoss.MANUAL);
        assertThat(q.gracePeriod()).isEqualTo(Duration.ofSeconds(60));
        assertThat(q.lostSince()).isNull();
        assertThat(q.recovery()).isNull();
        assertThat(q.approved()).isFalse();
        assertThat(QuorumLossView.of(cluster("size: 3\nquorumLossRecovery: {policy: FromSurvivor, gracePeriodSeconds: 15}"),
                List.of())).satisfies(r -> {
                    assertThat(r.policy()).isEqualTo(QuorumLoss.FROM_SURVIVOR);
                    assertThat(r.gracePeriod()).isEqualTo(Duration.ofSeconds(15));
                });
    }

    @Test
    void theStatusKeepsWhenQuorumWasLostAndTheRecoveryInProgress() {
        EtcdCluster c = cluster("size: 3");
        EtcdClusterStatus s = new EtcdClusterStatus();
        s.setQuorumLostSince("2026-01-01T00:00:00Z");
        QuorumRecoveryStatus r = new QuorumRecoveryStatus();
        r.setSurvivor("alpha-c");
        r.setMember("alpha-new");
        r.setRevision(480L);
        r.setRaftIndex(950L);
        s.setQuorumRecovery(r);
        s.setQuorumLostVoters(List.of("alpha-a", "alpha-b", "alpha-c"));
        c.setStatus(s);
        QuorumLoss q = QuorumLossView.of(c, List.of());
        assertThat(q.lostSince()).isEqualTo(Instant.parse("2026-01-01T00:00:00Z"));
        assertThat(q.recovery()).isEqualTo(new QuorumLoss.Recovery("alpha-c", "alpha-new", 480, 950, null));
        assertThat(q.votersAtLoss()).containsExactly("alpha-a", "alpha-b", "alpha-c");
        s.setQuorumLostVoters(null);
        assertThat(QuorumLossView.of(c, List.of()).votersAtLoss()).isEmpty();
        r.setFromClaim(true);
        assertThat(QuorumLossView.of(c, List.of()).recovery().fromClaim()).isTrue();
        r.setFailedCopies(3);
        assertThat(QuorumLossView.of(c, List.of()).recovery().failedCopies()).isEqualTo(3);
        r.setSurvivor("data-of-another-app");
        assertThat(QuorumLossView.of(c, List.of()).recovery().fromClaim()).as("no member's name").isFalse();
    }

    @Test
    void anApprovalCountsWithTheUidOnlyOnceTheStatusSaysAPersonIsAwaited() {
        EtcdCluster c = cluster("size: 3");
        c.getMetadata().setAnnotations(Map.of("etcd.database.coreos.com/recover-quorum", "uid-alpha"));
        assertThat(QuorumLossView.of(c, List.of()).approved()).as("not asked yet").isFalse();
        EtcdClusterStatus s = new EtcdClusterStatus();
        s.setConditions(List.of(new Condition("QuorumRecovery", "False", "WaitingForPerson", "m")));
        c.setStatus(s);
        assertThat(QuorumLossView.of(c, List.of()).approved()).isTrue();
        c.getMetadata().setAnnotations(Map.of("etcd.database.coreos.com/recover-quorum", "uid-of-another"));
        QuorumLoss wrong = QuorumLossView.of(c, List.of());
        assertThat(wrong.approved()).isFalse();
        assertThat(wrong.approvalForAnotherUid()).isTrue();
    }
}
