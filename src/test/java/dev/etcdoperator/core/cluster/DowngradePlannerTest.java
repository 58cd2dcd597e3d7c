package dev.etcdoperator.core.cluster;

import static dev.etcdoperator.core.cluster.ClusterFixture.running;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import dev.etcdoperator.core.cluster.Step.DowngradeMember;
import dev.etcdoperator.core.cluster.Step.EnableDowngrade;
import dev.etcdoperator.core.cluster.Step.Nothing;
import dev.etcdoperator.core.cluster.Step.Refuse;
import dev.etcdoperator.core.cluster.Step.UpgradeMember;
import dev.etcdoperator.core.cluster.Step.Wait;
import org.junit.jupiter.api.Test;

/**
 * A downgrade one minor down from etcd 3.6 ({@code spec.allowDowngrade}): enabled through etcd's API, then each member
 * given the older binary once its data is in the older format, followers first, the leader last.
 */
class DowngradePlannerTest {
    private static final String NEW = "3.6.16";
    private static final String OLD = "3.5.35";

    private final ClusterPlanner planner = new ClusterPlanner(new Random(5));

    private Step plan(ClusterFixture f) {
        return planner.plan(f.observe());
    }

    @Test
    void withoutTheRequestALowerMinorIsRefusedAndSaysHowToAsk() {
        ClusterFixture f = running(3, NEW).version(OLD);

        assertThat(plan(f)).isInstanceOfSatisfying(Refuse.class, r -> {
            assertThat(r.reason()).isEqualTo(VersionPolicy.DOWNGRADE);
            assertThat(r.message()).contains(NEW, OLD, "spec.allowDowngrade");
        });
    }

    @Test
    void askedForTheDowngradeIsEnabledFirstAndNoMemberIsTouched() {
        ClusterFixture f = running(3, NEW).version(OLD).allowDowngrade();

        assertThat(plan(f)).isEqualTo(new EnableDowngrade("3.5.0", NEW));
    }

    @Test
    void noDowngradeIsEnabledOrCarriedOnWhileAMemberIsAway() {
        // on claims, its pod stuck terminating on a lost node: it would come back later on the older binary over
        // data never rewritten
        ClusterFixture f = running(5, NEW).persistent().version(OLD).allowDowngrade().podTerminating("demo-e")
                .unhealthy("demo-e");
        assertThat(plan(f)).isInstanceOfSatisfying(Wait.class, w -> {
            assertThat(w.reason()).isEqualTo(Wait.MEMBER_NOT_HEALTHY);
            assertThat(w.message()).contains("demo-e", "rewrite its data");
        });
        ClusterFixture enabled = running(3, NEW).version(OLD).allowDowngrade().downgradeEnabled("3.5.0")
                .podStopped("demo-c").unhealthy("demo-c");
        assertThat(plan(enabled)).isNotInstanceOf(Step.DowngradeMember.class);
    }

    /**
     * A downgrade enabled outside the operator (etcdctl), or allowDowngrade turned off after it was enabled: a member
     * away still misses the rewrite, and no member is given the older binary meanwhile.
     */
    @Test
    void noMemberIsDowngradedWhileOneIsAwayEvenWithoutAllowDowngrade() {
        ClusterFixture f = running(5, NEW).persistent().version(OLD).downgradeEnabled("3.5.0").podTerminating("demo-e")
                .unhealthy("demo-e");
        for (String member : List.of("demo-a", "demo-b", "demo-c", "demo-d")) {
            f.storageVersion(member, "3.5.0");
        }
        assertThat(plan(f)).isInstanceOfSatisfying(Wait.class, w -> {
            assertThat(w.reason()).isEqualTo(Wait.MEMBER_NOT_HEALTHY);
            assertThat(w.message()).contains("demo-e");
        });
    }

    @Test
    void whileMembersRewriteTheirDataTheOperatorWaitsAndNamesThem() {
        ClusterFixture f = running(3, NEW).version(OLD).allowDowngrade().downgradeEnabled("3.5.0");
        f.storageVersion("demo-a", "3.6.0").storageVersion("demo-b", "3.6.0");

        assertThat(plan(f)).isInstanceOfSatisfying(Wait.class, w -> {
            assertThat(w.reason()).isEqualTo(Wait.DOWNGRADE_PENDING);
            assertThat(w.message()).contains("demo-a (storage version 3.6.0)", "demo-c (storage version unknown)");
        });
    }

    @Test
    void theWholeDowngradeEnablesOnceThenTakesFollowersFirstAndTheLeaderLast() {
        ClusterFixture f = running(3, NEW).version(OLD).allowDowngrade().leader("demo-b");
        List<Step> steps = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            Step step = plan(f);
            steps.add(step);
            if (step instanceof Nothing) {
                break;
            }
            f.apply(step);
            if (step instanceof EnableDowngrade) {
                // etcd's members rewrite their data in the target's format a few seconds later
                for (String name : f.memberNames()) {
                    f.storageVersion(name, "3.5.0");
                }
            }
            f.settle();
        }

