package dev.etcdoperator.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The restore tool follows the minor version: etcdctl up to 3.5, etcdutl from 3.6, pre-releases included. */
class SnapshotFetchToolTest {
    @ParameterizedTest
    @CsvSource({"3.4.23, etcdctl", "3.5.35, etcdctl", "3.5.0-rc.1, etcdctl", "v3.5.17, etcdctl",
            "3.6.0-alpha.0, etcdutl", "3.6.0-rc.0, etcdutl", "3.6.0, etcdutl", "v3.6.16, etcdutl", "3.7.0-rc.1, etcdutl",
            "4.0.0, etcdutl"})
    void theToolIsChosenByMinorVersion(String version, String tool) {
        assertThat(SnapshotFetch.restoreTool(version)).isEqualTo("/usr/local/bin/" + tool);
    }
}
