package dev.etcdoperator.core.schedule;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.Map;
import java.util.Optional;

import com.cronutils.model.CronType;
import com.cronutils.model.definition.CronDefinitionBuilder;
import com.cronutils.model.time.ExecutionTime;
import com.cronutils.parser.CronParser;

/**
 * A schedule in the five-field cron syntax of a Kubernetes CronJob (minute, hour, day of month, month, day of week),
 * read in UTC, or one of its macros ({@code @hourly}, {@code @daily}, {@code @weekly}, {@code @monthly},
 * {@code @yearly}). Pure.
 */
public final class CronSchedule {
    private static final CronParser PARSER = new CronParser(CronDefinitionBuilder.instanceDefinitionFor(CronType.UNIX));
    private static final Map<String, String> MACROS = Map.of(
            "@hourly", "0 * * * *",
            "@daily", "0 0 * * *",
            "@midnight", "0 0 * * *",
            "@weekly", "0 0 * * 0",
            "@monthly", "0 0 1 * *",
            "@yearly", "0 0 1 1 *",
            "@annually", "0 0 1 1 *");
    /** Far enough ahead for any schedule that fires at all (a February 29th in a leap year). */
    private static final int YEARS_AHEAD = 8;

    private final String text;
    private final ExecutionTime times;

    private CronSchedule(String text, ExecutionTime times) {
        this.text = text;
        this.times = times;
    }

    /**
     * Reads a schedule.
     *
     * @throws IllegalArgumentException with a message a person can act on, when it is not a schedule or never fires
     */
    public static CronSchedule parse(String text) {
        if (text == null || text.isBlank()) {
            throw new IllegalArgumentException("the schedule is empty");
        }
        String trimmed = text.strip();
        String expression = MACROS.getOrDefault(trimmed.toLowerCase(java.util.Locale.ROOT), trimmed);
        if (expression.startsWith("@")) {
            throw new IllegalArgumentException("\"" + trimmed + "\" is not a schedule: the macros are "
                    + String.join(", ", MACROS.keySet().stream().sorted().toList()));
        }
        if (expression.split("\\s+").length != 5) {
            throw new IllegalArgumentException("\"" + trimmed + "\" is not a schedule: it needs five fields, minute"
                    + " hour day-of-month month day-of-week, as in \"0 3 * * 0\" (Sundays at 03:00 UTC)");
        }
        CronSchedule schedule;
        Instant start = Instant.parse("2024-01-01T00:00:00Z");
        Optional<Instant> first;
        try {
            schedule = new CronSchedule(trimmed, ExecutionTime.forCron(PARSER.parse(expression).validate()));
            first = schedule.next(start);
        } catch (RuntimeException e) {
            // the parser also throws others than IllegalArgumentException for some malformed ranges ("3-/ * * * *")
            throw new IllegalArgumentException("\"" + trimmed + "\" is not a schedule: " + e.getMessage(), e);
        }
        if (first.isEmpty() || first.get().isAfter(start.atZone(ZoneOffset.UTC).plusYears(YEARS_AHEAD).toInstant())) {
            throw new IllegalArgumentException("\"" + trimmed + "\" is not a schedule: it never fires");
        }
        return schedule;
    }

    /** The first time strictly after {@code after} at which the schedule fires, to the minute. */
    public Optional<Instant> next(Instant after) {
        return times.nextExecution(ZonedDateTime.ofInstant(after, ZoneOffset.UTC)).map(ZonedDateTime::toInstant);
    }

    /** The schedule as written. */
    public String text() {
        return text;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof CronSchedule other && other.text.equals(text);
    }

    @Override
    public int hashCode() {
        return text.hashCode();
    }

    @Override
    public String toString() {
        return text;
    }
}
