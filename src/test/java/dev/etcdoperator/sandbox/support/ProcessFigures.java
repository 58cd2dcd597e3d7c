package dev.etcdoperator.sandbox.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * What Linux tells about one process in {@code /proc/<pid>}: resident memory, CPU time, threads (by name) and the
 * TCP connections it holds open.
 */
public final class ProcessFigures {
    /** Established TCP connections of the process: all of them, and those to a given remote port. */
    public record Connections(int established, int toPort, int remoteAddresses) {
    }

    private static final String ESTABLISHED = "01";

    private final Path proc;

    public ProcessFigures(long pid) {
        this.proc = Path.of("/proc", Long.toString(pid));
    }

    /** VmRSS in KiB. */
    public long rssKiB() {
        return read(proc.resolve("status")).lines().filter(l -> l.startsWith("VmRSS:")).findFirst()
                .map(l -> Long.parseLong(l.substring("VmRSS:".length()).replace("kB", "").strip()))
                .orElseThrow(() -> new IllegalStateException("no VmRSS in " + proc.resolve("status")));
    }

    /** User plus system CPU time so far. */
    public Duration cpu() {
        // the fields after the command name, which is in parentheses and may hold spaces
        String stat = read(proc.resolve("stat"));
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        long ticks = Long.parseLong(f[11]) + Long.parseLong(f[12]);
        return Duration.ofMillis(ticks * 1000 / clockTicksPerSecond());
    }

    /** Thread count by name, digits and trailing separators dropped ("vert.x-eventloop-thread-3" counts as "vert.x-eventloop-thread"). */
    public Map<String, Integer> threadsByName() {
        Map<String, Integer> byName = new TreeMap<>();
        try (Stream<Path> tasks = Files.list(proc.resolve("task"))) {
            for (Path task : tasks.toList()) {
                String name;
                try {
                    name = Files.readString(task.resolve("comm"), StandardCharsets.UTF_8).strip();
                } catch (NoSuchFileException gone) {
                    continue;
                }
                byName.merge(name.replaceAll("[0-9]+", "").replaceAll("[-_ #]+$", ""), 1, Integer::sum);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return byName;
    }

    /** The process' established TCP connections (IPv4 and IPv6), matched by socket inode. */
    public Connections connections(int remotePort) {
        Set<String> sockets = socketInodes();
        int established = 0;
        int toPort = 0;
        Set<String> remotes = new HashSet<>();
        for (String table : List.of("tcp", "tcp6")) {
            Path file = proc.resolve("net").resolve(table);
            if (!Files.exists(file)) {
                continue;
            }
            for (String line : read(file).lines().skip(1).toList()) {
                String[] f = line.strip().split("\\s+");
                if (f.length < 10 || !f[3].equals(ESTABLISHED) || !sockets.contains(f[9])) {
                    continue;
                }
                established++;
                String remote = f[2];
                if (Integer.parseInt(remote.substring(remote.indexOf(':') + 1), 16) == remotePort) {
                    toPort++;
                    remotes.add(remote.substring(0, remote.indexOf(':')));
                }
            }
        }
        return new Connections(established, toPort, remotes.size());
    }

    private Set<String> socketInodes() {
        Set<String> inodes = new HashSet<>();
        try (Stream<Path> fds = Files.list(proc.resolve("fd"))) {
            for (Path fd : fds.toList()) {
                try {
                    String target = Files.readSymbolicLink(fd).toString();
                    if (target.startsWith("socket:[")) {
                        inodes.add(target.substring("socket:[".length(), target.length() - 1));
                    }
                } catch (IOException closedMeanwhile) {
                    // the descriptor was closed between the listing and the read
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return inodes;
    }

    private static long clockTicksPerSecond() {
        // USER_HZ is 100 on every Linux architecture the JDK runs on
        return 100;
    }

    private static String read(Path file) {
        try {
            return Files.readString(file, StandardCharsets.ISO_8859_1);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
