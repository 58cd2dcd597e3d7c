package dev.etcdoperator.core.schedule;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

class CronScheduleTest {
    static final Instant NOW = Instant.parse("2026-12-01T10:17:42Z");

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "* * * * *        | 2026-12-01T10:18:00Z",
            "*/15 * * * *     | 2026-12-01T10:30:00Z",
            "0 3 * * *        | 2026-12-02T03:00:00Z",
            "0 3 * * 0        | 2026-12-06T03:00:00Z",
            "30 2 1 * *       | 2027-01-01T02:30:00Z",
            "0 0 29 2 *       | 2028-02-29T00:00:00Z",
            "@hourly          | 2026-12-01T11:00:00Z",
            "@daily           | 2026-12-02T00:00:00Z",
            "@WEEKLY          | 2026-12-06T00:00:00Z",
            "@monthly         | 2027-01-01T00:00:00Z",
            "@yearly          | 2027-01-01T00:00:00Z",
            "'  0 12 * * 1-5 '| 2026-12-01T12:00:00Z"})
    void firesNextAtTheTimeACronJobWouldInUtc(String text, String next) {
        assertThat(CronSchedule.parse(text).next(NOW)).contains(Instant.parse(next));
    }

    @Test
    void nextIsStrictlyAfterTheGivenTime() {
        CronSchedule schedule = CronSchedule.parse("0 3 * * *");
        Instant three = Instant.parse("2026-12-01T03:00:00Z");
        assertThat(schedule.next(three)).contains(Instant.parse("2026-12-02T03:00:00Z"));
        assertThat(schedule.next(three.minusNanos(1))).contains(three);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "   ", "* * * *", "* * * * * *", "0 3 * * * 2026", "61 * * * *", "* 24 * * *",
            "* * 32 * *", "* * * 13 *", "* * * * 8", "a b c d e", "@every 5m", "@reboot", "0 0 30 2 *",
            "0 0 31 4 *", "$(reboot) * * * *", "3-/ * * * *", "0 0 * * 1-/", "*/0 * * * *", "0-/5 * * * *",
            "1,,2 * * * *", "-1 * * * *", "*/99999999999 * * * *", "0 0 L-/ * *", "0 0 ? * 7#9"})
    void refusesWhatIsNotAScheduleOrNeverFires(String text) {
        assertThatThrownBy(() -> CronSchedule.parse(text)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageMatching("(?s)(the schedule is empty|\".*\" is not a schedule: .+)");
    }

    /** Whatever is written, a schedule is parsed or refused as such, never thrown at the caller as something else. */
    @Test
    void anyTextIsParsedOrRefusedNeverThrownOtherwise() {
        java.util.Random random = new java.util.Random(7);
        String alphabet = "0123456789*/-,?LW#";
        for (int i = 0; i < 20_000; i++) {
            StringBuilder text = new StringBuilder();
            for (int field = 0; field < 5; field++) {
                int length = 1 + random.nextInt(4);
                for (int c = 0; c < length; c++) {
                    text.append(alphabet.charAt(random.nextInt(alphabet.length())));
                }
                text.append(field < 4 ? " " : "");
            }
            try {
                CronSchedule.parse(text.toString());
            } catch (IllegalArgumentException refused) {
                assertThat(refused.getMessage()).as(text.toString()).contains("is not a schedule");
            }
        }
    }

    @Test
    void refusalsSayWhatIsExpected() {
        assertThatThrownBy(() -> CronSchedule.parse("0 3 * *")).hasMessageContaining("five fields");
        assertThatThrownBy(() -> CronSchedule.parse("0 0 30 2 *")).hasMessageContaining("never fires");
        assertThatThrownBy(() -> CronSchedule.parse("@every 5m")).hasMessageContaining("@daily");
        assertThatThrownBy(() -> CronSchedule.parse(null)).hasMessage("the schedule is empty");
    }

    @Test
    void equalByTheTextAsWritten() {
        assertThat(CronSchedule.parse(" 0 3 * * * ")).isEqualTo(CronSchedule.parse("0 3 * * *"))
                .hasToString("0 3 * * *");
        assertThat(CronSchedule.parse("0 3 * * *")).isNotEqualTo(CronSchedule.parse("0 4 * * *"));
    }
}
