package dev.etcdoperator.sandbox;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The footprint benchmark's baseline: {@code bench/footprint-floor}, the smallest operator on the operator's own
 * stack (Quarkus, the Java Operator SDK, the fabric8 client with the same model jars, Micrometer Prometheus,
 * SmallRye Health), one reconciler of Pods that changes nothing. What it costs to run is the floor under the
 * operator's own figures: what the stack takes before any of the operator's code.
 */
final class FootprintFloor {
    static final Path PROJECT = Path.of("bench", "footprint-floor");

    private FootprintFloor() {
    }

    /** Packages the floor application with the project's Maven wrapper and returns its {@code quarkus-run.jar}. */
    static Path build() throws IOException, InterruptedException {
        Path log = Path.of("target", "benchmarks", "footprint-floor-build.log");
        Files.createDirectories(log.getParent());
        List<String> command = List.of(Path.of("mvnw").toAbsolutePath().toString(), "-B", "-q", "-f",
                PROJECT.resolve("pom.xml").toAbsolutePath().toString(), "package", "-DskipTests");
        Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        if (!p.waitFor(10, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            throw new IllegalStateException("building " + PROJECT + " took over 10 minutes; see " + log);
        }
        Path jar = PROJECT.resolve(Path.of("target", "quarkus-app", "quarkus-run.jar"));
        if (p.exitValue() != 0 || !Files.isRegularFile(jar)) {
            throw new IllegalStateException("building " + PROJECT + " failed (exit " + p.exitValue() + "); see " + log);
        }
        return jar;
    }
}
