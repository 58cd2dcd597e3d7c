package dev.etcdoperator.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.s3.model.CopyObjectRequest;
import software.amazon.awssdk.services.s3.model.CreateMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;

/** What is asked of the store for every object written, and how an object that came back unencrypted is told. */
class ServerSideEncryptionTest {
    private static final ServerSideEncryption S3_MANAGED = new ServerSideEncryption(ServerSideEncryption.AES256, null);
    private static final ServerSideEncryption KMS_KEY = new ServerSideEncryption(ServerSideEncryption.KMS, "etcd-key");

    @Test
    void nothingAskedAddsNoHeaderAndAcceptsAnyObject() {
        assertThat(ServerSideEncryption.NONE.asked()).isFalse();
        assertThat(ServerSideEncryption.NONE.applyTo(PutObjectRequest.builder()).build().serverSideEncryption()).isNull();
        assertThat(ServerSideEncryption.NONE.mismatch(HeadObjectResponse.builder().build())).isNull();
    }

    @Test
    void everyWriteCarriesTheAlgorithmAndTheKey() {
        assertThat(KMS_KEY.applyTo(PutObjectRequest.builder()).build())
                .satisfies(r -> {
                    assertThat(r.serverSideEncryptionAsString()).isEqualTo("aws:kms");
                    assertThat(r.ssekmsKeyId()).isEqualTo("etcd-key");
                });
        assertThat(KMS_KEY.applyTo(CreateMultipartUploadRequest.builder()).build().ssekmsKeyId()).isEqualTo("etcd-key");
        assertThat(S3_MANAGED.applyTo(CopyObjectRequest.builder()).build().serverSideEncryptionAsString())
                .isEqualTo("AES256");
        assertThat(S3_MANAGED.applyTo(CopyObjectRequest.builder()).build().ssekmsKeyId()).isNull();
    }

    @Test
    void anObjectStoredUnencryptedOrUnderAnotherKeyIsTold() {
        assertThat(S3_MANAGED.mismatch(head("AES256", null))).isNull();
        assertThat(S3_MANAGED.mismatch(head(null, null))).contains("none", "AES256");
        assertThat(S3_MANAGED.mismatch(head("aws:kms", "k"))).contains("aws:kms");
        assertThat(KMS_KEY.mismatch(head("aws:kms", "arn:aws:kms:us-east-1:111122223333:key/etcd-key"))).isNull();
        assertThat(KMS_KEY.mismatch(head("aws:kms", "arn:aws:kms:etcd-key"))).isNull();
        assertThat(KMS_KEY.mismatch(head("aws:kms", "arn:aws:kms:us-east-1:111122223333:key/other-etcd-key")))
                .contains("other-etcd-key");
        assertThat(KMS_KEY.mismatch(head("AES256", null))).contains("AES256", "aws:kms");
        assertThat(new ServerSideEncryption(ServerSideEncryption.KMS, null).mismatch(head("aws:kms", "any"))).isNull();
    }

    /** S3 reports the ARN of the key an alias names, never the alias: an alias is met by any KMS key reported. */
    @Test
    void aKeyNamedByAnAliasIsMetByTheKeyTheStoreReports() {
        for (String alias : java.util.List.of("alias/etcd-backups",
                "arn:aws:kms:us-east-1:111122223333:alias/etcd-backups")) {
            ServerSideEncryption sse = new ServerSideEncryption(ServerSideEncryption.KMS, alias);
            assertThat(sse.mismatch(head("aws:kms",
                    "arn:aws:kms:us-east-1:111122223333:key/1234abcd-12ab-34cd-56ef-1234567890ab"))).as(alias).isNull();
            assertThat(sse.mismatch(head("aws:kms", null))).contains("no KMS key");
            assertThat(sse.mismatch(head("AES256", null))).contains("AES256");
        }
    }

    @Test
    void aKeyWithoutKmsOrAnUnknownAlgorithmIsRefused() {
        assertThatThrownBy(() -> new ServerSideEncryption(ServerSideEncryption.AES256, "k"))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new ServerSideEncryption("aws:kms:dsse", null))
                .isInstanceOf(IllegalArgumentException.class);
    }

    private static HeadObjectResponse head(String algorithm, String key) {
        return HeadObjectResponse.builder().serverSideEncryption(algorithm).ssekmsKeyId(key).build();
    }
}
