package dev.etcdoperator.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import dev.etcdoperator.api.v1beta2.EtcdBackup;
import dev.etcdoperator.api.v1beta2.EtcdCluster;
import dev.etcdoperator.api.v1beta2.EtcdRestore;
import dev.etcdoperator.core.validation.BackupSpecValidator;
import dev.etcdoperator.core.validation.ClusterSpecValidator;
import dev.etcdoperator.core.validation.RestoreSpecValidator;
import dev.etcdoperator.core.validation.Validation;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every EtcdCluster, EtcdBackup and EtcdRestore in docs/examples (the sandbox's, and those for a real cluster in
 * docs/examples/cluster) is one the operator accepts. The sandbox's are also applied to a real API server by
 * SandboxIT; those for a real cluster cannot run here (no cluster), so this is what checks them.
 */
class ExamplesTest {
    static final Path EXAMPLES = Path.of("docs", "examples");

    static Stream<Path> examples() throws IOException {
        try (Stream<Path> files = Files.walk(EXAMPLES)) {
            List<Path> yaml = files.filter(p -> p.toString().endsWith(".yaml")).sorted().toList();
            assertThat(yaml).as("examples under %s", EXAMPLES).isNotEmpty();
            return yaml.stream();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("examples")
    void everyOperatorResourceInTheExamplesIsValid(Path file) throws IOException {
        for (String document : Files.readString(file).split("(?m)^---\\s*$")) {
            if (document.isBlank() || !document.contains("etcd.database.coreos.com/")) {
                continue;
            }
            String kind = Serialization.unmarshal(document, GenericKubernetesResource.class).getKind();
            HasMetadata resource;
            Validation validation;
            switch (kind) {
                case "EtcdCluster" -> {
                    EtcdCluster c = Serialization.unmarshal(document, EtcdCluster.class);
                    resource = c;
                    validation = new ClusterSpecValidator().validate(c.getSpec());
                }
                case "EtcdBackup" -> {
                    EtcdBackup b = Serialization.unmarshal(document, EtcdBackup.class);
                    resource = b;
                    validation = new BackupSpecValidator().validate(b.getSpec());
                }
                case "EtcdRestore" -> {
                    EtcdRestore r = Serialization.unmarshal(document, EtcdRestore.class);
                    resource = r;
                    validation = new RestoreSpecValidator().validate(r.getSpec());
                }
                default -> throw new AssertionError(file + ": unexpected kind " + kind);
            }
            assertThat(validation.valid()).as("%s %s: %s", file, resource.getMetadata().getName(),
                    validation.message()).isTrue();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("examples")
    void theClusterExamplesReachTheirStoreInsideTheCluster(Path file) throws IOException {
        if (!file.startsWith(EXAMPLES.resolve("cluster"))) {
            return;
        }
        assertThat(Files.readString(file)).as(file + " must not point at the sandbox's loopback S3")
                .doesNotContain("127.0.0.1");
    }
}
