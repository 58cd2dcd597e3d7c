package dev.etcdoperator.cluster;

import java.util.List;
import java.util.Optional;

import dev.etcdoperator.api.v1beta2.EtcdCluster;
import dev.etcdoperator.core.cluster.MemberNaming;
import dev.etcdoperator.core.cluster.Step;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;

/**
 * The pod of a restored cluster's seed member, made before that cluster exists (see
 * {@link dev.etcdoperator.core.restore.SeedStaging}): the seed pod the cluster controller would make, with its
 * snapshot init containers, but without the cluster's labels (no Service selects it, and the template cluster's
 * controller does not see it) and without the wait for its DNS name (a restored one-member cluster needs none, so
 * etcd opens the restored data at once). Adopting it gives it the labels, annotations and owner of the cluster's
 * own seed pod.
 */
public final class StagedSeedPods {

    private StagedSeedPods() {
    }

    /**
     * The staged pod of {@code member} for the cluster {@code future} (the restored cluster as it will be created:
     * its name, namespace and spec; its uid is the restore's, which only seeds the etcd cluster token), owned by
     * {@code owner}; empty when the cluster's TLS secrets cannot be used (the restore then makes its seed later).
     */
    public static Optional<Pod> build(EtcdCluster future, String member, String snapshotSecret, OwnerReference owner,
            KubernetesClient client) {
        Optional<Pod> pod = seedPod(future, member, snapshotSecret, client);
        pod.ifPresent(p -> {
            ObjectMeta meta = p.getMetadata();
            meta.setLabels(null);
            meta.setOwnerReferences(List.of(owner));
            p.getSpec().setInitContainers(p.getSpec().getInitContainers().stream()
                    .filter(c -> !ClusterResources.DNS_WAIT_CONTAINER.equals(c.getName())).toList());
        });
        return pod;
    }

    /**
     * The seed pod {@code cluster} would make (and its claim, when its members have claims), named by the API server:
     * for asking it, in a dry run, whether it would take them. Empty when the cluster's TLS secrets cannot be used.
     */
    public static Optional<List<io.fabric8.kubernetes.api.model.HasMetadata>> probes(EtcdCluster cluster,
            String snapshotSecret, KubernetesClient client) {
        String member = cluster.getMetadata().getName() + "-preflight0";
        return seedPod(cluster, member, snapshotSecret, client).map(pod -> {
            List<io.fabric8.kubernetes.api.model.HasMetadata> probes = new java.util.ArrayList<>();
            probes.add(pod);
            if (cluster.getSpec().getPod() != null && cluster.getSpec().getPod().getPersistentVolumeClaimSpec() != null) {
                probes.add(ClusterResources.memberClaim(cluster, member));
            }
            for (var probe : probes) {
                probe.getMetadata().setGenerateName(member + "-");
                probe.getMetadata().setName(null);
                probe.getMetadata().setOwnerReferences(null);
            }
            return probes;
        });
    }

    /**
     * The labels, annotations and owner references the {@code cluster}'s own seed pod of {@code member} has: what
     * adopting the staged pod sets on it. Empty when the cluster's TLS secrets cannot be used.
     */
    public static Optional<ObjectMeta> adoptedMetadata(EtcdCluster cluster, String member, String snapshotSecret,
            KubernetesClient client) {
        return seedPod(cluster, member, snapshotSecret, client).map(Pod::getMetadata);
    }

    /** Why the cluster's members could not use its TLS Secrets (missing, a key missing, not a pair), if they could not. */
    public static Optional<String> tlsProblem(EtcdCluster cluster, KubernetesClient client) {
        return tls(cluster, client).map(ClusterTls.Loaded::problem);
    }

    /** The cluster's TLS Secrets as its members use them; empty when its members use none. */
    private static Optional<ClusterTls.Loaded> tls(EtcdCluster cluster, KubernetesClient client) {
        if (!ClusterTls.enabled(cluster.getSpec())) {
            return Optional.empty();
        }
        String namespace = cluster.getMetadata().getNamespace();
        return Optional.of(ClusterTls.loadOrRefuse(cluster.getSpec(), namespace,
                secret -> client.secrets().inNamespace(namespace).withName(secret).get()));
    }

    private static Optional<Pod> seedPod(EtcdCluster cluster, String member, String snapshotSecret,
            KubernetesClient client) {
        MemberTlsKeys tlsKeys = MemberTlsKeys.COREOS;
        Optional<ClusterTls.Loaded> tls = tls(cluster, client);
        if (tls.isPresent()) {
            if (!tls.get().ok()) {
                return Optional.empty();
            }
            tlsKeys = tls.get().keys();
        }
        MemberNaming naming = ClusterResources.naming(cluster);
        var spec = new ClusterResources.MemberPodSpec(member, naming.peerUrl(member), naming.clientUrl(member),
                member + "=" + naming.peerUrl(member), Step.STATE_NEW, naming.dnsName(member));
        return Optional.of(ClusterResources.memberPod(cluster, spec, ClusterResources.version(cluster.getSpec()),
                Optional.of(snapshotSecret), tlsKeys));
    }
}
