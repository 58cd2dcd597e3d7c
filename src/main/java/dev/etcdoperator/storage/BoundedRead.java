package dev.etcdoperator.storage;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.time.Instant;

import dev.etcdoperator.api.v1beta2.InputRules;

/**
 * A read of a whole backup that ends: at most {@link #MAX_BYTES} (etcd's largest quota, and room for the encryption's
 * framing), and before a deadline set by the size the store announces at a slow store's pace. The SDK's time limit
 * ends with the response's headers, not its body: an object that never ends, or trickles, would otherwise hold the
 * worker reading it for good.
 */
final class BoundedRead extends FilterInputStream {
    static final long MAX_BYTES = InputRules.MAX_QUOTA_BACKEND_BYTES + (64L << 20);
    /** The slowest pace a store is given to serve a backup, and the time it is given on top. */
    static final long SLOWEST_BYTES_PER_SECOND = 1L << 20;
    static final Duration SLACK = Duration.ofMinutes(10);

    private final String what;
    private final Instant deadline;
    private long read;

    private BoundedRead(InputStream in, String what, Instant deadline) {
        super(in);
        this.what = what;
        this.deadline = deadline;
    }

    /** @param announced the size the store announces (Content-Length), or null */
    static BoundedRead of(InputStream in, String what, Long announced, Instant now) {
        if (announced != null && announced > MAX_BYTES) {
            throw new TooMuch(what + " is " + announced + " bytes, more than any etcd snapshot (" + MAX_BYTES
                    + " bytes at most)");
        }
        long bytes = announced == null || announced < 0 ? MAX_BYTES : announced;
        return new BoundedRead(in, what, now.plus(SLACK).plusSeconds(bytes / SLOWEST_BYTES_PER_SECOND));
    }

    /** The read went past what a backup can be ({@code tooSlow} false), or past its time. */
    static final class TooMuch extends RuntimeException {
        final boolean tooSlow;

        TooMuch(String message) {
            this(message, false);
        }

        TooMuch(String message, boolean tooSlow) {
            super(message);
            this.tooSlow = tooSlow;
        }
    }

    @Override
    public int read() throws IOException {
        check(0);
        int b = super.read();
        if (b >= 0) {
            check(1);
        }
        return b;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        check(0);
        int n = super.read(b, off, len);
        if (n > 0) {
            check(n);
        }
        return n;
    }

    private void check(int n) {
        read += n;
        if (read > MAX_BYTES) {
            throw new TooMuch(what + " goes on past " + MAX_BYTES + " bytes, more than any etcd snapshot");
        }
        if (Instant.now().isAfter(deadline)) {
            throw new TooMuch("reading " + what + " did not end by " + deadline + " (" + read + " bytes read): the"
                    + " store serves it too slowly", true);
        }
    }
}
