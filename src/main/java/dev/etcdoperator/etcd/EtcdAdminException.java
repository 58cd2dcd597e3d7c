package dev.etcdoperator.etcd;

/**
 * Every failure of an {@link EtcdAdmin} call: jetcd and gRPC errors, timeouts and refusals, with a message a
 * person can read (what was asked, of whom, and what etcd or the network answered).
 */
public class EtcdAdminException extends RuntimeException {

    /** What kind of failure it is, so that a caller can decide to wait, retry later or give up. */
    public enum Kind {
        /** No answer: connection refused, no route, deadline exceeded. Try again later or elsewhere. */
        UNAVAILABLE,
        /**
         * etcd answered that it cannot do it now (unhealthy cluster, too many learners, learner not in sync,
         * leader changed) and retrying until the deadline did not help.
         */
        NOT_READY,
        /** etcd refused the request itself (unknown member, peer URL already in use, bad argument, ...). */
        REJECTED
    }

    private final Kind kind;

    public EtcdAdminException(Kind kind, String message, Throwable cause) {
        super(message, cause);
        this.kind = kind;
    }

    public Kind kind() {
        return kind;
    }
}
