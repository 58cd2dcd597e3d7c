package dev.etcdoperator.core.restore;

import static dev.etcdoperator.core.restore.SeedSnapshotClaim.decide;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import dev.etcdoperator.core.restore.SeedSnapshotClaim.Confirmed;
import dev.etcdoperator.core.restore.SeedSnapshotClaim.Facts;
import dev.etcdoperator.core.restore.SeedSnapshotClaim.NotRestored;
import dev.etcdoperator.core.restore.SeedSnapshotClaim.Owner;
import dev.etcdoperator.core.restore.SeedSnapshotClaim.Pending;
import dev.etcdoperator.core.restore.SeedSnapshotClaim.Refused;
import dev.etcdoperator.core.restore.SeedSnapshotClaim.RestoreFacts;
import org.junit.jupiter.api.Test;

class SeedSnapshotClaimTest {
    static final String CLUSTER_UID = "uid-cluster";
    static final String RESTORE_UID = "uid-restore";
    static final RestoreFacts DONE = new RestoreFacts(RESTORE_UID, "Restoring", CLUSTER_UID, "r1-snapshot");
    static final List<Owner> OWNED = List.of(new Owner("EtcdRestore", "r1", RESTORE_UID));

    static Facts facts(String restoredBy, String secret, RestoreFacts restore, List<Owner> owners) {
        return new Facts(CLUSTER_UID, restoredBy, secret, restore, owners);
    }

    @Test
    void aClusterTheOperatorCreatedForARestoreGetsItsSecret() {
        assertThat(decide(facts("r1", "r1-snapshot", DONE, OWNED))).isEqualTo(new Confirmed("r1-snapshot"));
    }

    @Test
    void aClusterWithoutTheAnnotationIsAnOrdinaryCluster() {
        assertThat(decide(facts(null, null, null, null))).isInstanceOf(NotRestored.class);
        assertThat(decide(facts("r1", " ", DONE, OWNED))).isInstanceOf(NotRestored.class);
    }

    @Test
    void whileTheRestoreHasNotRecordedTheClusterItCreatedTheSeedWaits() {
        for (String phase : List.of("Deleting", "Restoring")) {
            assertThat(decide(facts("r1", "r1-snapshot", new RestoreFacts(RESTORE_UID, phase, null, null), OWNED)))
                    .isInstanceOf(Pending.class);
        }
    }

    /**
     * The restore's Secret went while the restore runs (deleted by hand, or first of the EtcdRestore's dependents in a
     * foreground deletion): the seed waits for the restore to make it again, and does not start empty.
     */
    @Test
    void whileTheRestoreRunsAGoneSecretMakesTheSeedWaitNotStartEmpty() {
        assertThat(decide(facts("r1", "r1-snapshot", DONE, null))).isInstanceOfSatisfying(Pending.class,
                p -> assertThat(p.message()).contains("r1-snapshot", "again"));
        // nor one the restore started again after a failed download (the cluster once confirmed the snapshot)
        assertThat(decide(new Facts(CLUSTER_UID, "r1", "r1-snapshot", DONE, null, false))).isInstanceOf(Pending.class);
    }

    @Test
    void aSeedMadeAfterTheRestoreOfThisClusterSucceededStartsEmptyWithoutARefusal() {
        assertThat(decide(facts("r1", "r1-snapshot", new RestoreFacts(RESTORE_UID, "Done", CLUSTER_UID,
                "r1-snapshot"), null))).isInstanceOf(NotRestored.class);
        assertThat(decide(facts("r1", "r1-snapshot", new RestoreFacts(RESTORE_UID, "Done", "uid-other",
                "r1-snapshot"), null))).as("another cluster").isInstanceOf(Refused.class);
        assertThat(decide(facts("r1", "r1-snapshot", new RestoreFacts(RESTORE_UID, "Failed", CLUSTER_UID,
                "r1-snapshot"), null))).as("after a failed restore an empty seed is said").isInstanceOf(Refused.class);
    }

