package dev.etcdoperator.support;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import dev.etcdoperator.api.v1beta2.EtcdCluster;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import org.junit.jupiter.api.Test;

/** The recorder against the fabric8 mock API server (CRUD mode, merge patch supported). */
@EnableKubernetesMockClient(crud = true)
class EventRecorderTest {
    KubernetesClient client;

    private final MovingClock clock = new MovingClock(Instant.parse("2026-11-30T10:00:00Z"));

    private static EtcdCluster cluster() {
        EtcdCluster cluster = new EtcdCluster();
        cluster.setMetadata(new ObjectMetaBuilder().withName("alpha").withNamespace("prod").withUid("uid-1")
                .withResourceVersion("7").build());
        return cluster;
    }

    private List<Event> events() {
        return client.v1().events().inNamespace("prod").list().getItems();
    }

    @Test
    void aRepeatedWarningRaisesTheCountOfOneEventAboutTheObject() {
        EventRecorder recorder = new EventRecorder(client, clock);
        for (int i = 0; i < 5; i++) {
            recorder.warning(cluster(), "StepFailed", "create member failed: forbidden");
            clock.advance(Duration.ofSeconds(1));
        }
        recorder.normal(cluster(), "MemberAdded", "Added member alpha-x.");

        List<Event> events = events();
        assertThat(events).hasSize(2);
        Event failed = events.stream().filter(e -> e.getReason().equals("StepFailed")).findFirst().orElseThrow();
        assertThat(failed.getCount()).isEqualTo(5);
        assertThat(failed.getType()).isEqualTo("Warning");
        assertThat(failed.getFirstTimestamp()).isEqualTo("2026-11-30T10:00:00Z");
        assertThat(failed.getLastTimestamp()).isEqualTo("2026-11-30T10:00:04Z");
        assertThat(failed.getInvolvedObject().getUid()).isEqualTo("uid-1");
        assertThat(failed.getInvolvedObject().getKind()).isEqualTo("EtcdCluster");
        assertThat(failed.getInvolvedObject().getName()).isEqualTo("alpha");
        assertThat(failed.getInvolvedObject().getNamespace()).isEqualTo("prod");
    }

    @Test
    void anEventDeletedMeanwhileIsCreatedAgainWithItsCount() {
        EventRecorder recorder = new EventRecorder(client, clock);
        recorder.warning(cluster(), "StepFailed", "m");
        recorder.warning(cluster(), "StepFailed", "m");
        Event first = events().get(0);
        client.v1().events().inNamespace("prod").withName(first.getMetadata().getName()).delete();
        clock.advance(Duration.ofSeconds(3));

        recorder.warning(cluster(), "StepFailed", "m");

        assertThat(events()).singleElement().satisfies(e -> {
            assertThat(e.getMetadata().getName()).isEqualTo(first.getMetadata().getName());
            assertThat(e.getCount()).isEqualTo(3);
            assertThat(e.getLastTimestamp()).isEqualTo("2026-11-30T10:00:03Z");
        });
    }

    /** Objects may have names of 253 characters; their Events' names must fit the same limit. */
    @Test
    void eventNamesAreDnsSubdomainsOfAtMost253CharactersWhateverTheObjectsName() {
        java.util.regex.Pattern subdomain = java.util.regex.Pattern.compile(
                "^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$");
        String suffix = Long.toHexString(Long.MAX_VALUE);
        for (String name : List.of("a", "backup", "b".repeat(253), "a.b-c".repeat(50) + "abc", "x".repeat(235) + "-yz",
                "x".repeat(235) + ".-y")) {
            String event = EventRecorder.eventName(name, suffix);
            assertThat(event).as(name).hasSizeLessThanOrEqualTo(253).endsWith("." + suffix).matches(subdomain);
        }
        assertThat(EventRecorder.eventName("backup", "1f")).isEqualTo("backup.1f");
    }

    @Test
    void aFailureToRecordIsNotThrown() {
        EventRecorder recorder = new EventRecorder(client, clock);
        EtcdCluster nowhere = cluster();
        nowhere.getMetadata().setNamespace(null);
        recorder.warning(nowhere, "StepFailed", "m");
        assertThat(events()).isEmpty();
    }
}
