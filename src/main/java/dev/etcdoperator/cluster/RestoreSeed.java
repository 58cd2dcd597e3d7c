package dev.etcdoperator.cluster;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import dev.etcdoperator.api.v1beta2.EtcdCluster;
import dev.etcdoperator.api.v1beta2.PodPolicy;
import dev.etcdoperator.api.v1beta2.RestoreAnnotations;
import dev.etcdoperator.core.cluster.Version;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.EnvVarBuilder;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.VolumeMountBuilder;

/**
 * The init containers of a restored cluster's seed member: fetch the snapshot from the URL in the restore's
 * Secret and check its SHA-256 (busybox), restore it into the data directory with etcd's own tool (the etcd
 * image, so the restore matches the version that will run it), and delete the downloaded file. etcd then starts
 * on a data directory that already holds the data and a one-member cluster of the seed.
 */
final class RestoreSeed {
    static final String SNAPSHOT_FILE = ClusterResources.DATA_MOUNT + "/restore-snapshot.db";

    private RestoreSeed() {
    }

    /** The Secret of a cluster created by a restore; empty for any other cluster. */
    static Optional<String> snapshotSecret(EtcdCluster cluster) {
        Map<String, String> annotations = cluster.getMetadata().getAnnotations();
        return Optional.ofNullable(annotations == null ? null : annotations.get(RestoreAnnotations.SNAPSHOT_SECRET))
                .filter(s -> !s.isBlank());
    }

    static List<Container> initContainers(EtcdCluster cluster, String secret, ClusterResources.MemberPodSpec member,
            String etcdVersion, String image) {
        PodPolicy policy = cluster.getSpec().getPod() == null ? new PodPolicy() : cluster.getSpec().getPod();
        String busybox = policy.getBusyboxImage() == null ? ClusterResources.DEFAULT_BUSYBOX : policy.getBusyboxImage();
        VolumeMount data = new VolumeMountBuilder().withName(ClusterResources.DATA_VOLUME)
                .withMountPath(ClusterResources.DATA_MOUNT).build();
        Container fetch = new ContainerBuilder()
                .withName("fetch-snapshot")
                .withImage(busybox)
                .withEnv(fromSecret("SNAPSHOT_URL", secret, RestoreAnnotations.URL_KEY),
                        fromSecret("SNAPSHOT_SHA256", secret, RestoreAnnotations.SHA256_KEY))
                .withCommand("/bin/sh", "-c", "rm -f " + SNAPSHOT_FILE + " && wget -q -O " + SNAPSHOT_FILE
                        + " \"$SNAPSHOT_URL\" && echo \"$SNAPSHOT_SHA256  " + SNAPSHOT_FILE + "\" | sha256sum -c -")
                .withVolumeMounts(data)
                .build();
        // etcdctl restores snapshots up to 3.5 (deprecated there); from 3.6 only etcdutl does
        boolean etcdutl = Version.parse(etcdVersion).map(v -> v.compareTo(Version.parse("3.6.0").orElseThrow()) >= 0)
                .orElse(false);
        String tool = etcdutl ? "/usr/local/bin/etcdutl" : "/usr/local/bin/etcdctl";
        Container restore = new ContainerBuilder()
                .withName("restore-snapshot")
                .withImage(image)
                .withEnv(new EnvVarBuilder().withName("ETCDCTL_API").withValue("3").build())
                .withCommand(tool, "snapshot", "restore", SNAPSHOT_FILE,
                        "--data-dir=" + ClusterResources.DATA_DIR,
                        "--name=" + member.member(),
                        "--initial-cluster=" + member.initialCluster(),
                        "--initial-advertise-peer-urls=" + member.peerUrl(),
                        "--initial-cluster-token=" + cluster.getMetadata().getUid())
                .withVolumeMounts(data)
                .build();
        Container cleanUp = new ContainerBuilder()
                .withName("remove-snapshot")
                .withImage(busybox)
                .withCommand("/bin/sh", "-c", "rm -f " + SNAPSHOT_FILE)
                .withVolumeMounts(data)
                .build();
        return List.of(fetch, restore, cleanUp);
    }

    private static EnvVar fromSecret(String name, String secret, String key) {
        return new EnvVarBuilder().withName(name).withNewValueFrom().withNewSecretKeyRef()
                .withName(secret).withKey(key).endSecretKeyRef().endValueFrom().build();
    }
}
