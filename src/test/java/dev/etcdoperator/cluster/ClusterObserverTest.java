package dev.etcdoperator.cluster;

import dev.etcdoperator.core.schedule.CronSchedule;
import dev.etcdoperator.core.cluster.DefragmentationRound;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Set;

import dev.etcdoperator.api.v1beta2.EtcdCluster;
import dev.etcdoperator.core.cluster.ClusterObservation;
import dev.etcdoperator.core.cluster.MemberPod;
import dev.etcdoperator.core.cluster.DatabaseSpace;
import dev.etcdoperator.core.cluster.FragmentationThreshold;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.Test;

/** What the observer reads from the resource and the pods, without any member to ask. */
class ClusterObserverTest {
    private static final Instant NOW = Instant.parse("2026-11-30T10:00:00Z");
    private final ClusterObserver observer = new ClusterObserver(new EtcdAdmins(), Clock.fixed(NOW, ZoneOffset.UTC));

    private static EtcdCluster cluster(String annotation, String phase, String reason) {
        return Serialization.unmarshal("""
                apiVersion: etcd.database.coreos.com/v1beta2
                kind: EtcdCluster
                metadata:
                  name: demo
                  namespace: prod
                  uid: 6a3c0f4e-0000-4000-8000-000000000001
                """ + (annotation == null ? "" : "  annotations: {etcd.database.coreos.com/reseed: '" + annotation + "'}\n")
                + """
                spec: {size: 3, version: 3.5.17}
                status:
                  currentVersion: 3.5.17
                  seedMember: demo-seed000000
                """ + (phase == null ? "" : "  phase: " + phase + "\n  reason: " + reason + "\n"), EtcdCluster.class);
    }

    private ClusterObservation observe(EtcdCluster cluster, List<Pod> pods) {
        return observer.observe(cluster, pods, Set.of()).observation();
    }

    @Test
    void theRecordedSeedTheTimeAndWhetherTheClusterRanComeFromTheResource() {
        ClusterObservation o = observe(cluster(null, "Running", null), List.of());
        assertThat(o.seedMember()).isEqualTo("demo-seed000000");
        assertThat(o.ran()).isTrue();
        assertThat(o.now()).isEqualTo(NOW);
        assertThat(o.reseedRequested()).isFalse();
    }

    @Test
    void aReseedIsRequestedOnlyWithTheClustersUidAndOnlyOnceTheLossIsReported() {
        String uid = "6a3c0f4e-0000-4000-8000-000000000001";
        assertThat(observe(cluster(uid, "Failed", "AllMembersLost"), List.of()).reseedRequested()).isTrue();
        assertThat(observe(cluster("true", "Failed", "AllMembersLost"), List.of()).reseedRequested())
                .as("not this cluster's uid").isFalse();
        assertThat(observe(cluster("6a3c0f4e-0000-4000-8000-000000000002", "Failed", "AllMembersLost"), List.of())
                .reseedRequested()).as("another cluster's uid").isFalse();
        assertThat(observe(cluster(uid, "Running", null), List.of()).reseedRequested())
                .as("put on before any loss: no standing order").isFalse();
        assertThat(observe(cluster(uid, "Failed", "QuorumLost"), List.of()).reseedRequested())
                .as("members are left").isFalse();
    }

    @Test
    void aTerminatingPodCarriesItsDeletionTimestamp() {
        Pod pod = new PodBuilder().withNewMetadata().withName("demo-a").withDeletionTimestamp("2026-11-30T09:50:00Z")
                .addToLabels("etcd_cluster", "demo").endMetadata().withNewSpec().endSpec().withNewStatus()
                .withPhase("Running").endStatus().build();
        assertThat(observe(cluster(null, "Running", null), List.of(pod)).pods()).singleElement().satisfies(p -> {
            assertThat(p.terminating()).isTrue();
            assertThat(p.deletionTimestamp()).isEqualTo(Instant.parse("2026-11-30T09:50:00Z"));
        });
    }

