package dev.etcdoperator.core.restore;

import static dev.etcdoperator.core.restore.RestorePlanner.next;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class RestorePlannerTest {
    static final String ME = "restore-1";
    static final String TEMPLATE_UID = "uid-template";
    static final String CREATED_UID = "uid-new";

    static ClusterSeen template() {
        return new ClusterSeen(true, TEMPLATE_UID, null, null, false, 3, 3, 3, 3, true, null);
    }

    static ClusterSeen restored(int healthy, int ready, boolean available, String seedFailure) {
        return new ClusterSeen(true, "uid-new", ME, null, false, healthy, healthy, ready, 3, available, seedFailure);
    }

    /**
     * A cluster that made its seed without the snapshot (its RestoreSnapshot condition refused) runs empty: that is
     * no restore, however healthy it is.
     */
    @Test
    void a_seed_made_without_the_snapshot_fails_the_restore_and_is_never_done() {
        ClusterSeen empty = new ClusterSeen(true, CREATED_UID, ME, null, false, 3, 3, 3, 3, true, null, null, null,
                null, "the Secret r1-snapshot is not owned by EtcdRestore r1");
        for (RestorePhase phase : new RestorePhase[] {RestorePhase.Restoring, RestorePhase.Growing}) {
            assertThat(next(ME, phase, TEMPLATE_UID, CREATED_UID, empty)).as("%s", phase)
                    .isInstanceOfSatisfying(RestoreAction.Fail.class, f -> {
                        assertThat(f.reason()).isEqualTo(RestorePlanner.REASON_SEED_STARTED_EMPTY);
                        assertThat(f.message()).contains("not owned", "restore again");
                    });
        }
    }

    @Test
    void a_new_restore_runs_the_preflight_first() {
        assertThat(next(ME, null, null, null, template())).isInstanceOf(RestoreAction.RunPreflight.class);
        assertThat(next(ME, null, null, null, ClusterSeen.absent(0))).isInstanceOf(RestoreAction.RunPreflight.class);
    }

    @Test
    void a_template_held_by_another_restore_is_refused_without_change() {
        ClusterSeen held = new ClusterSeen(true, TEMPLATE_UID, null, "other", false, 3, 3, 3, 3, true, null);
        assertThat(next(ME, null, null, null, held)).isInstanceOfSatisfying(RestoreAction.Fail.class,
                f -> assertThat(f.reason()).isEqualTo(RestorePlanner.REASON_OTHER_RESTORE));
        ClusterSeen mine = new ClusterSeen(true, TEMPLATE_UID, null, ME, false, 3, 3, 3, 3, true, null);
        assertThat(next(ME, RestorePhase.Preflight, null, null, mine)).isInstanceOf(RestoreAction.RunPreflight.class);
    }

    @Test
    void only_the_recorded_template_is_deleted() {
        assertThat(next(ME, RestorePhase.Deleting, TEMPLATE_UID, CREATED_UID, template())).isInstanceOf(RestoreAction.DeleteTemplate.class);
        ClusterSeen stranger = new ClusterSeen(true, "uid-stranger", null, null, false, 1, 1, 1, 1, true, null);
        assertThat(next(ME, RestorePhase.Deleting, TEMPLATE_UID, CREATED_UID, stranger)).isInstanceOfSatisfying(RestoreAction.Fail.class,
                f -> assertThat(f.reason()).isEqualTo(RestorePlanner.REASON_CLUSTER_REPLACED));
    }

    @Test
    void a_template_an_earlier_restore_of_the_same_name_made_is_deleted_and_restored_again() {
        // the earlier EtcdRestore was deleted and the same manifest applied again: the cluster it made is this
        // restore's template, not a cluster this restore created
        ClusterSeen restoredBefore = new ClusterSeen(true, TEMPLATE_UID, ME, ME, false, 3, 3, 3, 3, true, null);
        assertThat(next(ME, RestorePhase.Deleting, TEMPLATE_UID, null, restoredBefore))
                .isInstanceOf(RestoreAction.DeleteTemplate.class);
        ClusterSeen going = new ClusterSeen(true, TEMPLATE_UID, ME, ME, true, 3, 3, 3, 3, true, null);
        assertThat(next(ME, RestorePhase.Deleting, TEMPLATE_UID, null, going)).isInstanceOf(RestoreAction.Wait.class);
    }

    @Test
    void a_seed_that_fails_while_the_cluster_grows_with_no_member_left_ends_the_restore() {
        ClusterSeen seedDied = new ClusterSeen(true, CREATED_UID, ME, null, false, 3, 0, 0, 3, false,
                "container etcd of pod alpha-s exited with 137");
        assertThat(next(ME, RestorePhase.Growing, TEMPLATE_UID, CREATED_UID, seedDied))
                .isInstanceOfSatisfying(RestoreAction.Fail.class, f -> {
                    assertThat(f.reason()).isEqualTo(RestorePlanner.REASON_SEED_FAILED);
                    assertThat(f.message()).contains("exited with 137", "left as it is");
                });
        // a member still ready (its etcd briefly unhealthy) holds the data: waited for
        ClusterSeen oneReady = new ClusterSeen(true, CREATED_UID, ME, null, false, 3, 0, 1, 3, false,
                "container etcd of pod alpha-s exited with 137");
        assertThat(next(ME, RestorePhase.Growing, TEMPLATE_UID, CREATED_UID, oneReady))
                .isInstanceOf(RestoreAction.Wait.class);
    }

    /** The seed ran, then its pod went (deleted, node lost): the cluster says every member is lost; so does the restore. */
    @Test
    void a_cluster_that_lost_every_member_while_it_grew_ends_the_restore() {
        ClusterSeen gone = new ClusterSeen(true, CREATED_UID, ME, null, false, 0, 0, 0, 3, false, null, null, null,
                "Every member of the cluster is lost: it ran (etcd 3.6.16), and no member pod and no data claim is left.");
        assertThat(next(ME, RestorePhase.Growing, TEMPLATE_UID, CREATED_UID, gone))
                .isInstanceOfSatisfying(RestoreAction.Fail.class, f -> {
                    assertThat(f.reason()).isEqualTo(RestorePlanner.REASON_SEED_FAILED);
                    assertThat(f.message()).contains("lost every member", "no member pod", "Restore it again");
                });
        assertThat(next(ME, RestorePhase.Restoring, TEMPLATE_UID, CREATED_UID, gone))
                .isInstanceOf(RestoreAction.Fail.class);
    }

    @Test
    void a_template_being_deleted_is_waited_for_and_so_are_its_pods() {
        ClusterSeen going = new ClusterSeen(true, TEMPLATE_UID, null, ME, true, 3, 3, 3, 3, true, null);
        assertThat(next(ME, RestorePhase.Deleting, TEMPLATE_UID, CREATED_UID, going)).isInstanceOf(RestoreAction.Wait.class);
        assertThat(next(ME, RestorePhase.Deleting, TEMPLATE_UID, CREATED_UID, ClusterSeen.absent(2))).isInstanceOf(RestoreAction.Wait.class);
        assertThat(next(ME, RestorePhase.Deleting, TEMPLATE_UID, CREATED_UID, ClusterSeen.absent(0))).isInstanceOf(RestoreAction.CreateCluster.class);
    }

    @Test
    void pods_of_the_template_stuck_terminating_are_named_with_what_to_do() {
        RestoreAction waiting = next(ME, RestorePhase.Deleting, TEMPLATE_UID, CREATED_UID,
                ClusterSeen.absent(2, "Pod(s) x-1 have been terminating ...: kubectl delete pod -n ns --force x-1"));
        assertThat(waiting).isInstanceOfSatisfying(RestoreAction.Wait.class, w -> assertThat(w.message())
                .contains("2 pod(s) of the deleted cluster", "kubectl delete pod -n ns --force x-1"));
    }

    @Test
    void a_restart_after_the_cluster_was_created_moves_on_to_restoring() {
        assertThat(next(ME, RestorePhase.Deleting, TEMPLATE_UID, CREATED_UID, restored(0, 0, false, null)))
                .isEqualTo(new RestoreAction.Advance(RestorePhase.Restoring, "the restored cluster exists"));
    }

    @Test
    void a_restore_waiting_on_a_member_pod_that_fits_no_node_says_so() {
        String unplaced = "Pod alpha-x fits no node: 0/1 nodes are available.";
        ClusterSeen seedPending = new ClusterSeen(true, "uid-new", ME, null, false, 1, 0, 0, 3, false, null, null,
                unplaced);
        assertThat(next(ME, RestorePhase.Restoring, TEMPLATE_UID, CREATED_UID, seedPending))
                .isInstanceOfSatisfying(RestoreAction.Wait.class, w -> assertThat(w.message())
                        .startsWith("waiting for the seed member").endsWith("; the cluster says: " + unplaced));
        ClusterSeen joinerPending = new ClusterSeen(true, "uid-new", ME, null, false, 3, 2, 2, 3, true, null, null,
                unplaced);
        assertThat(next(ME, RestorePhase.Growing, TEMPLATE_UID, CREATED_UID, joinerPending))
                .isInstanceOfSatisfying(RestoreAction.Wait.class, w -> assertThat(w.message())
                        .isEqualTo("the restored cluster has 2 of 3 members healthy; the cluster says: " + unplaced));
        assertThat(next(ME, RestorePhase.Growing, TEMPLATE_UID, CREATED_UID, restored(2, 2, true, null)))
                .isInstanceOfSatisfying(RestoreAction.Wait.class, w -> assertThat(w.message())
                        .doesNotContain("the cluster says"));
    }

    @Test
    void restoring_waits_for_a_healthy_seed_then_grows() {
        assertThat(next(ME, RestorePhase.Restoring, TEMPLATE_UID, CREATED_UID, restored(0, 0, false, null))).isInstanceOf(RestoreAction.Wait.class);
        assertThat(next(ME, RestorePhase.Restoring, TEMPLATE_UID, CREATED_UID, restored(1, 1, false, null)))
                .isInstanceOfSatisfying(RestoreAction.Advance.class, a -> assertThat(a.to()).isEqualTo(RestorePhase.Growing));
    }

    @Test
    void a_failed_seed_fails_the_restore() {
        assertThat(next(ME, RestorePhase.Restoring, TEMPLATE_UID, CREATED_UID, restored(0, 0, false, "container fetch-snapshot exited with 1")))
                .isInstanceOfSatisfying(RestoreAction.Fail.class, f -> assertThat(f.reason()).isEqualTo(RestorePlanner.REASON_SEED_FAILED));
    }

    @Test
    void a_seed_whose_download_failed_is_started_again_with_a_fresh_link_a_few_times_then_fails_the_restore() {
        ClusterSeen refused = new ClusterSeen(true, "uid-new", ME, null, false, 1, 0, 0, 3, false,
                "container fetch-snapshot of pod alpha-abcde exited with 3", "alpha-abcde");
        for (int retries = 0; retries < RestorePlanner.SEED_RETRIES; retries++) {
            int done = retries;
            assertThat(next(ME, RestorePhase.Restoring, TEMPLATE_UID, CREATED_UID, refused, retries)).as("after %s", retries)
                    .isInstanceOfSatisfying(RestoreAction.RetrySeed.class, r -> {
                        assertThat(r.pod()).isEqualTo("alpha-abcde");
                        assertThat(r.message()).contains("retry " + (done + 1) + " of " + RestorePlanner.SEED_RETRIES);
                    });
        }
        assertThat(next(ME, RestorePhase.Restoring, TEMPLATE_UID, CREATED_UID, refused, RestorePlanner.SEED_RETRIES))
                .isInstanceOfSatisfying(RestoreAction.Fail.class, f -> {
                    assertThat(f.reason()).isEqualTo(RestorePlanner.REASON_SEED_FAILED);
                    assertThat(f.message()).contains("started again " + RestorePlanner.SEED_RETRIES + " time(s)");
                });
    }

    @Test
    void a_seed_that_downloaded_other_data_or_could_not_restore_it_is_not_started_again() {
        assertThat(next(ME, RestorePhase.Restoring, TEMPLATE_UID, CREATED_UID,
                restored(0, 0, false, "container fetch-snapshot exited with 1"), 0))
                .isInstanceOfSatisfying(RestoreAction.Fail.class, f -> assertThat(f.reason()).isEqualTo(RestorePlanner.REASON_SEED_FAILED));
    }

    @Test
    void growing_is_done_only_when_available_at_full_size() {
        assertThat(next(ME, RestorePhase.Growing, TEMPLATE_UID, CREATED_UID, restored(2, 2, true, null))).isInstanceOf(RestoreAction.Wait.class);
        assertThat(next(ME, RestorePhase.Growing, TEMPLATE_UID, CREATED_UID, restored(3, 2, true, null))).isInstanceOf(RestoreAction.Wait.class);
        assertThat(next(ME, RestorePhase.Growing, TEMPLATE_UID, CREATED_UID, restored(3, 3, false, null))).isInstanceOf(RestoreAction.Wait.class);
        assertThat(next(ME, RestorePhase.Growing, TEMPLATE_UID, CREATED_UID, restored(3, 3, true, null)))
                .isInstanceOfSatisfying(RestoreAction.Advance.class, a -> assertThat(a.to()).isEqualTo(RestorePhase.Done));
    }

    @Test
    void a_restored_cluster_deleted_or_replaced_meanwhile_fails_the_restore() {
        for (RestorePhase phase : new RestorePhase[] {RestorePhase.Restoring, RestorePhase.Growing}) {
            assertThat(next(ME, phase, TEMPLATE_UID, CREATED_UID, ClusterSeen.absent(0))).isInstanceOf(RestoreAction.Fail.class);
            assertThat(next(ME, phase, TEMPLATE_UID, CREATED_UID, template())).isInstanceOf(RestoreAction.Fail.class);
        }
    }

    @Test
    void a_finished_restore_does_nothing_more() {
        assertThat(next(ME, RestorePhase.Done, TEMPLATE_UID, CREATED_UID, restored(3, 3, true, null))).isInstanceOf(RestoreAction.Nothing.class);
        assertThat(next(ME, RestorePhase.Failed, TEMPLATE_UID, CREATED_UID, template())).isInstanceOf(RestoreAction.Nothing.class);
    }

    @Test
    void a_cluster_carrying_this_restores_annotation_is_its_own_only_by_the_recorded_uid() {
        ClusterSeen forged = new ClusterSeen(true, "uid-forged", ME, null, false, 0, 0, 0, 3, false, null);
        // not recorded yet (an operator restart right after the create, or a copy): create again, which takes the
        // existing cluster only when it is exactly what this restore creates
        assertThat(next(ME, RestorePhase.Deleting, TEMPLATE_UID, null, forged)).isInstanceOf(RestoreAction.CreateCluster.class);
        // recorded: another uid is another cluster
        for (RestorePhase phase : new RestorePhase[] { RestorePhase.Deleting, RestorePhase.Restoring, RestorePhase.Growing }) {
            assertThat(next(ME, phase, TEMPLATE_UID, CREATED_UID, forged)).as("%s", phase)
                    .isInstanceOfSatisfying(RestoreAction.Fail.class,
                            f -> assertThat(f.reason()).isEqualTo(RestorePlanner.REASON_CLUSTER_REPLACED));
        }
    }
}
