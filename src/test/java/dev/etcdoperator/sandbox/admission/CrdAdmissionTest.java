package dev.etcdoperator.sandbox.admission;

import static dev.etcdoperator.sandbox.admission.CrdAdmissionTestSupport.GROUP;
import static dev.etcdoperator.sandbox.admission.CrdAdmissionTestSupport.create;
import static dev.etcdoperator.sandbox.admission.CrdAdmissionTestSupport.yaml;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import com.fasterxml.jackson.databind.JsonNode;

import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.utils.Serialization;

/** Admission of our three kinds from the committed CRDs in {@code crds/}. */
class CrdAdmissionTest {
    private static final CrdAdmission ADMISSION = CrdAdmissionTestSupport.projectCrds();

    static Stream<Path> examples() throws IOException {
        try (Stream<Path> files = Files.list(Path.of("docs/examples"))) {
            return files.filter(f -> f.toString().endsWith(".yaml")).sorted().toList().stream();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("examples")
    void everyDocumentedExampleIsAdmittedUnchanged(Path example) throws IOException {
        List<JsonNode> documents = CrdAdmission.readYaml(example);
        assertThat(documents).isNotEmpty();
        for (JsonNode document : documents) {
            AdmissionResult result = create(ADMISSION, document);

            assertThat(result.allowed()).as("%s: %s", example, result).isTrue();
            assertThat(result.object()).as("nothing in an example is pruned").isEqualTo(document);
        }
    }

    static List<InvalidManifest> invalidManifests() throws IOException {
        return InvalidManifest.all();
    }

    @Test
    void thereAreInvalidManifestsToTest() throws IOException {
        assertThat(invalidManifests()).hasSizeGreaterThanOrEqualTo(12);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("invalidManifests")
    void everyInvalidManifestIsRefusedWithTheExpectedCause(InvalidManifest manifest) {
        AdmissionResult result = create(ADMISSION, manifest.object());

        assertThat(result.allowed()).as("%s is refused", manifest).isFalse();
        assertThat(result.causes())
                .as("%s has a cause on %s containing '%s'", manifest, manifest.expectedField(), manifest.expectedMessage())
                .anySatisfy(cause -> {
                    assertThat(cause.field()).isEqualTo(manifest.expectedField());
                    assertThat(cause.message()).contains(manifest.expectedMessage());
                });
        assertThat(result.message()).startsWith(manifest.kind() + "." + GROUP + " \"bad\" is invalid: ");
    }

    @Test
    void aRefusalRendersTheApiServersStatus() {
        JsonNode cluster = yaml("""
                apiVersion: etcd.database.coreos.com/v1beta2
                kind: EtcdCluster
                metadata: {name: bad}
                spec: {size: 0}
                """);

        AdmissionResult result = create(ADMISSION, cluster);

        assertThat(result.statusJson()).isEqualTo("""
                {"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",\
                "message":"EtcdCluster.etcd.database.coreos.com \\"bad\\" is invalid: spec.size: Invalid value: 0: \
                spec.size in body should be greater than or equal to 1","reason":"Invalid",\
                "details":{"name":"bad","group":"etcd.database.coreos.com","kind":"EtcdCluster",\
                "causes":[{"reason":"FieldValueInvalid","message":"Invalid value: 0: spec.size in body should be \
                greater than or equal to 1","field":"spec.size"}]},"code":422}""");
    }

    @Test
    void severalErrorsAreListedInBrackets() {
        JsonNode cluster = yaml("""
                apiVersion: etcd.database.coreos.com/v1beta2
                kind: EtcdCluster
                metadata: {name: bad}
                spec: {size: 9, version: latest}
                """);

        AdmissionResult result = create(ADMISSION, cluster);

        assertThat(result.causes()).extracting(Cause::field).containsExactlyInAnyOrder("spec.size", "spec.version");
        assertThat(result.message()).matches("EtcdCluster\\.etcd\\.database\\.coreos\\.com \"bad\" is invalid: \\[.*, .*]");
    }

    @Test
    void unknownFieldsArePrunedButMetadataAndStatusAreKept() {
        JsonNode cluster = yaml("""
                apiVersion: etcd.database.coreos.com/v1beta2
                kind: EtcdCluster
                metadata: {name: example, labels: {a: b}}
                spec:
                  size: 3
                  sizee: 5
                  pod: {labels: {team: storage}, unknownPodField: true}
                status: {phase: Running, notInSchema: 1}
                """);

        AdmissionResult result = create(ADMISSION, cluster);

        assertThat(result.allowed()).as(result.toString()).isTrue();
        assertThat(result.object().path("spec")).isEqualTo(yaml("{size: 3, pod: {labels: {team: storage}}}"));
        assertThat(result.object().path("metadata")).isEqualTo(cluster.path("metadata"));
        assertThat(result.object().path("status")).isEqualTo(cluster.path("status"));
        assertThat(cluster.path("spec").has("sizee")).as("the caller's object is not changed").isTrue();
    }

    @Test
    void fieldsUnderPreserveUnknownFieldsAreKept() {
        JsonNode backup = yaml("""
                apiVersion: etcd.database.coreos.com/v1beta2
                kind: EtcdBackup
                metadata: {name: gcs}
                spec:
                  etcdCluster: {name: example}
                  storageType: GCS
                  gcs: {path: bucket/key, gcpSecret: gcp, nested: {anything: [1, two]}}
                """);

        AdmissionResult result = create(ADMISSION, backup);

        assertThat(result.allowed()).as(result.toString()).isTrue();
        assertThat(result.object().path("spec").path("gcs")).isEqualTo(backup.path("spec").path("gcs"));
    }

    @Test
    void anIntOrStringQuantityMayBeAStringOrAnInteger() {
        String cluster = """
                apiVersion: etcd.database.coreos.com/v1beta2
                kind: EtcdCluster
                metadata: {name: example}
                spec:
                  size: 1
                  pod: {resources: {limits: {memory: %s}}}
                """;

        assertThat(create(ADMISSION, yaml(cluster.formatted("1Gi"))).allowed()).isTrue();
        assertThat(create(ADMISSION, yaml(cluster.formatted("1"))).allowed()).isTrue();
        AdmissionResult aBoolean = create(ADMISSION, yaml(cluster.formatted("true")));
        assertThat(aBoolean.causes()).first().satisfies(cause -> {
            assertThat(cause.field()).isEqualTo("spec.pod.resources.limits.memory");
            assertThat(cause.reason()).isEqualTo(Cause.TYPE_INVALID);
            assertThat(cause.message()).contains("must be of type integer,string: \"boolean\"");
        });
    }

    @Test
    void aNameOrGenerateNameIsRequired() {
        String cluster = """
                apiVersion: etcd.database.coreos.com/v1beta2
                kind: EtcdCluster
                metadata: {%s}
                spec: {size: 1}
                """;

        assertThat(create(ADMISSION, yaml(cluster.formatted("generateName: example-"))).allowed()).isTrue();
        assertThat(create(ADMISSION, yaml(cluster.formatted(""))).causes()).contains(
                new Cause("metadata.name", Cause.REQUIRED, "Required value: name or generateName is required"),
                new Cause("<nil>", Cause.INVALID, "Invalid value: \"null\": some validation rules were not checked"
                        + " because the object was invalid; correct the existing errors to complete validation"));
    }

    @Test
    void rulesAreNotRunWhenTheSchemaFoundATypeError() {
        JsonNode backup = yaml("""
                apiVersion: etcd.database.coreos.com/v1beta2
                kind: EtcdBackup
                metadata: {name: bad}
                spec: {storageType: S3, backupPolicy: {maxBackups: many}}
                """);

        AdmissionResult result = create(ADMISSION, backup);

        assertThat(result.causes()).extracting(Cause::field).containsExactly("spec.backupPolicy.maxBackups", "<nil>");
    }

    @Test
    void anApiVersionTheCrdDoesNotServeIsRefused() {
        JsonNode cluster = yaml("""
                apiVersion: etcd.database.coreos.com/v1
                kind: EtcdCluster
                metadata: {name: example}
                spec: {size: 1}
                """);

        AdmissionResult result = create(ADMISSION, cluster);

        assertThat(result.causes()).containsExactly(new Cause("apiVersion", Cause.NOT_SUPPORTED,
                "Unsupported value: \"etcd.database.coreos.com/v1\": supported values: "
                        + "\"etcd.database.coreos.com/v1beta2\""));
    }

    @Test
    void objectsOfOtherKindsAreAllowedUnchanged() {
        JsonNode configMap = yaml("{apiVersion: v1, kind: ConfigMap, metadata: {name: c}, data: {x: y}, junk: 1}");

        AdmissionResult result = ADMISSION.admit("", "configmaps", CrdAdmission.CREATE, configMap, null);

        assertThat(result.allowed()).isTrue();
        assertThat(result.object()).isSameAs(configMap);
    }

    @Test
    void parsedCrdObjectsWorkAsWellAsYaml() throws IOException {
        CustomResourceDefinition crd = Serialization.unmarshal(
                Files.readString(Path.of("crds/etcdclusters.etcd.database.coreos.com-v1.yml")),
                CustomResourceDefinition.class);
        CrdAdmission admission = CrdAdmission.fromDefinitions(List.of(crd));

        AdmissionResult result = create(admission, yaml("""
                apiVersion: etcd.database.coreos.com/v1beta2
                kind: EtcdCluster
                metadata: {name: bad}
                spec: {size: 3, pod: {labels: {app: x}}}
                """));

        assertThat(result.causes()).extracting(Cause::field, Cause::message).containsExactly(
                tuple("spec.pod.labels",
                        "Invalid value: \"object\": labels 'app' and 'etcd_*' are reserved for the operator"));
    }
}