    private static long quota(String spec) {
        return ClusterObserver.quotaBytes(demo(spec).getSpec());
    }

    @Test
    void theQuotaIsTheSpecsElseANumberEtcdEnvGivesElseEtcdsDefault() {
        assertThat(quota("{size: 3, etcd: {quotaBackendBytes: 4194304}}")).isEqualTo(4194304);
        assertThat(quota("{size: 3, pod: {etcdEnv: [{name: ETCD_QUOTA_BACKEND_BYTES, value: ' 8388608 '}]}}"))
                .isEqualTo(8388608);
        assertThat(quota("{size: 3, pod: {etcdEnv: [{name: ETCD_QUOTA_BACKEND_BYTES, value: 8GB}]}}"))
                .isEqualTo(DatabaseSpace.DEFAULT_QUOTA_BYTES);
        assertThat(quota("{size: 3}")).isEqualTo(2L << 30);
    }

    /** An EtcdCluster {@code demo} in {@code prod} with that spec (flow YAML). */
    private static EtcdCluster demo(String spec) {
        return Serialization.unmarshal("""
                apiVersion: etcd.database.coreos.com/v1beta2
                kind: EtcdCluster
                metadata: {name: demo, namespace: prod}
                spec: %s
                """.formatted(spec), EtcdCluster.class);
    }

    private static FragmentationThreshold threshold(String spec) {
        return ClusterObserver.fragmentationThreshold(demo(spec).getSpec());
    }

    @Test
    void theDefragmentationThresholdIsOffUnlessSetAndTakesItsDefaults() {
        assertThat(threshold("{size: 3}")).isNull();
        assertThat(threshold("{size: 3, etcd: {quotaBackendBytes: 4194304}}")).isNull();
        assertThat(threshold("{size: 3, etcd: {defragmentation: {}}}"))
                .isEqualTo(new FragmentationThreshold(100L << 20, 50));
        assertThat(threshold("{size: 3, etcd: {defragmentation: {minFragmentedBytes: 1048576}}}"))
                .isEqualTo(new FragmentationThreshold(1L << 20, 50));
        assertThat(threshold("{size: 3, etcd: {defragmentation: {minFragmentedBytes: 2097152, minFragmentedPercent: 10}}}"))
                .isEqualTo(new FragmentationThreshold(2L << 20, 10));
    }

    private static Pod pod(String phase, String etcdState) {
        return Serialization.unmarshal("""
                apiVersion: v1
                kind: Pod
                metadata: {name: demo-a, namespace: prod}
                spec: {containers: [{name: etcd, image: "quay.io/coreos/etcd:v3.5.17"}]}
                status:
                  phase: %s
                  containerStatuses: [{name: etcd, ready: false, restartCount: 0, image: x, imageID: x, state: %s}]
                """.formatted(phase, etcdState), Pod.class);
    }

    @Test
    void anEtcdImageTheKubeletCannotGetIsToldWithItsReasonAndWhetherSpecNamesItsRepository() {
        Pod waiting = pod("Running", "{waiting: {reason: ImagePullBackOff, message: 'Back-off pulling image'}}");
        assertThat(ClusterObserver.memberPod(waiting).imageProblem())
                .isEqualTo("ImagePullBackOff: Back-off pulling image");
        assertThat(ClusterObserver.memberPod(pod("Running", "{waiting: {reason: CrashLoopBackOff}}")).imageProblem())
                .isNull();
        assertThat(observer.observe(demo("{size: 1, version: 3.5.17}"), List.of(waiting), Set.of()).observation()
                .pods()).singleElement().satisfies(p -> assertThat(p.otherRepository()).isFalse());
        assertThat(observer.observe(demo("{size: 1, version: 3.5.17, repository: registry.example/etcd}"),
                List.of(waiting), Set.of()).observation().pods()).singleElement()
                .satisfies(p -> assertThat(p.otherRepository()).isTrue());
    }

