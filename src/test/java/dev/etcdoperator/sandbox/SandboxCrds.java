package dev.etcdoperator.sandbox;

import java.util.Map;

import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionVersion;
import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaProps;
import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaPropsBuilder;

/** CRD helpers of the sandbox. */
final class SandboxCrds {
    private SandboxCrds() {
    }

    static boolean established(CustomResourceDefinition crd) {
        return crd != null && crd.getStatus() != null && crd.getStatus().getConditions() != null
                && crd.getStatus().getConditions().stream()
                        .anyMatch(c -> "Established".equals(c.getType()) && "True".equals(c.getStatus()));
    }

    /** The same CRD with a schema that keeps any field under spec and status, and without a scale subresource. */
    static CustomResourceDefinition withoutSchema(CustomResourceDefinition crd) {
        JSONSchemaProps open = new JSONSchemaPropsBuilder().withType("object").withXKubernetesPreserveUnknownFields(true)
                .build();
        for (CustomResourceDefinitionVersion version : crd.getSpec().getVersions()) {
            version.getSchema().setOpenAPIV3Schema(new JSONSchemaPropsBuilder().withType("object")
                    .withProperties(Map.of("spec", open, "status", open)).build());
            if (version.getSubresources() != null) {
                version.getSubresources().setScale(null);
            }
        }
        return crd;
    }
}
