package dev.etcdoperator.core.restore;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;

class RestoreHoldTest {

    /** The template is still whole: the restore stops there, nothing changed. */
    @Test
    void aRestoreDeletedBeforeItAskedForTheTemplatesDeletionStops() {
        for (RestorePhase phase : Arrays.asList(null, RestorePhase.Preflight, RestorePhase.Deleting)) {
            assertThat(RestoreHold.finishesFirst(phase, false)).as("%s", phase).isFalse();
        }
        assertThat(RestoreHold.finishesFirst(RestorePhase.Preflight, true)).as("another cluster's deletion").isFalse();
    }

    /** The template is deleted or going: what is left of its data and spec is the backup and this restore. */
    @Test
    void aRestoreDeletedAfterItAskedForTheTemplatesDeletionFinishesFirst() {
        assertThat(RestoreHold.finishesFirst(RestorePhase.Deleting, true)).isTrue();
        assertThat(RestoreHold.finishesFirst(RestorePhase.Restoring, true)).isTrue();
        assertThat(RestoreHold.finishesFirst(RestorePhase.Restoring, false)).isTrue();
    }

    /** Another restore of the cluster, and the cluster's seed, wait for a deleted restore that still finishes. */
    @Test
    void aDeletedRestoreStillRunsWhileItFinishes() {
        dev.etcdoperator.api.v1beta2.EtcdRestoreStatus status = new dev.etcdoperator.api.v1beta2.EtcdRestoreStatus();
        for (RestorePhase phase : List.of(RestorePhase.Deleting, RestorePhase.Restoring)) {
            status.setPhase(phase.name());
            assertThat(RestoreHold.stillRuns(status, true)).as("%s", phase).isTrue();
            assertThat(RestoreHold.stillRuns(status, false)).as("%s", phase).isTrue();
        }
        for (RestorePhase phase : List.of(RestorePhase.Preflight, RestorePhase.Growing)) {
            status.setPhase(phase.name());
            assertThat(RestoreHold.stillRuns(status, true)).as("%s deleted", phase).isFalse();
            assertThat(RestoreHold.stillRuns(status, false)).as("%s", phase).isTrue();
        }
        for (RestorePhase phase : List.of(RestorePhase.Done, RestorePhase.Failed)) {
            status.setPhase(phase.name());
            assertThat(RestoreHold.stillRuns(status, false)).as("%s", phase).isFalse();
        }
        assertThat(RestoreHold.stillRuns(null, true)).isFalse();
        assertThat(RestoreHold.stillRuns(null, false)).isTrue();
    }

    /** The seed runs on the restored data, or the restore ended: nothing is left to finish. */
    @Test
    void aRestoreWhoseSeedRunsOrThatEndedGoesAtOnce() {
        for (RestorePhase phase : List.of(RestorePhase.Growing, RestorePhase.Done, RestorePhase.Failed)) {
            assertThat(RestoreHold.finishesFirst(phase, true)).as("%s", phase).isFalse();
        }
    }
}
