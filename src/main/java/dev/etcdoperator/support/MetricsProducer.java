package dev.etcdoperator.support;

import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import io.javaoperatorsdk.operator.api.monitoring.Metrics;
import io.javaoperatorsdk.operator.monitoring.micrometer.MicrometerMetricsV2;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * Produces the Java Operator SDK's reconcile metrics on the application's registry (without this bean they
 * appear in tests but not in the packaged application), and through them the delete notifications of
 * {@link DeletedResourceListener}s.
 */
public class MetricsProducer {

    @Produces
    @Singleton
    Metrics operatorSdkMetrics(MeterRegistry registry, Instance<DeletedResourceListener> listeners) {
        return new DeletionAwareMetrics(MicrometerMetricsV2.newBuilder(registry).withNamespaceAsTag().build(),
                listeners.stream().toList());
    }
}
