package dev.etcdoperator.etcd;

import java.time.Duration;
import java.util.Objects;

/**
 * Time limits of an {@link EtcdAdmin}.
 *
 * @param callTimeout             the deadline of every single call to etcd
 * @param reconfigurationDeadline how long add/promote/remove keep retrying while etcd says "not now"
 * @param initialBackoff          the first pause between two attempts (doubled each time)
 * @param maxBackoff              the longest pause between two attempts
 */
public record EtcdAdminOptions(Duration callTimeout, Duration reconfigurationDeadline, Duration initialBackoff,
        Duration maxBackoff) {

    public EtcdAdminOptions {
        Objects.requireNonNull(callTimeout, "callTimeout");
        Objects.requireNonNull(reconfigurationDeadline, "reconfigurationDeadline");
        Objects.requireNonNull(initialBackoff, "initialBackoff");
        Objects.requireNonNull(maxBackoff, "maxBackoff");
        if (callTimeout.isZero() || callTimeout.isNegative() || initialBackoff.isNegative() || maxBackoff.compareTo(initialBackoff) < 0) {
            throw new IllegalArgumentException("invalid etcd admin time limits: " + callTimeout + ", " + initialBackoff + ", " + maxBackoff);
        }
    }

    /** 5 s per call, 60 s for a reconfiguration, backoff 200 ms doubling up to 1 s. */
    public static EtcdAdminOptions defaults() {
        return new EtcdAdminOptions(Duration.ofSeconds(5), Duration.ofSeconds(60), Duration.ofMillis(200), Duration.ofSeconds(1));
    }

    public EtcdAdminOptions withCallTimeout(Duration timeout) {
        return new EtcdAdminOptions(timeout, reconfigurationDeadline, initialBackoff, maxBackoff);
    }

    public EtcdAdminOptions withReconfigurationDeadline(Duration deadline) {
        return new EtcdAdminOptions(callTimeout, deadline, initialBackoff, maxBackoff);
    }
}
