package dev.etcdoperator.api.crd;

import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

import dev.etcdoperator.api.v1beta2.EtcdBackup;
import dev.etcdoperator.api.v1beta2.EtcdCluster;
import dev.etcdoperator.api.v1beta2.EtcdRestore;
import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.crdv2.generator.CRDPostProcessor;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceColumnDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionVersion;

/**
 * Finishes the CRDs the build generates (set as {@code quarkus.operator-sdk.crd.post-processor}; runs at build time
 * only): printer columns in the order they are declared on the resource class, where the generator sorts them by
 * JSON path.
 */
public class CrdPostProcessor implements CRDPostProcessor {
    private static final Map<String, Class<?>> RESOURCES = Map.of("EtcdCluster", EtcdCluster.class,
            "EtcdBackup", EtcdBackup.class, "EtcdRestore", EtcdRestore.class);

    @Override
    public HasMetadata process(HasMetadata resource, String crdSpecVersion) {
        if (resource instanceof CustomResourceDefinition crd && RESOURCES.containsKey(crd.getSpec().getNames().getKind())) {
            List<String> declared = Arrays.stream(RESOURCES.get(crd.getSpec().getNames().getKind())
                    .getAnnotationsByType(AdditionalPrinterColumn.class)).map(AdditionalPrinterColumn::name).toList();
            for (CustomResourceDefinitionVersion version : crd.getSpec().getVersions()) {
                if (version.getAdditionalPrinterColumns() != null) {
                    version.getAdditionalPrinterColumns().sort(Comparator.comparingInt(
                            (CustomResourceColumnDefinition c) -> rank(declared, c.getName())));
                }
            }
        }
        return resource;
    }

    private static int rank(List<String> declared, String name) {
        int i = declared.indexOf(name);
        return i < 0 ? declared.size() : i;
    }
}
