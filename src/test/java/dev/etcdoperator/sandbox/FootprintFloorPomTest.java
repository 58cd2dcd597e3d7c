package dev.etcdoperator.sandbox;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;

import javax.xml.parsers.DocumentBuilderFactory;

import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/** The footprint benchmark's baseline is built on the operator's own stack: the same versions, the same model jars. */
class FootprintFloorPomTest {
    private static final Path OPERATOR = Path.of("pom.xml");
    private static final Path FLOOR = FootprintFloor.PROJECT.resolve("pom.xml");

    @Test
    void floorUsesTheOperatorsQuarkusAndOperatorSdkVersions() throws Exception {
        for (String property : new String[] {"quarkus.version", "quarkus-operator-sdk.version"}) {
            assertThat(property(FLOOR, property)).as(property).isNotBlank().isEqualTo(property(OPERATOR, property));
        }
    }

    @Test
    void floorLeavesOutTheModelJarsTheOperatorLeavesOut() throws Exception {
        Set<String> operator = excludedModels(OPERATOR);
        assertThat(operator).as("model jars the operator leaves out").contains("kubernetes-model-gatewayapi");
        assertThat(excludedModels(FLOOR)).isEqualTo(operator);
    }

    private static Document read(Path pom) throws Exception {
        return DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(pom.toFile());
    }

    private static String property(Path pom, String name) throws Exception {
        NodeList nodes = read(pom).getElementsByTagName(name);
        return nodes.getLength() == 0 ? null : nodes.item(0).getTextContent().strip();
    }

    /** Per dependency that excludes any: the fabric8 model artifacts it excludes; all must agree. */
    private static Set<String> excludedModels(Path pom) throws Exception {
        NodeList dependencies = read(pom).getElementsByTagName("dependency");
        Set<String> first = null;
        for (int i = 0; i < dependencies.getLength(); i++) {
            Set<String> models = new TreeSet<>();
            NodeList exclusions = ((Element) dependencies.item(i)).getElementsByTagName("exclusion");
            for (int j = 0; j < exclusions.getLength(); j++) {
                String artifact = ((Element) exclusions.item(j)).getElementsByTagName("artifactId").item(0)
                        .getTextContent().strip();
                if (artifact.startsWith("kubernetes-model-")) {
                    models.add(artifact);
                }
            }
            if (models.isEmpty()) {
                continue;
            }
            if (first == null) {
                first = models;
            } else {
                assertThat(models).as("model exclusions of every dependency that brings the client in " + pom)
                        .isEqualTo(first);
            }
        }
        return first == null ? Set.of() : first;
    }
}
