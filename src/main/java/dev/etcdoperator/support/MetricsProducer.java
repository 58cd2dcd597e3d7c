package dev.etcdoperator.support;

import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import io.javaoperatorsdk.operator.api.monitoring.Metrics;
import io.javaoperatorsdk.operator.monitoring.micrometer.MicrometerMetricsV2;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * Produces the Java Operator SDK's reconcile metrics on the application's registry: without this bean they
 * appear in tests but not in the packaged application.
 */
public class MetricsProducer {

    @Produces
    @Singleton
    Metrics operatorSdkMetrics(MeterRegistry registry) {
        return MicrometerMetricsV2.newBuilder(registry).withNamespaceAsTag().build();
    }
}
