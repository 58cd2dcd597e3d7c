package dev.etcdoperator.etcd;

import io.etcd.jetcd.common.exception.EtcdException;
import io.grpc.Status;
import io.grpc.StatusException;
import io.grpc.StatusRuntimeException;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;

/** Turns what jetcd and gRPC throw into an {@link EtcdAdminException} with a readable message. */
final class EtcdErrors {
    /** etcd's answers that mean "not now, the cluster is not ready for this reconfiguration". */
    private static final List<String> NOT_READY = List.of(
            "unhealthy cluster",
            "too many learner members",
            "not enough started members",
            "in sync with leader",
            "leader changed",
            "no leader",
            "not capable",
            "request timed out");

    private EtcdErrors() {
    }

    static EtcdAdminException translate(String what, Object where, Duration timeout, Throwable failure) {
        Throwable t = unwrap(failure);
        if (t instanceof EtcdAdminException e) {
            return e;
        }
        String reason = reason(t, timeout);
        EtcdAdminException.Kind kind = kindOf(t, reason);
        return new EtcdAdminException(kind, what + " at " + where + " failed: " + reason, t);
    }

    static boolean notReady(EtcdAdminException e) {
        return e.kind() == EtcdAdminException.Kind.NOT_READY;
    }

    /** etcd answered that its leader changed while the request waited (an election ran meanwhile). */
    static boolean leaderChanged(String message) {
        return message != null && message.toLowerCase(Locale.ROOT).contains("etcdserver: leader changed");
    }

    static boolean says(EtcdAdminException e, String fragment) {
        return e.getMessage() != null && e.getMessage().toLowerCase(Locale.ROOT).contains(fragment);
    }

    private static Throwable unwrap(Throwable t) {
        Throwable current = t;
        while ((current instanceof CompletionException || current instanceof ExecutionException) && current.getCause() != null) {
            current = current.getCause();
        }
        return current;
    }

    private static Status grpcStatus(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (c instanceof StatusRuntimeException s) {
                return s.getStatus();
            }
            if (c instanceof StatusException s) {
                return s.getStatus();
            }
        }
        return null;
    }

    private static String reason(Throwable t, Duration timeout) {
        if (t instanceof TimeoutException) {
            return "no answer within " + timeout.toMillis() + " ms";
        }
        Status status = grpcStatus(t);
        if (status != null) {
            if (status.getCode() == Status.Code.DEADLINE_EXCEEDED) {
                return "no answer within " + timeout.toMillis() + " ms (" + describe(status) + ")";
            }
            return describe(status);
        }
        if (t instanceof EtcdException e) {
            String message = e.getMessage() == null ? "" : firstLine(e.getMessage());
            String cause = deepestMessage(e.getCause());
            String text = e.getErrorCode() + ": " + message + (cause == null ? "" : " (" + cause + ")");
            return e.getErrorCode() == io.etcd.jetcd.common.exception.ErrorCode.DEADLINE_EXCEEDED
                    ? "no answer within " + timeout.toMillis() + " ms (" + text + ")"
                    : text;
        }
        return t.getClass().getSimpleName() + (t.getMessage() == null ? "" : ": " + t.getMessage());
    }

    private static String describe(Status status) {
        StringBuilder text = new StringBuilder(status.getCode().name());
        if (status.getDescription() != null) {
            text.append(": ").append(firstLine(status.getDescription()));
        }
        String cause = deepestMessage(status.getCause());
        if (cause != null) {
            text.append(" (").append(cause).append(')');
        }
        return text.toString();
    }

    /** The innermost message in a cause chain (where the TLS or socket error is), with its exception type. */
    private static String deepestMessage(Throwable t) {
        String found = null;
        for (Throwable c = t; c != null && c != c.getCause(); c = c.getCause()) {
            if (c.getMessage() != null) {
                found = c.getClass().getSimpleName() + ": " + firstLine(c.getMessage());
            }
        }
        return found;
    }

    /** gRPC puts the Netty pipeline on the lines after the description: a person needs the first. */
    private static String firstLine(String text) {
        int end = text.indexOf('\n');
        return end < 0 ? text : text.substring(0, end).strip();
    }

    private static EtcdAdminException.Kind kindOf(Throwable t, String reason) {
        String lower = reason.toLowerCase(Locale.ROOT);
        if (NOT_READY.stream().anyMatch(lower::contains)) {
            return EtcdAdminException.Kind.NOT_READY;
        }
        if (t instanceof TimeoutException) {
            return EtcdAdminException.Kind.UNAVAILABLE;
        }
        Status status = grpcStatus(t);
        Status.Code code = status != null ? status.getCode()
                : t instanceof EtcdException e ? Status.Code.valueOf(e.getErrorCode().name()) : Status.Code.UNKNOWN;
        return switch (code) {
            case UNAVAILABLE, DEADLINE_EXCEEDED, CANCELLED, ABORTED, RESOURCE_EXHAUSTED -> EtcdAdminException.Kind.UNAVAILABLE;
            default -> t instanceof java.io.IOException ? EtcdAdminException.Kind.UNAVAILABLE : EtcdAdminException.Kind.REJECTED;
        };
    }
}
