package dev.etcdoperator.sandbox.pods;

import java.util.HashSet;
import java.util.Set;

/**
 * Hands out loopback addresses one by one, round robin, so that a freed address is the last to be
 * taken again. An address is only released by the runtime once every process of its pod is gone.
 */
final class LoopbackIpPool {
    private final int first;
    private final int last;
    private final Set<Integer> taken = new HashSet<>();
    private int next;

    LoopbackIpPool(String firstIp) {
        this.first = toInt(firstIp);
        this.last = toInt("127.255.255.254");
        if ((first >>> 24) != 127) {
            throw new IllegalArgumentException("not a loopback address: " + firstIp);
        }
        this.next = first;
    }

    synchronized String allocate() {
        for (long tries = 0; tries <= (long) last - first; tries++) {
            int candidate = next;
            next = next == last ? first : next + 1;
            if ((candidate & 0xff) != 0 && (candidate & 0xff) != 0xff && taken.add(candidate)) {
                return toString(candidate);
            }
        }
        throw new IllegalStateException("no loopback address left");
    }

    synchronized void release(String ip) {
        taken.remove(toInt(ip));
    }

    private static int toInt(String ip) {
        String[] parts = ip.split("\\.");
        if (parts.length != 4) {
            throw new IllegalArgumentException("not an IPv4 address: " + ip);
        }
        int value = 0;
        for (String part : parts) {
            value = (value << 8) | Integer.parseInt(part);
        }
        return value;
    }

    private static String toString(int ip) {
        return (ip >>> 24) + "." + ((ip >>> 16) & 0xff) + "." + ((ip >>> 8) & 0xff) + "." + (ip & 0xff);
    }
}
