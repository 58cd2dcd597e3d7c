package dev.etcdoperator.sandbox.controlplane;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Child processes that die with the thread that started them: a command is run under
 * {@code setpriv --pdeathsig KILL} where the machine has setpriv (util-linux), so a JVM killed with SIGKILL, whose
 * shutdown hooks never run, leaves none of the sandbox's processes behind. The signal is tied to the starting
 * thread: start long-lived processes from a thread that lives as long as they should.
 */
public final class ParentDeathSignal {
    private static final Path SETPRIV = Path.of("/usr/bin/setpriv");

    private ParentDeathSignal() {
    }

    public static List<String> wrap(List<String> command) {
        if (!Files.isExecutable(SETPRIV)) {
            return command;
        }
        List<String> wrapped = new ArrayList<>(List.of(SETPRIV.toString(), "--pdeathsig", "KILL", "--"));
        wrapped.addAll(command);
        return wrapped;
    }
}
