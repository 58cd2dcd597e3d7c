package dev.etcdoperator.sandbox.support;

import java.io.IOException;
import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.IntPredicate;
import java.util.function.IntSupplier;
import java.util.random.RandomGenerator;

/**
 * Ports for servers the sandbox starts as other processes (kube-apiserver and its etcd, MinIO, the operator,
 * Prometheus): the port is chosen here and bound there seconds later. A port of the system's ephemeral range, the one
 * a bind to port 0 draws from, may be taken in those seconds by any outgoing connection of the machine, and the
 * server's bind then fails. Ports are therefore drawn outside that range, checked free on every address the server
 * will listen on, and never handed out twice by one JVM.
 */
public final class FreePorts {
    static final int LOWEST = 10_000;
    static final int HIGHEST = 65_535;
    static final int ATTEMPTS = 500;
    /** Linux's default, used where the system's range cannot be read. */
    static final int[] DEFAULT_EPHEMERAL = {32_768, 60_999};
    private static final Path EPHEMERAL_RANGE = Path.of("/proc/sys/net/ipv4/ip_local_port_range");
    /** Each draw from the calling thread's generator: one captured here would repeat its sequence in every JVM. */
    private static final RandomGenerator PER_THREAD = () -> ThreadLocalRandom.current().nextLong();
    private static final FreePorts MACHINE = new FreePorts(outside(ephemeralRange(readRange()), PER_THREAD));

    private final IntSupplier candidates;
    private final Set<Integer> handedOut = ConcurrentHashMap.newKeySet();

    FreePorts(IntSupplier candidates) {
        this.candidates = candidates;
    }

    /** A port free on 127.0.0.1. */
    public static int onLoopback() {
        return on(List.of(InetAddress.getLoopbackAddress()));
    }

    /**
     * A port free on each of {@code addresses}; an address the machine does not have (::1 without IPv6) counts as
     * free, as no server can listen there.
     */
    public static int on(List<InetAddress> addresses) {
        return MACHINE.pick(port -> addresses.stream().allMatch(address -> freeOn(address, port)));
    }

    /** Marks a port given by a person (a fixed API or S3 port) as handed out, so that no drawn port equals it. */
    public static void reserve(int port) {
        MACHINE.hold(port);
    }

    void hold(int port) {
        handedOut.add(port);
    }

    int pick(IntPredicate free) {
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            int port = candidates.getAsInt();
            if (!handedOut.contains(port) && free.test(port) && handedOut.add(port)) {
                return port;
            }
        }
        throw new IllegalStateException("no free port after " + ATTEMPTS + " tries outside the ephemeral range");
    }

    /**
     * Random ports from {@link #LOWEST} to {@link #HIGHEST} outside {@code ephemeral}; the whole span where the range
     * leaves fewer than a thousand (then a port may still be taken before its server binds it).
     */
    static IntSupplier outside(int[] ephemeral, RandomGenerator random) {
        int below = Math.max(0, ephemeral[0] - LOWEST);
        int above = Math.max(0, HIGHEST - Math.max(ephemeral[1], LOWEST - 1));
        if (below + above < 1_000) {
            return () -> random.nextInt(LOWEST, HIGHEST + 1);
        }
        return () -> {
            int n = random.nextInt(below + above);
            return n < below ? LOWEST + n : HIGHEST - above + 1 + (n - below);
        };
    }

    /** The two numbers of {@code ip_local_port_range}, or Linux's default when they cannot be read. */
    static int[] ephemeralRange(String text) {
        String[] parts = text == null ? new String[0] : text.trim().split("\\s+");
        try {
            if (parts.length == 2) {
                int low = Integer.parseInt(parts[0]);
                int high = Integer.parseInt(parts[1]);
                if (0 < low && low <= high && high <= HIGHEST) {
                    return new int[] {low, high};
                }
            }
        } catch (NumberFormatException e) {
            // Linux's default below
        }
        return DEFAULT_EPHEMERAL.clone();
    }

    private static String readRange() {
        try {
            return Files.readString(EPHEMERAL_RANGE);
        } catch (IOException | SecurityException e) {
            return null;
        }
    }

    static boolean freeOn(InetAddress address, int port) {
        try (ServerSocket socket = new ServerSocket()) {
            // as the servers themselves bind: a connection of an earlier server left in TIME_WAIT does not hold it
            socket.setReuseAddress(true);
            socket.bind(new InetSocketAddress(address, port), 1);
            return true;
        } catch (BindException e) {
            return e.getMessage() != null && e.getMessage().contains("Cannot assign requested address");
        } catch (IOException e) {
            return false;
        }
    }
}
