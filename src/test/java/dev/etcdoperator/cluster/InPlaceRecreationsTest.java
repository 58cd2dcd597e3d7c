package dev.etcdoperator.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.junit.jupiter.api.Test;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import dev.etcdoperator.core.cluster.ClusterObservation;
import dev.etcdoperator.core.cluster.ClusterPlanner;
import dev.etcdoperator.core.cluster.DatabaseSpace;
import dev.etcdoperator.core.cluster.EtcdMember;
import dev.etcdoperator.core.cluster.MemberHealth;
import dev.etcdoperator.core.cluster.MemberPod;
import dev.etcdoperator.core.cluster.Step;

class InPlaceRecreationsTest {
    private static final String KEY = "prod/alpha";
    private static final String UID = "uid-1";
    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
    private static final int ENOUGH = ClusterPlanner.RECREATIONS_BEFORE_REPLACING;
    private static final Step RECREATE_B = new Step.DeletePod("alpha-b", Step.DeletePod.POD_STOPPED);

    private final InPlaceRecreations recreations = new InPlaceRecreations();
    private int podsMade;

    /** What the operator sees of the cluster: alpha-a and alpha-c healthy unless said, and alpha-b. */
    private static final class Look {
        Instant now = T0;
        MemberPod b = crashLooping();
        boolean bHealthy;
        boolean cHealthy = true;
        long revision = 100;
        String bUid = "b-0";
        String bEnded;

        ClusterObservation observation() {
            List<EtcdMember> members = List.of(new EtcdMember(1, "alpha-a", "http://a:2380", false),
                    new EtcdMember(2, "alpha-b", "http://b:2380", false),
                    new EtcdMember(3, "alpha-c", "http://c:2380", false));
            Map<Long, MemberHealth> health = Map.of(1L, new MemberHealth(1, true, true, "3.5.17", revision),
                    2L, new MemberHealth(2, bHealthy, false, "3.5.17", revision),
                    3L, new MemberHealth(3, cHealthy, false, "3.5.17", revision));
            return new ClusterObservation("alpha", "prod", 3, "3.5.17", false, true,
                    List.of(running("alpha-a"), b, running("alpha-c")), Optional.of(members), health, "3.5.17", "",
                    false, Set.of("alpha-a", "alpha-b", "alpha-c"), null, false, now,
                    new DatabaseSpace(List.of(), DatabaseSpace.DEFAULT_QUOTA_BYTES, revision, 0, Set.of()), null,
                    false, List.of(), false);
        }

        List<Pod> pods() {
            List<Pod> pods = new ArrayList<>();
            pods.add(pod("alpha-a", "a-0", null));
            pods.add(pod("alpha-b", bUid, bEnded));
            pods.add(pod("alpha-c", "c-0", null));
            return pods;
        }
    }

    private static MemberPod crashLooping() {
        return new MemberPod("alpha-b", false, false, false, "3.5.17", true, false, null, false, true, true);
    }

    private static MemberPod running(String name) {
        return new MemberPod(name, true, true, false, "3.5.17", true);
    }

    /** A pod whose etcd last ended for {@code ended} (null: as an error does). */
    private static Pod pod(String name, String uid, String ended) {
        return new PodBuilder().withNewMetadata().withName(name).withUid(uid).endMetadata()
                .withNewStatus().addNewContainerStatus().withName(ClusterResources.ETCD_CONTAINER).withRestartCount(1)
                .withNewLastState().withNewTerminated().withExitCode(ended == null ? 2 : 137)
                .withReason(ended == null ? "Error" : ended).endTerminated().endLastState()
                .endContainerStatus().endStatus().build();
    }

    /** alpha-b's pod, crash-looping, is deleted to be made again: the next one has a new uid. */
    private void recreateB(Look look, int times) {
        for (int i = 0; i < times; i++) {
            recreations.done(KEY, UID, RECREATE_B, look.observation(), look.pods());
            look.bUid = "b-" + ++podsMade;
        }
    }

    private boolean bMarked(Look look) {
        return recreations.marked(KEY, UID, look.observation(), look.pods()).pods().stream()
                .filter(p -> p.name().equals("alpha-b")).findFirst().orElseThrow().keepsFailing();
    }

    @Test
    void aMemberWhoseEtcdCrashLoopedInEachOfItsLastPodsAndInANewOneIsMarked() {
        Look look = new Look();
        recreateB(look, ENOUGH - 1);
        assertThat(bMarked(look)).isFalse();
        recreateB(look, 1);
        assertThat(bMarked(look)).isTrue();
        // its new pod starting (not failing yet) is not marked, nor one being deleted
        look.b = MemberPod.starting("alpha-b", "3.5.17", true);
        assertThat(bMarked(look)).isFalse();
        look.b = new MemberPod("alpha-b", false, false, true, "3.5.17", true, false, T0, false, true, true);
        assertThat(bMarked(look)).isFalse();
    }

