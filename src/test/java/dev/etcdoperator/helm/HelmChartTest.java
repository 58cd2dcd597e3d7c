package dev.etcdoperator.helm;

import static dev.etcdoperator.helm.RenderedChart.NAMESPACE;
import static dev.etcdoperator.helm.RenderedChart.render;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import com.marcnuri.helm.Helm;
import com.marcnuri.helm.LintResult;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Probe;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.api.model.rbac.Role;
import org.junit.jupiter.api.Test;

/** The Helm chart, linted and rendered by Helm's own code for the combinations of values that change its shape. */
class HelmChartTest {
    private static final String SA = "etcd-etcd-operator";

    @Test
    void chartLintsClean() {
        LintResult lint = new Helm(RenderedChart.CHART).lint().strict().call();
        assertThat(lint.isFailed()).as(String.join("\n", lint.getMessages())).isFalse();
    }

    @Test
    void defaultsWatchTheReleaseNamespaceWithExactlyTheOperatorsPermissions() throws IOException {
        RenderedChart chart = render("");
        assertThat(chart.one(ServiceAccount.class).getMetadata().getName()).isEqualTo(SA);
        assertThat(chart.all(ClusterRole.class)).isEmpty();
        assertThat(GrantedPermissions.of(chart, SA, NAMESPACE)).containsExactlyElementsOf(expected(NAMESPACE));
        assertThat(chart.env()).containsEntry("QUARKUS_OPERATOR_SDK_NAMESPACES", NAMESPACE)
                .containsEntry("ETCD_OPERATOR_BACKUP_WORKERS", "2").containsEntry("ETCD_OPERATOR_RESTORE_WORKERS", "2");
    }

    @Test
    void theNumberOfBackupWorkersIsAValue() throws IOException {
        assertThat(render("operator: {backupWorkers: 4}\n").env()).containsEntry("ETCD_OPERATOR_BACKUP_WORKERS", "4");
        assertThat(render("operator: {restoreWorkers: 3}\n").env()).containsEntry("ETCD_OPERATOR_RESTORE_WORKERS", "3");
    }

    @Test
    void theJvmIsSizedForAnOperatorThroughTheVariablesTheImagesLauncherReads() throws IOException {
        RenderedChart chart = render("");
        assertThat(chart.env()).containsEntry("JAVA_MAX_MEM_RATIO", "33")
                .containsEntry("GC_CONTAINER_OPTIONS", "-XX:+UseSerialGC")
                .containsEntry("MALLOC_ARENA_MAX", "2")
                .containsEntry("QUARKUS_OPERATOR_SDK_CONCURRENT_RECONCILIATION_THREADS", "10");
        // JAVA_OPTS_APPEND replaces the image's own, whose class-data archive and two properties it keeps
        assertThat(chart.env().get("JAVA_OPTS_APPEND").split(" ")).startsWith("-XX:ActiveProcessorCount=2",
                "-XX:ReservedCodeCacheSize=64m").doesNotContain("-XX:TieredStopAtLevel=1").endsWith(
                        "-XX:SharedArchiveFile=/deployments/operator.jsa", "-Dquarkus.http.host=0.0.0.0",
                        "-Djava.util.logging.manager=org.jboss.logmanager.LogManager");
        Container operator = chart.deployment().getSpec().getTemplate().getSpec().getContainers().get(0);
        // the heap (33 % of the limit, about 127 MiB) leaves room under the limit for what is not heap
        assertThat(operator.getResources().getLimits()).containsEntry("memory", new Quantity("384Mi"));
        assertThat(operator.getResources().getRequests()).containsEntry("memory", new Quantity("256Mi"));

        RenderedChart custom = render("""
                jvm: {maxRamPercentage: 60, gc: "-XX:+UseG1GC", options: "-Xss1m", mallocArenaMax: 4, classDataArchive: ""}
                operator: {reconcileThreads: 20}
                """);
        assertThat(custom.env()).containsEntry("JAVA_MAX_MEM_RATIO", "60")
                .containsEntry("GC_CONTAINER_OPTIONS", "-XX:+UseG1GC")
                .containsEntry("JAVA_OPTS_APPEND", "-Xss1m -Dquarkus.http.host=0.0.0.0"
                        + " -Djava.util.logging.manager=org.jboss.logmanager.LogManager")
                .containsEntry("MALLOC_ARENA_MAX", "4")
                .containsEntry("QUARKUS_OPERATOR_SDK_CONCURRENT_RECONCILIATION_THREADS", "20");
        assertThat(render("jvm: {options: \"\"}\n").env()).containsEntry("JAVA_OPTS_APPEND",
                "-XX:SharedArchiveFile=/deployments/operator.jsa -Dquarkus.http.host=0.0.0.0"
                        + " -Djava.util.logging.manager=org.jboss.logmanager.LogManager");
    }

