package dev.etcdoperator.core.events;

import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Decides, for each occurrence of an Event, whether it becomes a new Event or raises the count of one already
 * recorded, as Kubernetes' own event correlator does:
 * <ul>
 * <li>the same object, type, reason and message raise the {@code count} and {@code lastTimestamp} of ONE Event;</li>
 * <li>an object that keeps getting the same type and reason with ever new messages (an error text that differs
 * each time) gets at most {@link #DISTINCT_MESSAGES} Events of their own; after that, until the reason has been
 * quiet for {@link #QUIET_PERIOD}, every further message goes to one combined Event that shows the latest.</li>
 * </ul>
 * Both memories are bounded (least recently used entries go first): a forgotten Event is created afresh, never
 * lost. Thread-safe; every decision is made under the object's lock and takes no time.
 */
public final class EventCorrelator {
    public static final int DISTINCT_MESSAGES = 10;
    public static final Duration QUIET_PERIOD = Duration.ofMinutes(10);
    public static final String COMBINED_PREFIX = "(combined from similar events): ";
    static final int DEFAULT_CAPACITY = 4096;

    /** The object an Event is about: uid, and kind, namespace and name in case an object has no uid yet. */
    public record Subject(String kind, String namespace, String name, String uid) {
    }

    /** One occurrence to record. */
    public record Occurrence(Subject subject, String type, String reason, String message) {
        public Occurrence {
            Objects.requireNonNull(subject, "subject");
            Objects.requireNonNull(type, "type");
            Objects.requireNonNull(reason, "reason");
            message = message == null ? "" : message;
        }
    }

    /**
     * What to write: a new Event ({@code count == 1}) or the Event {@code name} with this count, message and
     * last timestamp (whose first timestamp is {@code first}).
     */
    public record Decision(String name, int count, String message, Instant first, Instant last) {
        public boolean isNew() {
            return count == 1;
        }
    }

    private record Recorded(String name, int count, Instant first) {
    }

    private record Similar(Set<String> messages, Instant last) {
    }

    /** With a null message: the object's type and reason, whatever the message (the combined Event's key). */
    private record Key(Subject subject, String type, String reason, String message) {
    }

    private final Map<Key, Recorded> recorded;
    private final Map<Key, Similar> similar;

    public EventCorrelator() {
        this(DEFAULT_CAPACITY);
    }

    public EventCorrelator(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be positive, not " + capacity);
        }
        this.recorded = lru(capacity);
        this.similar = lru(capacity);
    }

    /**
     * @param newName the name to give the Event if this occurrence gets a new one
     */
    public synchronized Decision observe(Occurrence occurrence, String newName, Instant now) {
        Key exact = new Key(occurrence.subject(), occurrence.type(), occurrence.reason(), occurrence.message());
        Key family = new Key(occurrence.subject(), occurrence.type(), occurrence.reason(), null);
        String message = occurrence.message();
        Similar seen = similar.get(family);
        if (seen == null || seen.last().plus(QUIET_PERIOD).isBefore(now)) {
            seen = new Similar(new HashSet<>(), now);
        }
        if (!seen.messages().contains(message)) {
            if (seen.messages().size() < DISTINCT_MESSAGES) {
                seen.messages().add(message);
            } else if (!recorded.containsKey(exact)) {
                exact = family;
                message = COMBINED_PREFIX + message;
            }
        }
        similar.put(family, new Similar(seen.messages(), now));
        Recorded before = recorded.get(exact);
        Recorded after = before == null ? new Recorded(newName, 1, now)
                : new Recorded(before.name(), before.count() + 1, before.first());
        recorded.put(exact, after);
        return new Decision(after.name(), after.count(), message, after.first(), now);
    }

    private static <K, V> Map<K, V> lru(int capacity) {
        return new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<K, V> eldest) {
                return size() > capacity;
            }
        };
    }
}
