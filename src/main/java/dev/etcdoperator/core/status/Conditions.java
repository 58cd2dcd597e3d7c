package dev.etcdoperator.core.status;

import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

import dev.etcdoperator.api.v1beta2.Condition;
import dev.etcdoperator.api.v1beta2.ConditionedStatus;

/**
 * Sets conditions the Kubernetes way: {@code lastTransitionTime} moves only when the status flips,
 * {@code lastUpdateTime} only when status, reason or message change, so an unchanged status patches nothing.
 */
public final class Conditions {
    public static final String TRUE = "True";
    public static final String FALSE = "False";
    public static final String UNKNOWN = "Unknown";

    private final Clock clock;

    public Conditions(Clock clock) {
        this.clock = clock;
    }

    /** Returns the list with {@code wanted} set in place of any condition of its type; {@code current} is not changed. */
    public List<Condition> set(List<Condition> current, Condition wanted, Long generation) {
        wanted.setMessage(Messages.bounded(wanted.getMessage()));
        List<Condition> result = new ArrayList<>();
        boolean placed = false;
        String now = now();
        for (Condition existing : current == null ? List.<Condition>of() : current) {
            if (Objects.equals(existing.getType(), wanted.getType())) {
                result.add(merge(existing, wanted, generation, now));
                placed = true;
            } else {
                result.add(existing);
            }
        }
        if (!placed) {
            result.add(copy(wanted, generation, now, now));
        }
        return result;
    }

    /** Sets a condition of that type on the status (see {@link #set(List, Condition, Long)}). */
    public void put(ConditionedStatus status, String type, String value, String reason, String message, Long generation) {
        Condition c = new Condition();
        c.setType(type);
        c.setStatus(value);
        c.setReason(reason);
        c.setMessage(message);
        status.setConditions(set(status.getConditions(), c, generation));
    }

    public static Optional<Condition> find(List<Condition> conditions, String type) {
        return conditions == null ? Optional.empty()
                : conditions.stream().filter(c -> Objects.equals(c.getType(), type)).findFirst();
    }

    /** True when the condition of that type exists with that status and reason. */
    public static boolean has(List<Condition> conditions, String type, String status, String reason) {
        return find(conditions, type)
                .filter(c -> Objects.equals(c.getStatus(), status) && Objects.equals(c.getReason(), reason))
                .isPresent();
    }

    private Condition merge(Condition existing, Condition wanted, Long generation, String now) {
        boolean flipped = !Objects.equals(existing.getStatus(), wanted.getStatus());
        boolean changed = flipped
                || !Objects.equals(existing.getReason(), wanted.getReason())
                || !Objects.equals(existing.getMessage(), wanted.getMessage());
        if (!changed && Objects.equals(existing.getObservedGeneration(), generation)) {
            return existing;
        }
        String transition = flipped || existing.getLastTransitionTime() == null ? now : existing.getLastTransitionTime();
        String update = changed || existing.getLastUpdateTime() == null ? now : existing.getLastUpdateTime();
        return copy(wanted, generation, update, transition);
    }

    private static Condition copy(Condition wanted, Long generation, String update, String transition) {
        Condition c = new Condition(wanted.getType(), wanted.getStatus(), wanted.getReason(), wanted.getMessage());
        c.setObservedGeneration(generation);
        c.setLastUpdateTime(update);
        c.setLastTransitionTime(transition);
        return c;
    }

    private String now() {
        return Instant.now(clock).truncatedTo(ChronoUnit.SECONDS).toString();
    }
}
