package dev.etcdoperator.storage;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;

import org.junit.jupiter.api.Test;

class S3ErrorsTest {

    /** A store answers with a body of any length; conditions, Events and logs keep what a person reads. */
    @Test
    void aStoresLongMessageIsCut() {
        String body = "x".repeat(5_000_000);
        String kept = S3Errors.message(new RuntimeException("wrapped", new IOException(body)));
        assertThat(kept).hasSizeLessThan(S3Errors.MAX_MESSAGE + 50).startsWith("xxx")
                .endsWith("(" + (5_000_000 - S3Errors.MAX_MESSAGE) + " more characters)");
        assertThat(S3Errors.message(new IOException("Access Denied"))).isEqualTo("Access Denied");
    }

    /** The error code is the store's words too. */
    @Test
    void aStoresLongErrorCodeIsCut() {
        var e = software.amazon.awssdk.services.s3.model.S3Exception.builder().statusCode(500)
                .awsErrorDetails(software.amazon.awssdk.awscore.exception.AwsErrorDetails.builder()
                        .errorCode("E".repeat(100_000)).errorMessage("m").build()).build();
        assertThat(S3Errors.translate("list b/p", e, null, "UploadFailed").getMessage())
                .hasSizeLessThan(2 * S3Errors.MAX_MESSAGE + 200);
    }
}
