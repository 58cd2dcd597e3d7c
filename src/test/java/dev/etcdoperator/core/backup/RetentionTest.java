package dev.etcdoperator.core.backup;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;

class RetentionTest {
    static BackupNames.Periodic at(int minute, long revision) {
        Instant t = Instant.parse("2026-11-30T10:00:00Z").plusSeconds(60L * minute);
        return new BackupNames.Periodic(BackupNames.periodicKey("p", revision, t), revision, t);
    }

    @Test
    void keeps_the_newest_n() {
        List<BackupNames.Periodic> all = List.of(at(3, 30), at(1, 10), at(5, 50), at(2, 20), at(4, 40));
        assertThat(Retention.toDelete(all, 3)).containsExactly(at(2, 20), at(1, 10));
    }

    @Test
    void zero_keeps_everything() {
        assertThat(Retention.toDelete(List.of(at(1, 1), at(2, 2)), 0)).isEmpty();
    }

    @Test
    void fewer_than_n_deletes_nothing() {
        assertThat(Retention.toDelete(List.of(at(1, 1), at(2, 2)), 3)).isEmpty();
    }

    @Test
    void same_second_breaks_ties_by_revision() {
        assertThat(Retention.toDelete(List.of(at(1, 5), at(1, 6)), 1)).containsExactly(at(1, 5));
    }

    @Test
    void the_newest_backup_of_the_highest_revision_is_never_deleted() {
        // an emptied cluster keeps being backed up at low revisions: the last good backup stays, whatever the count
        List<BackupNames.Periodic> all = List.of(at(1, 900), at(2, 1000), at(3, 1000), at(4, 3), at(5, 4), at(6, 5));
        for (int max = 1; max <= 5; max++) {
            assertThat(Retention.toDelete(all, max)).as("maxBackups %d", max).doesNotContain(at(3, 1000));
        }
        assertThat(Retention.toDelete(all, 2)).containsExactly(at(4, 3), at(2, 1000), at(1, 900));
        assertThat(Retention.protectedBackup(all)).contains(at(3, 1000));
    }

    @Test
    void the_protected_backup_never_costs_a_newer_one_its_place() {
        // every count of low-revision backups after a good one: the newest maxBackups stay, and the good one too
        for (int low = 0; low <= 6; low++) {
            List<BackupNames.Periodic> all = new java.util.ArrayList<>(List.of(at(0, 500), at(1, 1000)));
            for (int i = 0; i < low; i++) {
                all.add(at(2 + i, 10 + i));
            }
            List<BackupNames.Periodic> deleted = Retention.toDelete(all, 3);
            List<BackupNames.Periodic> kept = all.stream().filter(b -> !deleted.contains(b)).toList();
            assertThat(kept).as("%d low backups", low).contains(at(1, 1000));
            assertThat(kept).containsAll(all.stream().sorted((a, b) -> b.time().compareTo(a.time())).limit(3).toList());
            assertThat(kept.size()).isLessThanOrEqualTo(4);
        }
    }

    @Test
    void best_source_has_the_newest_revision_and_prefers_a_voter() {
        var a = new SourceChoice.Candidate("http://a:2379", 1, 10, "3.4.23", false);
        var b = new SourceChoice.Candidate("http://b:2379", 2, 12, "3.4.23", true);
        var c = new SourceChoice.Candidate("http://c:2379", 3, 12, "3.4.23", false);
        assertThat(SourceChoice.best(List.of(a, b, c))).contains(c);
        assertThat(SourceChoice.best(List.of(a, b))).contains(b);
        assertThat(SourceChoice.best(List.of())).isEmpty();
    }

    @Test
    void the_last_verified_backup_is_never_deleted_whatever_the_count() {
        List<BackupNames.Periodic> all = List.of(at(1, 10), at(2, 20), at(3, 30), at(4, 40), at(5, 50));
        for (int max = 1; max <= 4; max++) {
            assertThat(Retention.toDelete(all, max, Set.of(at(2, 20).key()))).as("maxBackups %d", max)
                    .doesNotContain(at(2, 20));
        }
        assertThat(Retention.toDelete(all, 2, Set.of(at(2, 20).key()))).containsExactly(at(3, 30), at(1, 10));
    }

    @Test
    void a_kept_backup_never_costs_a_newer_one_its_place_nor_protects_the_highest_revision_less() {
        List<BackupNames.Periodic> all = List.of(at(1, 100), at(2, 5), at(3, 6), at(4, 7));
        // the highest revision (minute 1) and the verified one (minute 2) both stay, besides the newest one
        assertThat(Retention.toDelete(all, 1, Set.of(at(2, 5).key()))).containsExactly(at(3, 6));
    }

    @Test
    void a_kept_key_that_is_not_among_the_backups_changes_nothing() {
        List<BackupNames.Periodic> all = List.of(at(1, 10), at(2, 20), at(3, 30));
        assertThat(Retention.toDelete(all, 1, Set.of("p_v99_2026-01-01-00:00:00", "other/key")))
                .isEqualTo(Retention.toDelete(all, 1));
    }
}
