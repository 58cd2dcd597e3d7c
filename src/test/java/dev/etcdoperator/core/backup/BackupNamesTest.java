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
    void partial_keys_are_recognised() {
        String partial = BackupNames.partialKey("a/b.db", "x1");
        assertThat(partial).isEqualTo("a/b.db.partial-x1");
        assertThat(BackupNames.isPartial(partial)).isTrue();
        assertThat(BackupNames.isPartial("a/b.db")).isFalse();
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
