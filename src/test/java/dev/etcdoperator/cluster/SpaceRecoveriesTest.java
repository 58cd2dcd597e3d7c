package dev.etcdoperator.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.etcdoperator.core.cluster.Step;
import org.junit.jupiter.api.Test;

/** What the NOSPACE recovery remembers, and that a routine defragmentation is no part of it. */
class SpaceRecoveriesTest {
    private final SpaceRecoveries recoveries = new SpaceRecoveries();

    @Test
    void theRecoveryRemembersItsCompactionAndItsDefragmentationsOnly() {
        recoveries.done("ns/a", "uid-1", new Step.CompactKeyspace(40));
        recoveries.done("ns/a", "uid-1", new Step.DefragmentMember(7, "a-1", false));
        recoveries.done("ns/a", "uid-1", new Step.DefragmentMember(8, "a-2", false,
                Step.DefragmentMember.FRAGMENTED, 5000));
        assertThat(recoveries.of("ns/a", "uid-1").compactedRevision()).isEqualTo(40);
        assertThat(recoveries.of("ns/a", "uid-1").defragmented()).containsExactly(7L);
    }

    @Test
    void aRoutineDefragmentationStartsNoRecovery() {
        recoveries.done("ns/a", "uid-1", new Step.DefragmentMember(8, "a-2", true, Step.DefragmentMember.FRAGMENTED,
                5000));
        assertThat(recoveries.of("ns/a", "uid-1").defragmented()).isEmpty();
    }
}
