package dev.etcdoperator.restore;

import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import dev.etcdoperator.api.v1beta2.EtcdCluster;
import dev.etcdoperator.api.v1beta2.EtcdRestore;
import dev.etcdoperator.cluster.ClusterResources;
import dev.etcdoperator.core.restore.RestorePhase;
import io.fabric8.kubernetes.api.model.Pod;
import io.javaoperatorsdk.operator.api.config.informer.InformerEventSourceConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import io.javaoperatorsdk.operator.processing.event.source.informer.InformerEventSource;

/**
 * Wakes a running restore when the EtcdCluster it restores, or one of that cluster's pods, changes: the template's
 * pods going, the restored cluster created, its seed healthy, the cluster Available. Each of those moves the restore
 * on at once instead of at its next look.
 */
final class RestoredClusterEvents {

    private RestoredClusterEvents() {
    }

    static List<EventSource<?, EtcdRestore>> of(EventSourceContext<EtcdRestore> context) {
        var clusters = InformerEventSourceConfiguration.from(EtcdCluster.class, EtcdRestore.class)
                .withName("restored-clusters")
                .withSecondaryToPrimaryMapper(c -> restoresOf(context, c.getMetadata().getNamespace(),
                        c.getMetadata().getName()))
                .build();
        var pods = InformerEventSourceConfiguration.from(Pod.class, EtcdRestore.class)
                .withName("restored-cluster-pods")
                .withLabelSelector(ClusterResources.LABEL_APP + "=" + ClusterResources.APP)
                .withSecondaryToPrimaryMapper(p -> restoresOf(context, p.getMetadata().getNamespace(),
                        p.getMetadata().getLabels() == null ? null
                                : p.getMetadata().getLabels().get(ClusterResources.LABEL_CLUSTER)))
                .build();
        return List.of(new InformerEventSource<>(clusters, context), new InformerEventSource<>(pods, context));
    }

    private static Set<ResourceID> restoresOf(EventSourceContext<EtcdRestore> context, String namespace,
            String cluster) {
        return running(context.getPrimaryCache().list(namespace), namespace, cluster);
    }

    /** The restores among {@code restores} that have not ended and restore {@code cluster} of {@code namespace}. */
    static Set<ResourceID> running(Stream<EtcdRestore> restores, String namespace, String cluster) {
        if (cluster == null) {
            return Set.of();
        }
        return restores.filter(r -> namespace.equals(r.getMetadata().getNamespace()))
                .filter(r -> r.getSpec() != null && r.getSpec().getEtcdCluster() != null
                        && cluster.equals(r.getSpec().getEtcdCluster().getName()))
                .filter(r -> !ended(r))
                .map(ResourceID::fromResource)
                .collect(Collectors.toSet());
    }

    private static boolean ended(EtcdRestore restore) {
        String phase = restore.getStatus() == null ? null : restore.getStatus().getPhase();
        return RestorePhase.Done.name().equals(phase) || RestorePhase.Failed.name().equals(phase);
    }
}