    /** The pods informer may still show a pod already deleted: it counts once, and is not the new pod that fails. */
    @Test
    void aPodSeenAgainAfterItsDeletionCountsOnceAndIsNotMarked() {
        Look look = new Look();
        for (int i = 0; i < ENOUGH; i++) {
            recreations.done(KEY, UID, RECREATE_B, look.observation(), look.pods());
        }
        look.bUid = "b-1";
        assertThat(bMarked(look)).isFalse();

        Look lagging = new Look();
        InPlaceRecreations fresh = new InPlaceRecreations();
        for (int i = 0; i < ENOUGH; i++) {
            lagging.bUid = "l-" + i;
            fresh.done(KEY, UID, RECREATE_B, lagging.observation(), lagging.pods());
        }
        // the last pod deleted, still seen
        assertThat(fresh.marked(KEY, UID, lagging.observation(), lagging.pods()).pods())
                .noneMatch(MemberPod::keepsFailing);
    }

    @Test
    void aFailureBesideAnUnhealthyMemberIsNotCounted() {
        Look look = new Look();
        look.cHealthy = false;
        recreateB(look, ENOUGH);
        look.cHealthy = true;
        assertThat(bMarked(look)).isFalse();
    }

    @Test
    void anEndedPodOrAnEtcdKilledForMemoryIsNotCounted() {
        Look look = new Look();
        look.b = new MemberPod("alpha-b", false, false, false, "3.5.17", true);
        recreateB(look, ENOUGH);
        look.b = crashLooping();
        assertThat(bMarked(look)).isFalse();

        look.bEnded = "OOMKilled";
        recreateB(look, ENOUGH);
        look.bEnded = null;
        assertThat(bMarked(look)).isFalse();
    }

    @Test
    void aMemberSeenHealthyIsForgotten() {
        Look look = new Look();
        recreateB(look, ENOUGH - 1);
        look.bHealthy = true;
        look.b = running("alpha-b");
        assertThat(bMarked(look)).isFalse();
        look.bHealthy = false;
        look.b = crashLooping();
        recreateB(look, 1);
        assertThat(bMarked(look)).isFalse();
    }

    @Test
    void recreationsOutsideTheWindowAreNotCounted() {
        Look look = new Look();
        recreateB(look, ENOUGH - 1);
        look.now = T0.plus(InPlaceRecreations.WINDOW).plus(Duration.ofSeconds(1));
        recreateB(look, 1);
        assertThat(bMarked(look)).isFalse();
    }

    @Test
    void nothingIsMarkedWhileTheClusterAnswersAtALowerRevisionThanItWasSeenAt() {
        Look look = new Look();
        recreations.marked(KEY, UID, look.observation(), look.pods());
        look.revision = 5;
        recreateB(look, ENOUGH);
        assertThat(bMarked(look)).isFalse();
        look.revision = 100;
        assertThat(bMarked(look)).isTrue();
    }

    @Test
    void noOtherMemberIsMarkedWithinTheWindowOfAReplacement() {
        Look look = new Look();
        recreateB(look, ENOUGH);
        assertThat(bMarked(look)).isTrue();
        recreations.done(KEY, UID, new Step.RemoveMember(2, "alpha-b", Step.RemoveMember.KEEPS_FAILING, true),
                look.observation(), look.pods());
        // the member that took its place (under the same name here) fails as well
        recreateB(look, ENOUGH);
        assertThat(bMarked(look)).isFalse();
        look.now = T0.plus(InPlaceRecreations.WINDOW).plus(Duration.ofSeconds(1));
        recreateB(look, ENOUGH);
        assertThat(bMarked(look)).isTrue();
    }

    @Test
    void aClusterMadeAgainUnderItsNameStartsAfresh() {
        Look look = new Look();
        recreateB(look, ENOUGH);
        assertThat(recreations.marked(KEY, "uid-2", look.observation(), look.pods()).pods())
                .noneMatch(MemberPod::keepsFailing);
        assertThat(bMarked(look)).isFalse();
    }

    @Test
    void onlyPodsDeletedToBeMadeAgainOnTheirClaimAreCounted() {
        Look look = new Look();
        recreateB(look, ENOUGH - 1);
        for (String reason : List.of(Step.DeletePod.NOT_A_MEMBER, Step.DeletePod.LEARNER_FAILED,
                Step.DeletePod.SPLIT_OFF)) {
            recreations.done(KEY, UID, new Step.DeletePod("alpha-b", reason), look.observation(), look.pods());
            look.bUid = "b-" + ++podsMade;
        }
        assertThat(bMarked(look)).isFalse();
    }

    @Test
    void aDeletedClusterIsForgotten() {
        Look look = new Look();
        recreateB(look, ENOUGH);
        recreations.forget(KEY);
        assertThat(bMarked(look)).isFalse();
    }
}
