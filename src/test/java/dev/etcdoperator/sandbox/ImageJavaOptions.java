package dev.etcdoperator.sandbox;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The JVM options the operator image's launcher ({@code run-java.sh} of {@code ubi9/openjdk-17-runtime}, see
 * {@code src/main/docker/Dockerfile.jvm}) gives {@code java}, worked out from the container's environment: the
 * image's {@code ENV} lines, overridden by the variables the chart's Deployment sets. {@code JAVA_MAX_MEM_RATIO} as {@code -XX:MaxRAMPercentage} (80 when unset),
 * {@code GC_CONTAINER_OPTIONS} in place of the image's {@code -XX:+UseParallelGC}, the image's fixed GC and
 * error-handling options, then {@code JAVA_OPTS_APPEND}. A container's memory limit, which the JVM reads from its
 * cgroup, is given here as {@code -XX:MaxRAM}, so that the heap is sized as in the pod.
 */
final class ImageJavaOptions {
    static final Path DOCKERFILE = Path.of("src", "main", "docker", "Dockerfile.jvm");
    private static final Pattern ENV_LINE = Pattern.compile("^ENV\\s+(\\w+)=(?:\"([^\"]*)\"|(\\S*))\\s*$");

    private ImageJavaOptions() {
    }

    /** The image's environment (its Dockerfile's {@code ENV NAME=value} lines) with {@code containerEnv} over it. */
    static Map<String, String> environment(Map<String, String> containerEnv) {
        Map<String, String> env = new LinkedHashMap<>();
        for (String line : dockerfileLines()) {
            Matcher m = ENV_LINE.matcher(line.strip());
            if (m.matches()) {
                env.put(m.group(1), m.group(2) != null ? m.group(2) : m.group(3));
            }
        }
        env.putAll(containerEnv);
        return env;
    }

    static List<String> dockerfileLines() {
        try {
            return Files.readAllLines(DOCKERFILE);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * @param env              the operator container's environment, the image's included
     * @param memoryLimitBytes the container's memory limit, or 0 for none
     */
    static List<String> of(Map<String, String> env, long memoryLimitBytes) {
        List<String> options = new ArrayList<>();
        if (memoryLimitBytes > 0) {
            options.add("-XX:MaxRAM=" + memoryLimitBytes);
        }
        String ratio = env.getOrDefault("JAVA_MAX_MEM_RATIO", "");
        if (!ratio.equals("0")) {
            options.add("-XX:MaxRAMPercentage=" + (ratio.isBlank() ? "80" : ratio) + ".0");
        }
        String gc = env.getOrDefault("GC_CONTAINER_OPTIONS", "");
        options.addAll(split(gc.isBlank() ? "-XX:+UseParallelGC" : gc));
        options.addAll(List.of("-XX:MinHeapFreeRatio=" + env.getOrDefault("GC_MIN_HEAP_FREE_RATIO", "10"),
                "-XX:MaxHeapFreeRatio=" + env.getOrDefault("GC_MAX_HEAP_FREE_RATIO", "20"),
                "-XX:GCTimeRatio=" + env.getOrDefault("GC_TIME_RATIO", "4"),
                "-XX:AdaptiveSizePolicyWeight=" + env.getOrDefault("GC_ADAPTIVE_SIZE_POLICY_WEIGHT", "90"),
                "-XX:+ExitOnOutOfMemoryError"));
        options.addAll(split(env.getOrDefault("JAVA_OPTS_APPEND", "")));
        return options;
    }

    private static List<String> split(String options) {
        return Arrays.stream(options.strip().split("\\s+")).filter(s -> !s.isEmpty()).toList();
    }
}
