package dev.etcdoperator.helm;

import static dev.etcdoperator.helm.RenderedChart.NAMESPACE;
import static dev.etcdoperator.helm.RenderedChart.render;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodSpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** values.schema.json, the security contexts taken from values, the {@code helm test} pod and NOTES.txt. */
class HelmValuesTest {

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "replicas: two                                   | replicas",
            "replicaCount: 2                                 | replicaCount",
            "watchNamespaces: [Team_A]                       | watchNamespaces",
            "operator: {logLevel: LOUD}                      | logLevel",
            "operator: {reconcileInterval: soon}             | reconcileInterval",
            "operator: {backupWorkers: 0}                    | backupWorkers",
            "operator: {restoreWorkers: 0}                   | restoreWorkers",
            "image: {repository: x, digest: latest}          | digest",
            "resources: {limit: {memory: 1Gi}}               | limit",
            "podLabels: {app.kubernetes.io/instance: x}      | app.kubernetes.io/instance",
            "tolerations: [{keyy: dedicated}]                | keyy",
            "securityContext: {capabilities: {dropp: [ALL]}} | dropp",
            "operator: {reconcileThreads: 0}                 | reconcileThreads",
            "jvm: {maxRamPercentage: 95}                     | maxRamPercentage",
            "jvm: {gc: SerialGC}                             | gc",
            "jvm: {heap: 1g}                                 | heap",
            "jvm: {mallocArenaMax: 0}                        | mallocArenaMax",
            "jvm: {classDataArchive: 'app.jsa -Xmx9g'}       | classDataArchive",
            "image: {pullPolicy: Sometimes}                  | pullPolicy",
            "metrics: {service: {port: 70000}}               | port",
            "podSecurityContext: {runAsUser: -1}             | runAsUser",
            "podSecurityContext: {readOnlyRootFilesystem: true} | readOnlyRootFilesystem",
            "securityContext: {fsGroup: 1001}                | fsGroup",
            "securityContext: {runAsNonroot: true}           | runAsNonroot",
            "prometheusRule: {enabled: yes please}           | enabled",
            "prometheusRule: {runbookBaseUrl: docs/runbooks.md} | runbookBaseUrl",
            "prometheusRule: {runbookBaseUrl: 'https://x.org/r.md#top'} | runbookBaseUrl",
            "prometheusRule: {runbookBaseUrl: 'https://x.org/{{ .Labels }}'} | runbookBaseUrl",
            "etcdMetrics: {podMonitor: {interval: 30}}       | interval" })
    void theSchemaRefusesBadValuesAndNamesThem(String values, String field) {
        assertThatThrownBy(() -> render(values + "\n"))
                .hasMessageContaining("values don't meet the specifications of the schema")
                .hasMessageContaining(field);
    }

    /** The Prometheus Operator's own pattern for a scrape interval and timeout (its CRDs refuse anything else). */
    static final String PROMETHEUS_DURATION = "^(0|(([0-9]+)y)?(([0-9]+)w)?(([0-9]+)d)?(([0-9]+)h)?(([0-9]+)m)?"
            + "(([0-9]+)s)?(([0-9]+)ms)?)$";

    /**
     * Every duration the schema admits is read by what consumes it: the operator's interval by Quarkus (a pod that
     * cannot read its configuration never starts), a scrape interval by the Prometheus Operator's CRDs.
     */
    @Test
    void everyDurationTheSchemaAdmitsIsReadByItsConsumer() throws IOException {
        com.fasterxml.jackson.databind.JsonNode definitions = new com.fasterxml.jackson.databind.ObjectMapper()
                .readTree(RenderedChart.CHART.resolve("values.schema.json").toFile()).get("definitions");
        java.util.regex.Pattern operator = java.util.regex.Pattern.compile(definitions.get("duration").get("pattern")
                .asText());
        java.util.regex.Pattern scrape = java.util.regex.Pattern.compile(definitions.get("scrapeDuration")
                .get("pattern").asText());
        java.util.regex.Pattern prometheus = java.util.regex.Pattern.compile(PROMETHEUS_DURATION);
        io.quarkus.runtime.configuration.DurationConverter quarkus = new io.quarkus.runtime.configuration
                .DurationConverter();
        java.util.List<String> probes = java.util.List.of("0", "1", "8s", "1.5s", "0.25s", "500ms", "1m500ms",
                "1.5m", "1.5h", "2m", "1m30s", "1h", "1h30m", "1h2m3s", "1h2m3.5s", "2d", "1w", "1y", "30s10m", "s",
                "ms", "", "1 s", "1S", "-1s", "1e3s");
        int admitted = 0;
        for (String probe : probes) {
            if (operator.matcher(probe).find()) {
                admitted++;
                assertThat(quarkus.convert(probe)).as("operator interval " + probe).isNotNull();
            }
            if (scrape.matcher(probe).find() && !probe.isEmpty()) {
                assertThat(prometheus.matcher(probe).find()).as("scrape interval " + probe).isTrue();
            }
        }
        assertThat(admitted).isGreaterThanOrEqualTo(8);
        assertThatThrownBy(() -> render("operator: {reconcileInterval: 1m500ms}\n")).hasMessageContaining(
                "reconcileInterval");
        assertThatThrownBy(() -> render("metrics: {serviceMonitor: {enabled: true, interval: 1.5s}}\n"))
                .hasMessageContaining("interval");
    }

    @Test
    void theDefaultsAndEveryToggleMeetTheSchema() throws IOException {
        assertThat(render("""
                clusterWide: true
                metrics: {serviceMonitor: {enabled: true, labels: {release: prom}}}
                etcdMetrics: {podMonitor: {enabled: true, interval: 15s}}
                prometheusRule: {enabled: true}
                operator: {reconcileInterval: 1m30s, backupWorkers: 4, reconcileThreads: 20, logLevel: DEBUG}
                jvm: {maxRamPercentage: 50, gc: "-XX:+UseG1GC -XX:MaxGCPauseMillis=100", options: "", mallocArenaMax: 4}
                """).objects).isNotEmpty();
    }

    @Test
    void securityContextsComeFromValuesAndTheIdsCanBeLeftToThePlatform() throws IOException {
        PodSpec defaults = render("").deployment().getSpec().getTemplate().getSpec();
        assertThat(defaults.getSecurityContext().getRunAsUser()).isEqualTo(1001L);
        assertThat(defaults.getSecurityContext().getFsGroup()).isEqualTo(1001L);
        assertThat(defaults.getSecurityContext().getSeccompProfile().getType()).isEqualTo("RuntimeDefault");

        // as on OpenShift, which assigns the namespace's own user and group
        PodSpec assigned = render("""
                podSecurityContext: {runAsUser: null, runAsGroup: null, fsGroup: null}
                securityContext: {runAsUser: null}
                """).deployment().getSpec().getTemplate().getSpec();
        assertThat(assigned.getSecurityContext().getRunAsUser()).isNull();
        assertThat(assigned.getSecurityContext().getRunAsGroup()).isNull();
        assertThat(assigned.getSecurityContext().getFsGroup()).isNull();
        assertThat(assigned.getSecurityContext().getRunAsNonRoot()).isTrue();
        Container operator = assigned.getContainers().get(0);
        assertThat(operator.getSecurityContext().getRunAsUser()).isNull();
        assertThat(operator.getSecurityContext().getAllowPrivilegeEscalation()).isFalse();
        assertThat(operator.getSecurityContext().getReadOnlyRootFilesystem()).isTrue();
    }

    /** The longest name the chart allows (63 characters) still makes a metrics Service the API server accepts. */
    @Test
    void theMetricsServiceNameIsADnsLabelWhateverTheReleasesName(@TempDir Path dir) throws IOException {
        RenderedChart chart = render(ChartCopy.of(dir), "fullnameOverride: " + "a".repeat(62) + "b\n");
        io.fabric8.kubernetes.api.model.Service service = chart.one(io.fabric8.kubernetes.api.model.Service.class);
        assertThat(service.getMetadata().getName()).hasSizeLessThanOrEqualTo(63)
                .matches("[a-z]([-a-z0-9]*[a-z0-9])?").endsWith("-metrics");
        assertThat(chart.one(Pod.class).getSpec().getContainers().get(0).getEnv()).singleElement()
                .satisfies(e -> assertThat(e.getValue()).startsWith("http://" + service.getMetadata().getName() + "."
                        + NAMESPACE + ".svc:"));
    }

    @Test
    void helmTestAsksTheOperatorsReadinessThroughTheServiceFromARestrictedPod(@TempDir Path dir) throws IOException {
        assertThat(Files.readString(RenderedChart.CHART.resolve("templates/tests/operator-ready.yaml")))
                .contains("helm.sh/hook: test");
        Path chart = ChartCopy.of(dir);
        Pod test = render(chart, "").one(Pod.class);
        assertThat(test.getMetadata().getName()).isEqualTo("etcd-etcd-operator-test");
        Container check = test.getSpec().getContainers().get(0);
        assertThat(check.getImage()).isEqualTo("busybox:1.36");
        assertThat(check.getEnv()).singleElement().satisfies(e -> assertThat(e.getValue())
                .isEqualTo("http://etcd-etcd-operator-metrics." + NAMESPACE + ".svc:8080/q/health/ready"));
        assertThat(check.getCommand()).last().asString().contains("wget").contains("\"$URL\"");
        assertThat(test.getSpec().getRestartPolicy()).isEqualTo("Never");
        assertThat(test.getSpec().getSecurityContext().getRunAsNonRoot()).isTrue();
        assertThat(test.getSpec().getSecurityContext().getSeccompProfile().getType()).isEqualTo("RuntimeDefault");
        assertThat(check.getSecurityContext().getAllowPrivilegeEscalation()).isFalse();
        assertThat(check.getSecurityContext().getCapabilities().getDrop()).containsExactly("ALL");

        assertThat(render(chart, "metrics: {service: {enabled: false}}\n").all(Pod.class)).isEmpty();
    }

    @Test
    void theNotesTellHowToCreateAndWatchAFirstCluster(@TempDir Path dir) throws IOException {
        Path chart = ChartCopy.of(dir);
        String notes = notes(render(chart, "watchNamespaces: [team-a]\n"));
        assertThat(notes).contains("It watches EtcdCluster, EtcdBackup and EtcdRestore resources in: team-a")
                .contains("helm test etcd -n " + NAMESPACE)
                .contains("kubectl -n team-a apply -f -")
                .contains("kind: EtcdCluster")
                .contains("kubectl -n team-a get etcdclusters -w")
                .contains("kubectl -n team-a wait etcdcluster/example --for=condition=Available");
        assertThat(notes(render(chart, "clusterWide: true\n"))).contains("in every namespace")
                .contains("kubectl -n " + NAMESPACE + " get etcdclusters -w");
    }

    private static String notes(RenderedChart chart) {
        return chart.all(ConfigMap.class).stream().filter(c -> ChartCopy.NOTES.equals(c.getMetadata().getName()))
                .findFirst().orElseThrow().getData().get("notes");
    }
}
