package dev.etcdoperator.sandbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import dev.etcdoperator.api.v1beta2.Condition;
import dev.etcdoperator.api.v1beta2.EtcdBackup;
import dev.etcdoperator.api.v1beta2.EtcdCluster;
import dev.etcdoperator.api.v1beta2.EtcdClusterStatus;
import dev.etcdoperator.api.v1beta2.EtcdRestore;
import dev.etcdoperator.api.v1beta2.MemberDetail;
import dev.etcdoperator.sandbox.support.ContinuousWriter;
import dev.etcdoperator.sandbox.support.Etcdctl;
import dev.etcdoperator.sandbox.support.Kubectl;
import dev.etcdoperator.sandbox.support.SandboxBackups;
import dev.etcdoperator.sandbox.support.SandboxClusters;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Quorum-loss recovery from the survivor on the sandbox with real etcd: a 3-member cluster without claims, under a
 * continuous writer, loses its leader and one follower for good (their pods deleted at once, and their emptyDir data
 * with them). After the grace period the operator restarts the survivor's data as a one-member cluster
 * and grows it back to 3; every write acknowledged up to the survivor's revision is there, and so is every write made
 * after the recovery. A cluster whose policy is FromBackup is restored, after the same loss, from its newest backup.
 */
class EtcdClusterQuorumRecoveryIT {
    static final String NS = "default";
    static final String NAME = "phoenix";
    static final Duration RECOVERY = Duration.ofSeconds(180);
    private static final Pattern REVISION = Pattern.compile("\"revision\":(\\d+)");
    static Sandbox sandbox;
    static SandboxClusters clusters;

    @BeforeAll
    static void start() {
        sandbox = Sandbox.start(Sandbox.options().stateDir(Path.of("target", "sandbox-quorum-it")).withS3()
                .operatorProperty("etcd-operator.cluster.reconcile-interval", "4s"));
        clusters = new SandboxClusters(sandbox.client(), NS);
    }

    @AfterAll
    static void stop() {
        if (sandbox != null) {
            sandbox.close();
        }
    }

