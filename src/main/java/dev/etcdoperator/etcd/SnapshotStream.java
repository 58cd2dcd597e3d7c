package dev.etcdoperator.etcd;

import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.time.Instant;
import java.util.Iterator;
import java.util.concurrent.TimeUnit;

import com.google.protobuf.ByteString;
import io.etcd.jetcd.api.MaintenanceGrpc;
import io.etcd.jetcd.api.SnapshotRequest;
import io.etcd.jetcd.api.SnapshotResponse;
import io.grpc.Context;
import io.grpc.Deadline;
import io.grpc.ManagedChannel;
import io.grpc.StatusRuntimeException;

/**
 * An etcd snapshot read from ONE member as a stream of bytes, pulled message by message: gRPC asks the member for
 * the next piece only when the reader has taken the last one, so nothing piles up in memory however large the
 * database is. The whole stream is bounded by a deadline; closing it early cancels the call.
 */
public final class SnapshotStream extends InputStream {
    private final ManagedChannel channel;
    private final Context.CancellableContext context;
    private final Iterator<SnapshotResponse> responses;
    private final String clientUrl;
    private ByteString current = ByteString.EMPTY;
    private int position;
    private boolean closed;

    private SnapshotStream(ManagedChannel channel, Context.CancellableContext context, Iterator<SnapshotResponse> responses,
            String clientUrl) {
        this.channel = channel;
        this.context = context;
        this.responses = responses;
        this.clientUrl = clientUrl;
    }

    /**
     * Starts a snapshot of the member at {@code clientUrl}.
     *
     * @param tls      client TLS material, or null for plain http
     * @param deadline when the whole snapshot must have been read
     */
    public static SnapshotStream open(String clientUrl, EtcdTls tls, Instant deadline) {
        long millis = Math.max(1, Duration.between(Instant.now(), deadline).toMillis());
        EtcdClientFactory factory = new EtcdClientFactory(tls, Duration.ofMillis(millis));
        ManagedChannel channel = factory.newChannel(clientUrl);
        Context.CancellableContext context = Context.current().withCancellation();
        Context previous = context.attach();
        try {
            Iterator<SnapshotResponse> responses = MaintenanceGrpc.newBlockingStub(channel)
                    .withDeadline(Deadline.after(millis, TimeUnit.MILLISECONDS))
                    .withMaxInboundMessageSize(16 * 1024 * 1024)
                    .snapshot(SnapshotRequest.getDefaultInstance());
            return new SnapshotStream(channel, context, responses, clientUrl);
        } catch (RuntimeException e) {
            context.cancel(e);
            EtcdClientFactory.close(channel);
            throw e;
        } finally {
            context.detach(previous);
        }
    }

    public String clientUrl() {
        return clientUrl;
    }

    @Override
    public int read() throws IOException {
        byte[] one = new byte[1];
        int n = read(one, 0, 1);
        return n < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] buffer, int offset, int length) throws IOException {
        if (closed) {
            throw new IOException("the snapshot stream from " + clientUrl + " is closed");
        }
        if (length == 0) {
            return 0;
        }
        while (position >= current.size()) {
            if (!next()) {
                return -1;
            }
        }
        int n = Math.min(length, current.size() - position);
        current.copyTo(buffer, position, offset, n);
        position += n;
        return n;
    }

    private boolean next() throws IOException {
        try {
            if (!responses.hasNext()) {
                return false;
            }
            current = responses.next().getBlob();
            position = 0;
            return true;
        } catch (StatusRuntimeException e) {
            EtcdAdminException translated = EtcdErrors.translate("snapshot", clientUrl, Duration.ZERO, e);
            throw new IOException(translated.getMessage(), translated);
        }
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            context.cancel(null);
            EtcdClientFactory.close(channel);
        }
    }
}
