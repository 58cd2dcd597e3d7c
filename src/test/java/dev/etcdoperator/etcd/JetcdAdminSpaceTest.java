package dev.etcdoperator.etcd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The maintenance calls that free a full member, against a real etcd whose quota is 2 MiB: the NOSPACE alarm is
 * listed and leaves the member healthy, compaction (twice to the same revision), defragmentation and disarming.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class JetcdAdminSpaceTest {
    private static final long QUOTA = 2L << 20;
    private static final EtcdAdminOptions OPTIONS = EtcdAdminOptions.defaults().withCallTimeout(Duration.ofSeconds(2))
            .withReconfigurationDeadline(Duration.ofSeconds(20));
    private static final ByteSequence KEY = bytes("filler");

    private EtcdProcesses etcd;
    private EtcdProcesses.Node seed;
    private EtcdAdmin admin;
    private Client client;

    @BeforeAll
    void startSeed() {
        etcd = new EtcdProcesses();
        etcd.withArgs("--quota-backend-bytes=" + QUOTA);
        seed = etcd.startSeed("s1", 1);
        admin = new JetcdAdmin(List.of(seed.clientUrl()), null, OPTIONS);
        etcd.awaitHealthy(admin, seed, Duration.ofSeconds(15));
        client = Client.builder().endpoints(seed.clientUrl()).build();
    }

    @AfterAll
    void stopEverything() {
        try {
            if (client != null) {
                client.close();
            }
            if (admin != null) {
                admin.close();
            }
        } finally {
            if (etcd != null) {
                etcd.close();
            }
        }
    }

    @Test
    void aFullMemberIsCompactedDefragmentedAndItsAlarmDisarmed() throws Exception {
        assertThat(admin.alarms()).isEmpty();
        long id = admin.members().get(0).id();
        byte[] value = new byte[256 * 1024];
        boolean refused = false;
        for (int i = 0; i < 40 && !refused; i++) {
            value[0] = (byte) i;
            try {
                put(value);
            } catch (Exception e) {
                assertThat(e).hasStackTraceContaining("database space exceeded");
                refused = true;
            }
        }
        assertThat(refused).as("a write was refused for space").isTrue();

        assertThat(admin.alarms()).containsExactly(new Alarm(id, Alarm.NOSPACE));
        MemberStatus full = admin.status(seed.clientUrl());
        assertThat(full.errors()).anyMatch(e -> e.contains("NOSPACE"));
        assertThat(full.dbSize()).isGreaterThanOrEqualTo(QUOTA - (256 << 10));
        assertThat(full.revision()).isPositive();
        MemberHealth health = admin.health(seed.clientUrl());
        assertThat(health.healthy()).as(health.detail()).isTrue();
        assertThat(health.detail()).contains("NOSPACE");

        admin.compact(full.revision());
        admin.compact(full.revision());
        admin.defragment(seed.clientUrl());
        MemberStatus defragmented = admin.status(seed.clientUrl());
        assertThat(defragmented.dbSize()).isLessThan(full.dbSize() / 2);
        // a defragmented file is (nearly) all in use: what is left is live data
        assertThat(defragmented.dbSizeInUse()).isGreaterThan(defragmented.dbSize() / 2)
                .isLessThanOrEqualTo(defragmented.dbSize());
        assertThatThrownBy(() -> put(value)).hasStackTraceContaining("database space exceeded");

        admin.disarm(new Alarm(id, Alarm.NOSPACE));
        admin.disarm(new Alarm(id, Alarm.NOSPACE));
        assertThat(admin.alarms()).isEmpty();
        assertThat(admin.status(seed.clientUrl()).errors()).isEmpty();
        put(value);
    }

    private void put(byte[] value) throws Exception {
        client.getKVClient().put(KEY, ByteSequence.from(value)).get(5, TimeUnit.SECONDS);
    }

    private static ByteSequence bytes(String s) {
        return ByteSequence.from(s, StandardCharsets.UTF_8);
    }
}
