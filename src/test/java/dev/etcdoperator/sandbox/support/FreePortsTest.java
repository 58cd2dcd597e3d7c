package dev.etcdoperator.sandbox.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.List;
import java.util.Random;
import java.util.function.IntSupplier;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;

class FreePortsTest {

    @Test
    void readsTheSystemsRangeAndFallsBackToLinuxsDefault() {
        assertThat(FreePorts.ephemeralRange("32768\t60999\n")).containsExactly(32768, 60999);
        assertThat(FreePorts.ephemeralRange("1024 65000")).containsExactly(1024, 65000);
        assertThat(FreePorts.ephemeralRange(null)).containsExactly(32768, 60999);
        assertThat(FreePorts.ephemeralRange("")).containsExactly(32768, 60999);
        assertThat(FreePorts.ephemeralRange("40000 30000")).containsExactly(32768, 60999);
        assertThat(FreePorts.ephemeralRange("a b")).containsExactly(32768, 60999);
    }

    @Test
    void drawsOnBothSidesOfTheEphemeralRangeAndNeverInsideIt() {
        IntSupplier ports = FreePorts.outside(new int[] {32768, 60999}, new Random(7));
        List<Integer> drawn = IntStream.generate(ports).limit(20_000).boxed().toList();
        assertThat(drawn).allMatch(p -> p >= 10_000 && p <= 65_535 && (p < 32768 || p > 60999));
        assertThat(drawn).anyMatch(p -> p < 10_100).anyMatch(p -> p > 32_700 && p < 32768)
                .anyMatch(p -> p > 60999 && p < 61_100).anyMatch(p -> p > 65_400);
    }

    @Test
    void aRangeStartingLowLeavesThePortsAboveIt() {
        IntSupplier ports = FreePorts.outside(new int[] {5000, 40000}, new Random(3));
        assertThat(IntStream.generate(ports).limit(5_000).boxed().toList()).allMatch(p -> p > 40000 && p <= 65_535);
    }

    @Test
    void aRangeTakingNearlyEverythingStillGivesPorts() {
        IntSupplier ports = FreePorts.outside(new int[] {1024, 65_000}, new Random(5));
        assertThat(IntStream.generate(ports).limit(1_000).boxed().toList()).allMatch(p -> p >= 10_000 && p <= 65_535);
    }

    @Test
    void skipsAPortSomethingListensOn() throws Exception {
        try (ServerSocket held = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            int taken = held.getLocalPort();
            int other = FreePorts.onLoopback();
            Iterator<Integer> candidates = List.of(taken, other).iterator();
            FreePorts ports = new FreePorts(candidates::next);
            assertThat(ports.pick(p -> FreePorts.freeOn(InetAddress.getLoopbackAddress(), p))).isEqualTo(other);
        }
    }

    @Test
    void skipsAPortAnOutgoingConnectionHolds() throws Exception {
        try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
             Socket client = new Socket()) {
            client.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), server.getLocalPort()));
            int held = client.getLocalPort();
            assertThat(FreePorts.freeOn(InetAddress.getLoopbackAddress(), held)).as("port %d", held).isFalse();
        }
    }

    @Test
    void neverHandsOutOnePortTwice() {
        FreePorts ports = new FreePorts(() -> 20_000);
        assertThat(ports.pick(p -> true)).isEqualTo(20_000);
        assertThatThrownBy(() -> ports.pick(p -> true)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("no free port");
    }

    @Test
    void aReservedPortIsNeverDrawn() {
        FreePorts ports = new FreePorts(() -> 20_002);
        ports.hold(20_002);
        assertThatThrownBy(() -> ports.pick(p -> true)).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void aMissingAddressCountsAsFree() throws Exception {
        // 192.0.2.1 (TEST-NET-1) is on no machine
        assertThat(FreePorts.freeOn(InetAddress.getByName("192.0.2.1"), 20_001)).isTrue();
    }

    @Test
    void thisMachinesPortsAreOutsideItsEphemeralRangeAndBindable() throws Exception {
        Path range = Path.of("/proc/sys/net/ipv4/ip_local_port_range");
        int[] ephemeral = FreePorts.ephemeralRange(Files.isReadable(range) ? Files.readString(range) : null);
        for (int i = 0; i < 20; i++) {
            int port = FreePorts.onLoopback();
            assertThat(port).isBetween(FreePorts.LOWEST, FreePorts.HIGHEST)
                    .matches(p -> p < ephemeral[0] || p > ephemeral[1], "outside " + ephemeral[0] + "-" + ephemeral[1]);
            try (ServerSocket bound = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
                assertThat(bound.getLocalPort()).isEqualTo(port);
            }
        }
    }
}
