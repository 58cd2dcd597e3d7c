package dev.etcdoperator.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;

import dev.etcdoperator.api.v1beta2.S3Source;
import dev.etcdoperator.core.backup.BackupFailure;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.core.exception.SdkClientException;

/**
 * An {@code s3} section without {@code awsSecret} uses the operator's own credentials, found by the SDK's default
 * chains; a chain that finds none, or no region for AWS, is a failure that says so.
 */
class DefaultChainCredentialsTest {
    private static final AwsCredentialsProvider FOUND = () -> AwsBasicCredentials.create("id", "secret");
    private static final AwsCredentialsProvider NONE = () -> {
        throw SdkClientException.create("Unable to load credentials from any of the providers in the chain");
    };

    @BeforeEach
    void noInstanceMetadata() {
        // the machine is no cloud instance: without this the region chain would ask the metadata address
        System.setProperty("aws.disableEc2Metadata", "true");
    }

    @AfterEach
    void clear() {
        for (String property : new String[] {"aws.disableEc2Metadata", "aws.region", "aws.accessKeyId",
                "aws.secretAccessKey"}) {
            System.clearProperty(property);
        }
    }

    @Test
    void noCredentialsInTheChainIsReportedWithWhatToDo() {
        assertThatThrownBy(() -> DefaultChainCredentials.settings(NONE, URI.create("http://s3:9000"), true))
                .isInstanceOfSatisfying(BackupFailure.class, f -> {
                    assertThat(f.reason()).isEqualTo(BackupFailure.AWS_CREDENTIALS_UNAVAILABLE);
                    assertThat(f.getMessage()).contains("s3.awsSecret is not set", "found none",
                            "Unable to load credentials");
                });
    }

    @Test
    void theRegionComesFromTheEnvironmentElseACustomEndpointsDefault() {
        System.setProperty("aws.region", "eu-west-1");
        S3Settings settings = DefaultChainCredentials.settings(FOUND, null, false);
        assertThat(settings.usesDefaultChain()).isTrue();
        assertThat(settings.region()).isEqualTo("eu-west-1");
        assertThat(settings.endpoint()).isNull();

        System.clearProperty("aws.region");
        assertThat(DefaultChainCredentials.settings(FOUND, URI.create("http://s3:9000"), true).region())
                .isEqualTo("us-east-1");
        assertThatThrownBy(() -> DefaultChainCredentials.settings(FOUND, null, false))
                .isInstanceOfSatisfying(BackupFailure.class, f -> {
                    assertThat(f.reason()).isEqualTo(BackupFailure.AWS_CREDENTIALS_UNAVAILABLE);
                    assertThat(f.getMessage()).contains("AWS_REGION");
                });
    }

    @Test
    void anS3SectionWithoutASecretReadsNoSecretAndUsesTheChain() {
        System.setProperty("aws.accessKeyId", "from-the-environment");
        System.setProperty("aws.secretAccessKey", "its-secret");
        S3Source source = new S3Source();
        source.setPath("bucket/key");
        source.setEndpoint("http://s3:9000");
        source.setForcePathStyle(true);
        // no client: reading a Secret would fail
        S3Settings settings = S3Credentials.settings(null, "default", source);
        assertThat(settings.usesDefaultChain()).isTrue();
        assertThat(settings.endpoint()).isEqualTo(URI.create("http://s3:9000"));
        assertThat(settings.forcePathStyle()).isTrue();
        assertThat(settings.toString()).contains("(default chain)");
    }
}
