package dev.etcdoperator.sandbox.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The TCP sockets a process listens on, read from Linux's {@code /proc}: the socket inodes among the process's
 * open files ({@code /proc/<pid>/fd}) matched against the LISTEN entries of {@code /proc/<pid>/net/tcp} and
 * {@code tcp6}. No {@code ss} or {@code netstat} needed.
 */
public final class ListeningSockets {
    private static final Pattern SOCKET_LINK = Pattern.compile("socket:\\[(\\d+)]");
    private static final String LISTEN = "0A";

    /** One listening socket; an IPv4-mapped IPv6 address is given as the IPv4 address. */
    public record Listener(InetAddress address, int port) {
        public boolean onEveryInterface() {
            return address.isAnyLocalAddress();
        }

        @Override
        public String toString() {
            return address.getHostAddress() + ":" + port;
        }
    }

    private ListeningSockets() {
    }

    /** The TCP sockets the process {@code pid} listens on. */
    public static List<Listener> of(long pid) {
        Path proc = Path.of("/proc", Long.toString(pid));
        Set<Long> inodes = socketInodes(proc.resolve("fd"));
        List<Listener> listeners = new ArrayList<>();
        for (String table : List.of("tcp", "tcp6")) {
            try {
                listeners.addAll(parse(Files.readString(proc.resolve("net").resolve(table)), inodes));
            } catch (NoSuchFileException e) {
                // no IPv6 in this kernel
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return listeners;
    }

    /** The LISTEN entries of a {@code /proc/net/tcp} or {@code tcp6} table whose inode is one of {@code inodes}. */
    public static List<Listener> parse(String table, Set<Long> inodes) {
        List<Listener> listeners = new ArrayList<>();
        for (String line : table.split("\n")) {
            String[] fields = line.trim().split("\\s+");
            if (fields.length < 10 || !fields[0].endsWith(":") || !LISTEN.equals(fields[3])) {
                continue;
            }
            if (!inodes.contains(Long.parseLong(fields[9]))) {
                continue;
            }
            String[] local = fields[1].split(":");
            listeners.add(new Listener(decodeAddress(local[0]), Integer.parseInt(local[1], 16)));
        }
        return listeners;
    }

    /** The kernel prints addresses as 32-bit words in host order (little-endian on x86 and arm64). */
    static InetAddress decodeAddress(String hex) {
        byte[] bytes = new byte[hex.length() / 2];
        for (int word = 0; word < bytes.length / 4; word++) {
            for (int i = 0; i < 4; i++) {
                int at = (word * 4 + (3 - i)) * 2;
                bytes[word * 4 + i] = (byte) Integer.parseInt(hex.substring(at, at + 2), 16);
            }
        }
        try {
            return InetAddress.getByAddress(bytes);
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("not an address: " + hex, e);
        }
    }

    private static Set<Long> socketInodes(Path fdDir) {
        Set<Long> inodes = new HashSet<>();
        try (Stream<Path> fds = Files.list(fdDir)) {
            for (Path fd : fds.toList()) {
                try {
                    Matcher m = SOCKET_LINK.matcher(Files.readSymbolicLink(fd).toString());
                    if (m.matches()) {
                        inodes.add(Long.parseLong(m.group(1)));
                    }
                } catch (IOException closedMeanwhile) {
                    // the descriptor was closed while we looked
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + fdDir, e);
        }
        return inodes;
    }
}
