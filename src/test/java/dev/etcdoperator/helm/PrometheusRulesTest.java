package dev.etcdoperator.helm;

import static dev.etcdoperator.helm.RenderedChart.render;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

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
    private static final Path RUNBOOKS = Path.of("docs", "runbooks.md");
    private static final String RUNBOOK_BASE = "https://docs.example.org/etcd-operator/v0.1.0/runbooks.md";
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

    @Test
    void everyAlertHasASectionOfItsOwnInTheRunbooks() throws IOException {
        Set<String> sections = Files.readAllLines(RUNBOOKS).stream().filter(l -> l.startsWith("## "))
                .map(l -> l.substring(3).strip()).collect(Collectors.toCollection(TreeSet::new));
        assertThat(sections).as("the sections of " + RUNBOOKS).isEqualTo(expressions(rule()).keySet());
    }

    @Test
    void everyAlertLinksToItsRunbookWhereTheChartIsToldWhereTheRunbooksAre() throws IOException {
        GenericKubernetesResource linked = (GenericKubernetesResource) render(VALUES.replace("labels: {release: prom}",
                "runbookBaseUrl: " + RUNBOOK_BASE)).ofKind("PrometheusRule").get(0);
        Map<String, String> links = annotations(linked, "runbook_url");
        assertThat(links).hasSize(expressions(rule()).size()).containsKey("EtcdOperatorDown");
        // a heading that is one word has that word, in lower case, for its anchor
        links.forEach((alert, url) -> assertThat(url).isEqualTo(RUNBOOK_BASE + "#" + alert.toLowerCase(Locale.ROOT)));

        assertThat(annotations(rule(), "runbook_url")).isEmpty();
        assertThat(annotations(rule(), "summary")).hasSize(expressions(rule()).size());
    }

    @SuppressWarnings("unchecked")
    private static Map<String, String> annotations(GenericKubernetesResource rule, String key) {
        Map<String, String> byAlert = new TreeMap<>();
        for (Map<String, Object> r : rules(rule)) {
            Object value = ((Map<String, Object>) r.get("annotations")).get(key);
            if (value != null) {
                // the two severities of one alert link to the same section
                byAlert.merge(String.valueOf(r.get("alert")), String.valueOf(value), (a, b) -> {
                    assertThat(b).isEqualTo(a);
                    return a;
                });
            }
        }
        return byAlert;
    }

    private static Map<String, String> expressions(GenericKubernetesResource rule) {
        Map<String, String> byAlert = new TreeMap<>();
        for (Map<String, Object> r : rules(rule)) {
            byAlert.put(String.valueOf(r.get("alert")), String.valueOf(r.get("expr")).strip());
        }
        return byAlert;
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> rules(GenericKubernetesResource rule) {
        Map<String, Object> spec = (Map<String, Object>) rule.getAdditionalProperties().get("spec");
        return ((List<Map<String, Object>>) spec.get("groups")).stream()
                .flatMap(group -> ((List<Map<String, Object>>) group.get("rules")).stream()).toList();
    }

    private static GenericKubernetesResource rule() throws IOException {
        return (GenericKubernetesResource) render(VALUES).ofKind("PrometheusRule").get(0);
    }
}