    @Test
    void listedNamespacesGetARoleEachAndNothingElse() throws IOException {
        RenderedChart chart = render("watchNamespaces: [team-a, team-b]\n");
        assertThat(chart.all(Role.class)).extracting(r -> r.getMetadata().getNamespace())
                .containsExactlyInAnyOrder("team-a", "team-b", NAMESPACE);
        assertThat(GrantedPermissions.of(chart, SA, NAMESPACE))
                .containsExactlyElementsOf(expected("team-a", "team-b"));
        assertThat(chart.env()).containsEntry("QUARKUS_OPERATOR_SDK_NAMESPACES", "team-a,team-b");
    }

    @Test
    void clusterWideGetsAClusterRoleWithTheSameVerbs() throws IOException {
        RenderedChart chart = render("clusterWide: true\n");
        assertThat(chart.all(ClusterRole.class)).hasSize(1);
        assertThat(chart.all(Role.class)).extracting(r -> r.getMetadata().getNamespace()).containsExactly(NAMESPACE);
        assertThat(GrantedPermissions.of(chart, SA, NAMESPACE)).containsExactlyElementsOf(expected("*"));
        assertThat(chart.env()).containsEntry("QUARKUS_OPERATOR_SDK_NAMESPACES", "JOSDK_ALL_NAMESPACES");
    }

    @Test
    void clusterWideWithAListOfNamespacesIsRefused() {
        assertThatThrownBy(() -> render("clusterWide: true\nwatchNamespaces: [a]\n"))
                .hasMessageContaining("watchNamespaces must be empty when clusterWide is true");
    }

    @Test
    void withoutLeaderElectionNoLeaseIsGrantedAndOneOperatorRunsAtATime() throws IOException {
        RenderedChart chart = render("leaderElection: {enabled: false}\n");
        Set<String> expected = new TreeSet<>(OperatorPermissions.grants(NAMESPACE, OperatorPermissions.WATCHED_NAMESPACES));
        assertThat(GrantedPermissions.of(chart, SA, NAMESPACE)).containsExactlyElementsOf(expected);
        assertThat(chart.env()).containsEntry("ETCD_OPERATOR_LEADER_ELECTION_ENABLED", "false");
        assertThatThrownBy(() -> render("leaderElection: {enabled: false}\nreplicas: 2\n"))
                .hasMessageContaining("replicas > 1 needs leaderElection.enabled");
        // a rolling update would run the new operator beside the old one until the new one is ready
        assertThat(chart.deployment().getSpec().getStrategy().getType()).isEqualTo("Recreate");
        assertThat(render("").deployment().getSpec().getStrategy()).isNull();
    }

    @Test
    void twoReplicasElectALeaderThroughALeaseInTheReleaseNamespace() throws IOException {
        RenderedChart chart = render("replicas: 2\n");
        assertThat(chart.deployment().getSpec().getReplicas()).isEqualTo(2);
        assertThat(chart.env()).containsEntry("ETCD_OPERATOR_LEADER_ELECTION_ENABLED", "true")
                .containsEntry("ETCD_OPERATOR_LEADER_ELECTION_LEASE_NAME", "etcd-etcd-operator-leader");
        assertThat(chart.fieldRef("ETCD_OPERATOR_LEADER_ELECTION_LEASE_NAMESPACE")).hasValue("metadata.namespace");
        assertThat(chart.fieldRef("ETCD_OPERATOR_LEADER_ELECTION_IDENTITY")).hasValue("metadata.name");
    }

