package dev.etcdoperator.cluster;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import dev.etcdoperator.api.v1beta2.EtcdCluster;
import dev.etcdoperator.api.v1beta2.EtcdRestore;
import dev.etcdoperator.api.v1beta2.EtcdRestoreStatus;
import dev.etcdoperator.api.v1beta2.PodPolicy;
import dev.etcdoperator.api.v1beta2.RestoreAnnotations;
import dev.etcdoperator.core.cluster.ClusterStatusBuilder;
import dev.etcdoperator.core.restore.SeedSnapshotClaim;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.EnvVarBuilder;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.VolumeMountBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;

/**
 * The init containers of a restored cluster's seed member: fetch the snapshot from the URL in the restore's
 * Secret and check its SHA-256 when the Secret has one (busybox), restore it into the data directory with etcd's
 * own tool (the etcd image, so the restore matches the version that will run it), and delete the downloaded file.
 * etcd then starts on a data directory that already holds the data and a one-member cluster of the seed.
 */
final class RestoreSeed {
    static final String SNAPSHOT_FILE = ClusterResources.DATA_MOUNT + "/restore-snapshot.db";

    private RestoreSeed() {
    }

    /**
     * The Secret a restored cluster's annotation names, unchecked: anyone who may create an EtcdCluster can write
     * it. Only {@link #check} decides whether it is mounted.
     */
    static Optional<String> snapshotSecret(EtcdCluster cluster) {
        Map<String, String> annotations = cluster.getMetadata().getAnnotations();
        return RestoreAnnotations.objectName(annotations == null ? null
                : annotations.get(RestoreAnnotations.SNAPSHOT_SECRET));
    }

    /**
     * Whether the cluster's snapshot annotation is the operator's own (see {@link SeedSnapshotClaim}): reads the
     * EtcdRestore it names and the Secret.
     */
    static SeedSnapshotClaim.Decision check(EtcdCluster cluster, KubernetesClient client) {
        Map<String, String> annotations = cluster.getMetadata().getAnnotations();
        String secret = snapshotSecret(cluster).orElse(null);
        if (secret == null) {
            return new SeedSnapshotClaim.NotRestored();
        }
        String namespace = cluster.getMetadata().getNamespace();
        String restoredBy = annotations.get(RestoreAnnotations.RESTORED_BY);
        SeedSnapshotClaim.RestoreFacts restore = null;
        List<SeedSnapshotClaim.Owner> owners = null;
        if (RestoreAnnotations.objectName(restoredBy).isPresent()) {
            EtcdRestore r = client.resources(EtcdRestore.class).inNamespace(namespace).withName(restoredBy).get();
            if (r != null) {
                EtcdRestoreStatus status = r.getStatus() == null ? new EtcdRestoreStatus() : r.getStatus();
                restore = new SeedSnapshotClaim.RestoreFacts(r.getMetadata().getUid(), status.getPhase(),
                        status.getRestoredClusterUid(), status.getSnapshotSecret());
                if (secret.equals(status.getSnapshotSecret())) {
                    Secret s = client.secrets().inNamespace(namespace).withName(secret).get();
                    owners = s == null ? null : s.getMetadata().getOwnerReferences() == null ? List.of()
                            : s.getMetadata().getOwnerReferences().stream()
                                    .map(o -> new SeedSnapshotClaim.Owner(o.getKind(), o.getName(), o.getUid())).toList();
                }
            }
        }
        // once the restore's own seed was made with the snapshot, a seed made later is a reseed a person asked for
        boolean restoresSeed = cluster.getStatus() == null || dev.etcdoperator.core.status.Conditions.find(
                cluster.getStatus().getConditions(), EtcdClusterReconciler.CONDITION_RESTORE)
                .filter(c -> EtcdClusterReconciler.REASON_RESTORE_CONFIRMED.equals(c.getReason())
                        || ClusterStatusBuilder.REASON_RESTORE_SUPERSEDED.equals(c.getReason())).isEmpty();
        return SeedSnapshotClaim.decide(new SeedSnapshotClaim.Facts(cluster.getMetadata().getUid(), restoredBy, secret,
                restore, owners, restoresSeed));
    }

