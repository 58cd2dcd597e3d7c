package dev.etcdoperator.sandbox.support;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/** A program of the host, looked up on the PATH (promtool and prometheus come from Debian's {@code prometheus}). */
public record HostProgram(Path path) {

    public record Result(int exitCode, String output) {
        public boolean ok() {
            return exitCode == 0;
        }
    }

    public static Optional<HostProgram> find(String name) {
        return Arrays.stream(System.getenv().getOrDefault("PATH", "").split(File.pathSeparator))
                .filter(dir -> !dir.isBlank())
                .map(dir -> Path.of(dir, name))
                .filter(Files::isExecutable)
                .findFirst()
                .map(HostProgram::new);
    }

    /** Runs it to the end in {@code dir} (at most two minutes); stdout and stderr together. */
    public Result run(Path dir, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(path.toString()));
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
        try {
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!process.waitFor(2, TimeUnit.MINUTES)) {
                throw new IOException(path + " did not end in two minutes");
            }
            return new Result(process.exitValue(), output);
        } finally {
            process.destroyForcibly();
        }
    }
}
