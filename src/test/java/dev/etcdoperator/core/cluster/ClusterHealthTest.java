package dev.etcdoperator.core.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ClusterHealthTest {

    @Test
    void aConvergedClusterHasEveryVoterHealthyQuorumAndALeader() {
        assertThat(ClusterHealth.of(ClusterFixture.running(3, "3.5.17").observe()))
                .isEqualTo(new ClusterHealth(3, 0, 0, 3, 3, true, true));
    }

    @Test
    void aLearnerCountsAsALearnerWhateverItsHealth() {
        ClusterFixture f = ClusterFixture.running(3, "3.5.17").size(5)
                .learner("demo-x", true, 1000).learner("demo-y", false, 0);
        assertThat(ClusterHealth.of(f.observe())).isEqualTo(new ClusterHealth(3, 0, 2, 4, 5, true, true));
    }

    @Test
    void oneDeadVoterOfThreeKeepsQuorum() {
        ClusterFixture f = ClusterFixture.running(3, "3.5.17").dead("demo-c");
        assertThat(ClusterHealth.of(f.observe())).isEqualTo(new ClusterHealth(2, 1, 0, 2, 3, true, true));
    }

    @Test
    void aListFromOneMemberLeadingItsOwnClusterIsNoQuorum() {
        ClusterFixture f = ClusterFixture.running(3, "3.5.17").listedByAlone("demo-a");
        assertThat(ClusterHealth.of(f.observe())).isEqualTo(new ClusterHealth(1, 2, 0, 3, 3, false, false));
        ClusterFixture split = ClusterFixture.running(3, "3.5.17").splitOff("demo-a").leader("demo-b");
        assertThat(ClusterHealth.of(split.observe())).isEqualTo(new ClusterHealth(2, 1, 0, 3, 3, true, true));
    }

    @Test
    void twoSilentVotersOfThreeLoseQuorum() {
        ClusterFixture f = ClusterFixture.running(3, "3.5.17").unhealthy("demo-a").sick("demo-b");
        ClusterHealth h = ClusterHealth.of(f.observe());
        assertThat(h.healthy()).isEqualTo(1);
        assertThat(h.unhealthy()).isEqualTo(2);
        assertThat(h.quorum()).isFalse();
        assertThat(h.leader()).isFalse();
    }

    @Test
    void withoutAnAnsweringMemberEveryLivePodCountsAsUnhealthy() {
        ClusterFixture f = ClusterFixture.running(3, "3.5.17").noAnswer().podTerminating("demo-c");
        assertThat(ClusterHealth.of(f.observe())).isEqualTo(new ClusterHealth(0, 2, 0, 2, 3, false, false));
    }

    @Test
    void aClusterThatNeverRanHasNothing() {
        assertThat(ClusterHealth.of(ClusterFixture.fresh(3, "3.5.17").observe()))
                .isEqualTo(new ClusterHealth(0, 0, 0, 0, 3, false, false));
    }
}
