package dev.etcdoperator.etcd;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;

import com.google.protobuf.ByteString;
import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.UnknownFieldSet;
import io.etcd.jetcd.api.MaintenanceGrpc;
import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.Deadline;
import io.grpc.MethodDescriptor;
import io.grpc.stub.ClientCalls;

/**
 * etcd's {@code Maintenance/Downgrade} call (etcd 3.5 and later), which jetcd 0.8.5's proto does not declare: the
 * request is written and the answer read by the field numbers of etcd's {@code rpc.proto}.
 */
final class DowngradeCall {
    /** {@code DowngradeRequest.DowngradeAction.ENABLE}. */
    private static final int ACTION_ENABLE = 1;
    private static final int REQUEST_ACTION = 1;
    private static final int REQUEST_VERSION = 2;
    private static final int RESPONSE_VERSION = 2;
    private static final int DOWNGRADE_INFO_ENABLED = 1;
    private static final int DOWNGRADE_INFO_TARGET = 2;

    private static final MethodDescriptor.Marshaller<byte[]> BYTES = new MethodDescriptor.Marshaller<>() {
        @Override
        public InputStream stream(byte[] value) {
            return new ByteArrayInputStream(value);
        }

        @Override
        public byte[] parse(InputStream stream) {
            try {
                return stream.readAllBytes();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    };

    private static final MethodDescriptor<byte[], byte[]> DOWNGRADE = MethodDescriptor.<byte[], byte[]>newBuilder()
            .setType(MethodDescriptor.MethodType.UNARY)
            .setFullMethodName(MethodDescriptor.generateFullMethodName(MaintenanceGrpc.SERVICE_NAME, "Downgrade"))
            .setRequestMarshaller(BYTES)
            .setResponseMarshaller(BYTES)
            .build();

    private DowngradeCall() {
    }

    /** Enables the downgrade to {@code targetVersion}; answers the cluster version etcd reports afterwards. */
    static String enable(Channel channel, Deadline deadline, String targetVersion) {
        byte[] answer = ClientCalls.blockingUnaryCall(channel, DOWNGRADE, CallOptions.DEFAULT.withDeadline(deadline),
                request(ACTION_ENABLE, targetVersion));
        try {
            return JetcdAdmin.text(UnknownFieldSet.parseFrom(answer), RESPONSE_VERSION);
        } catch (InvalidProtocolBufferException e) {
            throw new IllegalStateException("etcd's answer to the downgrade request is not a DowngradeResponse", e);
        }
    }

    static byte[] request(int action, String targetVersion) {
        ByteString.Output out = ByteString.newOutput();
        CodedOutputStream coded = CodedOutputStream.newInstance(out);
        try {
            coded.writeEnum(REQUEST_ACTION, action);
            coded.writeString(REQUEST_VERSION, targetVersion);
            coded.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteString().toByteArray();
    }

    /**
     * The target of the downgrade a status reports as enabled ({@code StatusResponse.downgradeInfo}, etcd 3.6 and
     * later), else empty.
     */
    static String enabledTarget(UnknownFieldSet status, int field) {
        if (!status.hasField(field)) {
            return "";
        }
        List<ByteString> infos = status.getField(field).getLengthDelimitedList();
        if (infos.isEmpty()) {
            return "";
        }
        try {
            UnknownFieldSet info = UnknownFieldSet.parseFrom(infos.get(infos.size() - 1));
            boolean enabled = info.hasField(DOWNGRADE_INFO_ENABLED)
                    && !info.getField(DOWNGRADE_INFO_ENABLED).getVarintList().isEmpty()
                    && info.getField(DOWNGRADE_INFO_ENABLED).getVarintList().get(0) != 0;
            return enabled ? JetcdAdmin.text(info, DOWNGRADE_INFO_TARGET) : "";
        } catch (InvalidProtocolBufferException e) {
            return "";
        }
    }
}
