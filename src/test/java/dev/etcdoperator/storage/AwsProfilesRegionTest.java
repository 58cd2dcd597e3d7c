package dev.etcdoperator.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;

import dev.etcdoperator.core.backup.BackupFailure;
import org.junit.jupiter.api.Test;

/** A region that cannot be one is the Secret's fault, said when it is read, not a failed upload at each try. */
class AwsProfilesRegionTest {
    private static final byte[] CREDENTIALS = "[default]\naws_access_key_id = k\naws_secret_access_key = s\n"
            .getBytes(StandardCharsets.UTF_8);

    private static S3Settings read(String region) {
        byte[] config = ("[default]\nregion = " + region + "\n").getBytes(StandardCharsets.UTF_8);
        return AwsProfiles.settings(CREDENTIALS, config, "default/aws", "http://127.0.0.1:9000", true);
    }

    @Test
    void regionsOfAwsAndOfOtherStoresAreTaken() {
        for (String region : new String[] {"us-east-1", "eu-central-2", "garage", "de_fra", "fr-par.scw", "US-EAST-1"}) {
            assertThat(read(region).region()).isEqualTo(region);
        }
    }

    @Test
    void aRegionThatIsNoNameIsAnInvalidSecret() {
        for (String region : new String[] {"us east 1", "us-east-1/x", "a\"b", "x".repeat(65)}) {
            assertThatThrownBy(() -> read(region)).as(region).isInstanceOfSatisfying(BackupFailure.class,
                    e -> assertThat(e.reason()).isEqualTo(BackupFailure.AWS_SECRET_INVALID))
                    .hasMessageContaining("default/aws").hasMessageContaining("no region name");
        }
    }
}
