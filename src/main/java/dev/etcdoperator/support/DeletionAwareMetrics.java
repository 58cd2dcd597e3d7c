package dev.etcdoperator.support;

import java.util.List;
import java.util.Map;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.javaoperatorsdk.operator.api.monitoring.Metrics;
import io.javaoperatorsdk.operator.api.reconciler.RetryInfo;
import io.javaoperatorsdk.operator.processing.Controller;
import io.javaoperatorsdk.operator.processing.event.Event;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import org.jboss.logging.Logger;

/**
 * The Java Operator SDK's metrics, passed on unchanged, plus its {@link #cleanupDone} call, which the SDK makes
 * for every primary resource deleted once it is done with it, handed to the {@link DeletedResourceListener}s of
 * that controller. The SDK has no other delete callback short of a finalizer on every resource.
 */
final class DeletionAwareMetrics implements Metrics {
    static final String CONTROLLER_NAME = "controller.name";
    private static final Logger LOG = Logger.getLogger(DeletionAwareMetrics.class);

    private final Metrics delegate;
    private final List<DeletedResourceListener> listeners;

    DeletionAwareMetrics(Metrics delegate, List<DeletedResourceListener> listeners) {
        this.delegate = delegate;
        this.listeners = List.copyOf(listeners);
    }

    @Override
    public void cleanupDone(ResourceID id, Map<String, Object> metadata) {
        delegate.cleanupDone(id, metadata);
        Object controller = metadata.get(CONTROLLER_NAME);
        for (DeletedResourceListener listener : listeners) {
            if (listener.controllerName().equals(controller)) {
                try {
                    listener.deleted(id.getNamespace().orElse(null), id.getName());
                } catch (RuntimeException e) {
                    LOG.warnf(e, "cleaning up after %s %s failed", controller, id);
                }
            }
        }
    }

    @Override
    public void controllerRegistered(Controller<? extends HasMetadata> controller) {
        delegate.controllerRegistered(controller);
    }

    @Override
    public void eventReceived(Event event, Map<String, Object> metadata) {
        delegate.eventReceived(event, metadata);
    }

    @Override
    public void reconciliationSubmitted(HasMetadata resource, RetryInfo retryInfo, Map<String, Object> metadata) {
        delegate.reconciliationSubmitted(resource, retryInfo, metadata);
    }

    @Override
    public void reconciliationStarted(HasMetadata resource, Map<String, Object> metadata) {
        delegate.reconciliationStarted(resource, metadata);
    }

    @Override
    public void reconciliationFailed(HasMetadata resource, RetryInfo retryInfo, Exception exception,
            Map<String, Object> metadata) {
        delegate.reconciliationFailed(resource, retryInfo, exception, metadata);
    }

    @Override
    public void reconciliationSucceeded(HasMetadata resource, Map<String, Object> metadata) {
        delegate.reconciliationSucceeded(resource, metadata);
    }

    @Override
    public void reconciliationFinished(HasMetadata resource, RetryInfo retryInfo, Map<String, Object> metadata) {
        delegate.reconciliationFinished(resource, retryInfo, metadata);
    }

    @Override
    public <T> T timeControllerExecution(ControllerExecution<T> execution) throws Exception {
        return delegate.timeControllerExecution(execution);
    }
}