    @Test
    void theDeploymentRunsTheChartsImageWithProbesAndALockedDownContainer() throws IOException {
        PodSpec pod = render("").deployment().getSpec().getTemplate().getSpec();
        Container operator = pod.getContainers().get(0);
        assertThat(operator.getImage()).isEqualTo("etcd-operator:0.1.0");
        String digest = "sha256:" + "ab".repeat(32);
        assertThat(render("image: {repository: registry.example.com/etcd-operator, digest: " + digest + "}\n")
                .deployment().getSpec().getTemplate().getSpec().getContainers().get(0).getImage())
                .isEqualTo("registry.example.com/etcd-operator@" + digest);
        assertThat(pod.getServiceAccountName()).isEqualTo(SA);
        assertProbe(operator.getLivenessProbe(), "/q/health/live");
        assertProbe(operator.getReadinessProbe(), "/q/health/ready");
        assertThat(operator.getPorts()).singleElement()
                .satisfies(p -> assertThat(p.getName()).isEqualTo("http"))
                .satisfies(p -> assertThat(p.getContainerPort()).isEqualTo(8080));

        assertThat(pod.getSecurityContext().getRunAsNonRoot()).isTrue();
        var security = operator.getSecurityContext();
        assertThat(security.getRunAsNonRoot()).isTrue();
        assertThat(security.getRunAsUser()).isEqualTo(1001L);
        assertThat(security.getAllowPrivilegeEscalation()).isFalse();
        assertThat(security.getReadOnlyRootFilesystem()).isTrue();
        assertThat(security.getPrivileged()).isNotEqualTo(Boolean.TRUE);
        assertThat(security.getCapabilities().getDrop()).containsExactly("ALL");
        assertThat(security.getCapabilities().getAdd()).isNullOrEmpty();
        // the root filesystem is read-only: the JVM and Vert.x write only under /tmp, an emptyDir
        assertThat(operator.getVolumeMounts()).singleElement()
                .satisfies(m -> assertThat(m.getMountPath()).isEqualTo("/tmp"))
                .satisfies(m -> assertThat(pod.getVolumes()).singleElement()
                        .satisfies(v -> assertThat(v.getName()).isEqualTo(m.getName()))
                        .satisfies(v -> assertThat(v.getEmptyDir()).isNotNull()));
    }

    @Test
    void customImageAndResourcesAreUsed() throws IOException {
        Container operator = render("""
                image: {repository: registry.example/etcd-operator, tag: 1.2.3-native}
                resources:
                  requests: {cpu: 50m, memory: 64Mi}
                  limits: {cpu: "1", memory: 128Mi}
                """).deployment().getSpec().getTemplate().getSpec().getContainers().get(0);
        assertThat(operator.getImage()).isEqualTo("registry.example/etcd-operator:1.2.3-native");
        assertThat(operator.getResources().getRequests()).containsEntry("cpu", new Quantity("50m"))
                .containsEntry("memory", new Quantity("64Mi"));
        assertThat(operator.getResources().getLimits()).containsEntry("cpu", new Quantity("1"))
                .containsEntry("memory", new Quantity("128Mi"));
    }

    @Test
    void theMetricsServiceServesTheHttpPortAndTheServiceMonitorScrapesQMetrics() throws IOException {
        RenderedChart plain = render("");
        assertThat(plain.ofKind("ServiceMonitor")).isEmpty();

        RenderedChart chart = render("metrics: {serviceMonitor: {enabled: true, labels: {release: prom}}}\n");
        Service service = chart.one(Service.class);
        assertThat(service.getSpec().getPorts()).singleElement()
                .satisfies(p -> assertThat(p.getName()).isEqualTo("http"))
                .satisfies(p -> assertThat(p.getTargetPort().getStrVal()).isEqualTo("http"));
        assertThat(service.getSpec().getSelector())
                .isEqualTo(chart.deployment().getSpec().getSelector().getMatchLabels());
        GenericKubernetesResource monitor = (GenericKubernetesResource) chart.ofKind("ServiceMonitor").get(0);
        assertThat(monitor.getApiVersion()).isEqualTo("monitoring.coreos.com/v1");
        assertThat(monitor.getMetadata().getLabels()).containsEntry("release", "prom");
        // honorLabels: the series keep the namespace of the resource they are about
        assertThat((List<?>) monitor.get("spec", "endpoints")).singleElement()
                .satisfies(e -> assertThat(e).hasFieldOrPropertyWithValue("path", "/q/metrics")
                        .hasFieldOrPropertyWithValue("port", "http")
                        .hasFieldOrPropertyWithValue("honorLabels", true));
    }

