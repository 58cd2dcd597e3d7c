package dev.etcdoperator.core.validation;

import static org.assertj.core.api.Assertions.assertThat;

import dev.etcdoperator.api.v1beta2.EtcdClusterSpec;
import dev.etcdoperator.api.v1beta2.PodPolicy;
import org.junit.jupiter.api.Test;

class ClusterSpecValidatorTest {
    private final ClusterSpecValidator validator = new ClusterSpecValidator();

    private static EtcdClusterSpec spec(int size, String retention) {
        EtcdClusterSpec spec = new EtcdClusterSpec();
        spec.setSize(size);
        PodPolicy pod = new PodPolicy();
        pod.setPersistentVolumeClaimRetention(retention);
        spec.setPod(pod);
        return spec;
    }

    @Test
    void claimRetentionIsDeleteOrRetain() {
        assertThat(validator.validate(spec(3, null)).valid()).isTrue();
        assertThat(validator.validate(spec(3, "Delete")).valid()).isTrue();
        assertThat(validator.validate(spec(3, "Retain")).valid()).isTrue();
        Validation bad = validator.validate(spec(3, "Keep"));
        assertThat(bad.errors()).singleElement().satisfies(e -> {
            assertThat(e.path()).isEqualTo("spec.pod.persistentVolumeClaimRetention");
            assertThat(e.message()).contains("\"Keep\"");
        });
    }

    @Test
    void everyProblemIsListedAtOnce() {
        EtcdClusterSpec spec = spec(0, "Keep");
        spec.setVersion("latest");
        spec.getPod().setLabels(java.util.Map.of("app", "x", "etcd_node", "y"));
        assertThat(validator.validate(spec).errors()).extracting(FieldError::path).containsExactly("spec.size",
                "spec.version", "spec.pod.labels", "spec.pod.labels", "spec.pod.persistentVolumeClaimRetention");
    }
}
