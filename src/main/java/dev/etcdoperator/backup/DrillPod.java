package dev.etcdoperator.backup;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.etcdoperator.core.Digests;
import dev.etcdoperator.api.v1beta2.ApiGroup;
import dev.etcdoperator.api.v1beta2.EtcdBackup;
import dev.etcdoperator.api.v1beta2.PodPolicy;
import dev.etcdoperator.api.v1beta2.RestoreAnnotations;
import dev.etcdoperator.cluster.ClusterResources;
import dev.etcdoperator.cluster.MemberSecurity;
import dev.etcdoperator.cluster.SnapshotFetch;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.EnvVarBuilder;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.VolumeMountBuilder;

/**
 * The throwaway one-member etcd of a restore drill (a generated name) and the Secret that holds its snapshot's URL
 * ({@link #secretName}). The pod fetches the
 * backup and checks its SHA-256 (the script a restored cluster's seed member runs), restores it with etcd's own
 * tool, and serves it on its pod IP. Both are owned by the EtcdBackup and carry {@link #LABEL} with its uid, and
 * nothing of a cluster member's labels, so no cluster ever counts the pod as a member.
 */
final class DrillPod {
    static final String LABEL = ApiGroup.GROUP + "/restore-drill";
    static final String COMPONENT = "app.kubernetes.io/component";
    static final String FETCH = SnapshotFetch.CONTAINER;
    static final String RESTORE = "restore-snapshot";
    static final String ETCD = "etcd";
    static final String MEMBER = "drill";
    private static final String SNAPSHOT_FILE = ClusterResources.DATA_MOUNT + "/drill-snapshot.db";
    private static final String PEER_URL = "http://$(POD_IP):" + ClusterResources.PEER_PORT;

    private DrillPod() {
    }

    static Map<String, String> labels(EtcdBackup backup) {
        Map<String, String> labels = new LinkedHashMap<>();
        labels.put(COMPONENT, "etcd-restore-drill");
        labels.put(LABEL, backup.getMetadata().getUid());
        return labels;
    }

    static Secret secret(EtcdBackup backup, String url, String sha256, String etag) {
        Map<String, String> data = new LinkedHashMap<>();
        data.put(RestoreAnnotations.URL_KEY, url);
        data.put(RestoreAnnotations.SHA256_KEY, sha256);
        if (etag != null) {
            data.put(RestoreAnnotations.ETAG_KEY, etag);
        }
        ObjectMeta meta = meta(backup);
        meta.setGenerateName(null);
        meta.setName(secretName(backup));
        return new SecretBuilder().withMetadata(meta).withStringData(data).build();
    }

    static Pod pod(EtcdBackup backup, String secret, String etcdVersion, String etcdImage, String busyboxImage) {
        return pod(backup, secret, etcdVersion, etcdImage, busyboxImage, null);
    }

