package dev.etcdoperator.etcd;

import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.Status;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;

/** How gRPC and etcd failures become an {@link EtcdAdminException}: kind and message. */
class EtcdErrorsTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(5);

    @Test
    void etcdSayingNotNowIsNotReady() {
        for (String refusal : new String[] {"etcdserver: unhealthy cluster", "etcdserver: too many learner members in cluster",
            "etcdserver: can only promote a learner member which is in sync with leader",
            "etcdserver: re-configuration failed due to not enough started members", "etcdserver: leader changed",
            "etcdserver: request timed out"}) {
            EtcdAdminException e = translate(Status.FAILED_PRECONDITION.withDescription(refusal).asRuntimeException());
            assertThat(e.kind()).as(refusal).isEqualTo(EtcdAdminException.Kind.NOT_READY);
            assertThat(e.getMessage()).isEqualTo("add member at [http://a:2379] failed: FAILED_PRECONDITION: " + refusal);
        }
    }

    @Test
    void aReadThatWaitedForAnElectionIsToldApart() {
        EtcdAdminException e = translate(Status.UNAVAILABLE.withDescription("etcdserver: leader changed").asRuntimeException());
        assertThat(EtcdErrors.leaderChanged(e.getMessage())).isTrue();
        for (String other : new String[] {"etcdserver: request timed out", "etcdserver: no leader",
            "io exception (ConnectException: Connection refused)", "no answer within 5000 ms"}) {
            assertThat(EtcdErrors.leaderChanged(translate(Status.UNAVAILABLE.withDescription(other).asRuntimeException())
                    .getMessage())).as(other).isFalse();
        }
        assertThat(EtcdErrors.leaderChanged(null)).isFalse();
    }

    @Test
    void etcdRefusingTheRequestIsRejected() {
        EtcdAdminException e = translate(Status.NOT_FOUND.withDescription("etcdserver: member not found").asRuntimeException());
        assertThat(e.kind()).isEqualTo(EtcdAdminException.Kind.REJECTED);
        e = translate(Status.INVALID_ARGUMENT.withDescription("etcdserver: Peer URLs already exists").asRuntimeException());
        assertThat(e.kind()).isEqualTo(EtcdAdminException.Kind.REJECTED);
    }

    @Test
    void noAnswerIsUnavailableAndSaysHowLongWeWaited() {
        EtcdAdminException e = translate(new CompletionException(new TimeoutException()));
        assertThat(e.kind()).isEqualTo(EtcdAdminException.Kind.UNAVAILABLE);
        assertThat(e.getMessage()).endsWith("failed: no answer within 5000 ms");

        e = translate(Status.DEADLINE_EXCEEDED.withDescription("deadline exceeded after 4.9s").asRuntimeException());
        assertThat(e.kind()).isEqualTo(EtcdAdminException.Kind.UNAVAILABLE);
        assertThat(e.getMessage()).contains("no answer within 5000 ms");
    }

    @Test
    void aConnectionErrorShowsItsRootCauseOnOneLine() {
        EtcdAdminException e = translate(Status.UNAVAILABLE.withDescription("io exception\nChannel Pipeline: [SslHandler#0]")
                .withCause(new IOException("wrapper", new IOException("Connection refused: /127.0.0.1:2379")))
                .asRuntimeException());
        assertThat(e.kind()).isEqualTo(EtcdAdminException.Kind.UNAVAILABLE);
        assertThat(e.getMessage()).isEqualTo("add member at [http://a:2379] failed: UNAVAILABLE: io exception"
                + " (IOException: Connection refused: /127.0.0.1:2379)");
    }

    private static EtcdAdminException translate(Throwable t) {
        return EtcdErrors.translate("add member", java.util.List.of("http://a:2379"), TIMEOUT, t);
    }
}
