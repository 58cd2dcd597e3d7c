package dev.etcdoperator.etcd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.function.Executable;

/**
 * {@link JetcdAdmin} against real etcd 3.4 processes: one cluster grows from a seed by a learner that is promoted,
 * then shrinks again. The tests run in order and share the cluster.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class JetcdAdminTest {
    private static final Duration CALL_TIMEOUT = Duration.ofSeconds(2);
    private static final EtcdAdminOptions OPTIONS = EtcdAdminOptions.defaults().withCallTimeout(CALL_TIMEOUT)
            .withReconfigurationDeadline(Duration.ofSeconds(20));

    private EtcdProcesses etcd;
    private EtcdProcesses.Node seed;
    private EtcdProcesses.Node second;
    private EtcdAdmin admin;
    private ServerSocket blackHole;
    private final List<Socket> swallowed = new CopyOnWriteArrayList<>();

    @BeforeAll
    void startSeed() {
        etcd = new EtcdProcesses();
        seed = etcd.startSeed("m1", 1);
        admin = new JetcdAdmin(List.of(seed.clientUrl()), null, OPTIONS);
        etcd.awaitHealthy(admin, seed, Duration.ofSeconds(15));
    }

    @AfterAll
    void stopEverything() throws IOException {
        try {
            if (admin != null) {
                admin.close();
            }
            if (blackHole != null) {
                blackHole.close();
            }
            for (Socket s : swallowed) {
                s.close();
            }
        } finally {
            if (etcd != null) {
                etcd.close();
            }
        }
    }

    @Test
    @Order(1)
    void listsTheSeed() {
        List<Member> members = admin.members();

        assertThat(members).singleElement().satisfies(m -> {
            assertThat(m.name()).isEqualTo("m1");
            assertThat(m.peerUrls()).containsExactly(seed.peerUrl());
            assertThat(m.clientUrls()).containsExactly(seed.clientUrl());
            assertThat(m.learner()).isFalse();
            assertThat(m.started()).isTrue();
        });
    }

    @Test
    @Order(2)
    void statusHealthAndRevisionOfTheSeed() {
        long id = admin.members().get(0).id();

        MemberStatus status = admin.status(seed.clientUrl());
        assertThat(status.memberId()).isEqualTo(id);
        assertThat(status.version()).isEqualTo("3.4.23");
        assertThat(status.isLeader()).isTrue();
        assertThat(status.raftTerm()).isPositive();
        assertThat(status.raftIndex()).isPositive();
        assertThat(status.dbSize()).isPositive();
        assertThat(status.learner()).isFalse();
        assertThat(status.errors()).isEmpty();
        // fields jetcd's proto lacks, read by their numbers in etcd's: an index and a page-aligned byte count
        assertThat(status.raftAppliedIndex()).isPositive().isLessThanOrEqualTo(status.raftIndex());
        assertThat(status.dbSizeInUse()).isPositive().isLessThanOrEqualTo(status.dbSize());
        assertThat(status.dbSizeInUse() % 4096).as("bbolt counts whole pages").isZero();

        MemberHealth health = admin.health(seed.clientUrl());
        assertThat(health.healthy()).as(health.detail()).isTrue();
        assertThat(health.learner()).isFalse();

        assertThat(admin.revision(seed.clientUrl())).isPositive();
    }

    @Test
    @Order(3)
    void aLearnerJoinsIsHealthyAndIsPromoted() {
        Member added = admin.addMember(etcd.peer(etcd.ip(2)), true);
        assertThat(added.learner()).isTrue();
        assertThat(added.started()).isFalse();
        assertThat(added.clientUrls()).isEmpty();
        assertThat(admin.members()).hasSize(2);

        second = etcd.startJoining("m2", 2, "m1=" + seed.peerUrl() + ",m2=" + etcd.peer(etcd.ip(2)));
        etcd.awaitHealthy(admin, second, Duration.ofSeconds(15));

        MemberStatus learnerStatus = admin.status(second.clientUrl());
        assertThat(learnerStatus.learner()).isTrue();
        assertThat(learnerStatus.memberId()).isEqualTo(added.id());
        assertThat(learnerStatus.leaderId()).isEqualTo(admin.status(seed.clientUrl()).memberId());
        MemberHealth learnerHealth = admin.health(second.clientUrl());
        assertThat(learnerHealth.healthy()).as(learnerHealth.detail()).isTrue();
        assertThat(learnerHealth.learner()).isTrue();

        // a learner among the endpoints refuses cluster calls in etcd 3.4: they go to another member
        try (EtcdAdmin withLearner = new JetcdAdmin(List.of(second.clientUrl(), seed.clientUrl()), null, OPTIONS)) {
            for (int i = 0; i < 4; i++) {
                assertThat(withLearner.members()).hasSize(2);
            }
        }

        admin.promote(added.id());

        assertThat(admin.members()).hasSize(2).allSatisfy(m -> {
            assertThat(m.learner()).isFalse();
            assertThat(m.started()).isTrue();
        });
        // the promotion is committed by the leader; the member itself applies it a moment later
        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(50))
                .until(() -> !admin.status(second.clientUrl()).learner());
        MemberHealth voterHealth = admin.health(second.clientUrl());
        assertThat(voterHealth.healthy()).as(voterHealth.detail()).isTrue();
        admin.promote(added.id()); // already a voter: nothing to do

        // the list says who answered it, and can be asked of one member
        long seedId = admin.status(seed.clientUrl()).memberId();
        try (EtcdAdmin atSeed = new JetcdAdmin(List.of(seed.clientUrl()), null, OPTIONS);
                EtcdAdmin atSecond = new JetcdAdmin(List.of(second.clientUrl()), null, OPTIONS)) {
            assertThat(atSeed.memberList().answeredBy()).isEqualTo(seedId);
            assertThat(atSecond.memberList().answeredBy()).isEqualTo(added.id());
            assertThat(atSecond.memberList().members()).hasSize(2);
            assertThat(atSeed.members(second.clientUrl())).extracting(Member::id).containsExactlyInAnyOrder(seedId,
                    added.id());
        }
    }

    @Test
    @Order(4)
    void addMemberRetriesWhileTheClusterIsNotReadyAfterAJoin() {
        // right after a join etcd refuses reconfiguration for 5 s: an impatient caller sees that refusal ...
        try (EtcdAdmin impatient = new JetcdAdmin(List.of(seed.clientUrl()), null,
                OPTIONS.withReconfigurationDeadline(Duration.ZERO))) {
            assertThatThrownBy(() -> impatient.addMember(etcd.peer(etcd.ip(3)), true))
                    .isInstanceOf(EtcdAdminException.class)
                    .hasMessageContaining("unhealthy cluster")
                    .satisfies(e -> assertThat(((EtcdAdminException) e).kind()).isEqualTo(EtcdAdminException.Kind.NOT_READY));
        }
        // ... and a patient one gets through once etcd is ready
        long start = System.nanoTime();
        Member third = admin.addMember(etcd.peer(etcd.ip(3)), true);
        Duration took = Duration.ofNanos(System.nanoTime() - start);

        assertThat(took).isGreaterThan(Duration.ofSeconds(1));
        assertThat(third.learner()).isTrue();
        assertThat(admin.members()).hasSize(3).filteredOn(Member::learner).singleElement()
                .extracting(Member::id).isEqualTo(third.id());

        // one learner at a time
        try (EtcdAdmin impatient = new JetcdAdmin(List.of(seed.clientUrl()), null,
                OPTIONS.withReconfigurationDeadline(Duration.ZERO))) {
            assertThatThrownBy(() -> impatient.addMember(etcd.peer(etcd.ip(4)), true))
                    .isInstanceOf(EtcdAdminException.class)
                    .hasMessageContaining("too many learner members")
                    .satisfies(e -> assertThat(((EtcdAdminException) e).kind()).isEqualTo(EtcdAdminException.Kind.NOT_READY));
        }

        // a learner that never started cannot catch up: promote retries until its deadline, then says why
        try (EtcdAdmin impatient = new JetcdAdmin(List.of(seed.clientUrl()), null,
                OPTIONS.withReconfigurationDeadline(Duration.ofMillis(1500)))) {
            assertThatThrownBy(() -> impatient.promote(third.id()))
                    .isInstanceOf(EtcdAdminException.class)
                    .hasMessageContaining("in sync with leader")
                    .hasMessageContaining("gave up after")
                    .satisfies(e -> assertThat(((EtcdAdminException) e).kind()).isEqualTo(EtcdAdminException.Kind.NOT_READY));
        }

        // the unstarted learner goes again; removing it twice is harmless
        admin.removeMember(third.id());
        admin.removeMember(third.id());
        assertThat(admin.members()).hasSize(2).noneMatch(Member::learner);
    }

    @Test
    @Order(5)
    void aRemovedVoterLeavesAndExits() {
        long secondId = admin.status(second.clientUrl()).memberId();

        admin.removeMember(secondId);

        assertThat(admin.members()).singleElement().extracting(Member::name).isEqualTo("m1");
        etcd.awaitExit(second, Duration.ofSeconds(15));
    }

    @Test
    @Order(6)
    void aRefusedConnectionFailsQuickly() {
        String nobody = "http://" + etcd.ip(250) + ":2379";
        try (EtcdAdmin dead = new JetcdAdmin(List.of(nobody), null, OPTIONS)) {
            assertFailsWithinTheTimeout(dead::members);
            assertFailsWithinTheTimeout(() -> dead.status(nobody));
            assertFailsWithinTheTimeout(() -> dead.revision(nobody));
            MemberHealth health = dead.health(nobody);
            assertThat(health.healthy()).isFalse();
            assertThat(health.detail()).contains(nobody);
        }
        // a dead endpoint among live ones is skipped
        try (EtcdAdmin partlyDead = new JetcdAdmin(List.of(nobody, seed.clientUrl()), null, OPTIONS)) {
            for (int i = 0; i < 3; i++) {
                assertThat(partlyDead.members()).hasSize(1);
            }
            partlyDead.promote(partlyDead.members().get(0).id()); // a voter already: nothing to do
        }
    }

    @Test
    @Order(7)
    void aServerThatNeverAnswersDoesNotHangTheCaller() throws IOException {
        blackHole = new ServerSocket(2379, 50, InetAddress.getByName(etcd.ip(251)));
        Thread acceptor = new Thread(() -> {
            while (!blackHole.isClosed()) {
                try {
                    swallowed.add(blackHole.accept()); // accepted, never read nor answered
                } catch (IOException e) {
                    return;
                }
            }
        }, "black-hole");
        acceptor.setDaemon(true);
        acceptor.start();
        String silent = "http://" + etcd.ip(251) + ":2379";

        try (EtcdAdmin stuck = new JetcdAdmin(List.of(silent), null, OPTIONS)) {
            EtcdAdminException e = assertFailsWithinTheTimeout(stuck::members);
            assertThat(e.kind()).isEqualTo(EtcdAdminException.Kind.UNAVAILABLE);
            assertThat(e.getMessage()).contains(silent).contains("no answer within 2000 ms");
            assertFailsWithinTheTimeout(() -> stuck.status(silent));
            assertFailsWithinTheTimeout(() -> stuck.promote(42));
            long start = System.nanoTime();
            assertThat(stuck.health(silent).healthy()).isFalse();
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(CALL_TIMEOUT.plusSeconds(2));
        }
    }

    /**
     * A seed whose pod runs before etcd listens refuses the first calls. Once it serves, the next call through the
     * same admin answers: it does not fail on while gRPC's reconnect backoff (a second or more) of the refused
     * connection runs out.
     */
    @Test
    @Order(8)
    void aMemberThatRefusedAtFirstAnswersTheNextCallOnceItServes() {
        String late = etcd.client(252);
        try (EtcdAdmin admin = new JetcdAdmin(List.of(late), null, OPTIONS)) {
            EtcdAdminException refused = assertFailsWithinTheTimeout(admin::members);
            assertThat(refused.kind()).isEqualTo(EtcdAdminException.Kind.UNAVAILABLE);
            EtcdProcesses.Node node = etcd.startSeed("late", 252);
            etcd.awaitHealthy(admin, node, Duration.ofSeconds(15));
            assertThat(admin.members()).singleElement().extracting(Member::name).isEqualTo("late");
        }
    }

    /**
     * An operator holds one admin per cluster: admins share gRPC's event loops and start no thread of their own, and
     * each holds one connection per member it was asked about.
     */
    @Test
    @Order(9)
    void adminsStartNoThreadsOfTheirOwn() {
        List<EtcdAdmin> admins = new java.util.ArrayList<>();
        try {
            for (int i = 0; i < 10; i++) {
                EtcdAdmin a = new JetcdAdmin(List.of(seed.clientUrl()), null, OPTIONS);
                admins.add(a);
                if (i == 0) {
                    a.members(); // gRPC's shared event loop and executor threads start here
                }
            }
            int before = Thread.activeCount();
            for (EtcdAdmin a : admins) {
                assertThat(a.members()).hasSize(1);
                assertThat(a.health(seed.clientUrl()).healthy()).isTrue();
            }
            assertThat(Thread.activeCount() - before).as("threads started by 10 admins").isLessThan(5);
        } finally {
            admins.forEach(EtcdAdmin::close);
        }
    }

    private static EtcdAdminException assertFailsWithinTheTimeout(Executable call) {
        long start = System.nanoTime();
        EtcdAdminException e = assertTimeoutPreemptively(CALL_TIMEOUT.plusSeconds(3),
                () -> assertThrows(EtcdAdminException.class, call));
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(CALL_TIMEOUT.plusSeconds(2));
        return e;
    }
}
