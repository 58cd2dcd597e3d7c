package dev.etcdoperator.sandbox.admission;

import static dev.etcdoperator.sandbox.admission.CrdAdmissionTestSupport.yaml;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

/** Schema keywords our own CRDs do not use, on a small CRD written for the test. */
class CrdAdmissionSchemaKeywordsTest {
    private static final String GROUP = "example.dev";
    private static final String CRD = """
            apiVersion: apiextensions.k8s.io/v1
            kind: CustomResourceDefinition
            metadata: {name: widgets.example.dev}
            spec:
              group: example.dev
              names: {kind: Widget, plural: widgets}
              scope: Namespaced
              versions:
              - name: v1
                served: true
                storage: true
                schema:
                  openAPIV3Schema:
                    type: object
                    properties:
                      spec:
                        type: object
                        required: [name]
                        properties:
                          name:
                            type: string
                            minLength: 1
                            x-kubernetes-validations:
                            - rule: self == oldSelf
                              message: name is immutable
                          replicas: {type: integer, default: 1, maximum: 5}
                          mode: {type: string, enum: [Fast, Safe], default: Safe}
                          nickname: {type: string, nullable: true}
                          tier: {type: string}
                          options:
                            type: object
                            default: {}
                            properties:
                              retries: {type: integer, default: 3}
                          ports:
                            type: array
                            items:
                              type: object
                              properties:
                                port: {type: integer}
                                protocol: {type: string, default: TCP}
                        x-kubernetes-validations:
                        - rule: "!has(self.tier) || self.replicas >= 2"
                          messageExpression: "'tier ' + self.tier + ' needs 2 replicas'"
                          fieldPath: .replicas
            """;
    private static final CrdAdmission ADMISSION = CrdAdmission.fromCrds(List.of(yaml(CRD)));

    private static JsonNode widget(String spec) {
        return yaml("{apiVersion: example.dev/v1, kind: Widget, metadata: {name: w}, spec: " + spec + "}");
    }

    private static AdmissionResult create(JsonNode widget) {
        return ADMISSION.admit(GROUP, "widgets", CrdAdmission.CREATE, widget, null);
    }

    private static AdmissionResult update(JsonNode widget, JsonNode old) {
        return ADMISSION.admit(GROUP, "widgets", CrdAdmission.UPDATE, widget, old);
    }

    @Test
    void defaultsAreAppliedAtEveryLevel() {
        AdmissionResult result = create(widget("{name: a, ports: [{port: 80}, {port: 53, protocol: UDP}]}"));

        assertThat(result.allowed()).as(result.toString()).isTrue();
        assertThat(result.object().path("spec")).isEqualTo(yaml("""
                {name: a, replicas: 1, mode: Safe, options: {retries: 3},
                 ports: [{port: 80, protocol: TCP}, {port: 53, protocol: UDP}]}
                """));
    }

    @Test
    void aNullIsReplacedByTheDefaultOrDroppedUnlessTheFieldIsNullable() {
        AdmissionResult result = create(widget("{name: a, replicas: null, tier: null, nickname: null}"));

        assertThat(result.allowed()).as(result.toString()).isTrue();
        JsonNode spec = result.object().path("spec");
        assertThat(spec.path("replicas").asInt()).isEqualTo(1);
        assertThat(spec.has("tier")).isFalse();
        assertThat(spec.get("nickname").isNull()).isTrue();
    }

    @Test
    void enumAndLengthAreChecked() {
        AdmissionResult result = create(widget("{name: '', mode: Turbo}"));

        assertThat(result.causes()).contains(
                new Cause("spec.name", Cause.INVALID, "Invalid value: \"\": spec.name in body should be at least 1 chars long"),
                new Cause("spec.mode", Cause.NOT_SUPPORTED, "Unsupported value: \"Turbo\": supported values: \"Fast\", \"Safe\""));
    }

    @Test
    void aRuleMayReportOnAFieldBelowItWithAComputedMessage() {
        AdmissionResult result = create(widget("{name: a, tier: gold}"));

        assertThat(result.causes()).containsExactly(
                new Cause("spec.replicas", Cause.INVALID, "Invalid value: \"object\": tier gold needs 2 replicas"));
    }

    @Test
    void aTransitionRuleComparesWithTheOldObjectOnUpdateOnly() {
        JsonNode old = create(widget("{name: a}")).object();

        assertThat(update(widget("{name: a, replicas: 2}"), old).allowed()).isTrue();
        assertThat(update(widget("{name: b}"), old).causes()).containsExactly(
                new Cause("spec.name", Cause.INVALID, "Invalid value: \"string\": name is immutable"));
        assertThat(create(widget("{name: b}")).allowed()).as("no oldSelf on CREATE: the rule is not run").isTrue();
    }

    @Test
    void aRuleThatDoesNotCompileIsRefusedWithTheCrd() {
        String broken = CRD.replace("self == oldSelf", "self ==");

        assertThatThrownBy(() -> CrdAdmission.fromCrds(List.of(yaml(broken))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("cannot compile self ==");
    }
}
