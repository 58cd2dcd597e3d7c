package dev.etcdoperator.restore;

import static org.assertj.core.api.Assertions.assertThat;

import dev.etcdoperator.api.v1beta2.EtcdRestore;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import org.junit.jupiter.api.Test;

/** The snapshot Secret's name is a valid object name for every restore name the API server accepts. */
class SnapshotSecretsNameTest {
    private static final String SUBDOMAIN = "^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$";

    private static String secretOf(String restore) {
        EtcdRestore r = new EtcdRestore();
        r.setMetadata(new ObjectMetaBuilder().withName(restore).build());
        return SnapshotSecrets.name(r);
    }

    @Test
    void aNameThatLeavesRoomKeepsItsPlainSecretName() {
        assertThat(secretOf("r1")).isEqualTo("r1-snapshot");
        String longest = "a".repeat(244);
        assertThat(secretOf(longest)).isEqualTo(longest + "-snapshot").hasSize(253);
    }

    @Test
    void aLongerNameIsCutWithADigestAndStaysAValidDistinctName() {
        String a = "x".repeat(200) + ".y".repeat(26) + "a";
        String b = "x".repeat(200) + ".y".repeat(26) + "b";
        String cutAtDot = "x".repeat(233) + "." + "z".repeat(19);
        for (String name : new String[] { a, b, cutAtDot, "r".repeat(253) }) {
            assertThat(secretOf(name)).as(name).hasSizeLessThanOrEqualTo(253).matches(SUBDOMAIN).endsWith("-snapshot");
        }
        assertThat(secretOf(a)).isNotEqualTo(secretOf(b));
        assertThat(secretOf(a)).isEqualTo(secretOf(a));
    }
}
