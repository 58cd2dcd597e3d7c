package dev.etcdoperator.backup;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;

class SnapshotSourcesProblemsTest {
    /** An endpoint's member list may name any number of addresses: the message names a few and counts the rest. */
    @Test
    void theProblemsOfManyAddressesAreCounted() {
        List<String> many = IntStream.range(0, 100_000).mapToObj(i -> "http://x" + i + ".invalid: unknown host").toList();
        assertThat(SnapshotSources.problems(many)).contains("x0.invalid", "x4.invalid", "and 99995 more")
                .doesNotContain("x5.invalid");
        assertThat(SnapshotSources.problems(List.of("a", "b"))).isEqualTo("a; b");
    }
}
