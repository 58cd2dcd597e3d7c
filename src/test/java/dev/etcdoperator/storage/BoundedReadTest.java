package dev.etcdoperator.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.time.Instant;

import org.junit.jupiter.api.Test;

/** Reading a backup whole ends: no more than any snapshot can be, and not slower than a slow store. */
class BoundedReadTest {
    /** An object that never ends. */
    static final class Endless extends InputStream {
        @Override
        public int read() {
            return 0;
        }

        @Override
        public int read(byte[] b, int off, int len) {
            return len;
        }
    }

    @Test
    void aSizeAnnouncedBeyondAnySnapshotIsRefusedBeforeReading() {
        assertThatThrownBy(() -> BoundedRead.of(new Endless(), "b/x", BoundedRead.MAX_BYTES + 1, Instant.now()))
                .isInstanceOf(BoundedRead.TooMuch.class).hasMessageContaining("more than any etcd snapshot");
    }

    @Test
    void anObjectThatNeverEndsStopsPastTheLargestSnapshot() {
        BoundedRead in = BoundedRead.of(new Endless(), "b/x", null, Instant.now());
        byte[] buffer = new byte[1 << 20];
        assertThatThrownBy(() -> {
            while (in.read(buffer, 0, buffer.length) >= 0) {
                // reads on
            }
        }).isInstanceOfSatisfying(BoundedRead.TooMuch.class, e -> assertThat(e.tooSlow).isFalse());
    }

    @Test
    void aReadPastItsTimeStops() throws IOException {
        // announced 10 bytes: 10 minutes and no second of reading; begun long ago
        BoundedRead late = BoundedRead.of(new ByteArrayInputStream(new byte[10]), "b/x", 10L,
                Instant.now().minus(BoundedRead.SLACK).minusSeconds(1));
        assertThatThrownBy(() -> late.read(new byte[4], 0, 4)).isInstanceOfSatisfying(BoundedRead.TooMuch.class,
                e -> assertThat(e.tooSlow).isTrue());

        BoundedRead onTime = BoundedRead.of(new ByteArrayInputStream(new byte[10]), "b/x", 10L, Instant.now());
        assertThat(onTime.readAllBytes()).hasSize(10);
    }
}