    @Test
    void twoOfThreeMembersLostForGoodAreRecoveredFromTheSurvivorWithEveryWriteItHad() {
        createCluster(NAME, """
                size: 3
                version: 3.5.35
                quorumLossRecovery: {policy: FromSurvivor, gracePeriodSeconds: 20}
                """);
        EtcdClusterStatus converged = clusters.awaitConverged(NAME, 3);
        Set<String> original = converged.getMemberDetails().stream().map(MemberDetail::getName)
                .collect(Collectors.toSet());
        String leader = converged.getMemberDetails().stream().filter(m -> Boolean.TRUE.equals(m.getLeader()))
                .map(MemberDetail::getName).findFirst().orElseThrow();
        String follower = original.stream().filter(n -> !n.equals(leader)).sorted().findFirst().orElseThrow();
        String survivor = original.stream().filter(n -> !n.equals(leader) && !n.equals(follower)).findFirst()
                .orElseThrow();

        Map<String, Long> before;
        long survivorRevision;
        try (ContinuousWriter writer = new ContinuousWriter("q-", () -> clusters.endpointList(NAME))) {
            await().atMost(Duration.ofSeconds(30)).until(() -> writer.acknowledgedCount() > 30);
            // the leader and a follower are lost for good: their pods deleted at once, emptyDir goes with them
            for (String victim : List.of(leader, follower)) {
                clusters.loseForGood(pod(victim));
            }
            // the grace period runs from the loss first seen, which may be some reconciles before the loss is seen
            // to be for good (the lost pods still terminating): a grace well beyond that makes its wait certain to show
            await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
                EtcdClusterStatus s = clusters.status(NAME);
                assertThat(s.getReason()).isEqualTo("QuorumLost");
                assertThat(condition(s, "QuorumRecovery").getReason()).isEqualTo("GracePeriod");
            });
            // without a leader the survivor's revision no longer moves: every write up to it must survive
            survivorRevision = revisionOf(survivor);
            await().atMost(RECOVERY).pollInterval(Duration.ofMillis(500)).untilAsserted(() -> {
                EtcdClusterStatus s = clusters.status(NAME);
                assertThat(condition(s, "QuorumRecovery").getReason()).isEqualTo("QuorumRecovered");
            });
            clusters.awaitConverged(NAME, 3);
            int acked = writer.acknowledgedCount();
            await().atMost(Duration.ofSeconds(30)).until(() -> writer.acknowledgedCount() > acked + 20);
            writer.close();
            before = writer.acknowledgedRevisions();
        }

        EtcdClusterStatus after = clusters.awaitConverged(NAME, 3);
        assertThat(after.getMemberDetails()).extracting(MemberDetail::getName).doesNotContainAnyElementsOf(original);
        assertThat(clusters.pods(NAME)).extracting(p -> p.getMetadata().getName())
                .doesNotContainAnyElementsOf(original);
        assertThat(after.getQuorumRecovery()).isNull();
        assertThat(after.getQuorumLostSince()).isNull();
        assertThat(condition(after, "QuorumRecovery").getMessage()).contains("Recovered from survivor " + survivor,
                "revision " + survivorRevision);

        String keys = new Etcdctl(clusters.endpoints(NAME)).run("get", "q-", "--prefix", "--keys-only").output();
        Set<String> present = Arrays.stream(keys.split("\n")).map(String::strip).filter(k -> !k.isEmpty())
                .collect(Collectors.toSet());
        Set<String> kept = before.entrySet().stream().filter(e -> e.getValue() <= survivorRevision)
                .map(Map.Entry::getKey).collect(Collectors.toSet());
        assertThat(kept).as("writes acknowledged before the loss").isNotEmpty();
        assertThat(present).as("every write acknowledged up to the survivor's revision " + survivorRevision)
                .containsAll(kept);
        // what was acknowledged after the recovery is in the new cluster: the last writes of the writer
        List<String> last = before.keySet().stream().sorted().toList();
        assertThat(present).as("the writes after the recovery").containsAll(last.subList(last.size() - 20,
                last.size()));
        long lost = before.entrySet().stream().filter(e -> !present.contains(e.getKey())).count();
        System.out.printf("quorum recovery from the survivor: %d writes acknowledged, %d kept up to revision %d, %d"
                + " lost (only the lost members had them)%n", before.size(), kept.size(), survivorRevision, lost);

        List<String> reasons = clusters.events(NAME).stream().map(Event::getReason).toList();
        assertThat(reasons).contains("QuorumLost", "GracePeriod", "QuorumRecoveryStarted", "RecoveryMemberCreated",
                "SurvivorRetired", "QuorumRecovered", "MemberAdded", "MemberPromoted");
    }

    @Test
    void aClusterWhosePolicyIsFromBackupIsRestoredFromItsNewestBackup() {
        String name = "ember";
        createCluster(name, """
                size: 3
                version: 3.5.35
                quorumLossRecovery: {policy: FromBackup, gracePeriodSeconds: 10}
                """);
        clusters.awaitConverged(name, 3);
        Etcdctl etcdctl = new Etcdctl(clusters.endpoints(name));
        for (int i = 0; i < 10; i++) {
            etcdctl.put("kept-" + i, "v");
        }
        SandboxBackups backups = new SandboxBackups(sandbox.client(), NS, RECOVERY);
        // periodic, with an interval the test outlasts: one backup now; the next one after the recovery, below
        backups.apply("ember-backup", """
                etcdCluster: {name: %s}
                backupPolicy: {backupIntervalInSecond: 3600, maxBackups: 5}
                s3: {path: %s/ember/hourly, awsSecret: aws, endpoint: "%s", forcePathStyle: true}
                """.formatted(name, Sandbox.S3_BUCKET, sandbox.s3().endpoint()));
        String path = backups.awaitSucceeded("ember-backup").getBackupPath();
        for (int i = 0; i < 5; i++) {
            etcdctl.put("after-backup-" + i, "v");
        }
        List<Pod> pods = clusters.pods(name);
        for (Pod victim : pods.subList(0, 2)) {
            clusters.loseForGood(victim);
        }
        await().atMost(RECOVERY).untilAsserted(() -> assertThat(sandbox.client().resources(EtcdRestore.class)
                .inNamespace(NS).list().getItems()).filteredOn(r -> r.getSpec().getEtcdCluster().getName().equals(name))
                .singleElement().satisfies(r -> {
                    assertThat(r.getMetadata().getName()).startsWith(name + "-quorum-");
                    assertThat(r.getSpec().getEtcdCluster().getName()).isEqualTo(name);
                    assertThat(r.getSpec().getS3().getPath()).isEqualTo(path);
                }));
        // the Event follows the restore's creation
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(clusters.events(name))
                .extracting(Event::getReason).contains("GracePeriod", "QuorumRestoreCreated"));
        await().atMost(RECOVERY).pollInterval(Duration.ofSeconds(1)).untilAsserted(() -> assertThat(sandbox.client()
                .resources(EtcdRestore.class).inNamespace(NS).list().getItems())
                .filteredOn(r -> r.getSpec().getEtcdCluster().getName().equals(name)).singleElement()
                .satisfies(r -> assertThat(r.getStatus().getPhase()).isEqualTo("Done")));
        clusters.awaitConverged(name, 3);
        String keys = new Etcdctl(clusters.endpoints(name)).run("get", "", "--prefix", "--keys-only").output();
        Set<String> present = Arrays.stream(keys.split("\n")).map(String::strip).filter(k -> !k.isEmpty())
                .collect(Collectors.toSet());
        assertThat(present).as("the backup's data").containsAll(java.util.stream.IntStream.range(0, 10)
                .mapToObj(i -> "kept-" + i).toList());
        assertThat(present).as("writes after the backup are lost").noneMatch(k -> k.startsWith("after-backup-"));

        // the cluster's backups go on after the recovery made it a new cluster (a new uid and etcd cluster ID, the
        // restored backup's revision): the next one is due at once at a shorter interval
        String restoredUid = sandbox.client().resources(EtcdCluster.class).inNamespace(NS).withName(name).get()
                .getMetadata().getUid();
        sandbox.client().resources(EtcdBackup.class).inNamespace(NS).withName("ember-backup").edit(b -> {
            b.getSpec().getBackupPolicy().setBackupIntervalInSecond(5L);
            return b;
        });
        await().atMost(RECOVERY).untilAsserted(() -> assertThat(backups.status("ember-backup"))
                .satisfies(s -> assertThat(s.getClusterUID()).as("%s: %s", s.getReason(), s.getBackupPath())
                        .isEqualTo(restoredUid))
                .satisfies(s -> assertThat(s.getBackupPath()).isNotEqualTo(path)));
    }

    /**
     * Two of three members lost for good, and the survivor's etcd killed and started again in its pod: it serves
     * nothing without a majority, so no member answers. FromBackup restores the cluster all the same, from the voters
     * the status recorded while the loss was first seen.
     */
    @Test
    void aSurvivorThatAnswersNothingAfterItsEtcdStartedAgainIsRestoredFromTheNewestBackupUnderFromBackup() {
        String name = "ash";
        String path = backedUpFromBackupCluster(name, 3, "3.5.35", 40);
        List<Pod> pods = clusters.pods(name);
        for (Pod victim : pods.subList(0, 2)) {
            clusters.loseForGood(victim);
        }
        Pod survivor = pods.get(2);
        await().atMost(RECOVERY).until(() -> clusters.status(name).getQuorumLostVoters() != null);
        // the first victim may be removed from the members while the other two still make a majority
        assertThat(clusters.status(name).getQuorumLostVoters()).as("voters recorded at the loss")
                .contains(survivor.getMetadata().getName()).hasSizeBetween(2, 3)
                .isSubsetOf(pods.stream().map(p -> p.getMetadata().getName()).toList());
        ProcessHandle.of(SandboxClusters.pid(survivor)).ifPresent(ProcessHandle::destroyForcibly);
        await().atMost(RECOVERY).until(() -> clusters.pods(name).stream()
                .anyMatch(p -> p.getMetadata().getUid().equals(survivor.getMetadata().getUid())
                        && SandboxClusters.restarts(p) >= 1));
        // the loss is judged on the recorded voters, as no member answers
        await().atMost(RECOVERY).untilAsserted(() -> assertThat(condition(clusters.status(name), "QuorumRecovery")
                .getMessage()).contains("no member left answers"));

        awaitRestoredWithItsBackedUpKeys(name, 3, path);
        assertThat(clusters.status(name).getQuorumLostVoters()).as("cleared with the loss").isNull();
    }

    /**
     * On claims, two of three members lost with their claims, and the survivor's etcd killed and started again in its
     * pod: it serves nothing (etcd 3.6 here, 3.5 in the FromBackup case above). FromSurvivor deletes the survivor's pod, keeps its claim, and starts a new member from the
     * database on that claim; the cluster grows back with every key written before the loss.
     */
    @Test
    void onClaimsASurvivorThatAnswersNothingIsRecoveredFromItsClaimUnderFromSurvivor() {
        String name = "flint";
        createCluster(name, """
                size: 3
                version: 3.6.16
                quorumLossRecovery: {policy: FromSurvivor, gracePeriodSeconds: 20}
                pod:
                  persistentVolumeClaimSpec:
                    accessModes: [ReadWriteOnce]
                    resources: {requests: {storage: 1Gi}}
                """);
        clusters.awaitConverged(name, 3);
        Etcdctl etcdctl = new Etcdctl(clusters.endpoints(name));
        for (int i = 0; i < 20; i++) {
            etcdctl.put(name + "-" + i, "v");
        }
        List<Pod> pods = clusters.pods(name);
        for (Pod victim : pods.subList(0, 2)) {
            sandbox.client().persistentVolumeClaims().inNamespace(NS).withName(victim.getMetadata().getName()).delete();
            clusters.loseForGood(victim);
        }
        Pod survivor = pods.get(2);
        String survivorName = survivor.getMetadata().getName();
        await().atMost(RECOVERY).until(() -> clusters.status(name).getQuorumLostVoters() != null);
        ProcessHandle.of(SandboxClusters.pid(survivor)).ifPresent(ProcessHandle::destroyForcibly);

        await().atMost(RECOVERY).pollInterval(Duration.ofMillis(500)).untilAsserted(() -> assertThat(
                condition(clusters.status(name), "QuorumRecovery").getReason()).isEqualTo("QuorumRecovered"));
        assertThat(condition(clusters.status(name), "QuorumRecovery").getMessage())
                .contains("Recovered from the database on survivor " + survivorName + "'s claim");
        clusters.awaitConverged(name, 3);
        assertThat(clusters.pods(name)).extracting(p -> p.getMetadata().getName())
                .doesNotContainAnyElementsOf(pods.stream().map(p -> p.getMetadata().getName()).toList());
        // deleted once the member answered (gone when the claim protection lets it go)
        await().atMost(Duration.ofSeconds(60)).until(() -> sandbox.client().persistentVolumeClaims().inNamespace(NS)
                .withName(survivorName).get() == null);
        String keys = new Etcdctl(clusters.endpoints(name)).run("get", name + "-", "--prefix", "--keys-only")
                .output();
        assertThat(Arrays.stream(keys.split("\n")).map(String::strip).filter(k -> !k.isEmpty()))
                .containsExactlyInAnyOrderElementsOf(java.util.stream.IntStream.range(0, 20)
                        .mapToObj(i -> name + "-" + i).toList());
        assertThat(clusters.events(name)).extracting(Event::getReason).contains("QuorumRecoveryStarted",
                "SurvivorStopped", "RecoveryMemberCreated", "SurvivorRetired", "QuorumRecovered");
    }

    /** Every member lost with its data (the only member's pod deleted, no claim): FromBackup restores it too. */
    @Test
    void aClusterWhosePolicyIsFromBackupAndThatLostEveryMemberIsRestoredFromItsNewestBackup() {
        String name = "cinder";
        String path = backedUpFromBackupCluster(name, 1, "3.6.16", 10);
        clusters.loseForGood(clusters.pods(name).get(0));
        awaitRestoredWithItsBackedUpKeys(name, 1, path);
    }

    /** A converged cluster of policy FromBackup with keys {@code <name>-0..4}, and the path of a one-shot backup. */
    private static String backedUpFromBackupCluster(String name, int size, String version, int graceSeconds) {
        createCluster(name, """
                size: %d
                version: %s
                quorumLossRecovery: {policy: FromBackup, gracePeriodSeconds: %d}
                """.formatted(size, version, graceSeconds));
        clusters.awaitConverged(name, size);
        Etcdctl etcdctl = new Etcdctl(clusters.endpoints(name));
        for (int i = 0; i < 5; i++) {
            etcdctl.put(name + "-" + i, "v");
        }
        SandboxBackups backups = new SandboxBackups(sandbox.client(), NS, RECOVERY);
        backups.apply(name + "-backup", """
                etcdCluster: {name: %s}
                s3: {path: %s/%s/once.db, awsSecret: aws, endpoint: "%s", forcePathStyle: true}
                """.formatted(name, Sandbox.S3_BUCKET, name, sandbox.s3().endpoint()));
        return backups.awaitSucceeded(name + "-backup").getBackupPath();
    }

    /** The operator's EtcdRestore of the cluster from {@code path} is done, and the cluster has the backed-up keys. */
    private static void awaitRestoredWithItsBackedUpKeys(String name, int size, String path) {
        await().atMost(RECOVERY).untilAsserted(() -> assertThat(sandbox.client().resources(EtcdRestore.class)
                .inNamespace(NS).list().getItems()).filteredOn(r -> r.getSpec().getEtcdCluster().getName().equals(name))
                .singleElement().satisfies(r -> assertThat(r.getSpec().getS3().getPath()).isEqualTo(path)));
        await().atMost(RECOVERY).pollInterval(Duration.ofSeconds(1)).untilAsserted(() -> assertThat(sandbox.client()
                .resources(EtcdRestore.class).inNamespace(NS).list().getItems())
                .filteredOn(r -> r.getSpec().getEtcdCluster().getName().equals(name)).singleElement()
                .satisfies(r -> assertThat(r.getStatus().getPhase()).isEqualTo("Done")));
        clusters.awaitConverged(name, size);
        String keys = new Etcdctl(clusters.endpoints(name)).run("get", name + "-", "--prefix", "--keys-only")
                .output();
        assertThat(Arrays.stream(keys.split("\n")).map(String::strip).filter(k -> !k.isEmpty()))
                .containsExactlyInAnyOrderElementsOf(java.util.stream.IntStream.range(0, 5).mapToObj(i -> name + "-" + i)
                        .toList());
    }

    /** Creates EtcdCluster {@code name} in {@link #NS} with {@code spec} (YAML, not indented). */
    private static void createCluster(String name, String spec) {
        sandbox.client().resource(Serialization.unmarshal("""
                apiVersion: etcd.database.coreos.com/v1beta2
                kind: EtcdCluster
                metadata: {name: %s, namespace: %s}
                spec:
                """.formatted(name, NS) + spec.indent(2), EtcdCluster.class)).create();
    }

    private static long revisionOf(String member) {
        Pod pod = pod(member);
        Kubectl.Result status = new Etcdctl("http://" + pod.getStatus().getPodIP() + ":2379")
                .run("endpoint", "status", "-w", "json");
        Matcher m = REVISION.matcher(status.output());
        assertThat(m.find()).as(status.output()).isTrue();
        return Long.parseLong(m.group(1));
    }

    private static Pod pod(String name) {
        return clusters.pods(NAME).stream().filter(p -> p.getMetadata().getName().equals(name)).findFirst()
                .orElseThrow();
    }

    private static Condition condition(EtcdClusterStatus status, String type) {
        return status.getConditions().stream().filter(c -> c.getType().equals(type)).findFirst()
                .orElseThrow(() -> new AssertionError("no condition " + type + " in " + status.getConditions()));
    }
}
