package dev.etcdoperator.restore;

import java.net.HttpURLConnection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;

import dev.etcdoperator.api.v1beta2.ApiGroup;
import dev.etcdoperator.api.v1beta2.EtcdCluster;
import dev.etcdoperator.api.v1beta2.EtcdRestore;
import dev.etcdoperator.api.v1beta2.SavedClusterSpec;
import dev.etcdoperator.cluster.SnapshotFetch;
import dev.etcdoperator.cluster.StagedSeedPods;
import dev.etcdoperator.core.restore.SeedStaging;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.utils.Serialization;

/**
 * Makes, looks at, hands over and deletes a restore's staged seed pod (see {@link SeedStaging}). Every change is
 * made only to a pod the restore controls (its controller owner reference names the restore's uid), with the pod's
 * resourceVersion as the precondition.
 */
final class SeedStager {
    /** On a staged pod until it is adopted: what it was started for (see {@link SeedStaging#stagedFor}). */
    static final String STAGED_FOR = ApiGroup.GROUP + "/restore-staged-for";
    /** Reads and writes of a pod whose status changes as it runs, before a conflict is left to the next reconcile. */
    private static final int ATTEMPTS = 5;
    /** How the API server refuses a JSON patch whose test operation fails. */
    private static final int UNPROCESSABLE = 422;
    private final KubernetesClient client;

    SeedStager(KubernetesClient client) {
        this.client = client;
    }

    /**
     * The staged seed's member name: one per restore (made again after an operator restart, it is the same pod), in
     * the form of the cluster's member names.
     */
    static String memberName(EtcdRestore restore, String cluster) {
        long seed = restore.getMetadata().getUid() == null ? 0 : restore.getMetadata().getUid().hashCode();
        return new dev.etcdoperator.core.cluster.MemberNaming(cluster, restore.getMetadata().getNamespace())
                .newMemberName(new Random(seed));
    }

    /**
     * Creates the staged pod of {@code member} from the template's spec, marked with {@code stagedFor} (see
     * {@link SeedStaging#stagedFor}).
     *
     * @return whether a pod of the restore's, started for the same, now exists under that name (made now, or before
     *         an operator restart); false when the TLS secrets cannot be used or another pod has that name
     */
    boolean create(EtcdRestore restore, EtcdCluster template, String member, String snapshotSecret, String stagedFor) {
        String namespace = restore.getMetadata().getNamespace();
        EtcdCluster future = new EtcdCluster();
        future.setMetadata(new ObjectMetaBuilder().withName(template.getMetadata().getName()).withNamespace(namespace)
                .withUid(restore.getMetadata().getUid()).build());
        future.setSpec(SavedClusterSpec.of(template.getSpec()).toClusterSpec());
        Optional<Pod> pod = StagedSeedPods.build(future, member, snapshotSecret, owner(restore), client);
        if (pod.isEmpty()) {
            return false;
        }
        pod.get().getMetadata().getAnnotations().put(STAGED_FOR, stagedFor);
        try {
            client.pods().inNamespace(namespace).resource(pod.get()).create();
            return true;
        } catch (KubernetesClientException e) {
            if (e.getCode() == HttpURLConnection.HTTP_CONFLICT) {
                Pod existing = client.pods().inNamespace(namespace).withName(member).get();
                return existing != null && controlledBy(existing, restore) && stagedFor.equals(stagedFor(existing));
            }
            throw e;
        }
    }

    /** What the restore's staged pod of that name was started for, or null (no such pod of the restore's). */
    String stagedFor(EtcdRestore restore, String member) {
        Pod pod = client.pods().inNamespace(restore.getMetadata().getNamespace()).withName(member).get();
        return pod == null || !controlledBy(pod, restore) ? null : stagedFor(pod);
    }

    /** See {@link SeedStaging#holdsVerifiedBackup}: its fetch init container ended with 0. */
    boolean holdsVerifiedBackup(EtcdRestore restore, String member) {
        Pod pod = client.pods().inNamespace(restore.getMetadata().getNamespace()).withName(member).get();
        return SeedStaging.holdsVerifiedBackup(see(restore, pod), downloadedWhole(pod));
    }