    /**
     * The restore that created the cluster is gone before the seed was made (or never existed): nothing is mounted,
     * and no seed is made either, since an empty one would stand for the restored data.
     */
    @Test
    void aClusterWhoseRestoreIsGoneMakesNoSeedAndMountsNothing() {
        assertThat(decide(facts("nobody", "db-password", null, List.of())))
                .isInstanceOfSatisfying(SeedSnapshotClaim.Held.class, h -> assertThat(h.message())
                        .contains("nobody", "does not exist", "remove the annotation"));
        // a reseed a person asked for after the restored cluster lost every member starts empty, as asked
        assertThat(decide(new Facts(CLUSTER_UID, "nobody", "db-password", null, List.of(), false)))
                .isInstanceOf(Refused.class);
    }

    /**
     * The restore failed without recording a cluster: it may have created this one and stopped before recording it,
     * so no seed is made (an empty one would stand for the backup) and nothing is mounted; a reseed a person asks for
     * later starts empty.
     */
    @Test
    void aClusterWhoseRestoreFailedWithoutRecordingItMakesNoSeed() {
        assertThat(decide(facts("r1", "r1-snapshot", new RestoreFacts(RESTORE_UID, "Failed", null, null), OWNED)))
                .isInstanceOfSatisfying(SeedSnapshotClaim.Held.class, h -> assertThat(h.message())
                        .contains("r1", "failed without recording", "remove the annotation"));
        assertThat(decide(new Facts(CLUSTER_UID, "r1", "r1-snapshot", new RestoreFacts(RESTORE_UID, "Failed", null,
                null), OWNED, false))).isInstanceOf(Refused.class);
    }

    /** Every way someone who can only create EtcdClusters (and perhaps Secrets) could point a cluster at a Secret. */
    @Test
    void everyForgedClaimIsRefused() {
        List<Facts> forged = List.of(
                // any Secret, no restore at all
                facts(null, "db-password", null, List.of()),
                facts("", "db-password", null, List.of()),
                // a real restore that has not created a cluster
                facts("r1", "r1-snapshot", new RestoreFacts(RESTORE_UID, "Preflight", null, null), OWNED),
                facts("r1", "r1-snapshot", new RestoreFacts(RESTORE_UID, null, null, null), OWNED),
                // a real restore's Secret, claimed by another cluster (a copy, or one of another name)
                facts("r1", "r1-snapshot", new RestoreFacts(RESTORE_UID, "Done", "uid-other", "r1-snapshot"), OWNED),
                // the right restore, another Secret
                facts("r1", "db-password", DONE, OWNED),
                facts("r1", "db-password", new RestoreFacts(RESTORE_UID, "Done", CLUSTER_UID, "db-password"),
                        List.of()),
                // the Secret is gone after the restore failed, or owned by someone else, or by a restore of the same
                // name but another uid
                facts("r1", "r1-snapshot", new RestoreFacts(RESTORE_UID, "Failed", CLUSTER_UID, "r1-snapshot"), null),
                facts("r1", "r1-snapshot", DONE, List.of()),
                facts("r1", "r1-snapshot", DONE, List.of(new Owner("EtcdRestore", "r1", "uid-forged"))),
                facts("r1", "r1-snapshot", DONE, List.of(new Owner("EtcdRestore", "r2", RESTORE_UID))),
                facts("r1", "r1-snapshot", DONE, List.of(new Owner("EtcdCluster", "r1", RESTORE_UID))),
                facts("r1", "r1-snapshot", new RestoreFacts(null, "Done", CLUSTER_UID, "r1-snapshot"),
                        List.of(new Owner("EtcdRestore", "r1", null))));
        for (Facts f : forged) {
            assertThat(decide(f)).as("%s", f).isInstanceOfSatisfying(Refused.class,
                    r -> assertThat(r.message()).startsWith("the annotation restore-snapshot-secret=" + f.secret()
                            + " is ignored: "));
        }
    }
}
