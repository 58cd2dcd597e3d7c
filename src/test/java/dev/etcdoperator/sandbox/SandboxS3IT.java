package dev.etcdoperator.sandbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Base64;
import java.util.Map;

import dev.etcdoperator.sandbox.s3.S3Server;
import dev.etcdoperator.sandbox.support.ListeningSockets;
import io.fabric8.kubernetes.api.model.Secret;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import software.amazon.awssdk.auth.credentials.AwsCredentials;
import software.amazon.awssdk.auth.credentials.ProfileCredentialsProvider;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.profiles.ProfileFile;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.regions.providers.AwsProfileRegionProvider;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * The sandbox with its S3 server: the bucket and the Secret "aws" a backup names, read the way an AWS SDK reads
 * shared credentials and config files. Without the operator: nothing here needs it.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class SandboxS3IT {
    static Sandbox sandbox;

    @BeforeAll
    static void start() {
        sandbox = Sandbox.start(Sandbox.options().stateDir(Path.of("target", "sandbox-s3-it")).withoutOperator()
                .withS3());
    }

    @AfterAll
    static void stop() {
        if (sandbox != null) {
            sandbox.close();
        }
    }

    @Test
    @Order(1)
    void theS3ServerListensOnTheSandboxsOwnLoopbackAddressAndOnLoopbackOnly() {
        S3Server s3 = sandbox.s3();

        assertThat(s3.alive()).isTrue();
        assertThat(s3.address()).matches("127\\.\\d+\\.0\\.1").isNotEqualTo("127.0.0.1");
        assertThat(s3.dataDir()).startsWith(sandbox.stateDir().toAbsolutePath());
        // MinIO also listens on the host's own loopback addresses, on the same port (for its console, which is off)
        assertThat(ListeningSockets.of(s3.pid())).isNotEmpty()
                .anySatisfy(l -> assertThat(l.address().getHostAddress()).isEqualTo(s3.address()))
                .allSatisfy(l -> {
                    assertThat(l.address().isLoopbackAddress()).isTrue();
                    assertThat(l.port()).isEqualTo(s3.port());
                    assertThat(l.address().getHostAddress()).isIn(s3.address(), "127.0.0.1", "0:0:0:0:0:0:0:1");
                });
    }

    @Test
    @Order(2)
    void theSecretAwsHoldsCredentialsAndConfigThatTheSdkReadsAndTheServerTakes() {
        Secret secret = sandbox.client().secrets().inNamespace("default").withName(Sandbox.S3_SECRET).get();
        assertThat(secret).isNotNull();
        assertThat(secret.getData()).containsOnlyKeys("credentials", "config");

        ProfileFile credentials = ProfileFile.builder().type(ProfileFile.Type.CREDENTIALS)
                .content(decoded(secret, "credentials")).build();
        ProfileFile config = ProfileFile.builder().type(ProfileFile.Type.CONFIGURATION)
                .content(decoded(secret, "config")).build();
        ProfileFile both = ProfileFile.aggregator().addFile(credentials).addFile(config).build();

        AwsCredentials resolved = ProfileCredentialsProvider.builder().profileFile(both).profileName("default")
                .build().resolveCredentials();
        Region region = new AwsProfileRegionProvider(() -> both, "default").getRegion();

        assertThat(resolved.accessKeyId()).isEqualTo(sandbox.s3().accessKey());
        assertThat(resolved.secretAccessKey()).isEqualTo(sandbox.s3().secretKey());
        assertThat(region).isEqualTo(Region.US_EAST_1);
        assertThat(both.profile("default").flatMap(p -> p.property("region"))).contains("us-east-1");

        // a client built from the Secret alone, as the operator would build one, reaches the bucket
        try (S3Client client = S3Client.builder().endpointOverride(URI.create(sandbox.s3().endpoint()))
                .forcePathStyle(true).region(region)
                .credentialsProvider(ProfileCredentialsProvider.builder().profileFile(both).profileName("default")
                        .build())
                .httpClient(UrlConnectionHttpClient.create()).build()) {
            client.headBucket(b -> b.bucket(Sandbox.S3_BUCKET));
            client.putObject(b -> b.bucket(Sandbox.S3_BUCKET).key("from-the-secret").metadata(Map.of("k", "v")),
                    RequestBody.fromString("ok", StandardCharsets.UTF_8));
            assertThat(client.getObjectAsBytes(b -> b.bucket(Sandbox.S3_BUCKET).key("from-the-secret"))
                    .asUtf8String()).isEqualTo("ok");
        }
    }

    @Test
    @Order(3)
    void closingTheSandboxStopsTheS3Server() {
        S3Server s3 = sandbox.s3();
        long pid = s3.pid();
        Sandbox closing = sandbox;
        sandbox = null;

        closing.close();

        assertThat(s3.alive()).isFalse();
        assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)).isFalse();
        try (S3Client client = s3.client()) {
            assertThatThrownBy(() -> client.headBucket(b -> b.bucket(Sandbox.S3_BUCKET)))
                    .isInstanceOf(SdkException.class);
        }
    }

    private static ByteArrayInputStream decoded(Secret secret, String key) {
        return new ByteArrayInputStream(Base64.getDecoder().decode(secret.getData().get(key)));
    }
}
