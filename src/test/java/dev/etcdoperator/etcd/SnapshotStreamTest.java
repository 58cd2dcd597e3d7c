package dev.etcdoperator.etcd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;

import dev.etcdoperator.core.backup.SnapshotDigest;
import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/** {@link SnapshotStream} against a real etcd 3.4: whole snapshots that etcdctl restores, bounded by a deadline. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SnapshotStreamTest {
    private EtcdProcesses etcd;
    private EtcdProcesses.Node member;

    @BeforeAll
    void start() throws Exception {
        etcd = new EtcdProcesses();
        member = etcd.startSeed("s1", 1);
        try (JetcdAdmin admin = new JetcdAdmin(List.of(member.clientUrl()), null)) {
            etcd.awaitHealthy(admin, member, Duration.ofSeconds(15));
        }
        try (Client client = new EtcdClientFactory(null, Duration.ofSeconds(5)).newClient(List.of(member.clientUrl()))) {
            byte[] value = new byte[64 * 1024];
            for (int i = 0; i < 100; i++) {
                client.getKVClient().put(bytes("key-" + i), ByteSequence.from(value)).get(5, TimeUnit.SECONDS);
            }
        }
    }

    @AfterAll
    void stop() {
        if (etcd != null) {
            etcd.close();
        }
    }

    @Test
    void a_snapshot_streams_whole_and_etcdctl_restores_it(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("snapshot.db");
        SnapshotDigest digest = new SnapshotDigest();
        try (SnapshotStream in = SnapshotStream.open(member.clientUrl(), null, Instant.now().plusSeconds(30));
                OutputStream out = Files.newOutputStream(file)) {
            byte[] buffer = new byte[10_000];
            int n;
            while ((n = in.read(buffer, 0, buffer.length)) >= 0) {
                digest.update(buffer, 0, n);
                out.write(buffer, 0, n);
            }
        }
        assertThat(digest.size()).isEqualTo(Files.size(file)).isGreaterThan(6_400_000L);
        assertThat(digest.etcdHashMatches()).as(digest.etcdHashProblem()).isTrue();
        ProcessBuilder restoreCommand = new ProcessBuilder("etcdctl", "snapshot", "restore", file.toString(),
                "--data-dir", dir.resolve("restored").toString())
                .redirectErrorStream(true).redirectOutput(dir.resolve("restore.log").toFile());
        restoreCommand.environment().put("ETCDCTL_API", "3");
        Process restore = restoreCommand.start();
        assertThat(restore.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(restore.exitValue()).as(Files.readString(dir.resolve("restore.log"))).isZero();
        assertThat(dir.resolve("restored/member/snap/db")).exists();
    }

    @Test
    void a_snapshot_past_its_deadline_fails_instead_of_hanging() {
        assertThatThrownBy(() -> {
            try (SnapshotStream in = SnapshotStream.open(member.clientUrl(), null, Instant.now().plusMillis(1))) {
                in.readAllBytes();
            }
        }).isInstanceOf(IOException.class).hasMessageContaining("snapshot");
    }

    @Test
    void closing_early_cancels_the_stream() throws Exception {
        SnapshotStream in = SnapshotStream.open(member.clientUrl(), null, Instant.now().plusSeconds(30));
        assertThat(in.read(new byte[100], 0, 100)).isPositive();
        in.close();
        assertThatThrownBy(() -> in.read(new byte[1], 0, 1)).isInstanceOf(IOException.class);
    }

    @Test
    void an_unreachable_member_fails_when_read() {
        assertThatThrownBy(() -> {
            try (SnapshotStream in = SnapshotStream.open("http://127.0.0.1:1", null, Instant.now().plusSeconds(3))) {
                in.read(new byte[1], 0, 1);
            }
        }).isInstanceOf(IOException.class);
    }

    private static ByteSequence bytes(String s) {
        return ByteSequence.from(s, StandardCharsets.UTF_8);
    }
}