    static boolean downloadedWhole(Pod pod) {
        List<ContainerStatus> statuses = pod == null || pod.getStatus() == null ? null
                : pod.getStatus().getInitContainerStatuses();
        return statuses != null && statuses.stream().anyMatch(s -> SnapshotFetch.CONTAINER.equals(s.getName())
                && s.getState() != null && s.getState().getTerminated() != null
                && Integer.valueOf(0).equals(s.getState().getTerminated().getExitCode()));
    }

    SeedStaging.StagedPod see(EtcdRestore restore, String member) {
        return see(restore, client.pods().inNamespace(restore.getMetadata().getNamespace()).withName(member).get());
    }

    private static SeedStaging.StagedPod see(EtcdRestore restore, Pod pod) {
        if (pod == null) {
            return SeedStaging.StagedPod.absent();
        }
        String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
        boolean adopted = pod.getMetadata().getOwnerReferences() != null && pod.getMetadata().getOwnerReferences()
                .stream().anyMatch(o -> Boolean.TRUE.equals(o.getController()) && "EtcdCluster".equals(o.getKind()));
        return new SeedStaging.StagedPod(true, controlledBy(pod, restore), adopted,
                pod.getMetadata().getDeletionTimestamp() != null,
                "Failed".equals(phase) || "Succeeded".equals(phase), RestoreObserver.seedFailure(List.of(pod)));
    }

    /**
     * Whether the pod can be handed over to {@code cluster}: the restore's and fit for adoption (see
     * {@link SeedStaging#atClusterCreation}), and the cluster's own seed pod would carry the same placement and TLS
     * annotations (the spec and the TLS secrets are what the pod was started with).
     */
    SeedStaging.Outcome adoptable(EtcdRestore restore, EtcdCluster cluster, String member, String snapshotSecret) {
        Pod pod = client.pods().inNamespace(restore.getMetadata().getNamespace()).withName(member).get();
        return adoptable(restore, cluster, pod, snapshotSecret);
    }

    private SeedStaging.Outcome adoptable(EtcdRestore restore, EtcdCluster cluster, Pod pod, String snapshotSecret) {
        SeedStaging.Outcome outcome = SeedStaging.atClusterCreation(see(restore, pod));
        if (!(outcome instanceof SeedStaging.Adopt) || !controlledBy(pod, restore)) {
            return outcome;
        }
        Optional<ObjectMeta> adopted = StagedSeedPods.adoptedMetadata(cluster, pod.getMetadata().getName(),
                snapshotSecret, client);
        if (adopted.isEmpty()) {
            return new SeedStaging.Discard(true, "the cluster's TLS secrets cannot be used now");
        }
        Map<String, String> has = pod.getMetadata().getAnnotations() == null ? Map.of() : pod.getMetadata().getAnnotations();
        for (Map.Entry<String, String> wanted : adopted.get().getAnnotations().entrySet()) {
            if (has.containsKey(wanted.getKey()) && !wanted.getValue().equals(has.get(wanted.getKey()))) {
                return new SeedStaging.Discard(true, "it was started with another " + wanted.getKey()
                        + " than the restored cluster's seed has");
            }
        }
        return outcome;
    }

