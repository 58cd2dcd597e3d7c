package dev.etcdoperator.sandbox.pods;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import dev.etcdoperator.support.MovingClock;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ImageResolverTest {
    @TempDir
    Path dir;
    private Path busybox;
    private ImageResolver images;

    @BeforeEach
    void fakeBusybox() throws IOException {
        busybox = dir.resolve("busybox");
        Files.writeString(busybox, "#!/bin/sh\n[ \"$1\" = --list ] && printf 'sh\\nwget\\nsleep\\n'\n");
        Files.setPosixFilePermissions(busybox, PosixFilePermissions.fromString("rwxr-xr-x"));
        images = new ImageResolver(Map.of(), EtcdReleases.hostOnly(), new BusyboxImage(() -> busybox));
    }

    @Test
    void aBusyboxImageRunsTheAppletItsCommandNames() throws NotEmulatedException {
        assertThat(images.commandLine("busybox:1.36", List.of("/bin/sh", "-c", "echo hi"), List.of("x")))
                .containsExactly(busybox.toString(), "sh", "-c", "echo hi", "x");
        assertThat(images.commandLine("docker.io/library/alpine:3.20", List.of(), List.of("sleep", "1")))
                .containsExactly(busybox.toString(), "sleep", "1");
        assertThat(images.commandLine("registry.example/busybox@sha256:" + "0".repeat(64), List.of(), List.of()))
                .containsExactly(busybox.toString(), "sh");
    }

    @Test
    void aProgramThatIsNoAppletIsNotFoundInABusyboxImage() {
        assertThatThrownBy(() -> images.commandLine("busybox:1.36", List.of("/usr/bin/getent", "hosts", "a"), List.of()))
                .isInstanceOfSatisfying(NotEmulatedException.class,
                        e -> assertThat(e.reason()).isEqualTo(ImageResolver.COMMAND_NOT_FOUND))
                .hasMessageContaining("no applet getent");
    }

    @Test
    void withoutABusyboxTheHostsProgramsStandIn() throws NotEmulatedException {
        ImageResolver host = new ImageResolver(Map.of("sh", busybox), EtcdReleases.hostOnly());
        assertThat(host.commandLine("busybox:1.36", List.of("sh", "-c", "true"), List.of()))
                .containsExactly(busybox.toString(), "-c", "true");
    }

    @Test
    void aFetchThatFailedIsTriedAgainOnlyAfterAMinute() throws NotEmulatedException {
        AtomicInteger fetches = new AtomicInteger();
        boolean[] fetchable = { false };
        MovingClock clock = new MovingClock(Instant.parse("2026-12-04T00:00:00Z"));
        ImageResolver flaky = new ImageResolver(Map.of(), EtcdReleases.hostOnly(), new BusyboxImage(() -> {
            fetches.incrementAndGet();
            if (!fetchable[0]) {
                throw new IllegalStateException("apt-get download busybox-static failed");
            }
            return busybox;
        }, clock));
        for (int i = 0; i < 3; i++) {
            assertThatThrownBy(() -> flaky.commandLine("busybox:1.36", List.of("sh"), List.of()))
                    .isInstanceOfSatisfying(NotEmulatedException.class,
                            e -> assertThat(e.reason()).isEqualTo(ImageResolver.ERR_IMAGE_PULL))
                    .hasMessageContaining("apt-get download busybox-static failed");
            clock.advance(Duration.ofSeconds(1));
        }
        assertThat(fetches).hasValue(1);
        fetchable[0] = true;
        clock.advance(BusyboxImage.RETRY_FETCH_AFTER);
        assertThat(flaky.commandLine("busybox:1.36", List.of("sh"), List.of())).containsExactly(busybox.toString(), "sh");
        assertThat(fetches).hasValue(2);
    }
}
