package dev.etcdoperator.support;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.javaoperatorsdk.operator.api.monitoring.Metrics;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import org.junit.jupiter.api.Test;

class DeletionAwareMetricsTest {
    private final List<String> calls = new ArrayList<>();

    private DeletedResourceListener listener(String controller) {
        return new DeletedResourceListener() {
            @Override
            public String controllerName() {
                return controller;
            }

            @Override
            public void deleted(String namespace, String name) {
                calls.add(controller + " " + namespace + "/" + name);
            }
        };
    }

    private final Metrics delegate = new Metrics() {
        @Override
        public void cleanupDone(ResourceID id, Map<String, Object> metadata) {
            calls.add("sdk " + id.getName());
        }
    };

    @Test
    void aDeletedResourceReachesTheSdkMetricsAndOnlyItsControllersListeners() {
        Metrics metrics = new DeletionAwareMetrics(delegate, List.of(listener("etcdcluster"), listener("etcdbackup")));
        metrics.cleanupDone(new ResourceID("alpha", "prod"), Map.of("controller.name", "etcdcluster"));
        assertThat(calls).containsExactly("sdk alpha", "etcdcluster prod/alpha");
    }

    @Test
    void aFailingListenerDoesNotStopTheOthers() {
        DeletedResourceListener failing = new DeletedResourceListener() {
            @Override
            public String controllerName() {
                return "etcdcluster";
            }

            @Override
            public void deleted(String namespace, String name) {
                throw new IllegalStateException("boom");
            }
        };
        Metrics metrics = new DeletionAwareMetrics(delegate, List.of(failing, listener("etcdcluster")));
        metrics.cleanupDone(new ResourceID("alpha", "prod"), Map.of("controller.name", "etcdcluster"));
        assertThat(calls).containsExactly("sdk alpha", "etcdcluster prod/alpha");
    }
}
