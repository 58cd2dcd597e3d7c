package dev.etcdoperator.etcd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;

import org.junit.jupiter.api.Test;

class EndpointOrderTest {
    private static final String A = "http://a:2379";
    private static final String B = "http://b:2379";
    private static final String C = "http://c:2379";

    @Test
    void atFirstTheEndpointsComeAsGiven() {
        assertThat(new EndpointOrder(List.of(A, B, C)).next()).containsExactly(A, B, C);
    }

    @Test
    void theEndpointThatAnsweredLastComesFirstAndTheOthersKeepTheirOrder() {
        EndpointOrder order = new EndpointOrder(List.of(A, B, C));
        order.answered(C);
        assertThat(order.next()).containsExactly(C, A, B);
        order.answered(B);
        assertThat(order.next()).containsExactly(B, A, C);
    }

    @Test
    void anAnswerFromAnEndpointOutsideTheClusterChangesNothing() {
        EndpointOrder order = new EndpointOrder(List.of(A, B));
        order.answered(B);
        order.answered("http://elsewhere:2379");
        assertThat(order.next()).containsExactly(B, A);
    }

    @Test
    void aClusterWithoutEndpointsIsRefused() {
        assertThatThrownBy(() -> new EndpointOrder(List.of())).isInstanceOf(IllegalArgumentException.class);
    }
}
