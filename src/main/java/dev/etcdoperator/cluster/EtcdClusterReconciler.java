package dev.etcdoperator.cluster;

import java.time.Duration;

import dev.etcdoperator.api.v1beta2.EtcdCluster;
import dev.etcdoperator.api.v1beta2.EtcdClusterStatus;
import dev.etcdoperator.core.status.SpecValidity;
import dev.etcdoperator.core.validation.ClusterSpecValidator;
import dev.etcdoperator.core.validation.Validation;
import dev.etcdoperator.support.EventRecorder;
import dev.etcdoperator.support.StatusChange;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/** The {@code etcdcluster} controller: checks the spec, then keeps the cluster at its size and version. */
@ControllerConfiguration(name = EtcdClusterReconciler.NAME)
public class EtcdClusterReconciler implements Reconciler<EtcdCluster> {
    public static final String NAME = "etcdcluster";
    public static final String PHASE_FAILED = "Failed";

    private final ClusterSpecValidator validator = new ClusterSpecValidator();
    private final SpecValidity validity;
    private final EventRecorder events;
    private final Duration interval;

    public EtcdClusterReconciler(SpecValidity validity, EventRecorder events,
            @ConfigProperty(name = "etcd-operator.cluster.reconcile-interval", defaultValue = "8s") Duration interval) {
        this.validity = validity;
        this.events = events;
        this.interval = interval;
    }

    @Override
    public UpdateControl<EtcdCluster> reconcile(EtcdCluster cluster, Context<EtcdCluster> context) {
        if (cluster.getStatus() == null) {
            cluster.setStatus(new EtcdClusterStatus());
        }
        StatusChange<EtcdCluster> change = new StatusChange<>(cluster);
        EtcdClusterStatus status = cluster.getStatus();
        Validation validation = validator.validate(cluster.getSpec());
        boolean news = validity.record(status, validation, cluster.getMetadata().getGeneration());
        if (!validation.valid()) {
            status.setPhase(PHASE_FAILED);
            status.setReason(SpecValidity.REASON_INVALID);
            if (news) {
                events.warning(cluster, SpecValidity.REASON_INVALID, validation.message());
            }
            return change.control(cluster);
        }
        if (SpecValidity.REASON_INVALID.equals(status.getReason())) {
            status.setReason(null);
            status.setPhase(null);
        }
        return change.control(cluster).rescheduleAfter(interval);
    }
}
