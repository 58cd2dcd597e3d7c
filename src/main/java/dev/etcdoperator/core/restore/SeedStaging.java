package dev.etcdoperator.core.restore;

import java.util.Optional;

import dev.etcdoperator.core.Digests;

/**
 * The rules of a staged seed: a restore may start its seed member's pod while the preflight reads the backup and
 * the template cluster still serves, so that the download and etcd's own restore of the snapshot are done by the
 * time the template is gone. The staged pod carries none of the cluster's labels (no Service sends it clients, the
 * template's controller does not see it) and belongs to the EtcdRestore until the restored cluster adopts it.
 *
 * <p>What keeps this safe: the pod downloads through a link the store refuses for any object but the one it was
 * signed for, and it is adopted only when that object is the one the preflight then verified; a pod that failed,
 * ended, is being deleted or is not the restore's own is never adopted (the restored cluster then makes its seed
 * as it would without staging). Staging changes nothing of the template: a restore that fails deletes its pod.
 */
public final class SeedStaging {

    private SeedStaging() {
    }

    /**
     * Why the restore does not stage its seed, or empty when it does.
     *
     * @param persistent  the template keeps its members' data on claims (a staged claim would be one more object
     *                    to hand over; such restores make the seed after the template is gone)
     * @param linkBound   the store refuses the seed's link for any object but the one it was signed for
     * @param objectFound the backup object exists (a HEAD found it, with an ETag)
     */
    public static Optional<String> notStaged(boolean persistent, boolean linkBound, boolean objectFound) {
        if (!objectFound) {
            return Optional.of("the backup object was not found");
        }
        if (persistent) {
            return Optional.of("the template keeps its members' data on persistent volume claims");
        }
        if (!linkBound) {
            return Optional.of("the store does not bind a download link to one object version (If-Match), or the"
                    + " backup is client-side encrypted");
        }
        return Optional.empty();
    }

    /**
     * What is seen of the staged pod.
     *
     * @param adopted an EtcdCluster controls it already (this restore handed it over before an operator restart)
     */
    public record StagedPod(boolean exists, boolean ownedByRestore, boolean adopted, boolean deleting, boolean ended,
            String failure) {
        public static StagedPod absent() {
            return new StagedPod(false, false, false, false, false, null);
        }
    }

    /** What becomes of a staged seed. */
    public sealed interface Outcome {
    }

    /** The restored cluster takes the pod as its seed. */
    public record Adopt() implements Outcome {
    }

    /** The pod is not used; {@code delete} when it is the restore's own and still there. */
    public record Discard(boolean delete, String why) implements Outcome {
    }

    /**
     * What a staged pod was started for, as a token it carries from its creation on: the template (uid and spec, as
     * the restored cluster will get it), the restore's spec (generation) and the object version its link was signed
     * for.
     */
    public static String stagedFor(String templateUid, String savedSpecJson, long restoreGeneration, String etag) {
        return Digests.shortSha256(templateUid + "\n" + savedSpecJson + "\n" + restoreGeneration + "\n" + etag, 16);
    }

    /**
     * When the preflight passed: the staged pod goes on only if it was started for exactly what the preflight
     * verified (see {@link #stagedFor}): the same object version, the same template and spec, the same restore spec.
     */
    public static Optional<Discard> afterPreflight(String podStagedFor, String verified) {
        if (podStagedFor == null || !podStagedFor.equals(verified)) {
            return Optional.of(new Discard(true, "it was started for another backup object version, template spec or"
                    + " restore spec than the preflight verified"));
        }
        return Optional.empty();
    }

    /**
     * Whether the staged pod holds the verified backup on its own disk: the restore's, running, and its download,
     * through a link the store serves only for the verified object version, ended whole. A backup replaced or
     * unreachable after the template was deleted then does not end the restore: the pod needs the store no more.
     */
    public static boolean holdsVerifiedBackup(StagedPod pod, boolean downloadedWhole) {
        return pod.exists() && pod.ownedByRestore() && !pod.adopted() && !pod.deleting() && !pod.ended()
                && pod.failure() == null && downloadedWhole;
    }

    /** When the restored cluster is created: adopt the staged pod, or let the cluster make its seed. */
    public static Outcome atClusterCreation(StagedPod pod) {
        if (!pod.exists()) {
            return new Discard(false, "its pod is gone");
        }
        if (pod.adopted()) {
            return new Adopt();
        }
        if (!pod.ownedByRestore()) {
            return new Discard(false, "a pod of its name that this restore does not own exists");
        }
        if (pod.deleting()) {
            return new Discard(false, "its pod is being deleted");
        }
        if (pod.failure() != null) {
            return new Discard(true, pod.failure());
        }
        if (pod.ended()) {
            return new Discard(true, "its pod ended");
        }
        return new Adopt();
    }
}
