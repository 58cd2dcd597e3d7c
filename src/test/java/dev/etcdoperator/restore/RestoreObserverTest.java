package dev.etcdoperator.restore;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import dev.etcdoperator.cluster.SnapshotFetch;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.Test;

/** What a seed pod's container statuses say about a failed restore, whether its pod ended or restarts them. */
class RestoreObserverTest {

    private static Pod seed(String phase, String fetchStatus) {
        return Serialization.unmarshal("""
                apiVersion: v1
                kind: Pod
                metadata: {name: demo-a, namespace: prod}
                spec: {containers: [{name: etcd, image: "quay.io/coreos/etcd:v3.5.17"}]}
                status:
                  phase: %s
                  initContainerStatuses: [%s]
                """.formatted(phase, fetchStatus), Pod.class);
    }

    private static String fetch(String state, String lastState) {
        return "{name: " + SnapshotFetch.CONTAINER + ", ready: false, restartCount: 1, image: x, imageID: x, state: "
                + state + (lastState == null ? "" : ", lastState: " + lastState) + "}";
    }

    private static String exited(int code) {
        return "{terminated: {exitCode: " + code + "}}";
    }

    @Test
    void aDownloadThatFailedIsSeenWhetherThePodEndedOrWaitsToRunItAgain() {
        Pod ended = seed("Failed", fetch(exited(SnapshotFetch.DOWNLOAD_FAILED), null));
        Pod backingOff = seed("Pending", fetch("{waiting: {reason: CrashLoopBackOff}}",
                exited(SnapshotFetch.DOWNLOAD_FAILED)));
        for (Pod pod : List.of(ended, backingOff)) {
            assertThat(RestoreObserver.downloadFailed(pod)).isTrue();
            assertThat(RestoreObserver.seedDownloadFailed(List.of(pod))).isEqualTo("demo-a");
            assertThat(RestoreObserver.seedFailure(List.of(pod))).contains("container " + SnapshotFetch.CONTAINER,
                    "exited with " + SnapshotFetch.DOWNLOAD_FAILED);
        }
    }

    /**
     * A seed pod the node ended as a whole (evicted, refused at admission: no container exited with an error) is a
     * failure the restore sees, and one a pod made again may cure: it is retried as a failed download is.
     */
    @Test
    void aSeedPodEndedByItsNodeIsAFailureThatIsTriedAgain() {
        Pod refused = Serialization.unmarshal("""
                apiVersion: v1
                kind: Pod
                metadata: {name: demo-a, namespace: prod}
                spec: {containers: [{name: etcd, image: "quay.io/coreos/etcd:v3.5.17"}]}
                status: {phase: Failed, reason: OutOfcpu, message: "Pod was rejected: Node didn't have enough resource: cpu"}
                """, Pod.class);
        assertThat(RestoreObserver.seedFailure(List.of(refused))).contains("demo-a", "ended by its node", "OutOfcpu");
        assertThat(RestoreObserver.downloadFailed(refused)).isTrue();
        assertThat(RestoreObserver.seedDownloadFailed(List.of(refused))).isEqualTo("demo-a");
        // a pod whose container failed has no reason of its own
        Pod failed = seed("Failed", fetch(exited(1), null));
        assertThat(RestoreObserver.endedByItsNode(failed)).isFalse();
    }

    @Test
    void aContainerThatRunsAgainIsStartedAgainAtOnceOrEndedWellIsNoFailure() {
        Pod runsAgain = seed("Pending", fetch("{running: {startedAt: '2026-01-01T00:00:00Z'}}",
                exited(SnapshotFetch.DOWNLOAD_FAILED)));
        Pod done = seed("Running", fetch(exited(0), null));
        Pod restarting = seed("Pending", fetch("{waiting: {reason: ContainerCreating}}",
                exited(SnapshotFetch.DOWNLOAD_FAILED)));
        Pod otherError = seed("Pending", fetch("{waiting: {reason: CrashLoopBackOff}}", exited(1)));
        for (Pod pod : List.of(runsAgain, done, restarting)) {
            assertThat(RestoreObserver.downloadFailed(pod)).isFalse();
            assertThat(RestoreObserver.seedFailure(List.of(pod))).isNull();
        }
        assertThat(RestoreObserver.downloadFailed(otherError)).isFalse();
        assertThat(RestoreObserver.seedFailure(List.of(otherError))).contains("exited with 1");
    }

    /** What holds a seed from starting is said: an init container whose image cannot be pulled, a cluster that makes no pod. */
    @Test
    void whatHoldsTheSeedFromStartingIsSaid() {
        Pod pulling = seed("Pending", fetch("{waiting: {reason: ImagePullBackOff, message: \"Back-off pulling image"
                + " busybox:9\"}}", null));
        assertThat(RestoreObserver.seedHeld(java.util.List.of(pulling), new dev.etcdoperator.api.v1beta2.EtcdClusterStatus()))
                .isEqualTo("container " + SnapshotFetch.CONTAINER + " of pod demo-a cannot start: ImagePullBackOff"
                        + " (Back-off pulling image busybox:9)");
        Pod starting = seed("Pending", fetch("{waiting: {reason: PodInitializing}}", null));
        assertThat(RestoreObserver.seedHeld(java.util.List.of(starting), new dev.etcdoperator.api.v1beta2.EtcdClusterStatus()))
                .as("starting as usual").isNull();
        var failed = new dev.etcdoperator.api.v1beta2.EtcdClusterStatus();
        failed.setPhase("Failed");
        failed.setReason("TLSSecretMissing");
        assertThat(RestoreObserver.seedHeld(java.util.List.of(), failed)).isEqualTo("it makes no pod: TLSSecretMissing");
    }
}
