package dev.etcdoperator.sandbox;

import static dev.etcdoperator.sandbox.support.SandboxClusters.restarts;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import dev.etcdoperator.api.v1beta2.Condition;
import dev.etcdoperator.api.v1beta2.EtcdCluster;
import dev.etcdoperator.api.v1beta2.EtcdClusterStatus;
import dev.etcdoperator.api.v1beta2.MemberDetail;
import dev.etcdoperator.core.cluster.ClusterPlanner;
import dev.etcdoperator.sandbox.support.ContinuousWriter;
import dev.etcdoperator.sandbox.support.Etcdctl;
import dev.etcdoperator.sandbox.support.SandboxClusters;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * The cluster controller on the sandbox with real etcd: one cluster taken through creation, scaling, member
 * failures, an upgrade, an operator restart and pausing, with a client writing throughout; then quorum loss
 * and refused changes on a second cluster.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class EtcdClusterIT {
    static final String NS = "default";
    static final String NAME = "alpha";
    /** The newest 3.5 and 3.6 releases, both built by the sandbox: a real rolling upgrade from one to the other. */
    static final String FIRST = "3.5.35";
    static final String NEXT_MINOR = "3.6.16";
    static final Duration CONVERGE = SandboxClusters.CONVERGE;
    static Sandbox sandbox;
    static SandboxClusters clusters;
    static final Set<String> written = new HashSet<>();
    /** The member whose etcd order 3 kills. */
    static String killedInOrder3;

    @BeforeAll
    static void start() {
        sandbox = Sandbox.start(Sandbox.options().stateDir(Path.of("target", "sandbox-cluster-it"))
                .operatorProperty("etcd-operator.cluster.reconcile-interval", "4s"));
        clusters = new SandboxClusters(sandbox.client(), NS);
    }

    @AfterAll
    static void stop() {
        if (sandbox != null) {
            sandbox.close();
        }
    }

    static KubernetesClient client() {
        return sandbox.client();
    }

    @Test
    @Order(1)
    void aThreeMemberClusterBecomesAvailable() {
        create(NAME, 3, FIRST);
        EtcdClusterStatus status = awaitConverged(NAME, 3);
        assertThat(status.getPhase()).isEqualTo("Running");
        assertThat(status.getMemberDetails()).hasSize(3)
                .allSatisfy(m -> assertThat(m.getLearner()).isFalse())
                .filteredOn(MemberDetail::getLeader).hasSize(1);
        assertThat(client().services().inNamespace(NS).withName(NAME + "-client").get()).isNotNull();
        assertThat(client().services().inNamespace(NS).withName(NAME).get().getSpec().getClusterIP())
                .isEqualTo("None");
        for (int i = 0; i < 20; i++) {
            new Etcdctl(endpoints(NAME)).put("before-" + i, "value-" + i);
            written.add("before-" + i);
        }
        // a new cluster of three starts its members together (no seed, no join), and forgets them once they had a
        // quorum
        assertThat(status.getInitialMembers()).isNull();
        assertThat(events(NAME)).extracting(Event::getReason).contains("InitialMembersCreated")
                .doesNotContain("SeedMemberCreated", "MemberAdded");
        String created = events(NAME).stream().filter(e -> "InitialMembersCreated".equals(e.getReason()))
                .map(Event::getMessage).findFirst().orElseThrow();
        assertThat(status.getMemberDetails()).extracting(MemberDetail::getName).allMatch(created::contains)
                .contains(status.getSeedMember());
    }

    @Test
    @Order(2)
    void scaleUpToFiveAndBackToThreeLosesNoWrite() {
        try (ContinuousWriter writer = writer("scale-")) {
            setSize(NAME, 5);
            awaitConverged(NAME, 5);
            setSize(NAME, 3);
            awaitConverged(NAME, 3);
            writer.close();
            written.addAll(writer.acknowledged());
            assertThat(writer.acknowledged()).isNotEmpty();
        }
        assertAllWrittenKeysPresent();
        assertThat(events(NAME)).extracting(Event::getReason).contains("MemberAdded", "MemberPromoted",
                "MemberRemoved");
    }

    @Test
    @Order(3)
    void aKilledMemberStartsAgainOnItsDataAndOneThatKeepsFailingIsReplaced() {
        Pod victim = pods(NAME).get(0);
        String name = victim.getMetadata().getName();
        killedInOrder3 = name;
        Set<String> members = Set.copyOf(memberNames(NAME));
        try (ContinuousWriter writer = writer("kill-")) {
            // the kubelet starts a failed etcd again at once, in its pod, on its data: the same member comes back
            ProcessHandle.of(pid(victim)).ifPresent(ProcessHandle::destroyForcibly);
            Pod restarted = await().atMost(CONVERGE).until(() -> pod(NAME, name), p -> p != null
                    && p.getMetadata().getUid().equals(victim.getMetadata().getUid()) && restarts(p) == 1
                    && p.getStatus().getContainerStatuses().get(0).getState().getRunning() != null);
            awaitConverged(NAME, 3);
            assertThat(Set.copyOf(memberNames(NAME))).isEqualTo(members);
            assertThat(events(NAME)).extracting(Event::getReason).doesNotContain("MemberReplaced");
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(events(NAME))
                    .filteredOn(e -> e.getReason().equals("MemberEtcdRestarted")).extracting(Event::getMessage)
                    .anySatisfy(m -> assertThat(m).contains("member " + name + " ended (exit code ")));

            // failing again at once, it waits out the kubelet's back-off (10 s, then longer): the operator replaces it
            // meanwhile; killed again whenever it runs, as an etcd that keeps failing would
            ProcessHandle.of(pid(restarted)).ifPresent(ProcessHandle::destroyForcibly);
            await().atMost(CONVERGE).pollInterval(Duration.ofMillis(200)).until(() -> {
                Pod now = pod(NAME, name);
                if (now != null && now.getStatus().getContainerStatuses().get(0).getState().getRunning() != null) {
                    ProcessHandle.of(pid(now)).ifPresent(ProcessHandle::destroyForcibly);
                }
                return now == null;
            });
            awaitConverged(NAME, 3);
            assertThat(memberNames(NAME)).doesNotContain(name).hasSize(3);
            writer.close();
            written.addAll(writer.acknowledged());
        }
        assertAllWrittenKeysPresent();
        assertThat(events(NAME)).extracting(Event::getReason).contains("MemberReplaced");
    }

    @Test
    @Order(4)
    void aClientServiceDeletedByHandIsMadeAgainAtOnce() {
        String service = NAME + "-client";
        String before = client().services().inNamespace(NS).withName(service).get().getMetadata().getUid();
        client().services().inNamespace(NS).withName(service).delete();
        // well within the minute after which the operator looks its Services up again anyway
        await().atMost(Duration.ofSeconds(20)).until(() -> {
            var now = client().services().inNamespace(NS).withName(service).get();
            return now != null && !now.getMetadata().getUid().equals(before);
        });
    }

    @Test
    @Order(4)
    void aDeletedMemberPodIsReplaced() {
        Pod victim = pods(NAME).get(1);
        try (ContinuousWriter writer = writer("delete-")) {
            client().pods().inNamespace(NS).withName(victim.getMetadata().getName()).delete();
            await().atMost(CONVERGE).until(() -> memberNames(NAME).stream()
                    .noneMatch(n -> n.equals(victim.getMetadata().getName())));
            awaitConverged(NAME, 3);
            writer.close();
            written.addAll(writer.acknowledged());
        }
        assertAllWrittenKeysPresent();
    }

    @Test
    @Order(5)
    void aMinorUpgradeFrom35To36RollsOneMemberAtATimeUnderAWriter() {
        try (ContinuousWriter writer = writer("upgrade-")) {
            Edits.edit(client().resources(EtcdCluster.class).inNamespace(NS).withName(NAME), c -> {
                c.getSpec().setVersion(NEXT_MINOR);
                return c;
            });
            await().atMost(CONVERGE).untilAsserted(() -> {
                assertThat(pods(NAME)).hasSize(3).allSatisfy(p -> assertThat(p.getSpec().getContainers().get(0)
                        .getImage()).isEqualTo("quay.io/coreos/etcd:v" + NEXT_MINOR));
                EtcdClusterStatus s = status(NAME);
                assertThat(s.getCurrentVersion()).isEqualTo(NEXT_MINOR);
                assertThat(s.getMemberDetails()).allSatisfy(m -> assertThat(m.getVersion()).isEqualTo(NEXT_MINOR));
                assertThat(s.getTargetVersion()).isNull();
            });
            awaitConverged(NAME, 3);
            writer.close();
            written.addAll(writer.acknowledged());
        }
        assertAllWrittenKeysPresent();
        assertThat(events(NAME)).filteredOn(e -> e.getReason().equals("MemberUpgraded")).hasSize(3);
        // the kubelet started each upgraded etcd again on its new image, and the scale-down's removed members ended
        // by themselves: no failure of etcd, so none is reported as one (only the member killed by order 3 was)
        assertThat(events(NAME)).filteredOn(e -> e.getReason().equals("MemberEtcdRestarted")).isNotEmpty()
                .allSatisfy(e -> assertThat(e.getMessage()).contains("member " + killedInOrder3 + " ended"));
    }

    @Test
    @Order(6)
    void theOperatorRestartedDuringAScaleUpPicksUpWhereItWas() {
        setSize(NAME, 5);
        await().atMost(CONVERGE).until(() -> pods(NAME).size() >= 4);
        sandbox.operator().kill();
        sandbox.startOperator();
        awaitConverged(NAME, 5);
        assertAllWrittenKeysPresent();
    }

    @Test
    @Order(7)
    void whilePausedNothingChangesAndUnpausedItConverges() {
        Edits.edit(client().resources(EtcdCluster.class).inNamespace(NS).withName(NAME), c -> {
            c.getSpec().setPaused(true);
            return c;
        });
        await().atMost(CONVERGE).until(() -> Boolean.TRUE.equals(status(NAME).getControlPaused()));
        setSize(NAME, 3);
        await().during(Duration.ofSeconds(12)).atMost(Duration.ofSeconds(20))
                .until(() -> pods(NAME).size() == 5 && memberNames(NAME).size() == 5);
        Edits.edit(client().resources(EtcdCluster.class).inNamespace(NS).withName(NAME), c -> {
            c.getSpec().setPaused(false);
            return c;
        });
        awaitConverged(NAME, 3);
        assertThat(status(NAME).getControlPaused()).isFalse();
        assertAllWrittenKeysPresent();
    }

    @Test
    @Order(8)
    void aDowngradeAndASkippedMinorVersionAreRefusedAndTheMembersKeepRunning() {
        Set<String> before = pods(NAME).stream().map(p -> p.getMetadata().getUid()).collect(Collectors.toSet());
        for (String[] change : new String[][] { { FIRST, "Downgrade" }, { "3.8.0", "SkippedMinorVersion" } }) {
            Edits.edit(client().resources(EtcdCluster.class).inNamespace(NS).withName(NAME), c -> {
                c.getSpec().setVersion(change[0]);
                return c;
            });
            await().atMost(CONVERGE).untilAsserted(() -> {
                assertThat(status(NAME).getConditions()).extracting(Condition::getReason).contains(change[1]);
                assertThat(events(NAME)).extracting(Event::getReason).contains(change[1]);
            });
            assertThat(pods(NAME).stream().map(p -> p.getMetadata().getUid()).collect(Collectors.toSet()))
                    .isEqualTo(before);
            assertThat(status(NAME).getCurrentVersion()).isEqualTo(NEXT_MINOR);
        }
        assertAllWrittenKeysPresent();
    }

    @Test
    @Order(9)
    void twoOfThreeMembersKilledTogetherComeBackOnTheirDataWithEveryAcknowledgedWrite() {
        create("beta", 3, FIRST);
        awaitConverged("beta", 3);
        List<Pod> pods = pods("beta");
        String leader = status("beta").getMemberDetails().stream().filter(m -> Boolean.TRUE.equals(m.getLeader()))
                .map(MemberDetail::getName).findFirst().orElseThrow();
        // the leader and a follower: no quorum is left until the kubelet starts them again in their pods
        killAndAwaitBackInPlace("beta", List.of(
                pods.stream().filter(p -> p.getMetadata().getName().equals(leader)).findFirst().orElseThrow(),
                pods.stream().filter(p -> !p.getMetadata().getName().equals(leader)).findFirst().orElseThrow()));
        assertThat(events("beta")).extracting(Event::getReason).doesNotContain("MemberReplaced", "MemberRemoved");
    }

    @Test
    @Order(10)
    void aClusterWithoutClaimsThatLostEveryPodIsNotSeededAgainUntilAPersonAsks() {
        create("delta", 1, FIRST);
        awaitConverged("delta", 1);
        String seed = status("delta").getSeedMember();
        assertThat(seed).isNotNull();
        assertThat(pods("delta")).extracting(p -> p.getMetadata().getName()).containsExactly(seed);
        client().pods().inNamespace(NS).withLabel("etcd_cluster", "delta").delete();
        await().atMost(CONVERGE).untilAsserted(() -> {
            EtcdClusterStatus s = status("delta");
            assertThat(s.getPhase()).isEqualTo("Failed");
            assertThat(s.getReason()).isEqualTo("AllMembersLost");
            assertThat(events("delta")).extracting(Event::getReason).contains("AllMembersLost");
        });
        await().during(Duration.ofSeconds(10)).atMost(Duration.ofSeconds(15)).until(() -> pods("delta").isEmpty());

        EtcdCluster delta = client().resources(EtcdCluster.class).inNamespace(NS).withName("delta").get();
        Edits.edit(client().resources(EtcdCluster.class).inNamespace(NS).withName("delta"), c -> {
            Map<String, String> annotations = new HashMap<>(c.getMetadata().getAnnotations() == null ? Map.of()
                    : c.getMetadata().getAnnotations());
            annotations.put("etcd.database.coreos.com/reseed", delta.getMetadata().getUid());
            c.getMetadata().setAnnotations(annotations);
            return c;
        });
        awaitConverged("delta", 1);
        assertThat(status("delta").getSeedMember()).isNotEqualTo(seed);
        // removed once the status shows the new seed recorded
        await().atMost(CONVERGE).untilAsserted(() -> {
            Map<String, String> after = client().resources(EtcdCluster.class).inNamespace(NS).withName("delta").get()
                    .getMetadata().getAnnotations();
            assertThat(after == null ? Map.of() : after).doesNotContainKey("etcd.database.coreos.com/reseed");
        });
        assertThat(events("delta")).extracting(Event::getReason).contains("ClusterReseeded");
        client().resources(EtcdCluster.class).inNamespace(NS).withName("delta").delete();
    }

    @Test
    @Order(10)
    void membersOnClaimsComeBackInPlaceWithTheirData() {
        client().resource(Serialization.unmarshal("""
                apiVersion: etcd.database.coreos.com/v1beta2
                kind: EtcdCluster
                metadata: {name: gamma, namespace: default}
                spec:
                  size: 3
                  version: 3.5.35
                  pod:
                    persistentVolumeClaimSpec:
                      accessModes: [ReadWriteOnce]
                      resources: {requests: {storage: 1Gi}}
                """, EtcdCluster.class)).create();
        awaitConverged("gamma", 3);
        Set<String> names = pods("gamma").stream().map(p -> p.getMetadata().getName()).collect(Collectors.toSet());
        assertThat(client().persistentVolumeClaims().inNamespace(NS).list().getItems())
                .extracting(c -> c.getMetadata().getName()).containsAll(names);
        new Etcdctl(endpoints("gamma")).put("kept", "on-claims");

        Pod killed = pods("gamma").get(0);
        ProcessHandle.of(pid(killed)).ifPresent(ProcessHandle::destroyForcibly);
        await().atMost(CONVERGE).until(() -> pod("gamma", killed.getMetadata().getName()), p -> p != null
                && p.getMetadata().getUid().equals(killed.getMetadata().getUid()) && restarts(p) == 1);
        awaitConverged("gamma", 3);

        Pod deleted = pods("gamma").get(1);
        client().pods().inNamespace(NS).withName(deleted.getMetadata().getName()).delete();
        await().atMost(CONVERGE).until(() -> pods("gamma").stream()
                .anyMatch(p -> p.getMetadata().getName().equals(deleted.getMetadata().getName())
                        && !p.getMetadata().getUid().equals(deleted.getMetadata().getUid())));
        awaitConverged("gamma", 3);

        assertThat(pods("gamma").stream().map(p -> p.getMetadata().getName()).collect(Collectors.toSet()))
                .isEqualTo(names);

        // every pod at once (a drain, kubectl delete pods -l ...): each comes back on its claim, no member answering
        Set<String> uids = pods("gamma").stream().map(p -> p.getMetadata().getUid()).collect(Collectors.toSet());
        client().pods().inNamespace(NS).withLabel("etcd_cluster", "gamma").delete();
        await().atMost(CONVERGE).until(() -> pods("gamma").stream()
                .noneMatch(p -> uids.contains(p.getMetadata().getUid())) && pods("gamma").size() == 3);
        awaitConverged("gamma", 3);
        assertThat(pods("gamma").stream().map(p -> p.getMetadata().getName()).collect(Collectors.toSet()))
                .isEqualTo(names);
        assertThat(events("gamma")).extracting(Event::getReason).doesNotContain("MemberReplaced", "StepFailed");
        for (String url : endpointList("gamma")) {
            assertThat(new Etcdctl(url).run("get", "kept", "--print-value-only", "--consistency=s").output())
                    .contains("on-claims");
        }

        // a claim that lost its data (wiped, a new volume): the pod made again on it finds nothing, and the member
        // is replaced by a new one instead of its pod being made again for ever
        Pod wiped = pods("gamma").get(2);
        String wipedName = wiped.getMetadata().getName();
        java.nio.file.Path data = sandbox.pods().claimDirectory(NS, wipedName).resolve("data");
        await().atMost(Duration.ofSeconds(10)).ignoreExceptions().until(() -> {
            deleteRecursively(data);
            return !java.nio.file.Files.exists(data);
        });
        client().pods().inNamespace(NS).withName(wipedName).withGracePeriod(0).delete();
        await().atMost(CONVERGE).untilAsserted(() -> assertThat(pods("gamma")).extracting(p -> p.getMetadata()
                .getName()).doesNotContain(wipedName).hasSize(3));
        awaitConverged("gamma", 3);
        assertThat(events("gamma")).extracting(Event::getReason).contains("MemberReplaced");
        for (String url : endpointList("gamma")) {
            assertThat(new Etcdctl(url).run("get", "kept", "--print-value-only", "--consistency=s").output())
                    .contains("on-claims");
        }
    }

    /**
     * A cluster deleted with its claims kept (Retain), then created again under the same name: its seed opens the
     * earlier data and waits for the members it names, whose claims get their pods too; the data is back.
     */
    @Test
    void aClusterMadeAgainOnTheClaimsItsPredecessorKeptComesBackWithItsData() {
        String manifest = """
                apiVersion: etcd.database.coreos.com/v1beta2
                kind: EtcdCluster
                metadata: {name: kappa, namespace: default}
                spec:
                  size: 3
                  version: 3.5.35
                  pod:
                    persistentVolumeClaimRetention: Retain
                    persistentVolumeClaimSpec:
                      accessModes: [ReadWriteOnce]
                      resources: {requests: {storage: 1Gi}}
                """;
        client().resource(Serialization.unmarshal(manifest, EtcdCluster.class)).create();
        awaitConverged("kappa", 3);
        Set<String> names = pods("kappa").stream().map(p -> p.getMetadata().getName()).collect(Collectors.toSet());
        new Etcdctl(endpoints("kappa")).put("kept", "through-a-new-cluster");

        client().resources(EtcdCluster.class).inNamespace(NS).withName("kappa").delete();
        await().atMost(CONVERGE).until(() -> pods("kappa").isEmpty()
                && client().resources(EtcdCluster.class).inNamespace(NS).withName("kappa").get() == null);
        assertThat(client().persistentVolumeClaims().inNamespace(NS).list().getItems())
                .extracting(c -> c.getMetadata().getName()).containsAll(names);

        client().resource(Serialization.unmarshal(manifest, EtcdCluster.class)).create();
        awaitConverged("kappa", 3);
        assertThat(pods("kappa").stream().map(p -> p.getMetadata().getName()).collect(Collectors.toSet()))
                .isEqualTo(names);
        for (String url : endpointList("kappa")) {
            assertThat(new Etcdctl(url).run("get", "kept", "--print-value-only", "--consistency=s").output())
                    .contains("through-a-new-cluster");
        }
        client().resources(EtcdCluster.class).inNamespace(NS).withName("kappa").delete();
        await().atMost(CONVERGE).until(() -> pods("kappa").isEmpty());
        client().persistentVolumeClaims().inNamespace(NS).withLabel("etcd_cluster", "kappa").delete();
    }

    /**
     * The seed (started alone with {@code --initial-cluster-state=new}) loses its data directory and its etcd is started
     * again in place while the other members do not answer (frozen): it elects itself in a new, empty cluster of its
     * own under the same IDs, whose member list names itself alone. That list must not be acted on (the others' pods
     * and claims would be deleted as no members', and members added to the wrong cluster): the operator changes
     * nothing and says why. Once the others answer again, the cluster comes back with every member serving what was
     * written before (the seed either rejoins from the leader's log or is replaced), the others' pods untouched.
     */
    @Test
    void aSeedWhoseDataIsWipedLeadsItsOwnClusterAndIsNotTakenForTheCluster() throws Exception {
        client().resource(Serialization.unmarshal("""
                apiVersion: etcd.database.coreos.com/v1beta2
                kind: EtcdCluster
                metadata: {name: omicron, namespace: default}
                spec:
                  size: 3
                  version: 3.5.35
                  pod:
                    affinity:
                      nodeAffinity:
                        preferredDuringSchedulingIgnoredDuringExecution:
                        - weight: 1
                          preference:
                            matchExpressions: [{key: kubernetes.io/os, operator: In, values: [linux]}]
                    persistentVolumeClaimSpec:
                      accessModes: [ReadWriteOnce]
                      resources: {requests: {storage: 1Gi}}
                """, EtcdCluster.class)).create();
        String seed = awaitConverged("omicron", 3).getSeedMember();
        assertThat(seed).isNotNull();
        for (int i = 0; i < 50; i++) {
            new Etcdctl(endpoints("omicron")).put("before-the-wipe-" + i, "kept");
        }
        Map<String, String> others = new HashMap<>();
        List<Long> frozen = new java.util.ArrayList<>();
        for (Pod p : pods("omicron")) {
            if (!p.getMetadata().getName().equals(seed)) {
                others.put(p.getMetadata().getName(), p.getMetadata().getUid());
                frozen.add(pid(p));
            }
        }
        assertThat(others).hasSize(2);

        Pod wiped = pod("omicron", seed);
        String seedUrl = "http://" + wiped.getStatus().getPodIP() + ":2379";
        try {
            frozen.forEach(pid -> signal("-STOP", pid));
            deleteRecursively(sandbox.pods().claimDirectory(NS, seed).resolve("data"));
            ProcessHandle.of(pid(wiped)).ifPresent(ProcessHandle::destroyForcibly);
            // started again in place on no data, with no other member to hear from: a cluster of its own
            await().atMost(CONVERGE).ignoreExceptions().untilAsserted(() -> assertThat(new Etcdctl(seedUrl)
                    .run("member", "list").output().lines().filter(l -> l.contains(",")).toList()).hasSize(1));
            await().atMost(CONVERGE).untilAsserted(() -> assertThat(status("omicron").getConditions())
                    .anySatisfy(c -> {
                        assertThat(c.getType()).isEqualTo("Available");
                        assertThat(c.getStatus()).isEqualTo("False");
                        assertThat(c.getReason()).isEqualTo("MemberListPartial");
                        assertThat(c.getMessage()).contains(others.keySet().toArray(String[]::new));
                    }));
            for (Map.Entry<String, String> other : others.entrySet()) {
                assertThat(pod("omicron", other.getKey())).as("pod " + other.getKey()).isNotNull()
                        .extracting(p -> p.getMetadata().getUid()).isEqualTo(other.getValue());
                assertThat(client().persistentVolumeClaims().inNamespace(NS).withName(other.getKey()).get())
                        .as("claim " + other.getKey()).isNotNull()
                        .extracting(c -> c.getMetadata().getDeletionTimestamp()).isNull();
            }
        } finally {
            frozen.forEach(pid -> signal("-CONT", pid));
        }

        awaitConverged("omicron", 3);
        for (Map.Entry<String, String> other : others.entrySet()) {
            assertThat(pod("omicron", other.getKey())).as("pod " + other.getKey()).isNotNull()
                    .extracting(p -> p.getMetadata().getUid()).isEqualTo(other.getValue());
        }
        assertThat(events("omicron")).extracting(Event::getReason).doesNotContain("StepFailed");
        await().atMost(CONVERGE).untilAsserted(() -> {
            for (String url : endpointList("omicron")) {
                for (int i = 0; i < 50; i += 7) {
                    assertThat(new Etcdctl(url).run("get", "before-the-wipe-" + i, "--print-value-only",
                            "--consistency=s").output()).as(url).contains("kept");
                }
            }
        });
        client().resources(EtcdCluster.class).inNamespace(NS).withName("omicron").delete();
        await().atMost(CONVERGE).until(() -> pods("omicron").isEmpty());
    }

    /**
     * A member whose database is damaged on its claim fails in every pod made on it: after a few such pods it is
     * replaced, claim and all, by a fresh member that gets the data from the others, rather than made again for ever.
     */
    @Test
    void aMemberWhoseDatabaseIsDamagedIsReplacedOnceItKeepsFailingOnItsClaim() throws Exception {
        client().resource(Serialization.unmarshal("""
                apiVersion: etcd.database.coreos.com/v1beta2
                kind: EtcdCluster
                metadata: {name: sigma, namespace: default}
                spec:
                  size: 3
                  version: 3.5.35
                  pod:
                    persistentVolumeClaimSpec:
                      accessModes: [ReadWriteOnce]
                      resources: {requests: {storage: 1Gi}}
                """, EtcdCluster.class)).create();
        awaitConverged("sigma", 3);
        for (int i = 0; i < 30; i++) {
            new Etcdctl(endpoints("sigma")).put("before-the-damage-" + i, "kept");
        }
        Pod damaged = pods("sigma").get(0);
        String name = damaged.getMetadata().getName();
        long etcd = pid(damaged);
        signal("-STOP", etcd);
        try {
            java.nio.file.Path db = sandbox.pods().claimDirectory(NS, name).resolve("data/member/snap/db");
            assertThat(db).isRegularFile();
            java.nio.file.Files.write(db, "not a bbolt database".repeat(1000).getBytes(
                    java.nio.charset.StandardCharsets.US_ASCII));
        } finally {
            signal("-KILL", etcd);
        }

        await().atMost(CONVERGE).untilAsserted(() -> assertThat(memberNames("sigma")).hasSize(3).doesNotContain(name));
        awaitConverged("sigma", 3);
        assertThat(client().persistentVolumeClaims().inNamespace(NS).withName(name).get()).as("claim " + name)
                .satisfiesAnyOf(c -> assertThat(c).isNull(),
                        c -> assertThat(c.getMetadata().getDeletionTimestamp()).isNotNull());
        assertThat(events("sigma")).filteredOn(e -> "MemberReplaced".equals(e.getReason()))
                .anySatisfy(e -> assertThat(e.getMessage()).contains(name, "failed again in each of its last"));
        // made again on its claim as often as the operator allows before it is replaced, not fewer times
        assertThat(events("sigma").stream().filter(e -> "PodDeleted".equals(e.getReason())
                && e.getMessage().startsWith("Deleting pod " + name + ", which ended or whose etcd keeps failing"))
                .mapToInt(e -> e.getCount() == null ? 1 : e.getCount()).sum())
                .isGreaterThanOrEqualTo(ClusterPlanner.RECREATIONS_BEFORE_REPLACING);
        await().atMost(CONVERGE).untilAsserted(() -> {
            for (String url : endpointList("sigma")) {
                for (int i = 0; i < 30; i += 7) {
                    assertThat(new Etcdctl(url).run("get", "before-the-damage-" + i, "--print-value-only",
                            "--consistency=s").output()).as(url).contains("kept");
                }
            }
        });
        client().resources(EtcdCluster.class).inNamespace(NS).withName("sigma").delete();
        await().atMost(CONVERGE).until(() -> pods("sigma").isEmpty());
    }

    private static void deleteRecursively(java.nio.file.Path dir) throws java.io.IOException {
        if (!java.nio.file.Files.exists(dir)) {
            return;
        }
        try (var walk = java.nio.file.Files.walk(dir)) {
            for (java.nio.file.Path p : walk.sorted(java.util.Comparator.reverseOrder()).toList()) {
                java.nio.file.Files.deleteIfExists(p);
            }
        }
    }

    @Test
    @Order(11)
    void aRunningClusterWhoseSizeBecomesZeroIsMarkedInvalidAndLeftRunning() {
        Set<String> before = pods("gamma").stream().map(p -> p.getMetadata().getUid()).collect(Collectors.toSet());
        // the operator writes its status while the schema is lax: a real API server checks the whole object, spec
        // included, on a status update
        sandbox.withoutSchemaChecks(() -> {
            setSize("gamma", 0);
            await().atMost(CONVERGE).untilAsserted(() -> {
                assertThat(status("gamma").getConditions()).anySatisfy(c -> {
                    assertThat(c.getType()).isEqualTo("Valid");
                    assertThat(c.getReason()).isEqualTo("InvalidSpec");
                    assertThat(c.getMessage()).contains("spec.size");
                });
                assertThat(events("gamma")).extracting(Event::getReason).contains("InvalidSpec");
            });
            await().during(Duration.ofSeconds(10)).atMost(Duration.ofSeconds(15)).until(() -> pods("gamma").stream()
                    .map(p -> p.getMetadata().getUid()).collect(Collectors.toSet()).equals(before));
        });
        assertThat(new Etcdctl(endpoints("gamma")).get("kept")).isEqualTo("on-claims");
    }

    @Test
    @Order(12)
    void deletingAClusterRemovesWhatItOwnsAndStopsItsMembers() {
        List<Long> pids = pods("gamma").stream().map(EtcdClusterIT::pid).toList();
        client().resources(EtcdCluster.class).inNamespace(NS).withName("gamma").delete();
        await().atMost(CONVERGE).untilAsserted(() -> {
            assertThat(pods("gamma")).isEmpty();
            assertThat(client().services().inNamespace(NS).withLabel("etcd_cluster", "gamma").list().getItems())
                    .isEmpty();
            assertThat(client().persistentVolumeClaims().inNamespace(NS).withLabel("etcd_cluster", "gamma").list()
                    .getItems()).isEmpty();
            assertThat(client().policy().v1().podDisruptionBudget().inNamespace(NS).withName("gamma").get()).isNull();
            assertThat(pids).allSatisfy(pid -> assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive)
                    .orElse(false)).isFalse());
        });
    }

    /**
     * The first members of a new cluster start together: one of them lost while they start (its pod deleted as soon as
     * it appears, or its etcd killed as soon as it runs) is made again or started again in its pod, and the cluster
     * becomes Available with three members that keep what is written.
     */
    @Test
    @Order(13)
    void aFirstMemberLostWhileTheClusterStartsIsMadeAgainOrReplaced() {
        create("epsilon", 3, FIRST);
        await().atMost(CONVERGE).pollInterval(Duration.ofMillis(20)).until(() -> !pods("epsilon").isEmpty());
        client().pods().inNamespace(NS).withName(pods("epsilon").get(0).getMetadata().getName()).withGracePeriod(0)
                .delete();
        awaitConverged("epsilon", 3);
        new Etcdctl(endpoints("epsilon")).put("after-a-lost-first-pod", "kept");
        assertThat(new Etcdctl(endpoints("epsilon")).get("after-a-lost-first-pod")).isEqualTo("kept");

        create("zeta", 3, FIRST);
        Pod running = await().atMost(CONVERGE).pollInterval(Duration.ofMillis(20)).until(() -> pods("zeta").stream()
                .filter(p -> p.getStatus() != null && p.getStatus().getContainerStatuses() != null
                        && p.getStatus().getContainerStatuses().stream().anyMatch(c -> c.getState().getRunning() != null))
                .findFirst().orElse(null), java.util.Objects::nonNull);
        ProcessHandle.of(pid(running)).ifPresent(ProcessHandle::destroyForcibly);
        awaitConverged("zeta", 3);
        // started again in its pod on its data, or, had it ended, replaced
        Pod after = pod("zeta", running.getMetadata().getName());
        assertThat(after == null || after.getMetadata().getUid().equals(running.getMetadata().getUid())
                && restarts(after) >= 1).as("the killed member's pod: %s", after).isTrue();
        new Etcdctl(endpoints("zeta")).put("after-a-killed-first-member", "kept");
        assertThat(new Etcdctl(endpoints("zeta")).get("after-a-killed-first-member")).isEqualTo("kept");
        for (String name : List.of("epsilon", "zeta")) {
            client().resources(EtcdCluster.class).inNamespace(NS).withName(name).delete();
        }
    }

    /**
     * Every member's etcd killed at once, on emptyDir: no pod ends, each etcd starts again on its data, and the cluster
     * is back with every acknowledged write (a cluster whose pods all ended would have lost everything).
     */
    @Test
    @Order(14)
    void everyMembersEtcdKilledAtOnceComesBackWithEveryAcknowledgedWrite() {
        create("theta", 3, FIRST);
        awaitConverged("theta", 3);
        killAndAwaitBackInPlace("theta", pods("theta"));
        assertThat(events("theta")).extracting(Event::getReason).doesNotContain("AllMembersLost", "MemberReplaced");
        client().resources(EtcdCluster.class).inNamespace(NS).withName("theta").delete();
    }

    /**
     * Two of three etcds frozen (SIGSTOP: alive, answering nothing; the quorum gone with them): the kubelet restarts
     * each in place once its liveness probe has failed long enough, and the cluster comes back with every
     * acknowledged write, without a member replaced.
     */
    @Test
    @Order(15)
    void twoFrozenMembersAreRestartedInPlaceByTheirLivenessProbe() {
        create("iota", 3, NEXT_MINOR);
        awaitConverged("iota", 3);
        List<Pod> frozen = pods("iota").subList(0, 2);
        List<Long> pids = frozen.stream().map(EtcdClusterIT::pid).toList();
        try {
            stopAndAwaitBackInPlace("iota", frozen, p -> signal("-STOP", pid(p)), Duration.ofMinutes(4));
        } finally {
            pids.forEach(pid -> signal("-CONT", pid));
        }
        assertThat(events("iota")).extracting(Event::getReason).doesNotContain("MemberReplaced", "MemberRemoved");
        for (Pod pod : frozen) {
            assertThat(client().v1().events().inNamespace(NS).list().getItems())
                    .as("the kubelet restarted %s for its liveness probe", pod.getMetadata().getName())
                    .anySatisfy(e -> {
                        assertThat(e.getInvolvedObject().getName()).isEqualTo(pod.getMetadata().getName());
                        assertThat(e.getReason()).isEqualTo("Unhealthy");
                        assertThat(e.getMessage()).contains("Liveness probe failed");
                    });
        }
        client().resources(EtcdCluster.class).inNamespace(NS).withName("iota").delete();
    }

    /**
     * A member pod that fits no node (a node selector no node has): the cluster says which pod and the scheduler's
     * reason; once the spec is fixed, the pod is made again from it and the cluster runs.
     */
    @Test
    @Order(16)
    void aMemberPodThatFitsNoNodeIsToldAndMadeAgainOnceTheSpecIsFixed() {
        client().resource(Serialization.unmarshal("""
                apiVersion: etcd.database.coreos.com/v1beta2
                kind: EtcdCluster
                metadata: {name: kappa, namespace: %s}
                spec:
                  size: 1
                  version: %s
                  pod: {nodeSelector: {etcd-operator.test/nowhere: "true"}}
                """.formatted(NS, NEXT_MINOR), EtcdCluster.class)).create();
        await().atMost(CONVERGE).untilAsserted(() -> assertThat(status("kappa").getConditions())
                .anySatisfy(c -> {
                    assertThat(c.getType()).isEqualTo("MembersScheduled");
                    assertThat(c.getStatus()).isEqualTo("False");
                    assertThat(c.getReason()).isEqualTo("PodUnschedulable");
                    assertThat(c.getMessage()).contains(pods("kappa").get(0).getMetadata().getName())
                            .contains("node affinity/selector").contains("change spec.pod");
                }));
        assertThat(events("kappa")).extracting(Event::getReason).contains("PodUnschedulable");
        String pending = pods("kappa").get(0).getMetadata().getUid();

        Edits.edit(client().resources(EtcdCluster.class).inNamespace(NS).withName("kappa"), c -> {
            c.getSpec().getPod().setNodeSelector(null);
            return c;
        });
        awaitConverged("kappa", 1);
        assertThat(pods("kappa")).singleElement().satisfies(p -> assertThat(p.getMetadata().getUid())
                .isNotEqualTo(pending));
        assertThat(events("kappa")).extracting(Event::getReason).contains("UnplacedPodRemade");
        await().atMost(CONVERGE).untilAsserted(() -> assertThat(status("kappa").getConditions()).anySatisfy(c -> {
            assertThat(c.getType()).isEqualTo("MembersScheduled");
            assertThat(c.getStatus()).isEqualTo("True");
        }));
        client().resources(EtcdCluster.class).inNamespace(NS).withName("kappa").delete();
    }

    /**
     * A field of an embedded Kubernetes type the operator passes on as given (a toleration's operator), which the
     * API server refuses in a pod: the cluster says so with the API server's words, once; fixed, it runs.
     */
    @Test
    @Order(16)
    void aPodTheApiServerRefusesIsToldAndTheClusterRunsOnceTheSpecIsFixed() {
        client().resource(Serialization.unmarshal("""
                apiVersion: etcd.database.coreos.com/v1beta2
                kind: EtcdCluster
                metadata: {name: mu, namespace: %s}
                spec:
                  size: 1
                  version: %s
                  pod: {tolerations: [{key: dedicated, operator: Sometimes, value: etcd}]}
                """.formatted(NS, NEXT_MINOR), EtcdCluster.class)).create();
        await().atMost(CONVERGE).untilAsserted(() -> assertThat(status("mu").getConditions()).anySatisfy(c -> {
            assertThat(c.getType()).isEqualTo("Ready");
            assertThat(c.getStatus()).isEqualTo("False");
            assertThat(c.getReason()).isEqualTo("RejectedByApiServer");
            assertThat(c.getMessage()).contains("tolerations").contains("Sometimes").contains("Fix spec.pod");
        }));
        assertThat(pods("mu")).isEmpty();
        // told once, though every look meets the same refusal
        await().during(Duration.ofSeconds(9)).atMost(Duration.ofSeconds(12)).until(() -> events("mu").stream()
                .filter(e -> "RejectedByApiServer".equals(e.getReason()))
                .mapToInt(e -> e.getCount() == null ? 1 : e.getCount()).sum() == 1);

        Edits.edit(client().resources(EtcdCluster.class).inNamespace(NS).withName("mu"), c -> {
            c.getSpec().getPod().setTolerations(null);
            return c;
        });
        awaitConverged("mu", 1);
        assertThat(status("mu").getConditions()).noneSatisfy(c -> assertThat(c.getReason())
                .isEqualTo("RejectedByApiServer"));
        client().resources(EtcdCluster.class).inNamespace(NS).withName("mu").delete();
    }

    /**
     * An upgrade to a version whose image cannot be had (the sandbox has no etcd 3.6.99, as a registry without that
     * tag): the member given it waits with the kubelet's reason, said in the status, the others keep the cluster
     * available; spec.version set back gives that member its image back, and it runs again on its data.
     */
    @Test
    @Order(17)
    void aMemberGivenAnImageThatCannotBeHadRunsAgainOnceSpecVersionIsSetBack() {
        create("lambda", 3, NEXT_MINOR);
        awaitConverged("lambda", 3);
        Set<String> acknowledged;
        try (ContinuousWriter writer = new ContinuousWriter("img-", () -> endpointList("lambda"))) {
            await().atMost(Duration.ofSeconds(30)).until(() -> writer.acknowledgedCount() > 20);
            Edits.edit(client().resources(EtcdCluster.class).inNamespace(NS).withName("lambda"), c -> {
                c.getSpec().setVersion("3.6.99");
                return c;
            });
            await().atMost(CONVERGE).untilAsserted(() -> {
                assertThat(pods("lambda")).anySatisfy(p -> assertThat(p.getStatus().getContainerStatuses())
                        .anySatisfy(c -> assertThat(c.getState().getWaiting()).isNotNull()
                                .satisfies(w -> assertThat(w.getReason()).isIn("ErrImagePull", "ImagePullBackOff"))));
                assertThat(Serialization.asJson(status("lambda"))).contains("cannot be had", "set spec.version");
            });
            // one member at a time: the other two keep the quorum, and writes go on
            int before = writer.acknowledgedCount();
            await().atMost(Duration.ofSeconds(30)).until(() -> writer.acknowledgedCount() > before + 20);
            assertThat(pods("lambda")).filteredOn(p -> p.getSpec().getContainers().get(0).getImage()
                    .endsWith(":v3.6.99")).hasSize(1);

            Edits.edit(client().resources(EtcdCluster.class).inNamespace(NS).withName("lambda"), c -> {
                c.getSpec().setVersion(NEXT_MINOR);
                return c;
            });
            await().atMost(CONVERGE).untilAsserted(() -> assertThat(pods("lambda")).hasSize(3)
                    .allSatisfy(p -> assertThat(p.getSpec().getContainers().get(0).getImage())
                            .isEqualTo("quay.io/coreos/etcd:v" + NEXT_MINOR)));
            awaitConverged("lambda", 3);
            writer.close();
            acknowledged = writer.acknowledged();
        }
        assertThat(events("lambda")).extracting(Event::getReason).contains("MemberImageReset")
                .doesNotContain("MemberReplaced", "MemberRemoved");
        assertThat(keys("lambda", "img-")).containsAll(acknowledged);
        client().resources(EtcdCluster.class).inNamespace(NS).withName("lambda").delete();
    }

    // ---- helpers ----

    static void signal(String signal, long pid) {
        try {
            new ProcessBuilder("kill", signal, Long.toString(pid)).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start().waitFor();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /**
     * Under a writer, kills the etcd of each of {@code victims} at once and waits until the kubelet has started each
     * again and the cluster has converged; then nothing was removed, replaced or made again (the same pods and
     * members) and every acknowledged write is there.
     */
    static void killAndAwaitBackInPlace(String cluster, List<Pod> victims) {
        stopAndAwaitBackInPlace(cluster, victims, p -> ProcessHandle.of(pid(p)).ifPresent(ProcessHandle::destroyForcibly),
                CONVERGE);
    }

    /** As {@link #killAndAwaitBackInPlace}, each victim's etcd stopped by {@code stop}, back within {@code within}. */
    static void stopAndAwaitBackInPlace(String cluster, List<Pod> victims, java.util.function.Consumer<Pod> stop,
            Duration within) {
        Set<String> uids = pods(cluster).stream().map(p -> p.getMetadata().getUid()).collect(Collectors.toSet());
        Set<String> members = Set.copyOf(memberNames(cluster));
        Set<String> acknowledged;
        try (ContinuousWriter writer = new ContinuousWriter(cluster + "-", () -> endpointList(cluster))) {
            await().atMost(Duration.ofSeconds(30)).until(() -> writer.acknowledgedCount() > 20);
            victims.forEach(stop);
            for (Pod victim : victims) {
                await().atMost(within).until(() -> pod(cluster, victim.getMetadata().getName()),
                        p -> p != null && restarts(p) >= 1);
            }
            awaitConverged(cluster, 3);
            int before = writer.acknowledgedCount();
            await().atMost(Duration.ofSeconds(30)).until(() -> writer.acknowledgedCount() > before + 20);
            writer.close();
            acknowledged = writer.acknowledged();
        }
        assertThat(pods(cluster).stream().map(p -> p.getMetadata().getUid()).collect(Collectors.toSet()))
                .isEqualTo(uids);
        assertThat(Set.copyOf(memberNames(cluster))).isEqualTo(members);
        assertThat(acknowledged).isNotEmpty();
        assertThat(keys(cluster, cluster + "-")).containsAll(acknowledged);
    }

    /** The keys under {@code prefix} in the cluster. */
    static Set<String> keys(String cluster, String prefix) {
        String keys = new Etcdctl(endpoints(cluster)).run("get", prefix, "--prefix", "--keys-only").output();
        return Arrays.stream(keys.split("\n")).map(String::strip).filter(k -> !k.isEmpty())
                .collect(Collectors.toSet());
    }

    static void create(String name, int size, String version) {
        clusters.create(name, size, version);
    }

    static void setSize(String name, int size) {
        Edits.edit(client().resources(EtcdCluster.class).inNamespace(NS).withName(name), c -> {
            c.getSpec().setSize(size);
            return c;
        });
    }

    static EtcdClusterStatus status(String name) {
        return clusters.status(name);
    }

    /** Available, size voting healthy members, each with a ready pod, and no other pod. */
    static EtcdClusterStatus awaitConverged(String name, int size) {
        return clusters.awaitConverged(name, size);
    }

    static Pod pod(String cluster, String name) {
        return pods(cluster).stream().filter(p -> p.getMetadata().getName().equals(name)).findFirst().orElse(null);
    }

    static List<Pod> pods(String name) {
        return clusters.pods(name);
    }

    static List<String> endpointList(String name) {
        return clusters.endpointList(name);
    }

    static String endpoints(String name) {
        return String.join(",", endpointList(name));
    }

    static List<String> memberNames(String name) {
        String list = new Etcdctl(endpoints(name)).run("member", "list").output();
        return Arrays.stream(list.split("\n")).filter(l -> l.contains(","))
                .map(l -> l.split(",")[2].trim()).toList();
    }

    static ContinuousWriter writer(String prefix) {
        return new ContinuousWriter(prefix, () -> endpointList(NAME));
    }

    static void assertAllWrittenKeysPresent() {
        Set<String> present = keys(NAME, "");
        assertThat(present).containsAll(written);
    }

    static List<Event> events(String name) {
        return clusters.events(name);
    }

    static long pid(Pod pod) {
        return SandboxClusters.pid(pod);
    }
}
