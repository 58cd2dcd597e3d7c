package dev.etcdoperator.sandbox.s3;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An HTTP/1.1 front for s3mock that checks credentials as S3 does ({@link SigV4Check}): it listens on the S3
 * endpoint, answers refused requests itself (status and XML error body as S3 gives them) and passes accepted ones
 * to s3mock on its own port, byte for byte: the request head as received (Host included), then the body, and the
 * response the same way back. Bodies are streamed in both directions through {@value #BUFFER}-byte buffers, never
 * held whole; {@code Expect: 100-continue} is left to s3mock, whose interim answer is passed on.
 *
 * <p>Each client connection has a connection to s3mock of its own, kept alive as long as both sides keep theirs.
 * {@link #stop()} closes the listening socket and every connection at once, as a dead server's would be; {@link
 * #open()} listens again on the same address and port.
 */
final class AuthenticatingFront implements AutoCloseable {
    static final int BUFFER = 64 * 1024;
    private static final int MAX_HEAD = 64 * 1024;
    private static final int MAX_HEADERS = 200;
    /** How long a request body may take to arrive once its response has gone back. */
    private static final long BODY_WAIT_SECONDS = 120;
    private static final DateTimeFormatter HTTP_DATE = DateTimeFormatter.RFC_1123_DATE_TIME;

    private final InetSocketAddress listenOn;
    private final InetSocketAddress backend;
    private final SigV4Check check;
    private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();
    private final AtomicInteger threads = new AtomicInteger();
    private ServerSocket listener;
    private ExecutorService executor;

    AuthenticatingFront(InetSocketAddress listenOn, InetSocketAddress backend, SigV4Check check) {
        this.listenOn = listenOn;
        this.backend = backend;
        this.check = check;
    }

    /** Listens (again) on the front's address and port. */
    synchronized void open() {
        if (listener != null) {
            return;
        }
        ServerSocket socket = null;
        try {
            socket = new ServerSocket();
            socket.setReuseAddress(true);
            socket.bind(listenOn, 128);
        } catch (IOException e) {
            closeQuietly(socket);
            throw new UncheckedIOException("the S3 front cannot listen on " + listenOn, e);
        }
        listener = socket;
        executor = new ThreadPoolExecutor(0, Integer.MAX_VALUE, 30, TimeUnit.SECONDS, new SynchronousQueue<>(),
                r -> {
                    Thread t = new Thread(r, "s3-front-" + listenOn.getPort() + "-" + threads.incrementAndGet());
                    t.setDaemon(true);
                    return t;
                });
        ServerSocket accepting = socket;
        ExecutorService running = executor;
        running.execute(() -> accept(accepting, running));
    }

    /**
     * Stops listening and closes every connection, clients' and s3mock's, at once: requests in flight fail as they
     * would when a server dies. Returns when the front's threads have ended.
     */
    synchronized void stop() {
        if (listener == null) {
            return;
        }
        closeQuietly(listener);
        listener = null;
        for (Socket s : sockets) {
            closeQuietly(s);
        }
        executor.shutdownNow();
        try {
            if (!executor.awaitTermination(30, TimeUnit.SECONDS)) {
                throw new IllegalStateException("the S3 front's threads did not end");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        executor = null;
    }

    synchronized boolean listening() {
        return listener != null;
    }

    @Override
    public void close() {
        stop();
    }

    private void accept(ServerSocket accepting, ExecutorService running) {
        while (!accepting.isClosed()) {
            Socket client;
            try {
                client = accepting.accept();
            } catch (IOException e) {
                return; // closed by stop()
            }
            sockets.add(client);
            try {
                running.execute(() -> serve(client, running));
            } catch (RejectedExecutionException stopping) {
                forget(client);
            }
            if (accepting.isClosed()) {
                forget(client); // stop() may have run through the sockets before this one was added
            }
        }
    }

    private void serve(Socket client, ExecutorService running) {
        Socket upstream = null;
        try {
            client.setTcpNoDelay(true);
            InputStream in = new BufferedInputStream(client.getInputStream(), BUFFER);
            OutputStream out = new BufferedOutputStream(client.getOutputStream(), BUFFER);
            InputStream upIn = null;
            OutputStream upOut = null;
            while (true) {
                Head request = Head.read(in, true);
                if (request == null) {
                    return; // the client closed its connection between requests
                }
                SigV4Check.Refusal refusal = check.check(new SigV4Check.Request(request.method(),
                        request.target(), request.headers()));
                if (refusal != null) {
                    if (!refuse(request, refusal, in, out)) {
                        lingeringClose(client, in);
                        return;
                    }
                    continue;
                }
                if (upstream == null) {
                    upstream = new Socket();
                    sockets.add(upstream);
                    upstream.setTcpNoDelay(true);
                    upstream.connect(backend, 5_000);
                    upIn = new BufferedInputStream(upstream.getInputStream(), BUFFER);
                    upOut = new BufferedOutputStream(upstream.getOutputStream(), BUFFER);
                }
                if (!exchange(request, in, out, upIn, upOut, running)) {
                    return;
                }
            }
        } catch (IOException | RuntimeException e) {
            // the client, s3mock or stop() ended the connection: close both sides, as a server that died would
        } finally {
            forget(upstream);
            forget(client);
        }
    }

    /**
     * One accepted request: the head to s3mock, the body (if any) on another thread, while this one passes s3mock's
     * answer back, interim ones ({@code 100 Continue}) included.
     *
     * @return whether both connections can carry another request
     */
    private boolean exchange(Head request, InputStream in, OutputStream out, InputStream upIn, OutputStream upOut,
            ExecutorService running) throws IOException {
        Framing body = request.requestFraming();
        upOut.write(request.raw());
        // now: a client that asks for 100 Continue sends its body only once s3mock has the head and answers
        upOut.flush();
        Future<?> pump = null;
        if (body.kind() != Framing.Kind.NONE) {
            OutputStream to = upOut;
            pump = running.submit(() -> {
                copy(body, in, to);
                to.flush();
                return null;
            });
        }
        boolean continued = false;
        Head response;
        while (true) {
            response = Head.read(upIn, false);
            if (response == null) {
                throw new EOFException("s3mock closed the connection without an answer");
            }
            if (response.status() >= 100 && response.status() < 200 && response.status() != 101) {
                out.write(response.raw());
                out.flush();
                continued |= response.status() == 100;
                continue;
            }
            break;
        }
        // the client waits for 100 Continue before it sends a body: without it, the body is not coming
        boolean bodyNotSent = pump != null && request.expectsContinue() && !continued;
        boolean keepAlive = !bodyNotSent && response.keepAlive() && request.keepAlive();
        Framing answer = response.responseFraming(request.method());
        keepAlive &= answer.kind() != Framing.Kind.UNTIL_CLOSE;
        out.write(keepAlive || response.says("connection", "close") ? response.raw() : response.withClose());
        copy(answer, upIn, out);
        out.flush();
        if (pump != null && !bodyNotSent) {
            try {
                pump.get(BODY_WAIT_SECONDS, TimeUnit.SECONDS);
            } catch (ExecutionException | TimeoutException e) {
                return false;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return keepAlive;
    }

    /**
     * Answers a refused request as S3 does: status, {@code x-amz-request-id}, XML error body (none for HEAD). A
     * body the client sends anyway is read and dropped, so that the connection can serve the next request.
     *
     * @return whether the connection can carry another request
     */
    private static boolean refuse(Head request, SigV4Check.Refusal refusal, InputStream in, OutputStream out)
            throws IOException {
        String requestId = UUID.randomUUID().toString().replace("-", "").substring(0, 16).toUpperCase(Locale.ROOT);
        Framing body = request.requestFraming();
        // a client that waits for 100 Continue sends no body: the connection ends with this answer
        boolean keepAlive = request.keepAlive() && !(body.kind() != Framing.Kind.NONE && request.expectsContinue());
        byte[] xml = errorXml(refusal, request, requestId).getBytes(StandardCharsets.UTF_8);
        boolean head = request.method().equals("HEAD");
        StringBuilder answer = new StringBuilder(256)
                .append("HTTP/1.1 ").append(refusal.status()).append(' ').append(reason(refusal.status()))
                .append("\r\n")
                .append("x-amz-request-id: ").append(requestId).append("\r\n")
                .append("Date: ").append(HTTP_DATE.format(ZonedDateTime.now(ZoneOffset.UTC))).append("\r\n")
                .append("Content-Type: application/xml\r\n")
                .append(head ? "" : "Content-Length: " + xml.length + "\r\n")
                .append(keepAlive ? "" : "Connection: close\r\n")
                .append("\r\n");
        out.write(answer.toString().getBytes(StandardCharsets.ISO_8859_1));
        if (!head) {
            out.write(xml);
        }
        out.flush();
        if (keepAlive && body.kind() != Framing.Kind.NONE) {
            copy(body, in, OutputStream.nullOutputStream());
        }
        return keepAlive;
    }

    /** Closes after an answer the client may still be sending to: reads what comes for a moment, then closes. */
    private static void lingeringClose(Socket client, InputStream in) {
        try {
            client.shutdownOutput();
            client.setSoTimeout(2_000);
            byte[] drop = new byte[BUFFER];
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
            while (System.nanoTime() < until && in.read(drop) >= 0) {
                // dropped
            }
        } catch (IOException e) {
            // closing anyway
        }
    }

    static String errorXml(SigV4Check.Refusal refusal, Head request, String requestId) {
        StringBuilder xml = new StringBuilder(512).append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Error>")
                .append("<Code>").append(escape(refusal.code())).append("</Code>")
                .append("<Message>").append(escape(refusal.message())).append("</Message>");
        for (Map.Entry<String, String> detail : refusal.details().entrySet()) {
            xml.append('<').append(detail.getKey()).append('>').append(escape(detail.getValue()))
                    .append("</").append(detail.getKey()).append('>');
        }
        int q = request.target().indexOf('?');
        String resource = q < 0 ? request.target() : request.target().substring(0, q);
        return xml.append("<Resource>").append(escape(SigV4Check.percentDecode(resource))).append("</Resource>")
                .append("<RequestId>").append(requestId).append("</RequestId>")
                .append("</Error>").toString();
    }

    private static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;")
                .replace("'", "&apos;");
    }

    private static String reason(int status) {
        return switch (status) {
            case 400 -> "Bad Request";
            case 403 -> "Forbidden";
            default -> "Error";
        };
    }

    /** Copies one body, framed as said, from {@code in} to {@code out} (chunked: chunk lines and trailers too). */
    static void copy(Framing framing, InputStream in, OutputStream out) throws IOException {
        switch (framing.kind()) {
            case NONE -> {
            }
            case LENGTH -> copyExactly(framing.length(), in, out);
            case UNTIL_CLOSE -> in.transferTo(out);
            case CHUNKED -> {
                while (true) {
                    String line = readLine(in, MAX_HEAD);
                    out.write((line + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
                    int semicolon = line.indexOf(';');
                    String size = (semicolon < 0 ? line : line.substring(0, semicolon)).trim();
                    long length;
                    try {
                        length = Long.parseLong(size, 16);
                    } catch (NumberFormatException e) {
                        throw new IOException("a bad chunk size: " + line);
                    }
                    if (length == 0) {
                        String trailer;
                        do {
                            trailer = readLine(in, MAX_HEAD);
                            out.write((trailer + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
                        } while (!trailer.isEmpty());
                        return;
                    }
                    copyExactly(length + 2, in, out); // the chunk and its CRLF
                }
            }
            default -> throw new IllegalStateException(framing.kind().toString());
        }
    }

    private static void copyExactly(long length, InputStream in, OutputStream out) throws IOException {
        byte[] buffer = new byte[(int) Math.min(BUFFER, Math.max(length, 1))];
        long left = length;
        while (left > 0) {
            int n = in.read(buffer, 0, (int) Math.min(buffer.length, left));
            if (n < 0) {
                throw new EOFException("the body ended " + left + " bytes early");
            }
            out.write(buffer, 0, n);
            left -= n;
        }
    }

    /** A line ending in CRLF (or LF), without it; null at the end of the stream before any byte. */
    private static String readLine(InputStream in, int max) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream(64);
        int b;
        while ((b = in.read()) >= 0) {
            if (b == '\n') {
                byte[] bytes = line.toByteArray();
                int length = bytes.length > 0 && bytes[bytes.length - 1] == '\r' ? bytes.length - 1 : bytes.length;
                return new String(bytes, 0, length, StandardCharsets.ISO_8859_1);
            }
            line.write(b);
            if (line.size() > max) {
                throw new IOException("a line longer than " + max + " bytes");
            }
        }
        if (line.size() == 0) {
            return null;
        }
        throw new EOFException("the connection ended in the middle of a line");
    }

    private void forget(Socket socket) {
        if (socket != null) {
            closeQuietly(socket);
            sockets.remove(socket);
        }
    }

    private static void closeQuietly(AutoCloseable closeable) {
        if (closeable != null) {
            try {
                closeable.close();
            } catch (Exception e) {
                // closing anyway
            }
        }
    }

    /** How a body is delimited. */
    record Framing(Kind kind, long length) {
        enum Kind { NONE, LENGTH, CHUNKED, UNTIL_CLOSE }

        static final Framing NONE = new Framing(Kind.NONE, 0);
        static final Framing CHUNKED = new Framing(Kind.CHUNKED, -1);
        static final Framing UNTIL_CLOSE = new Framing(Kind.UNTIL_CLOSE, -1);

        static Framing length(long length) {
            return length == 0 ? NONE : new Framing(Kind.LENGTH, length);
        }
    }

    /**
     * A request or response head: its bytes as received, the first line's parts, the headers by lower-case name
     * (values in order of arrival).
     */
    record Head(byte[] raw, String version, String method, String target, int status,
            Map<String, List<String>> headers) {

        /** @return null at the end of the stream before a head begins */
        static Head read(InputStream in, boolean request) throws IOException {
            ByteArrayOutputStream raw = new ByteArrayOutputStream(512);
            String first;
            do { // a blank line before a request line is to be ignored (RFC 9112, 2.2)
                first = readLine(in, MAX_HEAD);
                if (first == null) {
                    return null;
                }
            } while (first.isEmpty() && request);
            raw.write((first + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
            Map<String, List<String>> headers = new LinkedHashMap<>();
            String last = null;
            int count = 0;
            while (true) {
                String line = readLine(in, MAX_HEAD);
                if (line == null) {
                    throw new EOFException("the connection ended in a head");
                }
                raw.write((line + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
                if (raw.size() > MAX_HEAD || ++count > MAX_HEADERS) {
                    throw new IOException("a head larger than " + MAX_HEAD + " bytes or " + MAX_HEADERS
                            + " headers");
                }
                if (line.isEmpty()) {
                    break;
                }
                if ((line.charAt(0) == ' ' || line.charAt(0) == '\t') && last != null) {
                    List<String> values = headers.get(last); // an obsolete folded line continues the value
                    values.set(values.size() - 1, values.get(values.size() - 1) + " " + line.trim());
                    continue;
                }
                int colon = line.indexOf(':');
                if (colon <= 0) {
                    throw new IOException("a bad header line: " + line);
                }
                last = line.substring(0, colon).trim().toLowerCase(Locale.ROOT);
                headers.computeIfAbsent(last, k -> new ArrayList<>(1)).add(line.substring(colon + 1).trim());
            }
            String[] parts = first.split(" ", 3);
            if (parts.length < 2) {
                throw new IOException("a bad " + (request ? "request" : "status") + " line: " + first);
            }
            if (request) {
                if (parts.length < 3 || !parts[2].startsWith("HTTP/1.")) {
                    throw new IOException("not an HTTP/1.x request: " + first);
                }
                return new Head(raw.toByteArray(), parts[2], parts[0], parts[1], 0, headers);
            }
            try {
                return new Head(raw.toByteArray(), parts[0], null, null, Integer.parseInt(parts[1]), headers);
            } catch (NumberFormatException e) {
                throw new IOException("a bad status line: " + first);
            }
        }

        String header(String name) {
            List<String> values = headers.get(name);
            return values == null || values.isEmpty() ? null : values.get(values.size() - 1);
        }

        /** Whether a comma-separated header has the token, ignoring case. */
        boolean says(String name, String token) {
            for (String value : headers.getOrDefault(name, List.of())) {
                for (String t : value.split(",")) {
                    if (t.trim().equalsIgnoreCase(token)) {
                        return true;
                    }
                }
            }
            return false;
        }

        boolean keepAlive() {
            return version.equals("HTTP/1.1") ? !says("connection", "close") : says("connection", "keep-alive");
        }

        boolean expectsContinue() {
            return says("expect", "100-continue");
        }

        Framing requestFraming() throws IOException {
            if (headers.containsKey("transfer-encoding")) {
                if (!says("transfer-encoding", "chunked")) {
                    throw new IOException("a request body in an unknown transfer coding");
                }
                return Framing.CHUNKED;
            }
            return Framing.length(contentLength());
        }

        Framing responseFraming(String requestMethod) throws IOException {
            if (requestMethod.equals("HEAD") || status == 204 || status == 304 || (status >= 100 && status < 200)) {
                return Framing.NONE;
            }
            if (headers.containsKey("transfer-encoding")) {
                return says("transfer-encoding", "chunked") ? Framing.CHUNKED : Framing.UNTIL_CLOSE;
            }
            return headers.containsKey("content-length") ? Framing.length(contentLength()) : Framing.UNTIL_CLOSE;
        }

        private long contentLength() throws IOException {
            String value = header("content-length");
            if (value == null) {
                return 0;
            }
            try {
                long length = Long.parseLong(value.trim());
                if (length < 0) {
                    throw new NumberFormatException(value);
                }
                return length;
            } catch (NumberFormatException e) {
                throw new IOException("a bad Content-Length: " + value);
            }
        }

        /** The head with {@code Connection: close} added. */
        byte[] withClose() {
            byte[] close = "Connection: close\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1);
            byte[] out = new byte[raw.length - 2 + close.length];
            System.arraycopy(raw, 0, out, 0, raw.length - 2);
            System.arraycopy(close, 0, out, raw.length - 2, close.length);
            return out;
        }
    }
}