    private static Pod runningImage(String specImage, String statusImage) {
        return Serialization.unmarshal("""
                apiVersion: v1
                kind: Pod
                metadata: {name: demo-a, namespace: prod}
                spec: {containers: [{name: etcd, image: "%s"}]}
                status:
                  phase: Running
                  containerStatuses: [{name: etcd, ready: true, restartCount: 0, image: "%s", imageID: x,
                    state: {running: {startedAt: '2026-01-01T00:00:00Z'}}}]
                """.formatted(specImage, statusImage), Pod.class);
    }

    @Test
    void aMemberWhoseOldEtcdStillRunsAfterItsVersionChangedIsNotRunningUntilTheNodeRestartsIt() {
        assertThat(ClusterObserver.memberPod(runningImage("quay.io/coreos/etcd:v3.6.16", "quay.io/coreos/etcd:v3.5.35"))
                .running()).as("the node has not restarted it yet").isFalse();
        assertThat(ClusterObserver.memberPod(runningImage("quay.io/coreos/etcd:v3.6.16", "quay.io/coreos/etcd:v3.6.16"))
                .running()).isTrue();
        // the status in another form says nothing either way
        assertThat(ClusterObserver.memberPod(runningImage("quay.io/coreos/etcd:v3.6.16",
                "quay.io/coreos/etcd@sha256:0123abcd")).running()).isTrue();
        assertThat(ClusterObserver.memberPod(runningImage("registry.example/etcd@sha256:0123abcd",
                "registry.example/etcd:v3.5.35")).running()).isTrue();
        assertThat(ClusterObserver.memberPod(runningImage("quay.io/coreos/etcd:v3.6.16", "docker.io/coreos/etcd:3.6.16"))
                .running()).as("another registry form of the same version").isTrue();
    }

    @Test
    void aPodWhoseInitContainerFailedNeverStartedEtcd() {
        assertThat(ClusterObserver.memberPod(pod("Failed", "{waiting: {reason: PodInitializing}}")))
                .satisfies(p -> assertThat(p.stopped()).isTrue())
                .satisfies(p -> assertThat(p.etcdStarted()).isFalse());
        assertThat(ClusterObserver.memberPod(pod("Pending", "{waiting: {reason: PodInitializing}}")).etcdStarted())
                .isFalse();
        assertThat(ClusterObserver.memberPod(pod("Failed",
                "{terminated: {exitCode: 137, startedAt: '2026-01-01T00:00:00Z', finishedAt: '2026-01-01T00:01:00Z'}}")))
                .satisfies(p -> assertThat(p.stopped()).isTrue())
                .satisfies(p -> assertThat(p.etcdStarted()).isTrue());
        assertThat(ClusterObserver.memberPod(pod("Running", "{running: {startedAt: '2026-01-01T00:00:00Z'}}"))
                .etcdStarted()).isTrue();
    }

    @Test
    void anEtcdWaitingOutTheBackOffAfterAFailureCrashLoopsInAPodThatHasNotEnded() {
        String backOff = "{waiting: {reason: CrashLoopBackOff, message: 'back-off 10s restarting failed container'}}";
        assertThat(ClusterObserver.memberPod(pod("Running", backOff)))
                .satisfies(p -> assertThat(p.crashLooping()).isTrue())
                .satisfies(p -> assertThat(p.running()).isFalse())
                .satisfies(p -> assertThat(p.stopped()).isFalse());
        // started again (or never failed), restarting for a new image, ended, or being deleted: not crash-looping
        assertThat(ClusterObserver.memberPod(pod("Running", "{running: {startedAt: '2026-01-01T00:00:00Z'}}"))
                .crashLooping()).isFalse();
        assertThat(ClusterObserver.memberPod(pod("Running", "{waiting: {reason: ContainerCreating}}")).crashLooping())
                .isFalse();
        assertThat(ClusterObserver.memberPod(pod("Failed", backOff)).crashLooping()).isFalse();
        Pod deleted = pod("Running", backOff);
        deleted.getMetadata().setDeletionTimestamp("2026-01-01T00:00:00Z");
        assertThat(ClusterObserver.memberPod(deleted).crashLooping()).isFalse();
    }

