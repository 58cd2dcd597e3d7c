package dev.etcdoperator.etcd;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import com.google.protobuf.UnknownFieldSet;
import org.junit.jupiter.api.Test;

/** The downgrade request and the downgrade part of a status, by the field numbers of etcd's rpc.proto. */
class DowngradeCallTest {
    private static final int STATUS_DOWNGRADE_INFO = 13;

    @Test
    void theRequestCarriesTheActionAndTheVersion() throws Exception {
        UnknownFieldSet request = UnknownFieldSet.parseFrom(DowngradeCall.request(1, "3.5.0"));

        assertThat(request.getField(1).getVarintList()).containsExactly(1L);
        assertThat(request.getField(2).getLengthDelimitedList()).containsExactly(ByteString.copyFromUtf8("3.5.0"));
    }

    @Test
    void anEnabledDowngradeGivesItsTargetAndADisabledOneNothing() {
        assertThat(DowngradeCall.enabledTarget(status(info(true, "3.5.0")), STATUS_DOWNGRADE_INFO)).isEqualTo("3.5.0");
        assertThat(DowngradeCall.enabledTarget(status(info(false, "3.5.0")), STATUS_DOWNGRADE_INFO)).isEmpty();
        assertThat(DowngradeCall.enabledTarget(status(UnknownFieldSet.getDefaultInstance()), STATUS_DOWNGRADE_INFO))
                .isEmpty();
        assertThat(DowngradeCall.enabledTarget(UnknownFieldSet.getDefaultInstance(), STATUS_DOWNGRADE_INFO)).isEmpty();
    }

    private static UnknownFieldSet info(boolean enabled, String target) {
        return UnknownFieldSet.newBuilder()
                .addField(1, UnknownFieldSet.Field.newBuilder().addVarint(enabled ? 1 : 0).build())
                .addField(2, UnknownFieldSet.Field.newBuilder().addLengthDelimited(ByteString.copyFromUtf8(target)).build())
                .build();
    }

    private static UnknownFieldSet status(UnknownFieldSet info) {
        return UnknownFieldSet.newBuilder().addField(STATUS_DOWNGRADE_INFO,
                UnknownFieldSet.Field.newBuilder().addLengthDelimited(info.toByteString()).build()).build();
    }
}
