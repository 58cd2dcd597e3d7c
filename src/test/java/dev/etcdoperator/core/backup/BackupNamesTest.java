package dev.etcdoperator.core.backup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.List;

import org.junit.jupiter.api.Test;

class BackupNamesTest {
    static final Instant T = Instant.parse("2026-11-30T08:09:10Z");

    @Test
    void periodic_keys_carry_revision_and_utc_time() {
        assertThat(BackupNames.periodicKey("example/backup", 42, T)).isEqualTo("example/backup_v42_2026-11-30-08:09:10");
    }

    @Test
    void periodic_keys_parse_back() {
        String key = BackupNames.periodicKey("p", 123456789012L, T);
        assertThat(BackupNames.parsePeriodic("p", key)).contains(new BackupNames.Periodic(key, 123456789012L, T));
    }

    @Test
    void other_objects_under_the_prefix_are_not_ours() {
        for (String key : List.of("p", "p_v", "p_v12", "p_v12_2026-11-30", "p_vx_2026-11-30-08:09:10",
                "p_v1_2026-11-30-08:09:10.partial-abc", "p_v1_2026-11-30-08:09:10x", "p-old_v1_2026-11-30-08:09:10",
                "p_v1_2026-13-30-08:09:10", "other")) {
            assertThat(BackupNames.parsePeriodic("p", key)).as(key).isEmpty();
        }
    }

    @Test
    void partial_keys_say_whose_upload_they_are() {
        String partial = BackupNames.partialKey("a/b.db", "ns/one", "0123abcd");
        assertThat(partial).isEqualTo("a/b.db.partial-" + BackupNames.ownerToken("ns/one") + "-0123abcd");
        assertThat(BackupNames.isPartial(partial)).isTrue();
        assertThat(BackupNames.isPartial("a/b.db")).isFalse();
        assertThat(BackupNames.ownerToken("ns/one")).hasSize(12).isNotEqualTo(BackupNames.ownerToken("ns/two"));
        assertThat(BackupNames.isOwnPartial(partial, "a/b.db", false, "ns/one")).isTrue();
    }

    @Test
    void only_exactly_this_owners_partial_uploads_for_exactly_this_key_are_its_own() {
        String token = BackupNames.ownerToken("ns/one");
        for (String key : List.of(
                BackupNames.partialKey("a/b.db", "ns/two", "0123abcd"),        // another EtcdBackup's upload
                BackupNames.partialKey("a/b.db.old", "ns/one", "0123abcd"),    // a longer key that starts the same
                BackupNames.partialKey("a/b", "ns/one", "0123abcd"),           // a shorter key
                "a/b.db.partial-0123abcd",                                     // an older operator's name: no owner
                "a/b.db.partial-" + token,                                     // no upload id
                "a/b.db.partial-" + token + "-0123abcd.x",                     // a user's object
                "a/b.db.partial-" + token + "-0123ABCD",
                "a/b.db")) {
            assertThat(BackupNames.isOwnPartial(key, "a/b.db", false, "ns/one")).as(key).isFalse();
        }
    }

    @Test
    void a_periodic_backups_own_partial_uploads_are_those_of_its_exact_prefix() {
        String name = BackupNames.periodicKey("p/x", 12, Instant.parse("2026-11-30T08:09:10Z"));
        assertThat(BackupNames.isOwnPartial(BackupNames.partialKey(name, "ns/one", "0123abcd"), "p/x", true, "ns/one")).isTrue();
        String longerPrefix = BackupNames.periodicKey("p/x-2", 12, Instant.parse("2026-11-30T08:09:10Z"));
        for (String key : List.of(
                BackupNames.partialKey(name, "ns/two", "0123abcd"),
                BackupNames.partialKey(longerPrefix, "ns/one", "0123abcd"),
                BackupNames.partialKey("p/x_v12_not-a-time", "ns/one", "0123abcd"),
                BackupNames.partialKey("p/x", "ns/one", "0123abcd"),
                name)) {
            assertThat(BackupNames.isOwnPartial(key, "p/x", true, "ns/one")).as(key).isFalse();
        }
    }

    @Test
    void a_partial_name_gives_back_the_backup_key_it_was_made_for_and_no_other_name_does() {
        String periodic = BackupNames.periodicKey("p/x", 12, Instant.parse("2026-11-30T08:09:10Z"));
        assertThat(BackupNames.backupKeyOf(BackupNames.partialKey(periodic, "ns/one", "0123abcd"))).contains(periodic);
        assertThat(BackupNames.backupKeyOf(BackupNames.partialKey("a/b.db", "ns/one", "0123abcd"))).contains("a/b.db");
        for (String other : List.of("a/b.db", "a/b.db.partial-0123abcd", "a/b.db.partial-users-copy")) {
            assertThat(BackupNames.backupKeyOf(other)).as(other).isEmpty();
        }
    }

    @Test
    void s3_paths_split_at_the_first_slash() {
        assertThat(S3Location.parse("bucket/a/b/c.db")).isEqualTo(new S3Location("bucket", "a/b/c.db"));
        for (String bad : new String[] {"", "nobucket", "/key", "bucket/"}) {
            assertThatThrownBy(() -> S3Location.parse(bad)).isInstanceOf(BackupFailure.class)
                    .extracting(e -> ((BackupFailure) e).reason()).isEqualTo(BackupFailure.INVALID_PATH);
        }
    }
}