    @Test
    void aPodWhoseRestartPolicyIsNeverRunsOnce() {
        Pod never = pod("Running", "{running: {startedAt: '2026-01-01T00:00:00Z'}}");
        never.getSpec().setRestartPolicy("Never");
        assertThat(ClusterObserver.memberPod(never).runsOnce()).isTrue();
        // Always, and the API server's default (Always) when a pod says nothing
        Pod always = pod("Running", "{running: {startedAt: '2026-01-01T00:00:00Z'}}");
        always.getSpec().setRestartPolicy("Always");
        assertThat(ClusterObserver.memberPod(always).runsOnce()).isFalse();
        assertThat(ClusterObserver.memberPod(pod("Running", "{running: {startedAt: '2026-01-01T00:00:00Z'}}"))
                .runsOnce()).isFalse();
    }

    @Test
    void aRunOncePodThatEndedIsNotMaskedAsOneThatRestarts() {
        MemberPod running = MemberPod.starting("demo-a", "3.5.35", false).runningOnce();
        assertThat(ClusterObserver.notReplaceable(running).runsOnce()).isFalse();
        MemberPod ended = new MemberPod("demo-a", false, false, false, "3.5.35", false, true, null, false, false)
                .runningOnce();
        assertThat(ended.stopped()).isTrue();
        assertThat(ClusterObserver.notReplaceable(ended).runsOnce()).as("its restore's to retry").isTrue();
    }

    @Test
    void podsThatRunOnceMayBeReplacedOnceTheRestoreEndedAndWithoutPlacementRules() {
        assertThat(ClusterObserver.runOncePodsReplaceable(demo("{size: 1}"), true)).isTrue();
        assertThat(ClusterObserver.runOncePodsReplaceable(demo("{size: 1}"), false)).as("a restore still finishing")
                .isFalse();
        // the member added over spec.size might find no node
        assertThat(ClusterObserver.runOncePodsReplaceable(demo("{size: 1, pod: {antiAffinity: true}}"), true))
                .isFalse();
        assertThat(ClusterObserver.runOncePodsReplaceable(demo(
                "{size: 3, pod: {affinity: {nodeAffinity: {}}}}"), true)).isFalse();
    }

    private static String seedOf(String annotations, String status) {
        EtcdCluster cluster = Serialization.unmarshal("""
                apiVersion: etcd.database.coreos.com/v1beta2
                kind: EtcdCluster
                metadata: {name: demo, namespace: prod, annotations: %s}
                spec: {size: 3}
                status: %s
                """.formatted(annotations, status), EtcdCluster.class);
        return ClusterObserver.seedMember(cluster, ClusterResources.naming(cluster));
    }

    /** A restore that started the seed beside the template names it on the restored cluster, until one is recorded. */
    @Test
    void aRestoredClustersSeedIsTheOneItsRestoreStartedUntilTheStatusRecordsOne() {
        String restored = "{etcd.database.coreos.com/restore-snapshot-secret: r-snapshot, "
                + "etcd.database.coreos.com/restored-by: r, etcd.database.coreos.com/restore-seed-member: %s}";
        assertThat(seedOf(restored.formatted("demo-abc123"), "{}")).isEqualTo("demo-abc123");
        assertThat(seedOf(restored.formatted("demo-abc123"), "{seedMember: demo-zzz}")).isEqualTo("demo-zzz");
        assertThat(seedOf(restored.formatted("other-abc123"), "{}")).as("not a member name of this cluster").isNull();
        assertThat(seedOf(restored.formatted("demo-ABC_1"), "{}")).as("not a DNS label").isNull();
        assertThat(seedOf(restored.formatted("demo-" + "a".repeat(60)), "{}")).as("over 63 characters").isNull();
        assertThat(seedOf("{etcd.database.coreos.com/restore-seed-member: demo-abc123}", "{}"))
                .as("only a restored cluster's").isNull();
    }

