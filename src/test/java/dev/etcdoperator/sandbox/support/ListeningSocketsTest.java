package dev.etcdoperator.sandbox.support;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;

class ListeningSocketsTest {
    private static final String HEADER = "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt"
            + "   uid  timeout inode\n";

    @Test
    void readsListeningIpv4EntriesOfTheGivenInodesOnly() {
        String table = HEADER
                + "   0: 0100007F:1F90 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 101 1 0 100 0 0 10 0\n"
                + "   1: 00000000:1F91 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 102 1 0 100 0 0 10 0\n"
                + "   2: 01004D7F:2382 0100007F:9C40 01 00000000:00000000 00:00000000 00000000     0        0 103 1 0 20 4 30 10 -1\n"
                + "   3: 0100017F:0050 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 999 1 0 100 0 0 10 0\n";

        List<ListeningSockets.Listener> listeners = ListeningSockets.parse(table, Set.of(101L, 102L, 103L));

        assertThat(listeners).extracting(ListeningSockets.Listener::toString)
                .containsExactly("127.0.0.1:8080", "0.0.0.0:8081");
        assertThat(listeners).extracting(ListeningSockets.Listener::onEveryInterface).containsExactly(false, true);
    }

    @Test
    void readsIpv6EntriesAndGivesMappedAddressesAsIpv4() {
        String table = HEADER
                + "   0: 0000000000000000FFFF000001004D7F:4A6A 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 201 1 0 100 0 0 10 0\n"
                + "   1: 00000000000000000000000000000000:4A6B 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 202 1 0 100 0 0 10 0\n"
                + "   2: 00000000000000000000000001000000:4A6C 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 203 1 0 100 0 0 10 0\n";

        List<ListeningSockets.Listener> listeners = ListeningSockets.parse(table, Set.of(201L, 202L, 203L));

        assertThat(listeners).extracting(ListeningSockets.Listener::toString)
                .containsExactly("127.77.0.1:19050", "0:0:0:0:0:0:0:0:19051", "0:0:0:0:0:0:0:1:19052");
        assertThat(listeners).extracting(ListeningSockets.Listener::onEveryInterface)
                .containsExactly(false, true, false);
    }

    @Test
    void findsTheSocketsThisProcessListensOn() throws IOException {
        try (ServerSocket loopback = new ServerSocket();
             ServerSocket everywhere = new ServerSocket()) {
            loopback.bind(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0));
            everywhere.bind(new InetSocketAddress(0));

            List<ListeningSockets.Listener> listeners = ListeningSockets.of(ProcessHandle.current().pid());

            assertThat(listeners).anySatisfy(l -> {
                assertThat(l.port()).isEqualTo(loopback.getLocalPort());
                assertThat(l.address().getHostAddress()).isEqualTo("127.0.0.1");
            });
            assertThat(listeners).anySatisfy(l -> {
                assertThat(l.port()).isEqualTo(everywhere.getLocalPort());
                assertThat(l.onEveryInterface()).isTrue();
            });
        }
    }
}
