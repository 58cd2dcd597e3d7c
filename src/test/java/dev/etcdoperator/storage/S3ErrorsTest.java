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

    /** A clock off by more than the store allows is a 403 too, but no credential is wrong. */
    @Test
    void aSkewedClockIsToldApartFromWrongCredentials() {
        var skewed = software.amazon.awssdk.services.s3.model.S3Exception.builder().statusCode(403)
                .awsErrorDetails(software.amazon.awssdk.awscore.exception.AwsErrorDetails.builder()
                        .errorCode("RequestTimeTooSkewed").errorMessage("The difference between the request time"
                                + " and the server's time is too large.").build()).build();
        var failure = S3Errors.translate("upload to b/k", skewed, null, "UploadFailed");
        assertThat(failure.reason()).isEqualTo(dev.etcdoperator.core.backup.BackupFailure.S3_ACCESS_DENIED);
        assertThat(failure.getMessage()).contains("RequestTimeTooSkewed", "clock").doesNotContain("credentials");

        var denied = software.amazon.awssdk.services.s3.model.S3Exception.builder().statusCode(403)
                .awsErrorDetails(software.amazon.awssdk.awscore.exception.AwsErrorDetails.builder()
                        .errorCode("SignatureDoesNotMatch").errorMessage("m").build()).build();
        assertThat(S3Errors.translate("upload to b/k", denied, null, "UploadFailed").getMessage())
                .contains("credentials").doesNotContain("clock");
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
