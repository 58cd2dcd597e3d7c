package dev.etcdoperator.backup;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class DrillsRunningTest {
    private final DrillsRunning drilling = new DrillsRunning();

    @Test
    void aVerifiedBackupIsKeptAfterTheDrillEndedUntilTheStatusNamesItTheLastVerified() {
        drilling.started("uid", "b/p7");
        drilling.recorded("uid", "b/p7");
        assertThat(drilling.path("uid")).as("still running: a status naming it from an earlier drill").isEqualTo("b/p7");
        drilling.ended("uid", "b/p7", true);
        assertThat(drilling.path("uid")).as("its verdict is not in the status yet").isEqualTo("b/p7");
        drilling.recorded("uid", "b/p3");
        assertThat(drilling.path("uid")).as("the status still names the one verified before").isEqualTo("b/p7");
        drilling.recorded("uid", "b/p7");
        assertThat(drilling.path("uid")).isNull();
    }

    @Test
    void aBackupTheDrillDidNotVerifyIsNotKeptForIt() {
        drilling.started("uid", "b/p7");
        drilling.ended("uid", "b/p7", false);
        assertThat(drilling.path("uid")).isNull();
    }

    @Test
    void aNewDrillTakesThePlaceOfOneThatEnded() {
        drilling.started("uid", "b/p7");
        drilling.ended("uid", "b/p7", true);
        drilling.started("uid", "b/p9");
        drilling.ended("uid", "b/p7", true);
        drilling.recorded("uid", "b/p7");
        assertThat(drilling.path("uid")).isEqualTo("b/p9");
        assertThat(drilling.path("other")).isNull();
    }
}
