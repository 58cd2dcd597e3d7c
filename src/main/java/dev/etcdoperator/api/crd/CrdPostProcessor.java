package dev.etcdoperator.api.crd;

import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.node.BooleanNode;
import dev.etcdoperator.api.v1beta2.EtcdBackup;
import dev.etcdoperator.api.v1beta2.EtcdCluster;
import dev.etcdoperator.api.v1beta2.EtcdRestore;
import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.crdv2.generator.CRDPostProcessor;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceColumnDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionVersion;
import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaProps;

/**
 * Finishes the CRDs the build generates (set as {@code quarkus.operator-sdk.crd.post-processor}; runs at build time
 * only): printer columns in the order they are declared on the resource class, where the generator sorts them by
 * JSON path; descriptions for the kind, its spec and status, and the fields of the embedded Kubernetes types
 * ({@link KubernetesDescriptions}), which the generator leaves without; and the bounds and patterns that keep out
 * values the operator could not read ({@link ReadableValueRules}).
 */
public class CrdPostProcessor implements CRDPostProcessor {
    private static final Map<String, Class<?>> RESOURCES = Map.of("EtcdCluster", EtcdCluster.class,
            "EtcdBackup", EtcdBackup.class, "EtcdRestore", EtcdRestore.class);
    /** Per kind: what it is, its spec, its status. */
    private static final Map<String, List<String>> DESCRIPTIONS = Map.of(
            "EtcdCluster", List.of("An etcd cluster run by the operator: members, Services, upgrades and healing.",
                    "The cluster wanted: size, version, pod policy and TLS.",
                    "What the operator last observed and did; written by the operator."),
            "EtcdBackup", List.of("A backup of an etcd cluster to S3-compatible storage, once or periodically.",
                    "What to back up, where to, how often and how many to keep.",
                    "The outcome of the last attempt and the last successful backup; written by the operator."),
            "EtcdRestore", List.of("Rebuilds an EtcdCluster from a backup, after checking the backup and changing"
                    + " nothing.", "The cluster to restore and where its backup is.",
                    "Where the restore stands and what it saved; written by the operator."));

    private final KubernetesDescriptions kubernetes = KubernetesDescriptions.load();

    @Override
    public HasMetadata process(HasMetadata resource, String crdSpecVersion) {
        if (resource instanceof CustomResourceDefinition crd && RESOURCES.containsKey(crd.getSpec().getNames().getKind())) {
            List<String> declared = Arrays.stream(RESOURCES.get(crd.getSpec().getNames().getKind())
                    .getAnnotationsByType(AdditionalPrinterColumn.class)).map(AdditionalPrinterColumn::name).toList();
            for (CustomResourceDefinitionVersion version : crd.getSpec().getVersions()) {
                describe(version.getSchema().getOpenAPIV3Schema(), DESCRIPTIONS.get(crd.getSpec().getNames().getKind()));
                readable(version.getSchema().getOpenAPIV3Schema(), RESOURCES.get(crd.getSpec().getNames().getKind()));
                kubernetes.describe(version.getSchema().getOpenAPIV3Schema());
                quantitiesTakeNumbers(version.getSchema().getOpenAPIV3Schema());
                if (version.getAdditionalPrinterColumns() != null) {
                    version.getAdditionalPrinterColumns().sort(Comparator.comparingInt(
                            (CustomResourceColumnDefinition c) -> rank(declared, c.getName())));
                }
            }
        }
        return resource;
    }

    private static void describe(JSONSchemaProps root, List<String> descriptions) {
        root.setDescription(descriptions.get(0));
        root.getProperties().get("spec").setDescription(descriptions.get(1));
        root.getProperties().get("status").setDescription(descriptions.get(2));
    }

    /** Spec and status admit only what their Java types can read ({@link ReadableValueRules}). */
    private static void readable(JSONSchemaProps root, Class<?> resource) {
        Type[] specAndStatus = ((ParameterizedType) resource.getGenericSuperclass()).getActualTypeArguments();
        ReadableValueRules.apply(root.getProperties().get("spec"), specAndStatus[0]);
        ReadableValueRules.apply(root.getProperties().get("status"), specAndStatus[1]);
    }

    /**
     * A quantity ({@code cpu: 0.5}) may be a number in a manifest, as in a pod's and in the CoreOS operator's CRD,
     * which had no schema: the generator's integer-or-string refuses it. A structural schema has no type for "number
     * or string", so such a node keeps any value, and CEL cannot see it. Keywords that apply to one kind of value
     * each refuse the rest, which the operator could not read (and one object it cannot read stops its watch of the
     * whole kind): a string must read as a quantity; no object has at least one and at most no properties, no list at
     * least one and at most no items; a boolean is not one.
     */
    static void quantitiesTakeNumbers(JSONSchemaProps node) {
        if (node == null) {
            return;
        }
        if (Boolean.TRUE.equals(node.getXKubernetesIntOrString()) && node.getPattern() != null
                && node.getPattern().contains("[KMGTPE]i")) {
            node.setXKubernetesIntOrString(null);
            node.setAnyOf(new ArrayList<>());
            node.setXKubernetesPreserveUnknownFields(true);
            node.setMinProperties(1L);
            node.setMaxProperties(0L);
            node.setMinItems(1L);
            node.setMaxItems(0L);
            JSONSchemaProps booleans = new JSONSchemaProps();
            booleans.setEnum(List.of(BooleanNode.TRUE, BooleanNode.FALSE));
            node.setNot(booleans);
        }
        if (node.getProperties() != null) {
            node.getProperties().values().forEach(CrdPostProcessor::quantitiesTakeNumbers);
        }
        if (node.getAdditionalProperties() != null) {
            quantitiesTakeNumbers(node.getAdditionalProperties().getSchema());
        }
        if (node.getItems() != null) {
            quantitiesTakeNumbers(node.getItems().getSchema());
            if (node.getItems().getJSONSchemas() != null) {
                node.getItems().getJSONSchemas().forEach(CrdPostProcessor::quantitiesTakeNumbers);
            }
        }
    }

    private static int rank(List<String> declared, String name) {
        int i = declared.indexOf(name);
        return i < 0 ? declared.size() : i;
    }
}
