package dev.etcdoperator.crd;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * The CRDs under crds/ are copies of what the build generates into target/kubernetes/, and the Helm chart's crds/
 * are copies of those. They must not drift. The Quarkus build generates them during {@code process-classes}, before
 * tests run.
 */
class CommittedCrdsTest {
    static final String REFRESH = "./mvnw -q -DskipTests package && cp target/kubernetes/*.etcd.database.coreos.com-v1.yml crds/"
            + " && cp crds/*.yml helm/etcd-operator/crds/";
    static final Path CHART_CRDS = Path.of("helm", "etcd-operator", "crds");

    @Test
    void committedCrdsMatchTheGeneratedOnes() throws IOException {
        Path generated = Path.of("target", "kubernetes");
        List<Path> generatedCrds = crdsIn(generated);
        assertThat(generatedCrds).as("the build generates one CRD per kind into " + generated).hasSize(3);
        assertThat(crdsIn(Path.of("crds"))).as("crds/ holds the same files; refresh with: " + REFRESH)
                .map(p -> p.getFileName().toString())
                .containsExactlyElementsOf(generatedCrds.stream().map(p -> p.getFileName().toString()).toList());
        for (Path crd : generatedCrds) {
            assertThat(Files.readString(Path.of("crds").resolve(crd.getFileName())))
                    .as(crd.getFileName() + " in crds/ has drifted from the generated CRD; refresh with: " + REFRESH)
                    .isEqualTo(Files.readString(crd));
        }
    }

    @Test
    void theHelmChartShipsTheCommittedCrds() throws IOException {
        List<Path> committed = crdsIn(Path.of("crds"));
        assertThat(crdsIn(CHART_CRDS)).as(CHART_CRDS + " holds the same files as crds/; refresh with: " + REFRESH)
                .map(p -> p.getFileName().toString())
                .containsExactlyElementsOf(committed.stream().map(p -> p.getFileName().toString()).toList());
        try (Stream<Path> all = Files.list(CHART_CRDS)) {
            assertThat(all.map(p -> p.getFileName().toString())).as("nothing else in " + CHART_CRDS)
                    .containsExactlyInAnyOrderElementsOf(committed.stream().map(p -> p.getFileName().toString()).toList());
        }
        for (Path crd : committed) {
            assertThat(Files.readString(CHART_CRDS.resolve(crd.getFileName())))
                    .as(crd.getFileName() + " in " + CHART_CRDS + " differs from crds/; refresh with: " + REFRESH)
                    .isEqualTo(Files.readString(crd));
        }
    }

    private static List<Path> crdsIn(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(f -> f.getFileName().toString().endsWith(".etcd.database.coreos.com-v1.yml"))
                    .sorted().toList();
        }
    }
}