    /** @param policy the pod policy of the cluster the backup names, for the security context; null for none */
    static Pod pod(EtcdBackup backup, String secret, String etcdVersion, String etcdImage, String busyboxImage,
            PodPolicy policy) {
        VolumeMount data = new VolumeMountBuilder().withName(ClusterResources.DATA_VOLUME)
                .withMountPath(ClusterResources.DATA_MOUNT).build();
        EnvVar podIp = new EnvVarBuilder().withName("POD_IP").withNewValueFrom().withNewFieldRef()
                .withFieldPath("status.podIP").endFieldRef().endValueFrom().build();
        Container fetch = new ContainerBuilder()
                .withName(FETCH)
                .withImage(busyboxImage)
                .withEnv(fromSecret("SNAPSHOT_URL", secret, RestoreAnnotations.URL_KEY, false),
                        fromSecret("SNAPSHOT_SHA256", secret, RestoreAnnotations.SHA256_KEY, false),
                        fromSecret("SNAPSHOT_ETAG", secret, RestoreAnnotations.ETAG_KEY, true))
                .withCommand("/bin/sh", "-c", SnapshotFetch.script(SNAPSHOT_FILE))
                .withVolumeMounts(data)
                .build();
        Container restore = new ContainerBuilder()
                .withName(RESTORE)
                .withImage(etcdImage)
                .withEnv(new EnvVarBuilder().withName("ETCDCTL_API").withValue("3").build(), podIp)
                .withCommand(SnapshotFetch.restoreTool(etcdVersion), "snapshot", "restore", SNAPSHOT_FILE,
                        "--data-dir=" + ClusterResources.DATA_DIR,
                        "--name=" + MEMBER,
                        "--initial-cluster=" + MEMBER + "=" + PEER_URL,
                        "--initial-advertise-peer-urls=" + PEER_URL,
                        "--initial-cluster-token=drill-" + backup.getMetadata().getUid())
                .withVolumeMounts(data)
                .build();
        Container etcd = new ContainerBuilder()
                .withName(ETCD)
                .withImage(etcdImage)
                .withEnv(podIp)
                .withCommand(List.of("/usr/local/bin/etcd",
                        "--data-dir=" + ClusterResources.DATA_DIR,
                        "--name=" + MEMBER,
                        "--listen-peer-urls=http://0.0.0.0:" + ClusterResources.PEER_PORT,
                        "--initial-advertise-peer-urls=" + PEER_URL,
                        "--listen-client-urls=http://0.0.0.0:" + ClusterResources.CLIENT_PORT,
                        "--advertise-client-urls=http://$(POD_IP):" + ClusterResources.CLIENT_PORT,
                        "--initial-cluster=" + MEMBER + "=" + PEER_URL,
                        "--logger=zap"))
                .addNewPort().withName("client").withContainerPort(ClusterResources.CLIENT_PORT).withProtocol("TCP")
                .endPort()
                .withVolumeMounts(data)
                .build();
        return MemberSecurity.restrict(new PodBuilder()
                .withMetadata(meta(backup))
                .withNewSpec()
                .withRestartPolicy("Never")
                .withInitContainers(fetch, restore)
                .withContainers(etcd)
                .addNewVolume().withName(ClusterResources.DATA_VOLUME).withNewEmptyDir().endEmptyDir().endVolume()
                .endSpec()
                .build(), policy == null ? new PodPolicy() : policy);
    }

    private static ObjectMeta meta(EtcdBackup backup) {
        return new ObjectMetaBuilder()
                .withGenerateName(prefix(backup.getMetadata().getName()))
                .withNamespace(backup.getMetadata().getNamespace())
                .withLabels(labels(backup))
                .withOwnerReferences(new OwnerReferenceBuilder().withApiVersion(backup.getApiVersion())
                        .withKind(backup.getKind()).withName(backup.getMetadata().getName())
                        .withUid(backup.getMetadata().getUid()).withController(true)
                        .build())
                .build();
    }

    /**
     * One name per EtcdBackup, so that a Secret left by a stopped operator is found without listing Secrets (the
     * operator may not): {@code <backup, cut>-drill-snapshot-<digest of its uid>}, so that backups whose names begin
     * alike do not share it.
     */
    static String secretName(EtcdBackup backup) {
        String uid = backup.getMetadata().getUid() == null ? backup.getMetadata().getName() : backup.getMetadata().getUid();
        return prefix(backup.getMetadata().getName()) + "snapshot-" + Digests.shortSha256(uid, 4);
    }

    /** {@code <backup>-drill-}, the backup's name cut so that the generated name stays a DNS label. */
    static String prefix(String backup) {
        String name = backup.length() > 40 ? backup.substring(0, 40) : backup;
        while (name.endsWith("-") || name.endsWith(".")) {
            name = name.substring(0, name.length() - 1);
        }
        return name.replace('.', '-') + "-drill-";
    }

    private static EnvVar fromSecret(String name, String secret, String key, boolean optional) {
        return new EnvVarBuilder().withName(name).withNewValueFrom().withNewSecretKeyRef()
                .withName(secret).withKey(key).withOptional(optional ? Boolean.TRUE : null).endSecretKeyRef()
                .endValueFrom().build();
    }
}
