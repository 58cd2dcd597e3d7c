package dev.etcdoperator.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import org.junit.jupiter.api.Test;

class StuckPodsTest {
    static final Instant NOW = Instant.parse("2026-12-03T12:00:00Z");

    static Pod pod(String name, String deletionTimestamp) {
        return new PodBuilder().withNewMetadata().withName(name).withDeletionTimestamp(deletionTimestamp).endMetadata()
                .build();
    }

    @Test
    void onlyPodsPastTheirDeletionByMoreThanFiveMinutesAreStuck() {
        List<Pod> pods = List.of(pod("b", "2026-12-03T11:50:00Z"), pod("a", "2026-12-03T11:54:59Z"),
                pod("running", null), pod("in-grace", "2026-12-03T12:00:30Z"), pod("just", "2026-12-03T11:55:00Z"),
                pod("garbled", "yesterday"));
        assertThat(StuckPods.of(pods, NOW)).containsExactly("a", "b");
        assertThat(StuckPods.hint("prod", pods, NOW)).hasValueSatisfying(h -> assertThat(h).contains("Pod(s) a, b",
                "kubectl delete pod -n prod --grace-period=0 --force a b"));
        assertThat(StuckPods.hint("prod", pods.subList(2, 6), NOW)).isEmpty();
    }
}
