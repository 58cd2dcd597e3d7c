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
}
