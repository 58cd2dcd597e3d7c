package dev.etcdoperator.etcd;

import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * A key is read from a Secret anyone with access to the namespace may write; reading it must end, and end soon, on
 * every reconcile thread it runs on.
 */
class PemPrivateKeysHostileInputTest {

    @Test
    void aBeginLineWithoutItsEndIsRefusedWithoutBacktrackingForHours() {
        // about 3,000 spaces took 30 s under the earlier pattern, and the time grew with their cube
        String key = "-----BEGIN RSA PRIVATE KEY-----" + " ".repeat(60_000) + "\n";

        assertTimeoutPreemptively(Duration.ofSeconds(20), () -> assertThatThrownBy(
                () -> PemPrivateKeys.toPkcs8(key.getBytes(StandardCharsets.US_ASCII)))
                .hasMessageContaining("not a PEM private key"));
    }

    @Test
    void manyBeginLinesWithoutEndsAreRefusedToo() {
        String key = ("-----BEGIN EC PRIVATE KEY-----" + " \n".repeat(20)).repeat(800);

        assertTimeoutPreemptively(Duration.ofSeconds(20), () -> assertThatThrownBy(
                () -> PemPrivateKeys.toPkcs8(key.getBytes(StandardCharsets.US_ASCII)))
                .hasMessageContaining("not a PEM private key"));
    }

    @Test
    void aValueFarLargerThanAnyKeyIsRefusedUnread() {
        byte[] key = new byte[PemPrivateKeys.MAX_BYTES + 1];

        assertThatThrownBy(() -> PemPrivateKeys.toPkcs8(key)).hasMessageContaining("at most " + PemPrivateKeys.MAX_BYTES);
    }
}
