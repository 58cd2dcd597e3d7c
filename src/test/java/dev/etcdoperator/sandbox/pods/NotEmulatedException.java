package dev.etcdoperator.sandbox.pods;

/** A pod asks for something the sandbox cannot do faithfully; the reason ends up on the pod status. */
final class NotEmulatedException extends Exception {
    private final String reason;

    NotEmulatedException(String reason, String message) {
        super(message);
        this.reason = reason;
    }

    String reason() {
        return reason;
    }
}
