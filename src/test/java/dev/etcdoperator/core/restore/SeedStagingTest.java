package dev.etcdoperator.core.restore;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SeedStagingTest {

    private static SeedStaging.StagedPod pod(boolean ours, boolean adopted, boolean deleting, boolean ended,
            String failure) {
        return new SeedStaging.StagedPod(true, ours, adopted, deleting, ended, failure);
    }

    @Test
    void a_seed_is_staged_only_where_its_link_serves_nothing_but_the_object_found() {
        assertThat(SeedStaging.notStaged(false, true, true)).isEmpty();
        assertThat(SeedStaging.notStaged(false, false, true)).get().asString().contains("If-Match");
        assertThat(SeedStaging.notStaged(false, true, false)).get().asString().contains("not found");
        assertThat(SeedStaging.notStaged(true, true, true)).get().asString().contains("persistent volume claims");
    }

    @Test
    void a_staged_seed_goes_on_only_for_what_the_preflight_verified() {
        String started = SeedStaging.stagedFor("uid-1", "{\"size\":3}", 1, "\"abc\"");
        assertThat(SeedStaging.afterPreflight(started, SeedStaging.stagedFor("uid-1", "{\"size\":3}", 1, "\"abc\"")))
                .isEmpty();
        for (String verified : new String[] {SeedStaging.stagedFor("uid-1", "{\"size\":3}", 1, "\"def\""),
                SeedStaging.stagedFor("uid-2", "{\"size\":3}", 1, "\"abc\""),
                SeedStaging.stagedFor("uid-1", "{\"size\":5}", 1, "\"abc\""),
                SeedStaging.stagedFor("uid-1", "{\"size\":3}", 2, "\"abc\"")}) {
            assertThat(SeedStaging.afterPreflight(started, verified)).get().satisfies(d -> {
                assertThat(d.delete()).isTrue();
                assertThat(d.why()).contains("than the preflight verified");
            });
        }
        assertThat(SeedStaging.afterPreflight(null, started)).isPresent();
    }

    @Test
    void a_running_staged_pod_of_the_restore_is_adopted() {
        assertThat(SeedStaging.atClusterCreation(pod(true, false, false, false, null)))
                .isInstanceOf(SeedStaging.Adopt.class);
    }

    @Test
    void a_pod_adopted_before_an_operator_restart_stays_the_seed() {
        assertThat(SeedStaging.atClusterCreation(pod(false, true, false, false, null)))
                .isInstanceOf(SeedStaging.Adopt.class);
    }

    @Test
    void a_staged_pod_that_failed_or_ended_is_deleted_and_not_adopted() {
        assertThat(SeedStaging.atClusterCreation(pod(true, false, false, false,
                "container fetch-snapshot of pod x exited with 1")))
                .isInstanceOfSatisfying(SeedStaging.Discard.class, d -> {
                    assertThat(d.delete()).isTrue();
                    assertThat(d.why()).contains("fetch-snapshot");
                });
        assertThat(SeedStaging.atClusterCreation(pod(true, false, false, true, null)))
                .isInstanceOfSatisfying(SeedStaging.Discard.class, d -> assertThat(d.delete()).isTrue());
    }

    @Test
    void a_pod_that_is_gone_going_or_not_the_restores_is_neither_adopted_nor_deleted() {
        assertThat(SeedStaging.atClusterCreation(SeedStaging.StagedPod.absent()))
                .isInstanceOfSatisfying(SeedStaging.Discard.class, d -> assertThat(d.delete()).isFalse());
        assertThat(SeedStaging.atClusterCreation(pod(true, false, true, false, null)))
                .isInstanceOfSatisfying(SeedStaging.Discard.class, d -> assertThat(d.delete()).isFalse());
        assertThat(SeedStaging.atClusterCreation(pod(false, false, false, false, null)))
                .isInstanceOfSatisfying(SeedStaging.Discard.class, d -> {
                    assertThat(d.delete()).isFalse();
                    assertThat(d.why()).contains("does not own");
                });
    }

    @Test
    void only_a_running_pod_of_the_restore_whose_download_ended_whole_holds_the_verified_backup() {
        assertThat(SeedStaging.holdsVerifiedBackup(pod(true, false, false, false, null), true)).isTrue();
        assertThat(SeedStaging.holdsVerifiedBackup(pod(true, false, false, false, null), false)).isFalse();
        for (SeedStaging.StagedPod pod : new SeedStaging.StagedPod[] {SeedStaging.StagedPod.absent(),
                pod(false, false, false, false, null), pod(true, true, false, false, null),
                pod(true, false, true, false, null), pod(true, false, false, true, null),
                pod(true, false, false, false, "container restore-snapshot of pod x exited with 1")}) {
            assertThat(SeedStaging.holdsVerifiedBackup(pod, true)).as("%s", pod).isFalse();
        }
    }
}