    /**
     * Hands the staged pod over to the restored cluster: the labels, annotations and owner of the cluster's own seed
     * pod, each time on the pod as just read and found fit (a patch that tests its resourceVersion first: refused if
     * the pod changed meanwhile, then read and checked again).
     *
     * @return whether the pod is now the cluster's; false when it is not (anymore) the restore's, or no longer fit
     */
    boolean adopt(EtcdRestore restore, EtcdCluster cluster, String member, String snapshotSecret) {
        String namespace = restore.getMetadata().getNamespace();
        for (int attempt = 1; ; attempt++) {
            Pod pod = client.pods().inNamespace(namespace).withName(member).get();
            if (pod == null || !controlledBy(pod, restore)
                    || !(adoptable(restore, cluster, pod, snapshotSecret) instanceof SeedStaging.Adopt)) {
                return false;
            }
            ObjectMeta adopted = StagedSeedPods.adoptedMetadata(cluster, member, snapshotSecret, client).orElseThrow();
            // a JSON patch whose first operation tests the resourceVersion: refused if the pod changed meanwhile
            List<Map<String, Object>> operations = List.of(
                    Map.of("op", "test", "path", "/metadata/resourceVersion", "value",
                            pod.getMetadata().getResourceVersion()),
                    Map.of("op", "add", "path", "/metadata/labels", "value", merged(pod.getMetadata().getLabels(),
                            adopted.getLabels())),
                    Map.of("op", "add", "path", "/metadata/annotations", "value",
                            merged(pod.getMetadata().getAnnotations(), adopted.getAnnotations())),
                    Map.of("op", "add", "path", "/metadata/ownerReferences", "value", adopted.getOwnerReferences()));
            try {
                client.pods().inNamespace(namespace).withName(member).patch(PatchContext.of(PatchType.JSON),
                        Serialization.asJson(operations));
                return true;
            } catch (KubernetesClientException e) {
                boolean changed = e.getCode() == HttpURLConnection.HTTP_CONFLICT || e.getCode() == UNPROCESSABLE;
                if (!changed || attempt >= ATTEMPTS) {
                    throw e;
                }
            }
        }
    }

    /**
     * Deletes the staged pod if the restore still controls it, with its resourceVersion as the precondition (read
     * again when the pod changed meanwhile: its status changes while it runs).
     *
     * @return whether no pod of the restore's is left under that name (deleted, being deleted, gone, not its own)
     */
    boolean delete(EtcdRestore restore, String member) {
        String namespace = restore.getMetadata().getNamespace();
        for (int attempt = 1; ; attempt++) {
            Pod pod = client.pods().inNamespace(namespace).withName(member).get();
            if (pod == null || !controlledBy(pod, restore) || pod.getMetadata().getDeletionTimestamp() != null) {
                return true;
            }
            try {
                client.pods().inNamespace(namespace).withName(member)
                        .lockResourceVersion(pod.getMetadata().getResourceVersion()).delete();
                return true;
            } catch (KubernetesClientException e) {
                if (e.getCode() == HttpURLConnection.HTTP_NOT_FOUND) {
                    return true;
                }
                if (e.getCode() != HttpURLConnection.HTTP_CONFLICT || attempt >= ATTEMPTS) {
                    throw e;
                }
            }
        }
    }

    /** What others wrote on the pod (a network plugin's annotations, say), with the cluster's seed's over it. */
    private static Map<String, String> merged(Map<String, String> has, Map<String, String> wanted) {
        Map<String, String> merged = new java.util.TreeMap<>();
        if (has != null) {
            merged.putAll(has);
        }
        merged.remove(STAGED_FOR);
        if (wanted != null) {
            merged.putAll(wanted);
        }
        return merged;
    }

    private static String stagedFor(Pod pod) {
        return pod.getMetadata().getAnnotations() == null ? null : pod.getMetadata().getAnnotations().get(STAGED_FOR);
    }

    static boolean controlledBy(Pod pod, EtcdRestore restore) {
        return isControlledBy(pod, restore.getMetadata().getUid());
    }

    private static boolean isControlledBy(Pod pod, String uid) {
        return uid != null && pod.getMetadata().getOwnerReferences() != null && pod.getMetadata().getOwnerReferences()
                .stream().anyMatch(o -> Boolean.TRUE.equals(o.getController()) && uid.equals(o.getUid()));
    }

    private static OwnerReference owner(EtcdRestore restore) {
        return new OwnerReferenceBuilder().withApiVersion(restore.getApiVersion()).withKind(restore.getKind())
                .withName(restore.getMetadata().getName()).withUid(restore.getMetadata().getUid())
                .withController(true).build();
    }
}
