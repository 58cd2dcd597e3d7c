package dev.etcdoperator.cluster;

import java.util.ArrayList;
import java.util.List;

import dev.etcdoperator.api.v1beta2.EtcdCluster;
import dev.etcdoperator.api.v1beta2.PodPolicy;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.EnvVarBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.VolumeMountBuilder;

/**
 * The pod of a quorum recovery's member: a new member (its own name, data volume and claim) whose init containers
 * copy a snapshot from the survivor with {@code etcdctl snapshot save} (etcd serves its snapshot from its own
 * database, without a leader), restore it with etcd's own tool as a one-member cluster of the new member, and remove
 * the file. etcd then starts on the survivor's data, a new cluster with one member. This works the same with and
 * without claims: the survivor's pod, whose command cannot change, keeps running untouched until the copy is done.
 * A survivor whose etcd serves nothing (started again without a majority) is copied from its claim instead, its pod
 * gone first ({@link #fromClaim}).
 */
final class SurvivorSnapshot {
    static final String SNAPSHOT_FILE = ClusterResources.DATA_MOUNT + "/survivor-snapshot.db";
    static final String SURVIVOR_VOLUME = "survivor-data";
    static final String SURVIVOR_MOUNT = "/var/survivor";
    /** etcd's database in the survivor's data directory, as its claim is mounted here. */
    static final String SURVIVOR_DATABASE = SURVIVOR_MOUNT
            + ClusterResources.DATA_DIR.substring(ClusterResources.DATA_MOUNT.length()) + "/member/snap/db";

    private SurvivorSnapshot() {
    }

    /**
     * @param member             the new member, with an initial cluster of itself alone
     * @param survivorClientUrl  the survivor's client URL, by its DNS name
     */
    static Pod pod(EtcdCluster cluster, ClusterResources.MemberPodSpec member, String etcdVersion,
            MemberTlsKeys tlsKeys, String survivorClientUrl) {
        Pod pod = ClusterResources.memberPod(cluster, member, etcdVersion, java.util.Optional.empty(), tlsKeys);
        String image = ClusterResources.image(cluster.getSpec(), etcdVersion);
        return recoveryPod(cluster, pod, copy(cluster, image, survivorClientUrl, tlsKeys),
                RestoreSeed.restoreContainer(cluster, SNAPSHOT_FILE, member, etcdVersion, image));
    }

    /**
     * The recovery member's pod when the survivor's etcd serves nothing (started again without a majority): its pod
     * is gone, and its claim is mounted read-only; the init containers copy the database out of its data directory,
     * restore it as a one-member cluster of the new member (without the hash check that only a snapshot carries), and
     * remove the file. The survivor's claim is never written.
     *
     * @param survivor the survivor's name, which is its claim's
     */
    static Pod fromClaim(EtcdCluster cluster, ClusterResources.MemberPodSpec member, String etcdVersion,
            MemberTlsKeys tlsKeys, String survivor) {
        Pod pod = ClusterResources.memberPod(cluster, member, etcdVersion, java.util.Optional.empty(), tlsKeys);
        pod.getSpec().getVolumes().add(new VolumeBuilder().withName(SURVIVOR_VOLUME)
                .withNewPersistentVolumeClaim(survivor, true).build());
        Container copy = new ContainerBuilder().withName("copy-survivor-database").withImage(busybox(cluster))
                .withCommand("/bin/sh", "-c", "cp " + SURVIVOR_DATABASE + " " + SNAPSHOT_FILE + ".part && mv "
                        + SNAPSHOT_FILE + ".part " + SNAPSHOT_FILE)
                .withVolumeMounts(RestoreSeed.dataMount(), new VolumeMountBuilder().withName(SURVIVOR_VOLUME)
                        .withMountPath(SURVIVOR_MOUNT).withReadOnly(true).build())
                .build();
        return recoveryPod(cluster, pod, copy, RestoreSeed.restoreContainer(cluster, SNAPSHOT_FILE, member,
                etcdVersion, ClusterResources.image(cluster.getSpec(), etcdVersion), true));
    }

    /** The member's pod, run once, with init containers that clear, copy to {@link #SNAPSHOT_FILE}, restore, place. */
    private static Pod recoveryPod(EtcdCluster cluster, Pod pod, Container copy, Container restore) {
        PodPolicy policy = cluster.getSpec().getPod() == null ? new PodPolicy() : cluster.getSpec().getPod();
        String busybox = busybox(cluster);
        List<Container> init = new ArrayList<>(pod.getSpec().getInitContainers());
        // a retry on the same claim finds what an earlier attempt left, and etcd refuses to restore over a
        // directory; a data directory placed before is kept (the member's pod made again on its claim after its etcd
        // ran: it may have taken writes the survivor lacks), and the new copy dropped
        init.add(new ContainerBuilder().withName("clear-data").withImage(busybox)
                .withCommand("/bin/sh", "-c", "rm -rf " + ClusterResources.RESTORE_DIR + " " + SNAPSHOT_FILE + " "
                        + SNAPSHOT_FILE + ".part")
                .withVolumeMounts(RestoreSeed.dataMount()).build());
        init.add(copy);
        init.add(restore);
        init.add(RestoreSeed.placeContainer(busybox, SNAPSHOT_FILE));
        pod.getSpec().setInitContainers(init);
        pod.getSpec().setRestartPolicy(ClusterResources.RUNS_ONCE);
        // a liveness kill would end this pod, and its data with it
        pod.getSpec().getContainers().forEach(c -> {
            c.setLivenessProbe(null);
            c.setStartupProbe(null);
        });
        return MemberSecurity.restrict(pod, policy);
    }

    private static String busybox(EtcdCluster cluster) {
        PodPolicy policy = cluster.getSpec().getPod();
        return policy == null || policy.getBusyboxImage() == null ? ClusterResources.DEFAULT_BUSYBOX
                : policy.getBusyboxImage();
    }

    private static Container copy(EtcdCluster cluster, String image, String survivorClientUrl,
            MemberTlsKeys tlsKeys) {
        List<String> command = new ArrayList<>(List.of("/usr/local/bin/etcdctl",
                "--endpoints=" + survivorClientUrl, "--dial-timeout=10s", "--command-timeout=10m"));
        List<VolumeMount> mounts = new ArrayList<>(List.of(RestoreSeed.dataMount()));
        boolean tls = ClusterResources.serverSecret(cluster.getSpec()) != null
                && ClusterResources.operatorSecret(cluster.getSpec()) != null;
        if (tls) {
            String dir = ClusterResources.OPERATOR_TLS_DIR;
            command.addAll(List.of("--cacert=" + dir + "/" + tlsKeys.operator().ca(),
                    "--cert=" + dir + "/" + tlsKeys.operator().cert(), "--key=" + dir + "/" + tlsKeys.operator().key()));
            mounts.add(new VolumeMountBuilder().withName(ClusterResources.OPERATOR_TLS_VOLUME).withMountPath(dir)
                    .withReadOnly(true).build());
        }
        command.addAll(List.of("snapshot", "save", SNAPSHOT_FILE));
        return new ContainerBuilder()
                .withName("copy-survivor-snapshot")
                .withImage(image)
                .withEnv(new EnvVarBuilder().withName("ETCDCTL_API").withValue("3").build())
                .withCommand(command)
                .withVolumeMounts(mounts)
                .build();
    }
}
