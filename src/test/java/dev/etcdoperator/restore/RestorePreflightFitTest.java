package dev.etcdoperator.restore;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.etcdoperator.api.v1beta2.EtcdCluster;
import dev.etcdoperator.core.backup.BackupFailure;
import dev.etcdoperator.storage.VerifiedBackup;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.Test;

/** What the preflight asks of the template beside the backup: a version that restores it, a volume that holds it. */
class RestorePreflightFitTest {
    private static final long GIB = 1L << 30;

    private static EtcdCluster template(String spec) {
        return Serialization.unmarshal("""
                apiVersion: etcd.database.coreos.com/v1beta2
                kind: EtcdCluster
                metadata: {name: alpha, namespace: prod}
                spec:
                %s
                """.formatted(spec.indent(2)), EtcdCluster.class);
    }

    private static VerifiedBackup backup(long size, String version) {
        return new VerifiedBackup(size, "ab", 10L, version, null);
    }

    @Test
    void aBackupOfANewerMinorVersionIsRefused() {
        assertThatThrownBy(() -> RestorePreflight.fitsTheTemplate(template("version: 3.5.35"), backup(GIB, "3.6.16")))
                .isInstanceOfSatisfying(BackupFailure.class, f -> {
                    org.assertj.core.api.Assertions.assertThat(f.reason())
                            .isEqualTo(RestorePreflight.TEMPLATE_OLDER_THAN_BACKUP);
                    org.assertj.core.api.Assertions.assertThat(f.getMessage()).contains("3.6 or later");
                });
        for (String fits : new String[] {"3.6.0", "3.6.16", "3.5.35", "3.4.23"}) {
            assertThatCode(() -> RestorePreflight.fitsTheTemplate(template("version: 3.6.16"), backup(GIB, fits)))
                    .as(fits).doesNotThrowAnyException();
        }
        assertThatCode(() -> RestorePreflight.fitsTheTemplate(template("version: 3.5.35"), backup(GIB, null)))
                .as("a backup that records no version").doesNotThrowAnyException();
    }

    @Test
    void aClaimTooSmallForTheBackupAndItsRestoredDataIsRefused() {
        String claim = "pod: {persistentVolumeClaimSpec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: %s}}}}";
        assertThatThrownBy(() -> RestorePreflight.fitsTheTemplate(template(claim.formatted("3Gi")),
                backup(2 * GIB, null))).isInstanceOfSatisfying(BackupFailure.class, f -> {
                    org.assertj.core.api.Assertions.assertThat(f.reason())
                            .isEqualTo(RestorePreflight.TEMPLATE_VOLUME_TOO_SMALL);
                    org.assertj.core.api.Assertions.assertThat(f.getMessage()).contains("3Gi", "Ask more storage");
                });
        assertThatCode(() -> RestorePreflight.fitsTheTemplate(template(claim.formatted("4Gi")), backup(2 * GIB, null)))
                .doesNotThrowAnyException();
        assertThatCode(() -> RestorePreflight.fitsTheTemplate(template("size: 3"), backup(100 * GIB, null)))
                .as("no claim: nothing to compare").doesNotThrowAnyException();
    }
}
