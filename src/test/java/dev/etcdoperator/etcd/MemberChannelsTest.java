package dev.etcdoperator.etcd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import io.grpc.ManagedChannel;
import io.grpc.netty.NettyChannelBuilder;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class MemberChannelsTest {
    private static final String A = "http://127.0.0.2:2379";
    private static final String B = "http://127.0.0.3:2379";

    private final List<ManagedChannel> opened = new ArrayList<>();
    private final MemberChannels channels = new MemberChannels(Set.of(A, B), endpoint -> {
        // not connected until a call is made: no server is needed
        ManagedChannel channel = NettyChannelBuilder.forTarget(endpoint.replace("http://", "")).usePlaintext().build();
        opened.add(channel);
        return channel;
    });

    @AfterEach
    void closeAll() {
        opened.forEach(ManagedChannel::shutdownNow);
    }

    @Test
    void everyCallToAMemberUsesTheSameChannel() {
        for (int i = 0; i < 20; i++) {
            MemberChannels.Lease a = channels.lease(A);
            channels.done(a, false);
            MemberChannels.Lease b = channels.lease(B);
            channels.done(b, false);
        }
        assertThat(opened).hasSize(2);
        assertThat(channels.open()).isEqualTo(2);
        assertThat(opened).noneMatch(ManagedChannel::isShutdown);
    }

    @Test
    void aFailedCallClosesItsChannelAndTheNextCallOpensAFreshOne() {
        MemberChannels.Lease failed = channels.lease(A);
        channels.done(failed, true);
        assertThat(failed.channel().isShutdown()).isTrue();

        MemberChannels.Lease next = channels.lease(A);
        assertThat(next.channel()).isNotSameAs(failed.channel());
        assertThat(next.channel().isShutdown()).isFalse();
        assertThat(opened).hasSize(2);
    }

    @Test
    void anEndpointOutsideTheClusterGetsAChannelForOneCallOnly() {
        MemberChannels.Lease other = channels.lease("http://127.0.0.9:2379");
        assertThat(other.shared()).isFalse();
        channels.done(other, false);
        assertThat(other.channel().isShutdown()).isTrue();
        assertThat(channels.open()).isZero();
    }

    @Test
    void closingClosesEveryChannelAndRefusesNewCalls() {
        channels.done(channels.lease(A), false);
        channels.done(channels.lease(B), false);
        channels.close();
        assertThat(opened).allMatch(ManagedChannel::isShutdown);
        assertThatThrownBy(() -> channels.lease(A)).isInstanceOf(IllegalStateException.class);
    }
}
