package dev.etcdoperator.sandbox.support;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * CPU time used so far, from /proc: the whole machine's (every core, busy states only) and that of named
 * processes, in seconds. Two samples taken around a step tell how many cores it kept busy and which process used
 * them. Linux only; a process that has gone counts 0.
 */
public final class CpuTimes {
    /** Linux reports CPU times in clock ticks of 1/100 s (USER_HZ) on every architecture this runs on. */
    private static final double TICK = 0.01;

    private final Map<String, Double> seconds;

    private CpuTimes(Map<String, Double> seconds) {
        this.seconds = seconds;
    }

    /** A sample of the machine ({@code "machine"}) and of each named pid. */
    public static CpuTimes sample(Map<String, Long> pids) {
        Map<String, Double> s = new LinkedHashMap<>();
        s.put("machine", machineBusy());
        pids.forEach((name, pid) -> s.put(name, process(pid)));
        return new CpuTimes(s);
    }

    /** Seconds of CPU each name used between {@code before} and this sample; 0 for a process that has gone. */
    public Map<String, Double> since(CpuTimes before) {
        Map<String, Double> used = new LinkedHashMap<>();
        seconds.forEach((name, s) -> used.put(name, Math.max(0, s - before.seconds.getOrDefault(name, s))));
        return used;
    }

    /** The pid of the first process whose command name is {@code comm}, or -1. */
    public static long pidOf(String comm) {
        try (var dirs = Files.list(Path.of("/proc"))) {
            for (Path dir : dirs.filter(d -> d.getFileName().toString().matches("\\d+")).toList()) {
                try {
                    if (Files.readString(dir.resolve("comm")).trim().equals(comm)) {
                        return Long.parseLong(dir.getFileName().toString());
                    }
                } catch (IOException gone) {
                    // exited while we looked
                }
            }
        } catch (IOException e) {
            return -1;
        }
        return -1;
    }

    private static double machineBusy() {
        try {
            String[] f = Files.readAllLines(Path.of("/proc/stat")).get(0).trim().split("\\s+");
            // cpu user nice system idle iowait irq softirq steal ...: steal is time the machine did not get
            long busy = Long.parseLong(f[1]) + Long.parseLong(f[2]) + Long.parseLong(f[3]) + Long.parseLong(f[6])
                    + Long.parseLong(f[7]);
            return busy * TICK;
        } catch (IOException e) {
            return 0;
        }
    }

    private static double process(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            // the command name may hold spaces: fields are counted after its closing parenthesis
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return (Long.parseLong(f[11]) + Long.parseLong(f[12])) * TICK;
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }
}
