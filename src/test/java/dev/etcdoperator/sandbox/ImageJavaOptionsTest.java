package dev.etcdoperator.sandbox;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

/** The sandbox runs the operator with the JVM options the image's launcher would give it in the chart's pod. */
class ImageJavaOptionsTest {

    @Test
    void theImagesDefaultsApplyWhereTheContainerSetsNothing() {
        Map<String, String> env = ImageJavaOptions.environment(Map.of());
        assertThat(env).containsEntry("JAVA_MAX_MEM_RATIO", "50")
                .containsEntry("JAVA_OPTS_APPEND", "-XX:SharedArchiveFile=/deployments/operator.jsa"
                        + " -Dquarkus.http.host=0.0.0.0 -Djava.util.logging.manager=org.jboss.logmanager.LogManager");
        assertThat(ImageJavaOptions.of(env, 512L << 20)).containsSubsequence("-XX:MaxRAM=536870912",
                "-XX:MaxRAMPercentage=50.0", "-XX:+UseParallelGC", "-XX:+ExitOnOutOfMemoryError",
                "-Dquarkus.http.host=0.0.0.0");
    }

    @Test
    void theContainersVariablesReplaceTheImagesAndTheGcAndOptionsFollowThem() {
        Map<String, String> env = ImageJavaOptions.environment(Map.of("JAVA_MAX_MEM_RATIO", "40",
                "GC_CONTAINER_OPTIONS", "-XX:+UseSerialGC", "JAVA_OPTS_APPEND", "-Xss512k  -Dx=y"));
        List<String> options = ImageJavaOptions.of(env, 320L << 20);
        assertThat(options).containsSubsequence("-XX:MaxRAM=335544320", "-XX:MaxRAMPercentage=40.0",
                "-XX:+UseSerialGC", "-XX:MinHeapFreeRatio=10", "-Xss512k", "-Dx=y")
                .doesNotContain("-XX:+UseParallelGC", "-Dquarkus.http.host=0.0.0.0");
        assertThat(ImageJavaOptions.of(Map.of("JAVA_MAX_MEM_RATIO", "0"), 0))
                .noneMatch(o -> o.startsWith("-XX:MaxRAM"));
    }
}
