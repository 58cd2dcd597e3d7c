package dev.etcdoperator.crd;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;

import org.junit.jupiter.api.Test;

/** docs/api-reference.md is what the committed CRDs say. */
class ApiReferenceTest {

    @Test
    void theCommittedApiReferenceIsRenderedFromTheCommittedCrds() throws Exception {
        String rendered = ApiReference.render();
        if (Boolean.getBoolean("api.reference.write")) {
            Files.writeString(ApiReference.PAGE, rendered);
        }
        assertThat(rendered).contains("| `spec.size`", "| `spec.backupPolicy.maxBackups`", "| `status.phase`");
        assertThat(Files.readString(ApiReference.PAGE)).as("docs/api-reference.md is out of date with crds/: run"
                + " ./mvnw -B -o test -Dtest=ApiReferenceTest -Dapi.reference.write=true").isEqualTo(rendered);
    }
}
