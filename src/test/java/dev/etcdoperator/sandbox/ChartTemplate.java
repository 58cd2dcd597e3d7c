package dev.etcdoperator.sandbox;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import com.marcnuri.helm.Helm;

/**
 * {@code helm template} of the chart, run by Helm's own code (helm-java) in a JVM of its own. Helm is Go, loaded
 * as a native library, and the Go runtime takes over the signals of the process that loads it: a sandbox JVM that
 * loaded it would no longer stop on Ctrl-C. Only this short-lived process loads it.
 */
public final class ChartTemplate {
    private static final long TIMEOUT_SECONDS = 120;

    private ChartTemplate() {
    }

    /** The rendered manifests of {@code chart} as release {@code release} in {@code namespace}, with {@code values}. */
    public static String render(Path chart, String release, String namespace, String values) {
        try {
            Path valuesFile = Files.createTempFile("values", ".yaml");
            Path out = Files.createTempFile("rendered", ".yaml");
            try {
                Files.writeString(valuesFile, values);
                String classpath = System.getProperty("surefire.test.class.path",
                        System.getProperty("java.class.path"));
                Process process = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-cp", classpath, ChartTemplate.class.getName(), chart.toAbsolutePath().toString(), release,
                        namespace, valuesFile.toString())
                        .redirectErrorStream(false)
                        .redirectOutput(out.toFile())
                        .redirectError(ProcessBuilder.Redirect.PIPE)
                        .start();
                process.getOutputStream().close();
                byte[] errors = process.getErrorStream().readAllBytes();
                if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                    process.destroyForcibly();
                    throw new IllegalStateException("helm template did not finish in " + TIMEOUT_SECONDS + " s");
                }
                if (process.exitValue() != 0) {
                    throw new IllegalStateException("helm template failed (exit " + process.exitValue() + "): "
                            + new String(errors, StandardCharsets.UTF_8));
                }
                return Files.readString(out);
            } finally {
                Files.deleteIfExists(valuesFile);
                Files.deleteIfExists(out);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Arguments: chart directory, release, namespace, values file. Prints the manifests. */
    public static void main(String[] args) {
        List<String> a = List.of(args);
        String rendered = new Helm(Path.of(a.get(0))).template().withName(a.get(1)).withNamespace(a.get(2))
                .withValuesFile(Path.of(a.get(3))).call();
        System.out.print(rendered);
        System.out.flush();
        // the Go runtime's threads must not keep the process alive
        System.exit(0);
    }
}
