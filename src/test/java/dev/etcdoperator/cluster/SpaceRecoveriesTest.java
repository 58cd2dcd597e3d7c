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

    /** Alarms that could not be read are the last ones read, never "none": a raised alarm is not reported gone. */
    @Test
    void alarmsThatCannotBeReadAreTheLastOnesRead() {
        var raised = java.util.List.of(new dev.etcdoperator.core.cluster.MemberAlarm(7, "NOSPACE"));
        assertThat(recoveries.alarms("ns/a", "uid-1", null)).isEmpty();
        assertThat(recoveries.alarms("ns/a", "uid-1", raised)).isEqualTo(raised);
        assertThat(recoveries.alarms("ns/a", "uid-1", null)).isEqualTo(raised);
        assertThat(recoveries.alarms("ns/a", "uid-2", null)).as("a cluster made again under the name").isEmpty();
        recoveries.alarms("ns/a", "uid-2", raised);
        recoveries.done("ns/a", "uid-2", new Step.DisarmNoSpace(raised, "disarmed"));
        assertThat(recoveries.alarms("ns/a", "uid-2", null)).isEmpty();
        assertThat(recoveries.alarms("ns/a", "uid-2", java.util.List.of())).isEmpty();
    }

    @Test
    void aRoutineDefragmentationStartsNoRecovery() {
        recoveries.done("ns/a", "uid-1", new Step.DefragmentMember(8, "a-2", true, Step.DefragmentMember.FRAGMENTED,
                5000));
        assertThat(recoveries.of("ns/a", "uid-1").defragmented()).isEmpty();
    }
}
