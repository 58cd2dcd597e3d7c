package dev.etcdoperator.sandbox;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The class-data archive the operator image makes while it is built (the {@code RUN java
 * -XX:ArchiveClassesAtExit=...} line of {@code src/main/docker/Dockerfile.jvm}): the classes the operator loads while
 * it initialises, kept in the form the JVM uses, so that a start maps them instead of reading, parsing and verifying
 * them from the jars. An archive works only with the JVM that made it and the jars it was made from (the JVM ignores
 * any other), so the sandbox makes its own with the Dockerfile's line, beside the packaged operator it runs, each
 * time that was packaged again. Paths under the image's {@code /deployments/} are the packaged operator's directory
 * here.
 */
final class ImageClassDataArchive {
    static final String IMAGE_DIR = "/deployments/";
    private static final Pattern RUN_JAVA = Pattern.compile("^RUN\\s+java\\s+(.*-XX:ArchiveClassesAtExit=.*)$");
    private static final String DUMP_OPTION = "-XX:ArchiveClassesAtExit=";
    private static final String USE_OPTION = "-XX:SharedArchiveFile=";

    private ImageClassDataArchive() {
    }

    /** The arguments of the Dockerfile's archive-making {@code java} command, as written there; empty without one. */
    static List<String> imageCommand(List<String> dockerfileLines) {
        for (String line : dockerfileLines) {
            Matcher m = RUN_JAVA.matcher(line.strip());
            if (m.matches()) {
                return Arrays.stream(m.group(1).split("\\s+")).toList();
            }
        }
        return List.of();
    }

    /** {@code options} with the image's directory replaced by {@code appDir}, the packaged operator's. */
    static List<String> local(List<String> options, Path appDir) {
        String local = appDir.toAbsolutePath() + "/";
        return options.stream().map(o -> o.replace(IMAGE_DIR, local)).toList();
    }

    /**
     * The image's JVM {@code options} for the packaged operator {@code jar}: its paths under {@code /deployments/}
     * are the jar's directory, and the class-data archive they use, if any, is made there unless it is up to date.
     */
    static List<String> prepare(List<String> options, Path jar) {
        List<String> local = local(options, jar.toAbsolutePath().getParent());
        used(local).ifPresent(archive -> ensure(archive, jar));
        return local;
    }

    /** The archive {@code options} ask the JVM to use, if any. */
    static Optional<Path> used(List<String> options) {
        return options.stream().filter(o -> o.startsWith(USE_OPTION))
                .map(o -> Path.of(o.substring(USE_OPTION.length()))).reduce((first, last) -> last);
    }

    /**
     * Makes {@code archive} with the Dockerfile's command run on {@code jar}'s directory, unless an archive newer than
     * the jar is there; sandboxes started at once wait for the one that makes it.
     */
    static void ensure(Path archive, Path jar) {
        List<String> image = imageCommand(ImageJavaOptions.dockerfileLines());
        if (image.isEmpty()) {
            throw new IllegalStateException("the chart's options use the class-data archive " + archive + ", which "
                    + ImageJavaOptions.DOCKERFILE + " does not make (no RUN java " + DUMP_OPTION + "... line)");
        }
        Path dir = jar.toAbsolutePath().getParent();
        try (FileChannel lockFile = FileChannel.open(dir.resolve(".operator-jsa.lock"), StandardOpenOption.CREATE,
                StandardOpenOption.WRITE); FileLock ignored = lockFile.lock()) {
            if (Files.exists(archive)
                    && Files.getLastModifiedTime(archive).compareTo(Files.getLastModifiedTime(jar)) > 0) {
                return;
            }
            make(archive, dir, image);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot make the class-data archive " + archive, e);
        }
    }

    private static void make(Path archive, Path dir, List<String> image) throws IOException {
        Path partial = archive.resolveSibling(archive.getFileName() + ".partial");
        Files.deleteIfExists(partial);
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        for (String argument : local(image, dir)) {
            command.add(argument.startsWith(DUMP_OPTION) ? DUMP_OPTION + partial : argument);
        }
        Path log = dir.resolve("operator-jsa.log");
        Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        try {
            if (!p.waitFor(3, TimeUnit.MINUTES)) {
                p.destroyForcibly();
                throw new IllegalStateException("making the class-data archive took over 3 minutes: " + command);
            }
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        if (p.exitValue() != 0 || !Files.exists(partial)) {
            throw new IllegalStateException("the Dockerfile's command made no class-data archive (exit " + p.exitValue()
                    + "): " + command + "; see " + log);
        }
        Files.move(partial, archive, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }
}
