package dev.etcdoperator.core.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;

class MemberListCheckTest {
    static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");

    static MemberPod running(String name) {
        return new MemberPod(name, true, true, false, "3.5.35", false);
    }

    static MemberPod terminatingUntil(String name, Instant graceEnds) {
        return new MemberPod(name, true, false, true, "3.5.35", false, false, graceEnds, false, true);
    }

    static MemberPod neverRan(String name) {
        return new MemberPod(name, false, false, false, "3.5.35", false, false, null, false, false);
    }

    @Test
    void aListLackingAMajorityOfThePodsWhoseEtcdRanCannotBeTheClusters() {
        List<MemberPod> pods = List.of(running("a"), running("b"), running("c"));
        assertThat(MemberListCheck.lacking(Set.of("a"), 1, pods, Set.of(), NOW)).containsExactly("b", "c");
        assertThat(MemberListCheck.lacking(Set.of("a", "b"), 2, pods, Set.of(), NOW)).isEmpty();
        assertThat(MemberListCheck.lacking(Set.of("a"), 1, List.of(running("a"), running("b")), Set.of(), NOW))
                .isEmpty();
        assertThat(MemberListCheck.lacking(Set.of("a"), 1, List.of(running("a"), neverRan("b"), neverRan("c")),
                Set.of(), NOW)).isEmpty();
    }

    @Test
    void aPodTerminatingCountsUntilItsGracePeriodEnds() {
        List<MemberPod> within = List.of(running("a"), terminatingUntil("b", NOW.plusSeconds(20)), running("c"));
        assertThat(MemberListCheck.lacking(Set.of("a"), 1, within, Set.of(), NOW)).containsExactly("b", "c");
        // stuck on a lost node long after: not counted, or it would hold every later change for as long as it stays
        List<MemberPod> stuck = List.of(running("a"), terminatingUntil("b", NOW.minusSeconds(600)), running("c"));
        assertThat(MemberListCheck.lacking(Set.of("a"), 1, stuck, Set.of(), NOW)).isEmpty();
        List<MemberPod> unknown = List.of(running("a"), terminatingUntil("b", null), running("c"));
        assertThat(MemberListCheck.lacking(Set.of("a"), 1, unknown, Set.of(), NOW)).isEmpty();
    }

    @Test
    void aKeptClaimIsAMemberNobodyRemovedAndHalfOfThemIsEnough() {
        // a cluster of two on claims: the other member's claim is kept, its pod silent
        assertThat(MemberListCheck.lacking(Set.of("a"), 1, List.of(running("a"), running("b")), Set.of("a", "b"),
                NOW)).containsExactly("b");
        // its claim deleted with its removal (a scale-down to one): its pod is deleted next
        assertThat(MemberListCheck.lacking(Set.of("a"), 1, List.of(running("a"), running("b")), Set.of("a"), NOW))
                .isEmpty();
        // one claim left behind among four members is no reason to stop
        assertThat(MemberListCheck.lacking(Set.of("a", "b", "c"), 3, List.of(running("a"), running("b"),
                running("c")), Set.of("a", "b", "c", "x"), NOW)).isEmpty();
        // a pod gone, its claim kept: counted
        assertThat(MemberListCheck.lacking(Set.of("a"), 1, List.of(running("a"), running("c")),
                Set.of("a", "b", "c"), NOW)).containsExactly("b", "c");
    }
}
