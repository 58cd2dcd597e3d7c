package dev.etcdoperator.cluster;

import java.util.List;

import dev.etcdoperator.api.v1beta2.EtcdCluster;
import dev.etcdoperator.api.v1beta2.PodPolicy;
import dev.etcdoperator.core.validation.ClusterSpecValidator;
import dev.etcdoperator.core.validation.Validation;

/** The whole check of an EtcdCluster: its name, its spec, and the pod policy's Kubernetes-typed fields. */
public final class ClusterValidation {
    private static final ClusterSpecValidator VALIDATOR = new ClusterSpecValidator();

    private ClusterValidation() {
    }

    public static Validation validate(EtcdCluster cluster) {
        return VALIDATOR.validate(cluster.getMetadata().getName(), cluster.getMetadata().getNamespace(),
                cluster.getSpec(), inputs(cluster.getSpec() == null ? null : cluster.getSpec().getPod()));
    }

    static ClusterSpecValidator.PodInputs inputs(PodPolicy pod) {
        if (pod == null) {
            return ClusterSpecValidator.PodInputs.NONE;
        }
        List<String> env = pod.getEtcdEnv() == null ? List.of()
                : pod.getEtcdEnv().stream().map(e -> e == null ? null : e.getName()).toList();
        String storageClass = pod.getPersistentVolumeClaimSpec() == null ? null
                : pod.getPersistentVolumeClaimSpec().getStorageClassName();
        List<String> values = pod.getEtcdEnv() == null ? List.of()
                : pod.getEtcdEnv().stream().map(e -> e == null || e.getValueFrom() != null ? null : e.getValue()).toList();
        return new ClusterSpecValidator.PodInputs(env, values, storageClass);
    }
}
