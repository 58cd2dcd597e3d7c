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
 * @param guardPatience           how long that guard's refusals are tried again: it opens 5 s after the last voter
 *                                connected, so one that stays shut longer means a voter is down or quorum is lost,
 *                                and the caller looks again rather than wait out the whole reconfiguration deadline
 */
public record EtcdAdminOptions(Duration callTimeout, Duration reconfigurationDeadline, Duration initialBackoff,
        Duration maxBackoff, Duration guardBackoff, Duration guardPatience) {
    static final Duration GUARD_PATIENCE = Duration.ofSeconds(15);

    /** With the default guard patience (15 s). */
    public EtcdAdminOptions(Duration callTimeout, Duration reconfigurationDeadline, Duration initialBackoff,
            Duration maxBackoff, Duration guardBackoff) {
        this(callTimeout, reconfigurationDeadline, initialBackoff, maxBackoff, guardBackoff, GUARD_PATIENCE);
    }

    public EtcdAdminOptions {
        Objects.requireNonNull(guardPatience, "guardPatience");
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
     * reconfiguration guard refuses a new member, for at most 15 s.
     */
    public static EtcdAdminOptions defaults() {
        return new EtcdAdminOptions(Duration.ofSeconds(5), Duration.ofSeconds(60), Duration.ofMillis(200), Duration.ofSeconds(1),
                Duration.ofMillis(250));
    }

    public EtcdAdminOptions withCallTimeout(Duration timeout) {
        return new EtcdAdminOptions(timeout, reconfigurationDeadline, initialBackoff, maxBackoff, guardBackoff,
                guardPatience);
    }

    public EtcdAdminOptions withReconfigurationDeadline(Duration deadline) {
        return new EtcdAdminOptions(callTimeout, deadline, initialBackoff, maxBackoff, guardBackoff, guardPatience);
    }

    public EtcdAdminOptions withGuardPatience(Duration patience) {
        return new EtcdAdminOptions(callTimeout, reconfigurationDeadline, initialBackoff, maxBackoff, guardBackoff,
                patience);
    }
}
