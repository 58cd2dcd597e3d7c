package dev.etcdoperator.sandbox.controlplane;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The real upstream components the sandbox runs (kube-apiserver and its controllers, etcd 3.5 and 3.6, MinIO),
 * built from their published Go modules by {@code src/test/parts/build.sh} into a cache outside {@code target/}
 * ({@code ~/.cache/etcd-operator/parts} unless {@code ETCD_OPERATOR_PARTS_CACHE} says otherwise). The first use of a
 * part on a machine builds it (minutes); later uses find it in the cache.
 */
public final class Parts {
    public static final String KUBE = "kube";
    public static final String ETCD_35 = "etcd-3.5";
    public static final String ETCD_36 = "etcd-3.6";
    public static final String MINIO = "minio";
    /** Not built: Debian's busybox-static, unpacked (what busybox images run). */
    public static final String BUSYBOX = "busybox";

    private static final Path SCRIPT = Path.of(System.getProperty("sandbox.parts",
            Path.of("src", "test", "parts").toString())).resolve("build.sh");
    private static final Map<String, Path> BUILT = new ConcurrentHashMap<>();

    private Parts() {
    }

    /** The bin directory of a part, built first if the cache does not have it. */
    public static Path bin(String part) {
        return BUILT.computeIfAbsent(part, Parts::build);
    }

    /** A program of a part, e.g. {@code program(KUBE, "kube-apiserver")}. */
    public static Path program(String part, String name) {
        return bin(part).resolve(name);
    }

    /** The version a part is built at (its VERSION file). */
    public static String version(String part) {
        try {
            return Files.readString(SCRIPT.getParent().resolve(part).resolve("VERSION")).strip();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Path build(String part) {
        if (!Files.isRegularFile(SCRIPT)) {
            throw new IllegalStateException("missing " + SCRIPT.toAbsolutePath() + " (run from the project root)");
        }
        try {
            Process process = new ProcessBuilder("bash", SCRIPT.toString(), part)
                    .redirectError(ProcessBuilder.Redirect.INHERIT).start();
            process.getOutputStream().close();
            String last = null;
            try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(),
                    StandardCharsets.UTF_8))) {
                for (String line = out.readLine(); line != null; line = out.readLine()) {
                    last = line;
                }
            }
            int exit = process.waitFor();
            if (exit != 0 || last == null) {
                throw new IllegalStateException("building part " + part + " failed (bash " + SCRIPT + " " + part
                        + " exited with " + exit + "; its output is above)");
            }
            Path bin = Path.of(last.strip());
            if (!Files.isDirectory(bin)) {
                throw new IllegalStateException("bash " + SCRIPT + " " + part + " printed " + last
                        + ", which is not a directory");
            }
            return bin;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run " + SCRIPT, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
