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
 * @param guardBackoff            the longest pause while etcd refuses a new member with "unhealthy cluster": its
 *                                guard that waits until every voter has been connected for 5 s opens at a moment
 *                                no caller can see, and a cheap refusal is better than a late join
 */
public record EtcdAdminOptions(Duration callTimeout, Duration reconfigurationDeadline, Duration initialBackoff,
        Duration maxBackoff, Duration guardBackoff) {

    public EtcdAdminOptions {
        Objects.requireNonNull(callTimeout, "callTimeout");
        Objects.requireNonNull(reconfigurationDeadline, "reconfigurationDeadline");
        Objects.requireNonNull(initialBackoff, "initialBackoff");
        Objects.requireNonNull(maxBackoff, "maxBackoff");
        Objects.requireNonNull(guardBackoff, "guardBackoff");
        if (callTimeout.isZero() || callTimeout.isNegative() || initialBackoff.isNegative() || maxBackoff.compareTo(initialBackoff) < 0
                || guardBackoff.isNegative()) {
            throw new IllegalArgumentException("invalid etcd admin time limits: " + callTimeout + ", " + initialBackoff + ", "
                    + maxBackoff + ", " + guardBackoff);
        }
    }

    /**
     * 5 s per call, 60 s for a reconfiguration, backoff 200 ms doubling up to 1 s, and at most 250 ms while etcd's
     * reconfiguration guard refuses a new member.
     */
    public static EtcdAdminOptions defaults() {
        return new EtcdAdminOptions(Duration.ofSeconds(5), Duration.ofSeconds(60), Duration.ofMillis(200), Duration.ofSeconds(1),
                Duration.ofMillis(250));
    }

    public EtcdAdminOptions withCallTimeout(Duration timeout) {
        return new EtcdAdminOptions(timeout, reconfigurationDeadline, initialBackoff, maxBackoff, guardBackoff);
    }

    public EtcdAdminOptions withReconfigurationDeadline(Duration deadline) {
        return new EtcdAdminOptions(callTimeout, deadline, initialBackoff, maxBackoff, guardBackoff);
    }
}
