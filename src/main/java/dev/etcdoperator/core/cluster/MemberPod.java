package dev.etcdoperator.core.cluster;

import java.time.Instant;
import java.util.Objects;

/**
 * One member pod as Kubernetes shows it. The pod name is the etcd member name ({@code <cluster>-<suffix>}).
 *
 * @param name        pod name, equal to the etcd member name
 * @param running     the etcd container runs (pod phase Running)
 * @param ready       the pod is ready
 * @param terminating the pod has a deletion timestamp
 * @param etcdVersion the version from the pod's image tag, without a leading {@code v}; may be null
 * @param hasClaim    the pod mounts a PersistentVolumeClaim for its data
 * @param stopped     the pod has ended (phase Failed or Succeeded) and will not run again; a pod that is
 *                    pending, initializing or restarting its container is not running but not stopped either
 * @param deletionTimestamp when {@code terminating}, the pod's {@code metadata.deletionTimestamp} (the time its
 *                    grace period ends); null when not known or not terminating
 * @param staleTls    the cluster uses TLS and the pod was started on other content of its TLS Secrets than they hold
 *                    now (or it does not say what it was started on): it must restart to use the current material
 * @param etcdStarted the etcd container has started in this pod (it runs, or it ended after it had started); a pod
 *                    that ended before it (an init container failed, the pod was evicted or refused by its node)
 *                    never ran etcd
 * @param crashLooping the pod runs, but its etcd container failed and waits out the kubelet's back-off before it is
 *                    started again in place ({@code CrashLoopBackOff}); its data is still in the pod
 * @param runsOnce    the pod's etcd is not started again when it ends ({@code restartPolicy: Never}): a restored
 *                    cluster's seed, or a pod an earlier operator version made; the
 *                    observer reports it only once the planner may replace it (its restore ended, no placement rules)
 * @param imageProblem why the kubelet cannot get the etcd container's image ({@code ErrImagePull},
 *                    {@code ImagePullBackOff}, {@code InvalidImageName}, with the kubelet's message), or null
 * @param otherRepository the etcd container's image is of another repository than {@code spec.repository} names now
 * @param dataMissing the pod was made again in place on its member's claim, and found no etcd data there (its check
 *                    of the data directory failed): its etcd would refuse to start (an existing member without its
 *                    data), so the member is lost for good
 * @param splitOff    its etcd answers as the leader of a cluster of its own, whose member list lacks most members of
 *                    the cluster's leader's list: started again on an empty data directory with its first
 *                    {@code --initial-cluster-state=new}, it made a new cluster under the same IDs, which serves none
 *                    of the cluster's data
 * @param keepsFailing its member's etcd failed in each of the last pods the operator made for it on its claim, since it
 *                    was last healthy, and fails in this one too: made again on the same data it would fail again
 * @param mountsSurvivorClaim the pod mounts a survivor's claim besides its own (a quorum recovery's member that copied
 *                    the survivor's database from it): that claim cannot go while the pod lives
 */
