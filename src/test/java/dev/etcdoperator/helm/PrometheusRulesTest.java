package dev.etcdoperator.helm;

import static dev.etcdoperator.helm.RenderedChart.render;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

import dev.etcdoperator.sandbox.support.HostProgram;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The alert rules as the chart's PrometheusRule renders them, checked and unit-tested by promtool on synthetic
 * series (src/test/resources/prometheus/rules-test.yaml).
 */
class PrometheusRulesTest {
    private static final String VALUES = "prometheusRule: {enabled: true, labels: {release: prom}}\n"
            + "metrics: {serviceMonitor: {enabled: true}}\n";

    @Test
    void noPrometheusRuleUnlessAskedFor() throws IOException {
        assertThat(render("").ofKind("PrometheusRule")).isEmpty();
        GenericKubernetesResource rule = rule();
        assertThat(rule.getApiVersion()).isEqualTo("monitoring.coreos.com/v1");
        assertThat(rule.getMetadata().getLabels()).containsEntry("release", "prom");
    }

    @Test
    void theRenderedRulesPassPromtoolsTests(@TempDir Path dir) throws Exception {
        Optional<HostProgram> promtool = HostProgram.find("promtool");
        assumeTrue(promtool.isPresent(),
                "promtool is not installed (Debian package prometheus): the alert rules are not tested");
        Files.writeString(dir.resolve("prometheus-rules.yaml"),
                new KubernetesSerialization().asYaml(rule().getAdditionalProperties().get("spec")));
        try (InputStream tests = getClass().getResourceAsStream("/prometheus/rules-test.yaml")) {
            Files.copy(tests, dir.resolve("rules-test.yaml"));
        }

        HostProgram.Result checked = promtool.get().run(dir, "check", "rules", "prometheus-rules.yaml");
        assertThat(checked.ok()).as(checked.output()).isTrue();
        assertThat(checked.output()).contains("SUCCESS: 19 rules found");
        HostProgram.Result tested = promtool.get().run(dir, "test", "rules", "rules-test.yaml");
        assertThat(tested.ok()).as(tested.output()).isTrue();
    }

    @Test
    void theOperatorDownAlertIsRenderedOnlyWhereTheChartKnowsItsScrapeJob() throws IOException {
        GenericKubernetesResource withoutMonitor = (GenericKubernetesResource) render(
                "prometheusRule: {enabled: true}\n").ofKind("PrometheusRule").get(0);
        assertThat(expressions(withoutMonitor)).containsKey("EtcdClusterQuorumLost").doesNotContainKey("EtcdOperatorDown");
        assertThat(expressions(rule())).containsEntry("EtcdOperatorDown",
                "absent(up{job=\"etcd-etcd-operator-metrics\", namespace=\"etcd-system\"} == 1)");
    }

    @SuppressWarnings("unchecked")
    private static Map<String, String> expressions(GenericKubernetesResource rule) {
        Map<String, String> byAlert = new TreeMap<>();
        Map<String, Object> spec = (Map<String, Object>) rule.getAdditionalProperties().get("spec");
        for (Map<String, Object> group : (List<Map<String, Object>>) spec.get("groups")) {
            for (Map<String, Object> r : (List<Map<String, Object>>) group.get("rules")) {
                byAlert.put(String.valueOf(r.get("alert")), String.valueOf(r.get("expr")).strip());
            }
        }
        return byAlert;
    }

    private static GenericKubernetesResource rule() throws IOException {
        return (GenericKubernetesResource) render(VALUES).ofKind("PrometheusRule").get(0);
    }
}
