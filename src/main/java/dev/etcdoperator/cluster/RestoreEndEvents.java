package dev.etcdoperator.cluster;

import java.util.Collection;
import java.util.Objects;
import java.util.Set;

import dev.etcdoperator.api.v1beta2.EtcdCluster;
import dev.etcdoperator.api.v1beta2.EtcdRestore;
import dev.etcdoperator.api.v1beta2.EtcdRestoreSpec;
import io.javaoperatorsdk.operator.api.config.informer.InformerEventSourceConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.informer.InformerEventSource;

/**
 * The EtcdRestores, seen by the cluster controller: a restored cluster's member whose pod runs once is replaced only
 * once the restore that made it has ended, and the cluster hears of that end at once, not at its next interval.
 * Only a change of phase (or a restore deleted) wakes the cluster; a restore's progress messages do not.
 */
final class RestoreEndEvents {
    static final String NAME = "cluster-restores";

    private RestoreEndEvents() {
    }

    static InformerEventSource<EtcdRestore, EtcdCluster> of(EventSourceContext<EtcdCluster> context) {
        return new InformerEventSource<>(InformerEventSourceConfiguration.from(EtcdRestore.class, EtcdCluster.class)
                .withName(NAME)
                .withSecondaryToPrimaryMapper(RestoreEndEvents::clusterOf)
                .withOnUpdateFilter(RestoreEndEvents::phaseChanged)
                .build(), context);
    }

    /** The cluster a restore restores: the one its preflight verified, once it passed. */
    static Set<ResourceID> clusterOf(EtcdRestore restore) {
        EtcdRestoreSpec spec = restore.getStatus() != null && restore.getStatus().getVerifiedSpec() != null
                ? restore.getStatus().getVerifiedSpec() : restore.getSpec();
        if (spec == null || spec.getEtcdCluster() == null || spec.getEtcdCluster().getName() == null) {
            return Set.of();
        }
        return Set.of(new ResourceID(spec.getEtcdCluster().getName(), restore.getMetadata().getNamespace()));
    }

    static boolean phaseChanged(EtcdRestore now, EtcdRestore before) {
        return !Objects.equals(phase(now), phase(before));
    }

    /** Whether the restore of that name among a cluster's restores has ended: gone, Done or Failed. */
    static boolean ended(Collection<EtcdRestore> restores, String name) {
        return restores.stream().filter(r -> name.equals(r.getMetadata().getName()))
                .noneMatch(r -> dev.etcdoperator.core.restore.RestoreHold.stillRuns(r.getStatus(),
                        r.getMetadata().getDeletionTimestamp() != null));
    }

    private static String phase(EtcdRestore restore) {
        return restore.getStatus() == null ? null : restore.getStatus().getPhase();
    }
}