    static List<Container> initContainers(EtcdCluster cluster, String secret, ClusterResources.MemberPodSpec member,
            String etcdVersion, String image) {
        PodPolicy policy = cluster.getSpec().getPod() == null ? new PodPolicy() : cluster.getSpec().getPod();
        String busybox = policy.getBusyboxImage() == null ? ClusterResources.DEFAULT_BUSYBOX : policy.getBusyboxImage();
        VolumeMount data = new VolumeMountBuilder().withName(ClusterResources.DATA_VOLUME)
                .withMountPath(ClusterResources.DATA_MOUNT).build();
        Container fetch = new ContainerBuilder()
                .withName(SnapshotFetch.CONTAINER)
                .withImage(busybox)
                .withEnv(fromSecret("SNAPSHOT_URL", secret, RestoreAnnotations.URL_KEY),
                        optionalFromSecret("SNAPSHOT_SHA256", secret, RestoreAnnotations.SHA256_KEY),
                        optionalFromSecret("SNAPSHOT_ETAG", secret, RestoreAnnotations.ETAG_KEY))
                .withCommand("/bin/sh", "-c", "rm -rf " + ClusterResources.RESTORE_DIR + "\n" + fetchScript(SNAPSHOT_FILE))
                .withVolumeMounts(data)
                .build();
        return List.of(fetch, restoreContainer(cluster, SNAPSHOT_FILE, member, etcdVersion, image),
                placeContainer(busybox, SnapshotFetch.files(SNAPSHOT_FILE)));
    }

    /**
     * etcd's own restore of {@code file} into {@link ClusterResources#RESTORE_DIR} (which must not exist), as a
     * one-member cluster of {@code member}, with the cluster's etcd image (so the restore matches the version that
     * will run it); {@link #placeContainer} makes it the data directory.
     */
    static Container restoreContainer(EtcdCluster cluster, String file, ClusterResources.MemberPodSpec member,
            String etcdVersion, String image) {
        return restoreContainer(cluster, file, member, etcdVersion, image, false);
    }

    /**
     * @param fromDataDirectory {@code file} is a database copied out of a member's data directory, which carries no
     *                          snapshot hash for etcd to check
     */
    static Container restoreContainer(EtcdCluster cluster, String file, ClusterResources.MemberPodSpec member,
            String etcdVersion, String image, boolean fromDataDirectory) {
        String tool = SnapshotFetch.restoreTool(etcdVersion);
        List<String> command = new java.util.ArrayList<>(List.of(tool, "snapshot", "restore", file,
                "--data-dir=" + ClusterResources.RESTORE_DIR,
                "--name=" + member.member(),
                "--initial-cluster=" + member.initialCluster(),
                "--initial-advertise-peer-urls=" + member.peerUrl(),
                "--initial-cluster-token=" + cluster.getMetadata().getUid()));
        if (fromDataDirectory) {
            command.add("--skip-hash-check");
        }
        return new ContainerBuilder()
                .withName("restore-snapshot")
                .withImage(image)
                .withEnv(new EnvVarBuilder().withName("ETCDCTL_API").withValue("3").build())
                .withCommand(command)
                .withVolumeMounts(dataMount())
                .build();
    }

    static final String PLACE_CONTAINER = "place-restored-data";

    /**
     * A busybox step that removes {@code files} (space-separated paths) from the data volume and makes the restored
     * data the data directory, in one rename; a data directory already there (placed by an earlier pod on this
     * claim, whose etcd may have taken writes since) is kept, and the new restore dropped.
     */
    static Container placeContainer(String busybox, String files) {
        return new ContainerBuilder()
                .withName(PLACE_CONTAINER)
                .withImage(busybox)
                .withCommand("/bin/sh", "-c", placeScript(files))
                .withVolumeMounts(dataMount())
                .build();
    }

    static String placeScript(String files) {
        return String.join("\n", "rm -f " + files,
                "if [ -d " + ClusterResources.DATA_DIR + " ]; then rm -rf " + ClusterResources.RESTORE_DIR
                        + "; else mv " + ClusterResources.RESTORE_DIR + " " + ClusterResources.DATA_DIR + "; fi");
    }

    static VolumeMount dataMount() {
        return new VolumeMountBuilder().withName(ClusterResources.DATA_VOLUME)
                .withMountPath(ClusterResources.DATA_MOUNT).build();
    }

    /** See {@link SnapshotFetch#script(String)}. */
    static String fetchScript(String file) {
        return SnapshotFetch.script(file);
    }

    private static EnvVar optionalFromSecret(String name, String secret, String key) {
        return new EnvVarBuilder().withName(name).withNewValueFrom().withNewSecretKeyRef()
                .withName(secret).withKey(key).withOptional(true).endSecretKeyRef().endValueFrom().build();
    }

    private static EnvVar fromSecret(String name, String secret, String key) {
        return new EnvVarBuilder().withName(name).withNewValueFrom().withNewSecretKeyRef()
                .withName(secret).withKey(key).endSecretKeyRef().endValueFrom().build();
    }
}
