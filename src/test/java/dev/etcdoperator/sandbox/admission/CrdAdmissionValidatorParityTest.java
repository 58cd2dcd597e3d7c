package dev.etcdoperator.sandbox.admission;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.util.List;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import com.fasterxml.jackson.databind.exc.MismatchedInputException;

import dev.etcdoperator.api.v1beta2.EtcdBackup;
import dev.etcdoperator.api.v1beta2.EtcdCluster;
import dev.etcdoperator.api.v1beta2.EtcdRestore;
import dev.etcdoperator.core.validation.BackupSpecValidator;
import dev.etcdoperator.core.validation.ClusterSpecValidator;
import dev.etcdoperator.core.validation.RestoreSpecValidator;
import dev.etcdoperator.core.validation.Validation;
import io.fabric8.kubernetes.client.utils.Serialization;

/**
 * Every manifest the sandbox's admission refuses is refused by the operator's own validators too, which guard
 * clusters where the CRD's schema is absent or bypassed. A manifest marked {@code # java: undeserializable} cannot
 * be read into the model classes at all; for those the test asserts that reading fails.
 */
class CrdAdmissionValidatorParityTest {

    static List<InvalidManifest> invalidManifests() throws IOException {
        return InvalidManifest.all();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("invalidManifests")
    void theOperatorsValidatorRefusesWhatAdmissionRefuses(InvalidManifest manifest) {
        if (manifest.undeserializable()) {
            assertThatThrownBy(() -> validate(manifest))
                    .as("%s is marked undeserializable: the model classes must fail to read it", manifest)
                    .hasRootCauseInstanceOf(MismatchedInputException.class);
            return;
        }
        Validation validation = validate(manifest);

        assertThat(validation.valid()).as("%s is refused by the operator's validator", manifest).isFalse();
    }

    private static Validation validate(InvalidManifest manifest) {
        return switch (manifest.kind()) {
            case "EtcdCluster" -> new ClusterSpecValidator()
                    .validate(Serialization.unmarshal(manifest.yaml(), EtcdCluster.class).getSpec());
            case "EtcdBackup" -> new BackupSpecValidator()
                    .validate(Serialization.unmarshal(manifest.yaml(), EtcdBackup.class).getSpec());
            case "EtcdRestore" -> new RestoreSpecValidator()
                    .validate(Serialization.unmarshal(manifest.yaml(), EtcdRestore.class).getSpec());
            default -> throw new AssertionError(manifest + " has an unknown kind " + manifest.kind());
        };
    }
}
