package dev.etcdoperator.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicInteger;

import dev.etcdoperator.core.backup.BackupFailure;
import dev.etcdoperator.core.backup.S3Location;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.http.AbortableInputStream;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.GetObjectRequest;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.GetObjectTaggingRequest;
import software.amazon.awssdk.services.s3.model.GetObjectTaggingResponse;
import software.amazon.awssdk.services.s3.model.ListMultipartUploadsRequest;
import software.amazon.awssdk.services.s3.model.ListMultipartUploadsResponse;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Request;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;

/**
 * A store whose listings never end, or go round, cannot hold a backup worker past the backup's deadline; nor can an
 * object that never ends.
 */
class ListingTest {
    static final S3Location PREFIX = new S3Location("backups", "prod/hourly");

    /** Answers every listing with an empty page that says there is more, under a marker of its choosing. */
    static final class EndlessStore implements S3Client {
        final boolean repeats;
        final AtomicInteger pages = new AtomicInteger();

        EndlessStore(boolean repeats) {
            this.repeats = repeats;
        }

        private String marker() {
            int n = pages.incrementAndGet();
            return repeats ? "same" : "t" + n;
        }

        @Override
        public ListObjectsV2Response listObjectsV2(ListObjectsV2Request r) {
            return ListObjectsV2Response.builder().isTruncated(true).nextContinuationToken(marker()).build();
        }

        @Override
        public ListMultipartUploadsResponse listMultipartUploads(ListMultipartUploadsRequest r) {
            return ListMultipartUploadsResponse.builder().isTruncated(true).nextKeyMarker(marker())
                    .nextUploadIdMarker("u").build();
        }

        @Override
        public String serviceName() {
            return "s3";
        }

        @Override
        public void close() {
        }
    }

    /** A backup read whole for its checks: an object that never ends is refused, not read for good. */
    @Test
    void verifyingAnObjectThatNeverEndsStops() {
        S3Client endless = new S3Client() {
            @Override
            public software.amazon.awssdk.core.ResponseInputStream<GetObjectResponse> getObject(GetObjectRequest r) {
                return new software.amazon.awssdk.core.ResponseInputStream<>(GetObjectResponse.builder()
                        .eTag("\"e\"").build(), AbortableInputStream.create(new BoundedReadTest.Endless()));
            }

            @Override
            public GetObjectTaggingResponse getObjectTagging(GetObjectTaggingRequest r) {
                return GetObjectTaggingResponse.builder().build();
            }

            @Override
            public String serviceName() {
                return "s3";
            }

            @Override
            public void close() {
            }
        };
        BackupStore store = new BackupStore(endless, 5 << 20, 2);
        assertTimeoutPreemptively(Duration.ofSeconds(120), () -> assertThatThrownBy(() -> store.verify(
                new S3Location("backups", "prod/one.db"))).isInstanceOfSatisfying(BackupFailure.class,
                        f -> assertThat(f.getMessage()).contains("more than any etcd snapshot")));
    }

    @Test
    void aListingThatNeverEndsStopsAtTheDeadline() {
        EndlessStore s3 = new EndlessStore(false);
        BackupStore store = new BackupStore(s3, 5 << 20, 2);
        assertTimeoutPreemptively(Duration.ofSeconds(20), () -> assertThatThrownBy(
                () -> store.periodicBackups(PREFIX, Instant.now().plusMillis(300)))
                .isInstanceOfSatisfying(BackupFailure.class, f -> assertThat(f.reason())
                        .isEqualTo(BackupFailure.TIMEOUT)));
        assertThat(s3.pages.get()).isGreaterThan(1);
    }

    @Test
    void aListingThatGivesAMarkerAgainStops() {
        EndlessStore s3 = new EndlessStore(true);
        BackupStore store = new BackupStore(s3, 5 << 20, 2);
        assertTimeoutPreemptively(Duration.ofSeconds(20), () -> assertThatThrownBy(
                () -> store.periodicBackups(PREFIX, Instant.now().plusSeconds(60)))
                .isInstanceOfSatisfying(BackupFailure.class, f -> assertThat(f.getMessage())
                        .contains("same continuation marker")));
        assertThat(s3.pages.get()).isEqualTo(2);
    }

    @Test
    void cleaningUpInterruptedUploadsEndsAtTheDeadlineToo() {
        EndlessStore s3 = new EndlessStore(false);
        BackupStore store = new BackupStore(s3, 5 << 20, 2);
        assertTimeoutPreemptively(Duration.ofSeconds(20), () -> assertThat(store.cleanUpInterrupted(PREFIX, true,
                "prod/hourly", Instant.now(), Instant.now().plusMillis(300))).isZero());
    }
}
