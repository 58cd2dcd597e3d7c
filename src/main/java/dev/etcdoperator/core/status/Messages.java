package dev.etcdoperator.core.status;

/**
 * A message as far as a status or an Event holds it: what a store or an etcd endpoint answered may be of any length,
 * and a status the API server refuses for its size records nothing at all.
 */
public final class Messages {
    /** Characters kept of one message. */
    public static final int MAX = 4000;

    private Messages() {
    }

    public static String bounded(String message) {
        if (message == null || message.length() <= MAX) {
            return message;
        }
        return message.substring(0, MAX) + "... (" + (message.length() - MAX) + " more characters)";
    }
}
