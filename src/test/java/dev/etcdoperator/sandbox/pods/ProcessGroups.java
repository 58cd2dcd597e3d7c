package dev.etcdoperator.sandbox.pods;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/** Signals and liveness of whole process groups; Java itself can only signal single processes. */
final class ProcessGroups {
    private ProcessGroups() {
    }

    static void signal(long pgid, String signal) {
        try {
            Process kill = new ProcessBuilder("kill", "-s", signal, "--", "-" + pgid)
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .start();
            if (!kill.waitFor(5, TimeUnit.SECONDS)) {
                kill.destroyForcibly();
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot run kill", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** True while a process (zombies excepted) of the group exists. */
    static boolean alive(long pgid) {
        try (Stream<Path> procs = Files.list(Path.of("/proc"))) {
            return procs.filter(p -> p.getFileName().toString().chars().allMatch(Character::isDigit))
                    .anyMatch(p -> inGroup(p, pgid));
        } catch (IOException e) {
            throw new IllegalStateException("cannot read /proc", e);
        }
    }

    private static boolean inGroup(Path proc, long pgid) {
        try {
            String stat = Files.readString(proc.resolve("stat"));
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            // fields[0] is the state, fields[2] the process group
            return !fields[0].equals("Z") && Long.parseLong(fields[2]) == pgid;
        } catch (IOException | RuntimeException e) {
            return false; // the process went away while we looked
        }
    }
}