public record MemberPod(String name, boolean running, boolean ready, boolean terminating, String etcdVersion,
        boolean hasClaim, boolean stopped, Instant deletionTimestamp, boolean staleTls, boolean etcdStarted,
        boolean crashLooping, boolean runsOnce, String imageProblem, boolean otherRepository, boolean dataMissing,
        boolean splitOff, boolean keepsFailing, boolean mountsSurvivorClaim) {
    public MemberPod {
        Objects.requireNonNull(name, "name");
        etcdVersion = Version.strip(etcdVersion);
    }

    /** Mounting no survivor's claim. */
    public MemberPod(String name, boolean running, boolean ready, boolean terminating, String etcdVersion,
            boolean hasClaim, boolean stopped, Instant deletionTimestamp, boolean staleTls, boolean etcdStarted,
            boolean crashLooping, boolean runsOnce, String imageProblem, boolean otherRepository, boolean dataMissing,
            boolean splitOff, boolean keepsFailing) {
        this(name, running, ready, terminating, etcdVersion, hasClaim, stopped, deletionTimestamp, staleTls,
                etcdStarted, crashLooping, runsOnce, imageProblem, otherRepository, dataMissing, splitOff, keepsFailing,
                false);
    }

    /** The same pod, mounting a survivor's claim ({@link #mountsSurvivorClaim}). */
    public MemberPod withSurvivorClaimMounted() {
        return new MemberPod(name, running, ready, terminating, etcdVersion, hasClaim, stopped, deletionTimestamp,
                staleTls, etcdStarted, crashLooping, runsOnce, imageProblem, otherRepository, dataMissing, splitOff,
                keepsFailing, true);
    }

    /** Not failing again after being made anew. */
    public MemberPod(String name, boolean running, boolean ready, boolean terminating, String etcdVersion,
            boolean hasClaim, boolean stopped, Instant deletionTimestamp, boolean staleTls, boolean etcdStarted,
            boolean crashLooping, boolean runsOnce, String imageProblem, boolean otherRepository, boolean dataMissing,
            boolean splitOff) {
        this(name, running, ready, terminating, etcdVersion, hasClaim, stopped, deletionTimestamp, staleTls,
                etcdStarted, crashLooping, runsOnce, imageProblem, otherRepository, dataMissing, splitOff, false);
    }

    /** The same pod, whose member's etcd failed in each of its last pods made on its claim ({@link #keepsFailing}). */
    public MemberPod withKeepsFailing() {
        return new MemberPod(name, running, ready, terminating, etcdVersion, hasClaim, stopped, deletionTimestamp,
                staleTls, etcdStarted, crashLooping, runsOnce, imageProblem, otherRepository, dataMissing, splitOff,
                true, mountsSurvivorClaim);
    }

    /** Not split off. */
    public MemberPod(String name, boolean running, boolean ready, boolean terminating, String etcdVersion,
            boolean hasClaim, boolean stopped, Instant deletionTimestamp, boolean staleTls, boolean etcdStarted,
            boolean crashLooping, boolean runsOnce, String imageProblem, boolean otherRepository, boolean dataMissing) {
        this(name, running, ready, terminating, etcdVersion, hasClaim, stopped, deletionTimestamp, staleTls,
                etcdStarted, crashLooping, runsOnce, imageProblem, otherRepository, dataMissing, false);
    }

    /** The same pod, whose etcd leads a cluster of its own (see {@link #splitOff}). */
    public MemberPod withSplitOff() {
        return new MemberPod(name, running, ready, terminating, etcdVersion, hasClaim, stopped, deletionTimestamp,
                staleTls, etcdStarted, crashLooping, runsOnce, imageProblem, otherRepository, dataMissing, true,
                keepsFailing, mountsSurvivorClaim);
    }

    /** A pod made on its member's data that found it. */
    public MemberPod(String name, boolean running, boolean ready, boolean terminating, String etcdVersion,
            boolean hasClaim, boolean stopped, Instant deletionTimestamp, boolean staleTls, boolean etcdStarted,
            boolean crashLooping, boolean runsOnce, String imageProblem, boolean otherRepository) {
        this(name, running, ready, terminating, etcdVersion, hasClaim, stopped, deletionTimestamp, staleTls,
                etcdStarted, crashLooping, runsOnce, imageProblem, otherRepository, false);
    }

    /**
     * The same pod, made again in place on its member's claim, which holds no etcd data (wiped, or a new volume):
     * its etcd would never start on it, and its member is lost for good.
     */
    public MemberPod withDataMissing() {
        return new MemberPod(name, running, ready, terminating, etcdVersion, hasClaim, stopped, deletionTimestamp,
                staleTls, etcdStarted, crashLooping, runsOnce, imageProblem, otherRepository, true, splitOff,
                keepsFailing, mountsSurvivorClaim);
    }

    /** A pod whose image the kubelet has, or is getting. */
    public MemberPod(String name, boolean running, boolean ready, boolean terminating, String etcdVersion,
            boolean hasClaim, boolean stopped, Instant deletionTimestamp, boolean staleTls, boolean etcdStarted,
            boolean crashLooping, boolean runsOnce) {
        this(name, running, ready, terminating, etcdVersion, hasClaim, stopped, deletionTimestamp, staleTls,
                etcdStarted, crashLooping, runsOnce, null, false);
    }

    /** A pod whose etcd the kubelet starts again in place when it ends. */
    public MemberPod(String name, boolean running, boolean ready, boolean terminating, String etcdVersion,
            boolean hasClaim, boolean stopped, Instant deletionTimestamp, boolean staleTls, boolean etcdStarted,
            boolean crashLooping) {
        this(name, running, ready, terminating, etcdVersion, hasClaim, stopped, deletionTimestamp, staleTls,
                etcdStarted, crashLooping, false);
    }

    /** A pod whose etcd container is not crash-looping. */
    public MemberPod(String name, boolean running, boolean ready, boolean terminating, String etcdVersion,
            boolean hasClaim, boolean stopped, Instant deletionTimestamp, boolean staleTls, boolean etcdStarted) {
        this(name, running, ready, terminating, etcdVersion, hasClaim, stopped, deletionTimestamp, staleTls,
                etcdStarted, false);
    }

    /** A pod whose etcd started if it runs or has ended. */
    public MemberPod(String name, boolean running, boolean ready, boolean terminating, String etcdVersion,
            boolean hasClaim, boolean stopped, Instant deletionTimestamp, boolean staleTls) {
        this(name, running, ready, terminating, etcdVersion, hasClaim, stopped, deletionTimestamp, staleTls,
                running || stopped);
    }

    /** Started on the TLS material its Secrets hold now (or without TLS). */
    public MemberPod(String name, boolean running, boolean ready, boolean terminating, String etcdVersion,
            boolean hasClaim, boolean stopped, Instant deletionTimestamp) {
        this(name, running, ready, terminating, etcdVersion, hasClaim, stopped, deletionTimestamp, false);
    }

    /** The same pod, started on TLS material its Secrets no longer hold. */
    public MemberPod withStaleTls() {
        return new MemberPod(name, running, ready, terminating, etcdVersion, hasClaim, stopped, deletionTimestamp,
                true, etcdStarted, crashLooping, runsOnce, imageProblem, otherRepository, dataMissing, splitOff,
                keepsFailing, mountsSurvivorClaim);
    }

    /** The same pod, as one whose etcd is started again in place (a pod that runs once, not to be replaced yet). */
    public MemberPod restartingInPlace() {
        return new MemberPod(name, running, ready, terminating, etcdVersion, hasClaim, stopped, deletionTimestamp,
                staleTls, etcdStarted, crashLooping, false, imageProblem, otherRepository, dataMissing, splitOff,
                keepsFailing, mountsSurvivorClaim);
    }

    /** The same pod, whose etcd is not started again when it ends. */
    public MemberPod runningOnce() {
        return new MemberPod(name, running, ready, terminating, etcdVersion, hasClaim, stopped, deletionTimestamp,
                staleTls, etcdStarted, crashLooping, true, imageProblem, otherRepository, dataMissing, splitOff,
                keepsFailing, mountsSurvivorClaim);
    }

    /** The same pod, whose etcd image the kubelet cannot get, for {@code problem}. */
    public MemberPod withImageProblem(String problem) {
        return new MemberPod(name, running, ready, terminating, etcdVersion, hasClaim, stopped, deletionTimestamp,
                staleTls, etcdStarted, crashLooping, runsOnce, problem, otherRepository, dataMissing, splitOff,
                keepsFailing, mountsSurvivorClaim);
    }

    /** The same pod, whose etcd image is of another repository than spec.repository names. */
    public MemberPod ofOtherRepository() {
        return new MemberPod(name, running, ready, terminating, etcdVersion, hasClaim, stopped, deletionTimestamp,
                staleTls, etcdStarted, crashLooping, runsOnce, imageProblem, true, dataMissing, splitOff,
                keepsFailing, mountsSurvivorClaim);
    }

    /** Without a deletion timestamp. */
    public MemberPod(String name, boolean running, boolean ready, boolean terminating, String etcdVersion,
            boolean hasClaim, boolean stopped) {
        this(name, running, ready, terminating, etcdVersion, hasClaim, stopped, null);
    }

    /** A pod that either runs or has ended for good. */
    public MemberPod(String name, boolean running, boolean ready, boolean terminating, String etcdVersion,
            boolean hasClaim) {
        this(name, running, ready, terminating, etcdVersion, hasClaim, !running);
    }

    /** Not running yet (or again), but not ended either: it is starting. */
    public static MemberPod starting(String name, String etcdVersion, boolean hasClaim) {
        return new MemberPod(name, false, false, false, etcdVersion, hasClaim, false);
    }
}