    @Test
    @SuppressWarnings("unchecked")
    void thePodMonitorScrapesEveryMembersMetricsPortWithOneJobPerCluster() throws IOException {
        assertThat(render("").ofKind("PodMonitor")).isEmpty();
        GenericKubernetesResource listed = (GenericKubernetesResource) render(
                "watchNamespaces: [team-a, team-b]\netcdMetrics: {podMonitor: {enabled: true, labels: {release: prom}}}\n")
                .ofKind("PodMonitor").get(0);
        assertThat(listed.getMetadata().getLabels()).containsEntry("release", "prom");
        assertThat((List<Object>) listed.get("spec", "namespaceSelector", "matchNames")).containsExactly("team-a", "team-b");
        assertThat((List<Object>) listed.get("spec", "podTargetLabels")).containsExactly("etcd_cluster");
        assertThat((List<?>) listed.get("spec", "podMetricsEndpoints")).singleElement()
                .satisfies(e -> assertThat(e).hasFieldOrPropertyWithValue("port", "metrics")
                        .hasFieldOrPropertyWithValue("path", "/metrics"));
        Map<Object, Object> job = (Map<Object, Object>) ((List<?>) ((Map<?, ?>) ((List<?>) listed.get("spec", "podMetricsEndpoints"))
                .get(0)).get("relabelings")).get(0);
        assertThat(job).containsEntry("targetLabel", "job").containsEntry("replacement", "etcd/$1")
                .containsEntry("separator", "/");

        GenericKubernetesResource everywhere = (GenericKubernetesResource) render(
                "clusterWide: true\netcdMetrics: {podMonitor: {enabled: true}}\n").ofKind("PodMonitor").get(0);
        assertThat((Boolean) everywhere.get("spec", "namespaceSelector", "any")).isTrue();
    }

    @Test
    void everyOperatorVariableTheChartSetsIsAPropertyTheCodeReads() throws IOException {
        Set<String> read = new HashSet<>();
        Pattern property = Pattern.compile("name = \"(etcd-operator\\.[a-z0-9.-]+)\"");
        try (Stream<Path> sources = Files.walk(Path.of("src", "main", "java"))) {
            for (Path source : sources.filter(p -> p.toString().endsWith(".java")).toList()) {
                Matcher m = property.matcher(Files.readString(source));
                while (m.find()) {
                    read.add(m.group(1).replaceAll("[^a-z0-9]", "_").toUpperCase(Locale.ROOT));
                }
            }
        }
        List<String> set = render("").deployment().getSpec().getTemplate().getSpec().getContainers().get(0).getEnv()
                .stream().map(e -> e.getName()).filter(n -> n.startsWith("ETCD_OPERATOR_")).toList();
        assertThat(set).isNotEmpty();
        assertThat(read).containsAll(set);
    }

    private static Set<String> expected(String... watched) {
        Set<String> expected = new TreeSet<>();
        for (String ns : watched) {
            expected.addAll(OperatorPermissions.grants(ns, OperatorPermissions.WATCHED_NAMESPACES));
        }
        expected.addAll(OperatorPermissions.grants(NAMESPACE, OperatorPermissions.LEADER_ELECTION));
        return expected;
    }

    private static void assertProbe(Probe probe, String path) {
        assertThat(probe).as("probe on " + path).isNotNull();
        assertThat(probe.getHttpGet().getPath()).isEqualTo(path);
        assertThat(probe.getHttpGet().getPort().getStrVal()).isEqualTo("http");
    }
}