        assertThat(steps).filteredOn(EnableDowngrade.class::isInstance).hasSize(1);
        assertThat(steps).filteredOn(DowngradeMember.class::isInstance).extracting(s -> ((DowngradeMember) s).name())
                .containsExactly("demo-a", "demo-c", "demo-b");
        assertThat(steps).noneMatch(UpgradeMember.class::isInstance);
        assertThat(steps.get(steps.size() - 1)).isInstanceOf(Nothing.class);
        assertThat(f.memberNames()).allSatisfy(n -> assertThat(f.healthOf(n).version()).isEqualTo(OLD));
    }

    @Test
    void noMemberIsDowngradedUntilEveryNewerMemberRewroteItsData() {
        // a member that just joined reports 3.5.0 before etcd lowered the cluster version: giving it 3.5 then leaves
        // etcd unable to finish the downgrade
        ClusterFixture f = running(3, NEW).version(OLD).allowDowngrade().downgradeEnabled("3.5.0");
        f.storageVersion("demo-a", "3.6.0").storageVersion("demo-b", "3.5.0").storageVersion("demo-c", "3.5.0");

        assertThat(plan(f)).isInstanceOfSatisfying(Wait.class,
                w -> assertThat(w.reason()).isEqualTo(Wait.DOWNGRADE_PENDING));
        assertThat(plan(f.storageVersion("demo-a", "3.5.0"))).isInstanceOf(DowngradeMember.class);
    }

    @Test
    void noMemberIsDowngradedWhileAnotherVoterIsDown() {
        ClusterFixture f = running(3, NEW).version(OLD).allowDowngrade().downgradeEnabled("3.5.0");
        for (String name : f.memberNames()) {
            f.storageVersion(name, "3.5.0");
        }
        f.sick("demo-c");

        assertThat(plan(f)).isInstanceOf(Wait.class);
    }

    /**
     * Two voting members, both healthy: each is restarted in turn as an upgrade restarts it (a moment without quorum);
     * waiting for a majority without it would wait for good, with etcd's cluster version already lowered.
     */
    @Test
    void aClusterOfTwoIsDowngradedAndRolledBackAsItIsUpgraded() {
        ClusterFixture f = running(2, NEW).version(OLD).allowDowngrade().downgradeEnabled("3.5.0");
        f.storageVersion("demo-a", "3.5.0").storageVersion("demo-b", "3.5.0");
        assertThat(plan(f)).isInstanceOf(DowngradeMember.class);

        ClusterFixture half = running(2, OLD).podVersion("demo-b", NEW).storageVersion("demo-b", "3.5.0");
        assertThat(plan(half)).isEqualTo(new DowngradeMember("demo-b", NEW, OLD));

        assertThat(plan(half.sick("demo-a"))).as("the other one down: not now").isNotInstanceOf(DowngradeMember.class);
    }

    /**
     * A member given an older release whose image cannot be had (a typo in the patch): spec.version set to a patch
     * of that minor that exists gives it that image in place (its data is in that minor's format already); another
     * minor is never given.
     */
    @Test
    void aDowngradedMemberWhoseImageCannotBeHadGetsAnotherPatchOfThatMinor() {
        ClusterFixture f = running(3, NEW).version(OLD).allowDowngrade().downgradeEnabled("3.5.0");
        for (String name : f.memberNames()) {
            f.storageVersion(name, "3.5.0");
        }
        f.podImageUnavailable("demo-a", "3.5.99");
        assertThat(plan(f)).isEqualTo(new Step.ResetMemberImage("demo-a", "3.5.99", OLD,
                "ImagePullBackOff: Back-off pulling image \"quay.io/coreos/etcd:v3.5.99\""));

        ClusterFixture other = running(3, NEW).version(OLD).allowDowngrade().downgradeEnabled("3.5.0");
        for (String name : other.memberNames()) {
            other.storageVersion(name, "3.5.0");
        }
        other.podImageUnavailable("demo-a", "3.6.99");
        assertThat(plan(other)).isNotInstanceOf(Step.ResetMemberImage.class);
    }

    @Test
    void anUnfinishedUpgradeIsRolledBackWithoutTheDowngradeApiAsItsDataWasNeverRewritten() {
        ClusterFixture f = running(3, OLD).podVersion("demo-b", NEW).storageVersion("demo-b", "3.5.0");

        assertThat(plan(f)).isEqualTo(new DowngradeMember("demo-b", NEW, OLD));
    }

    @Test
    void aMemberWhoseDataIsInTheNewerFormatIsNeverGivenTheOlderBinary() {
        ClusterFixture f = running(3, OLD).podVersion("demo-b", NEW).storageVersion("demo-b", "3.6.0");

        assertThat(plan(f)).isInstanceOfSatisfying(Refuse.class,
                r -> assertThat(r.reason()).isEqualTo(VersionPolicy.DOWNGRADE));
    }

    @Test
    void aMemberThatReportsTheOlderFormatBeforeAnyDowngradeIsEnabledIsNotTouched() {
        // a member that just joined a 3.6 cluster reports storage version 3.5.0 until etcd sets it
        ClusterFixture f = running(3, NEW).version(OLD).storageVersion("demo-c", "3.5.0");

        assertThat(plan(f)).isInstanceOfSatisfying(Refuse.class,
                r -> assertThat(r.reason()).isEqualTo(VersionPolicy.DOWNGRADE));
        assertThat(plan(f.allowDowngrade())).isEqualTo(new EnableDowngrade("3.5.0", NEW));
    }

    @Test
    void beforeEtcd36TheRequestChangesNothingAndTheDowngradeStaysRefused() {
        ClusterFixture f = running(3, "3.5.17").version("3.4.23").allowDowngrade();

        assertThat(plan(f)).isInstanceOfSatisfying(Refuse.class,
                r -> assertThat(r.reason()).isEqualTo(VersionPolicy.DOWNGRADE));
    }

    @Test
    void twoMinorsDownAreRefusedEvenWhenAsked() {
        ClusterFixture f = running(3, "3.7.0").version(OLD).allowDowngrade();

        assertThat(plan(f)).isInstanceOfSatisfying(Refuse.class,
                r -> assertThat(r.reason()).isEqualTo(VersionPolicy.DOWNGRADE));
    }
}
