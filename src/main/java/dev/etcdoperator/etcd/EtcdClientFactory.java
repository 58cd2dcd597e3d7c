package dev.etcdoperator.etcd;

import io.etcd.jetcd.Client;
import io.etcd.jetcd.ClientBuilder;
import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientCall;
import io.grpc.ClientInterceptor;
import io.grpc.ManagedChannel;
import io.grpc.MethodDescriptor;
import io.grpc.netty.GrpcSslContexts;
import io.grpc.netty.NettyChannelBuilder;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import java.io.ByteArrayInputStream;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLException;

/**
 * The one place where connections to etcd are made: plain gRPC channels to a single member, on gRPC's shared event
 * loops, and jetcd clients (each with a Vert.x instance of its own: the operator's admin calls do not use them).
 * Whoever asks for one closes it.
 */
public final class EtcdClientFactory {
    private final EtcdTls tls;
    private final Duration callTimeout;
    private final SslContext sslContext;

    /**
     * @param tls         client TLS material, or null for plain HTTP endpoints
     * @param callTimeout the deadline put on every single gRPC call made through what this factory creates
     */
    public EtcdClientFactory(EtcdTls tls, Duration callTimeout) {
        this.tls = tls;
        this.callTimeout = requirePositive(callTimeout);
        this.sslContext = tls == null ? null : sslContext(tls);
    }

    public Duration callTimeout() {
        return callTimeout;
    }

    /** A jetcd client on all these endpoints; every call it makes carries the call timeout as a gRPC deadline. */
    public Client newClient(List<String> endpoints) {
        if (endpoints.isEmpty()) {
            throw new IllegalArgumentException("no etcd endpoint given");
        }
        endpoints.forEach(this::checkScheme);
        ClientBuilder builder = Client.builder()
                .endpoints(endpoints.stream().map(URI::create).toArray(URI[]::new))
                .connectTimeout(callTimeout)
                .waitForReady(false)
                .retryMaxDuration(callTimeout)
                .interceptor(deadlineInterceptor(callTimeout));
        if (sslContext != null) {
            builder.sslContext(sslContext);
        }
        return builder.build();
    }

    /** A plain gRPC channel to exactly one member; use the generated etcd stubs with a deadline on it. */
    public ManagedChannel newChannel(String endpoint) {
        URI uri = checkScheme(endpoint);
        int port = uri.getPort() > 0 ? uri.getPort() : 2379;
        NettyChannelBuilder builder = NettyChannelBuilder.forAddress(uri.getHost(), port)
                .withOption(io.netty.channel.ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) callTimeout.toMillis())
                .intercept(deadlineInterceptor(callTimeout));
        if (sslContext != null) {
            builder.sslContext(sslContext).overrideAuthority(uri.getHost() + ":" + port);
        } else {
            builder.usePlaintext();
        }
        return builder.build();
    }

    /**
     * Fails unless {@code endpoint} is an http(s) URL whose scheme matches whether TLS material was given.
     *
     * @throws IllegalArgumentException saying what is wrong
     */
    void checkEndpoint(String endpoint) {
        checkScheme(endpoint);
    }

    /** Closes a channel made by {@link #newChannel}, waiting briefly for it to go. */
    public static void close(ManagedChannel channel) {
        channel.shutdownNow();
        try {
            channel.awaitTermination(2, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private URI checkScheme(String endpoint) {
        URI uri;
        try {
            uri = URI.create(endpoint);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("not a URL: " + endpoint, e);
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (uri.getHost() == null || !(scheme.equals("http") || scheme.equals("https"))) {
            throw new IllegalArgumentException("an etcd endpoint looks like http(s)://host:port, not " + endpoint);
        }
        if (scheme.equals("https") && tls == null) {
            throw new IllegalArgumentException("endpoint " + endpoint + " is https but no TLS material was given");
        }
        if (scheme.equals("http") && tls != null) {
            throw new IllegalArgumentException("endpoint " + endpoint + " is plain http but TLS material was given");
        }
        return uri;
    }

    /** The client SslContext, built as jetcd builds it ({@code GrpcSslContexts.forClient()}). */
    static SslContext sslContext(EtcdTls tls) {
        try {
            SslContextBuilder builder = GrpcSslContexts.forClient()
                    .trustManager(new ByteArrayInputStream(tls.caCert()));
            if (tls.hasClientCertificate()) {
                builder.keyManager(new ByteArrayInputStream(tls.clientCert()),
                        new ByteArrayInputStream(PemPrivateKeys.toPkcs8(tls.clientKey())));
            }
            return builder.build();
        } catch (SSLException | IllegalArgumentException e) {
            throw new IllegalArgumentException("cannot use the etcd TLS material (PEM CA, certificate, key): "
                    + e.getMessage(), e);
        }
    }

    private static ClientInterceptor deadlineInterceptor(Duration timeout) {
        long nanos = timeout.toNanos();
        return new ClientInterceptor() {
            @Override
            public <Q, R> ClientCall<Q, R> interceptCall(MethodDescriptor<Q, R> method, CallOptions options, Channel next) {
                CallOptions bounded = options.getDeadline() == null ? options.withDeadlineAfter(nanos, TimeUnit.NANOSECONDS) : options;
                return next.newCall(method, bounded);
            }
        };
    }

    private static Duration requirePositive(Duration timeout) {
        if (timeout == null || timeout.isZero() || timeout.isNegative()) {
            throw new IllegalArgumentException("the etcd call timeout must be positive, not " + timeout);
        }
        return timeout;
    }
}
