package dev.etcdoperator.core.restore;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class FailureReportTest {
    static final String UID = "uid-template";

    static ClusterSeen template(boolean deleting) {
        return new ClusterSeen(true, UID, null, "r1", deleting, 3, 3, 3, 3, true, null);
    }

    @Test
    void nothingWasChangedOnlyWhileTheTemplateIsThereAsThePreflightFoundIt() {
        assertThat(FailureReport.templateUntouched(null, null, ClusterSeen.absent(0))).isTrue();
        assertThat(FailureReport.templateUntouched(RestorePhase.Preflight, null, template(false))).isTrue();
        assertThat(FailureReport.templateUntouched(RestorePhase.Deleting, UID, template(false))).isTrue();

        assertThat(FailureReport.templateUntouched(RestorePhase.Deleting, UID, template(true))).isFalse();
        assertThat(FailureReport.templateUntouched(RestorePhase.Deleting, UID, ClusterSeen.absent(2))).isFalse();
        assertThat(FailureReport.templateUntouched(RestorePhase.Deleting, UID,
                new ClusterSeen(true, "uid-other", null, null, false, 0, 0, 0, 3, false, null))).isFalse();
        for (RestorePhase after : new RestorePhase[] {RestorePhase.Restoring, RestorePhase.Growing, RestorePhase.Done,
                RestorePhase.Failed}) {
            assertThat(FailureReport.templateUntouched(after, UID, template(false))).as("%s", after).isFalse();
        }
    }

    @Test
    void aGoneTemplateIsReportedWithWhereItsSpecIsAndHowToRecover() {
        assertThat(FailureReport.message("the backup was deleted", true, "alpha", "r1"))
                .isEqualTo("the backup was deleted; nothing was changed");
        assertThat(FailureReport.message("the backup was deleted", false, "alpha", "r1"))
                .startsWith("the backup was deleted. ")
                .doesNotContain("nothing was changed")
                .contains("EtcdCluster alpha was deleted by this restore")
                .contains("status of EtcdRestore r1 (status.clusterSpec")
                .contains("create a new EtcdRestore naming it");
    }
}
