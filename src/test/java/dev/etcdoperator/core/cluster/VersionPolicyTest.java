package dev.etcdoperator.core.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class VersionPolicyTest {
    private final VersionPolicy policy = new VersionPolicy();

    @ParameterizedTest(name = "{0} -> {1}: {2}")
    @CsvSource({
            "3.5.17,   3.5.17,  ''",
            "3.5.9,    3.5.17,  ''",
            "3.5.17,   3.5.9,   ''",
            "v3.4.23,  v3.5.17, ''",
            "3.4.23,   3.5.0,   ''",
            "3.5.32,   3.6.0,   ''",
            "3.5.35,   3.6.16,  ''",
            "3.6.11,   3.7.0,   ''",
            "3.5.17,   3.6.0,   PatchTooOldForMinorUpgrade",
            "3.5.31,   3.6.16,  PatchTooOldForMinorUpgrade",
            "3.5.32-rc.1, 3.6.0, PatchTooOldForMinorUpgrade",
            "3.6.10,   3.7.3,   PatchTooOldForMinorUpgrade",
            "3.5.17,   3.5.32,  ''",
            "3.6.0-rc.1, 3.6.0, ''",
            "3.5.17,   3.4.23,  Downgrade",
            "3.6.0,    3.4.23,  Downgrade",
            "3.5.0,    2.3.8,   Downgrade",
            "3.4.23,   3.6.0,   SkippedMinorVersion",
            "3.3.27,   3.5.17,  SkippedMinorVersion",
            "3.5.17,   4.0.0,   MajorVersionChange",
            "3.5.17,   3.5,     InvalidVersion",
            "latest,   3.5.17,  InvalidVersion",
    })
    void decides(String running, String wanted, String refusal) {
        VersionPolicy.Verdict verdict = policy.check(running, wanted);
        assertThat(verdict.allowed()).as(verdict.message()).isEqualTo(refusal.isEmpty());
        assertThat(verdict.reason()).isEqualTo(refusal);
        if (!refusal.isEmpty()) {
            assertThat(verdict.message()).isNotBlank();
        }
    }

    @ParameterizedTest(name = "{0} < {1}")
    @CsvSource({
            "3.4.23, 3.5.0",
            "3.5.9, 3.5.10",
            "3.5.0-alpha, 3.5.0",
            "3.5.0-alpha, 3.5.0-alpha.1",
            "3.5.0-alpha.1, 3.5.0-alpha.beta",
            "3.5.0-beta.2, 3.5.0-beta.11",
            "3.5.0-rc.1, 3.5.0",
            "2.99.99, 3.0.0",
    })
    void ordersBySemverPrecedence(String lower, String higher) {
        Version a = Version.parse(lower).orElseThrow();
        Version b = Version.parse(higher).orElseThrow();
        assertThat(a).isLessThan(b);
        assertThat(b).isGreaterThan(a);
    }

    @ParameterizedTest
    @CsvSource({"3.5", "3.5.1.2", "03.5.1", "3.5.x", "'', ", "3.5.1-", "3.5.1-01", "3.5.1+", "v"})
    void rejectsWhatIsNotSemver(String text) {
        assertThat(Version.parse(text)).isEmpty();
    }

    @ParameterizedTest
    @CsvSource({"v3.5.17, 3.5.17", "3.5.17+build.5, 3.5.17", "3.6.0-rc.1, 3.6.0-rc.1", "' 3.4.0 ', 3.4.0"})
    void parsesAndPrints(String text, String printed) {
        assertThat(Version.parse(text)).map(Version::toString).contains(printed);
    }
}
