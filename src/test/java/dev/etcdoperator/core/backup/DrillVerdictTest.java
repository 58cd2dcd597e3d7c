package dev.etcdoperator.core.backup;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class DrillVerdictTest {
    static final String BACKUP = "b/k";
    static final KeyspaceFingerprint SOURCE = new KeyspaceFingerprint(100, 0xfedcba98L, 40L, 30L);

    @Test
    void a_backup_at_the_same_revision_with_the_same_hash_and_count_is_verified() {
        DrillVerdict.Outcome o = DrillVerdict.judge(BACKUP, 100, SOURCE, 100, SOURCE);
        assertThat(o.verified()).isTrue();
        assertThat(o.reason()).isEqualTo(DrillVerdict.VERIFIED);
        assertThat(o.message()).contains("revision 100 >= 100", "HashKV equal", "30 keys").doesNotContain("not compared");
    }

    @Test
    void writes_after_the_revision_was_read_are_in_the_snapshot_and_do_not_fail_the_drill() {
        DrillVerdict.Outcome o = DrillVerdict.judge(BACKUP, 100, SOURCE, 104, SOURCE);
        assertThat(o.verified()).isTrue();
        assertThat(o.message()).contains("revision 104 >= 100");
    }

    @Test
    void a_restored_revision_below_the_recorded_one_fails() {
        DrillVerdict.Outcome o = DrillVerdict.judge(BACKUP, 100, SOURCE, 99, SOURCE);
        assertThat(o.verified()).isFalse();
        assertThat(o.reason()).isEqualTo(DrillVerdict.REVISION_MISMATCH);
        assertThat(o.message()).contains("99", "100");
    }

    @Test
    void another_hash_at_the_same_compaction_fails() {
        KeyspaceFingerprint restored = new KeyspaceFingerprint(100, 0x12345678L, 40L, 30L);
        DrillVerdict.Outcome o = DrillVerdict.judge(BACKUP, 100, SOURCE, 100, restored);
        assertThat(o.verified()).isFalse();
        assertThat(o.reason()).isEqualTo(DrillVerdict.HASH_MISMATCH);
        assertThat(o.message()).contains(Long.toUnsignedString(0x12345678L), Long.toUnsignedString(0xfedcba98L));
    }

    @Test
    void another_key_count_fails() {
        KeyspaceFingerprint restored = new KeyspaceFingerprint(100, null, null, 29L);
        DrillVerdict.Outcome o = DrillVerdict.judge(BACKUP, 100, SOURCE, 100, restored);
        assertThat(o.verified()).isFalse();
        assertThat(o.reason()).isEqualTo(DrillVerdict.KEY_COUNT_MISMATCH);
        assertThat(o.message()).contains("29 keys", "held 30");
    }

    @Test
    void a_revision_compacted_on_the_source_compares_revision_and_key_count_and_says_so() {
        KeyspaceFingerprint compacted = new KeyspaceFingerprint(100, null, null, 30L);
        DrillVerdict.Outcome o = DrillVerdict.judge(BACKUP, 100, compacted, 100, SOURCE);
        assertThat(o.verified()).isTrue();
        assertThat(o.message()).contains("hash not compared: revision compacted", "30 keys");
    }

    @Test
    void hashes_that_start_after_different_compactions_are_not_compared() {
        KeyspaceFingerprint restored = new KeyspaceFingerprint(100, 0x1L, 41L, 30L);
        DrillVerdict.Outcome o = DrillVerdict.judge(BACKUP, 100, SOURCE, 100, restored);
        assertThat(o.verified()).isTrue();
        assertThat(o.message()).contains("hash not compared: compacted at revision 41 in the backup, 40 on the source");
    }

    @Test
    void a_revision_compacted_in_the_backup_compares_the_revision_only() {
        DrillVerdict.Outcome o = DrillVerdict.judge(BACKUP, 100, SOURCE, 120, null);
        assertThat(o.verified()).isTrue();
        assertThat(o.message()).contains("hash not compared: revision compacted in the backup",
                "key count not compared: revision compacted in the backup");
    }

    @Test
    void a_backup_without_a_recorded_keyspace_compares_the_revision_only_and_says_so() {
        DrillVerdict.Outcome o = DrillVerdict.judge(BACKUP, 100, null, 100, SOURCE);
        assertThat(o.verified()).isTrue();
        assertThat(o.message()).contains("not recorded when the backup was taken");
        assertThat(DrillVerdict.judge(BACKUP, 100, null, 50, SOURCE).reason()).isEqualTo(DrillVerdict.REVISION_MISMATCH);
    }

    @Test
    void a_hash_mismatch_is_reported_before_a_key_count_mismatch() {
        KeyspaceFingerprint restored = new KeyspaceFingerprint(100, 0x1L, 40L, 1L);
        assertThat(DrillVerdict.judge(BACKUP, 100, SOURCE, 100, restored).reason()).isEqualTo(DrillVerdict.HASH_MISMATCH);
    }
}