    private static boolean startsFromSeed(String spec) {
        return ClusterObserver.startsFromSeed(demo(spec));
    }

    /** Members that may be left unscheduled by design are better a learner waiting than a voter that never runs. */
    @Test
    void aClusterWithPlacementRulesThatMayLeaveMembersUnscheduledStartsFromOneSeed() {
        assertThat(startsFromSeed("{size: 3}")).isFalse();
        assertThat(startsFromSeed("{size: 3, pod: {nodeSelector: {disk: ssd}}}")).isFalse();
        assertThat(startsFromSeed("{size: 3, pod: {antiAffinity: true}}")).isTrue();
        assertThat(startsFromSeed("{size: 3, pod: {antiAffinity: false}}")).isFalse();
        assertThat(startsFromSeed("{size: 3, pod: {affinity: {podAntiAffinity: {preferredDuringSchedulingIgnoredDuringExecution: []}}}}"))
                .isTrue();
    }

    @Test
    void withAScheduleAloneTheThresholdsAreOff() {
        assertThat(threshold("{size: 3, etcd: {defragmentation: {schedule: '@daily'}}}")).isNull();
        assertThat(threshold("{size: 3, etcd: {defragmentation: {schedule: '@daily', minFragmentedPercent: 10}}}"))
                .isEqualTo(new FragmentationThreshold(100L << 20, 10));
    }

    private static DefragmentationRound round(String spec, String status) {
        return ClusterObserver.defragmentationRound(Serialization.unmarshal("""
                apiVersion: etcd.database.coreos.com/v1beta2
                kind: EtcdCluster
                metadata: {name: demo, namespace: prod}
                spec: %s
                status: %s
                """.formatted(spec, status), EtcdCluster.class));
    }

    @Test
    void theScheduledRoundIsTheSpecsScheduleWithWhatStatusRecordedForIt() {
        assertThat(round("{size: 3, etcd: {defragmentation: {}}}", "{}")).isNull();
        assertThat(round("{size: 3, etcd: {defragmentation: {schedule: 'not a schedule'}}}", "{}")).isNull();
        assertThat(round("{size: 3, etcd: {defragmentation: {schedule: '0 3 * * *'}}}", "{}"))
                .isEqualTo(new DefragmentationRound(CronSchedule.parse("0 3 * * *"), null, List.of()));
        assertThat(round("{size: 3, etcd: {defragmentation: {schedule: '0 3 * * *'}}}", """
                {defragmentation: {schedule: '0 3 * * *', nextRoundTime: '2026-12-01T03:00:00Z',
                 roundStartTime: '2026-12-01T03:00:04Z', roundMembers: [demo-b]}}"""))
                .isEqualTo(new DefragmentationRound(CronSchedule.parse("0 3 * * *"),
                        Instant.parse("2026-12-01T03:00:00Z"), List.of("demo-b")));
        assertThat(round("{size: 3, etcd: {defragmentation: {schedule: '0 4 * * *'}}}", """
                {defragmentation: {schedule: '0 3 * * *', nextRoundTime: '2026-12-01T03:00:00Z',
                 roundMembers: [demo-b]}}""")).as("recorded for another schedule")
                .isEqualTo(new DefragmentationRound(CronSchedule.parse("0 4 * * *"), null, List.of()));
        assertThat(round("{size: 3, etcd: {defragmentation: {schedule: '0 3 * * *'}}}",
                "{defragmentation: {schedule: '0 3 * * *', nextRoundTime: 'tomorrow'}}")).as("unreadable")
                .isEqualTo(new DefragmentationRound(CronSchedule.parse("0 3 * * *"), null, List.of()));
    }
}
