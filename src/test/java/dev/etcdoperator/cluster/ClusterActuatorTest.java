package dev.etcdoperator.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import dev.etcdoperator.api.v1beta2.EtcdCluster;
import dev.etcdoperator.core.cluster.ClusterObservation;
import dev.etcdoperator.core.cluster.Step;
import dev.etcdoperator.support.EventRecorder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.Test;

/** What a step that creates member pods reports it brought in, against a mock API server. */
@EnableKubernetesMockClient(crud = true)
class ClusterActuatorTest {
    KubernetesClient client;

    private static final EtcdCluster CLUSTER = Serialization.unmarshal("""
            apiVersion: etcd.database.coreos.com/v1beta2
            kind: EtcdCluster
            metadata: {name: alpha, namespace: prod, uid: uid-alpha}
            spec: {size: 3, version: 3.5.17}
            """, EtcdCluster.class);

    private static ClusterObservation notStarted(List<String> initialMembers, String seed) {
        return new ClusterObservation("alpha", "prod", 3, "3.5.17", false, false, List.of(), Optional.empty(),
                Map.of(), "", "", false, Set.of(), seed, false, Instant.EPOCH, null, null, false, initialMembers,
                false);
    }

    private int act(ClusterObservation o, Step step) {
        return new ClusterActuator(client, new EventRecorder(client, Clock.systemUTC())).act(CLUSTER, o,
                Optional.empty(), Map.of(), step, Optional.empty(), MemberTlsKeys.COREOS);
    }

    private List<String> podNames() {
        return client.pods().inNamespace("prod").list().getItems().stream().map(p -> p.getMetadata().getName())
                .sorted().toList();
    }

    /**
     * A person's request (an approval to recover from a survivor, a reseed) is removed only once the status shows it
     * was acted on: removed while acting, a status write that fails afterwards would lose it.
     */
    @Test
    void aPersonsRequestIsRemovedOnlyOnceTheStatusShowsItWasActedOn() {
        EtcdCluster cluster = Serialization.clone(CLUSTER);
        cluster.getMetadata().setAnnotations(new java.util.HashMap<>(Map.of(
                dev.etcdoperator.api.v1beta2.ClusterAnnotations.RECOVER_QUORUM, "uid-alpha",
                dev.etcdoperator.api.v1beta2.ClusterAnnotations.RESEED, "uid-alpha")));
        cluster.setStatus(new dev.etcdoperator.api.v1beta2.EtcdClusterStatus());
        cluster.getStatus().setPhase(dev.etcdoperator.core.cluster.ClusterStatusBuilder.PHASE_FAILED);
        cluster.getStatus().setReason(dev.etcdoperator.core.cluster.ClusterStatusBuilder.REASON_ALL_MEMBERS_LOST);
        var waiting = new dev.etcdoperator.api.v1beta2.Condition();
        waiting.setType(dev.etcdoperator.core.cluster.ClusterStatusBuilder.QUORUM_RECOVERY);
        waiting.setStatus("False");
        waiting.setReason(dev.etcdoperator.core.cluster.QuorumRecoveryPlanner.WAITING_FOR_PERSON);
        cluster.getStatus().setConditions(new java.util.ArrayList<>(List.of(waiting)));
        cluster.getStatus().setQuorumLostSince("2026-11-30T10:00:00Z");
        client.resource(cluster).create();
        ClusterActuator actuator = new ClusterActuator(client, new EventRecorder(client, Clock.systemUTC()));

        actuator.act(cluster, notStarted(List.of(), null), Optional.empty(), Map.of(),
                new Step.RecordQuorumRecovery("alpha-a", "alpha-x", 7, 9, true, "approved"), Optional.empty(),
                MemberTlsKeys.COREOS);
        actuator.act(cluster, notStarted(List.of(), null), Optional.empty(), Map.of(),
                new Step.RecordSeed("alpha-y", true), Optional.empty(), MemberTlsKeys.COREOS);
        actuator.consumeAnsweredRequests(cluster);
        assertThat(annotations()).as("nothing recorded yet").containsKeys(
                dev.etcdoperator.api.v1beta2.ClusterAnnotations.RECOVER_QUORUM,
                dev.etcdoperator.api.v1beta2.ClusterAnnotations.RESEED);

        var recovery = new dev.etcdoperator.api.v1beta2.QuorumRecoveryStatus();
        recovery.setSurvivor("alpha-a");
        recovery.setMember("alpha-x");
        cluster.getStatus().setQuorumRecovery(recovery);
        cluster.getStatus().setPhase("Creating");
        cluster.getStatus().setReason(null);
        actuator.consumeAnsweredRequests(cluster);
        assertThat(annotations()).doesNotContainKeys(dev.etcdoperator.api.v1beta2.ClusterAnnotations.RECOVER_QUORUM,
                dev.etcdoperator.api.v1beta2.ClusterAnnotations.RESEED);

        // made while no loss of quorum is recorded: no standing order for a later loss
        EtcdCluster early = client.resources(EtcdCluster.class).inNamespace("prod").withName("alpha").get();
        early.getMetadata().getAnnotations().put(dev.etcdoperator.api.v1beta2.ClusterAnnotations.RECOVER_QUORUM,
                early.getMetadata().getUid());
        early = client.resource(early).update();
        early.setStatus(new dev.etcdoperator.api.v1beta2.EtcdClusterStatus());
        actuator.consumeAnsweredRequests(early);
        assertThat(annotations()).doesNotContainKey(dev.etcdoperator.api.v1beta2.ClusterAnnotations.RECOVER_QUORUM);
    }

    private Map<String, String> annotations() {
        Map<String, String> a = client.resources(EtcdCluster.class).inNamespace("prod").withName("alpha").get()
                .getMetadata().getAnnotations();
        return a == null ? Map.of() : a;
    }

    @Test
    void firstMembersWhosePodsExistAlreadyAreNotBroughtInAgain() {
        List<String> names = List.of("alpha-a", "alpha-b", "alpha-c");
        ClusterObservation o = notStarted(names, "alpha-a");
        String initialCluster = "alpha-a=http://alpha-a.alpha.prod.svc:2380,alpha-b=http://alpha-b.alpha.prod.svc:2380,"
                + "alpha-c=http://alpha-c.alpha.prod.svc:2380";
        assertThat(act(o, new Step.CreateInitialMembers(List.of("alpha-a"), initialCluster, "3.5.17"))).isEqualTo(1);
        Pod first = client.pods().inNamespace("prod").withName("alpha-a").get();

        // a view of the pods that has not seen alpha-a yet plans all three
        assertThat(act(o, new Step.CreateInitialMembers(names, initialCluster, "3.5.17"))).isEqualTo(2);
        assertThat(podNames()).containsExactlyElementsOf(names);
        assertThat(client.pods().inNamespace("prod").withName("alpha-a").get().getMetadata().getUid())
                .isEqualTo(first.getMetadata().getUid());
        assertThat(act(o, new Step.CreateInitialMembers(names, initialCluster, "3.5.17"))).isZero();
    }

    @Test
    void aSeedIsBroughtInOnce() {
        ClusterObservation o = notStarted(List.of(), "alpha-s");
        Step seed = new Step.CreateSeed("alpha-s", "http://alpha-s.alpha.prod.svc:2380", "3.5.17");
        assertThat(act(o, seed)).isEqualTo(1);
        assertThat(act(o, seed)).isZero();
        assertThat(podNames()).containsExactly("alpha-s");
    }

    private static final EtcdCluster PERSISTENT = Serialization.unmarshal("""
            apiVersion: etcd.database.coreos.com/v1beta2
            kind: EtcdCluster
            metadata: {name: alpha, namespace: prod, uid: uid-alpha}
            spec:
              size: 3
              version: 3.5.17
              pod:
                persistentVolumeClaimSpec:
                  accessModes: [ReadWriteOnce]
                  resources: {requests: {storage: 1Gi}}
            """, EtcdCluster.class);

    @Test
    void aMemberIsMadeAgainInPlaceOnlyOnItsOwnClaimNeverOnANewEmptyOne() {
        ClusterObservation o = notStarted(List.of(), "alpha-a");
        ClusterActuator actuator = new ClusterActuator(client, new EventRecorder(client, Clock.systemUTC()));
        Step inPlace = new Step.CreateMemberPod("alpha-a", "http://alpha-a.alpha.prod.svc:2380", Step.STATE_EXISTING,
                "3.5.17", Step.CreateMemberPod.RECREATING_IN_PLACE);
        // the claim was deleted after the observation saw it
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> actuator.act(PERSISTENT, o, Optional.empty(),
                Map.of(), inPlace, Optional.empty(), MemberTlsKeys.COREOS)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("data claim of member alpha-a is gone");
        assertThat(podNames()).isEmpty();
        assertThat(client.persistentVolumeClaims().inNamespace("prod").list().getItems()).isEmpty();

        client.persistentVolumeClaims().inNamespace("prod").resource(ClusterResources.memberClaim(PERSISTENT,
                "alpha-a")).create();
        actuator.act(PERSISTENT, o, Optional.empty(), Map.of(), inPlace, Optional.empty(), MemberTlsKeys.COREOS);
        assertThat(podNames()).containsExactly("alpha-a");
        // made again on its data, the pod first checks that the data is there (a wiped claim: the member is lost)
        var made = client.pods().inNamespace("prod").withName("alpha-a").get();
        assertThat(made.getSpec().getInitContainers()).first().satisfies(c -> {
            assertThat(c.getName()).isEqualTo(ClusterResources.CHECK_DATA);
            assertThat(c.getCommand()).last().asString().contains("[ -d /var/etcd/data/member ]",
                    "exit " + ClusterResources.CHECK_DATA_MISSING);
            assertThat(c.getSecurityContext().getAllowPrivilegeEscalation()).isFalse();
        });
        // a member added as a learner starts on an empty claim: no such check
        client.pods().inNamespace("prod").withName("alpha-a").delete();
        await().until(() -> podNames().isEmpty());
        Step added = new Step.CreateMemberPod("alpha-a", "http://alpha-a.alpha.prod.svc:2380", Step.STATE_EXISTING,
                "3.5.17", Step.CreateMemberPod.STARTING_ADDED_MEMBER);
        actuator.act(PERSISTENT, o, Optional.empty(), Map.of(), added, Optional.empty(), MemberTlsKeys.COREOS);
        assertThat(client.pods().inNamespace("prod").withName("alpha-a").get().getSpec().getInitContainers())
                .extracting(io.fabric8.kubernetes.api.model.Container::getName)
                .doesNotContain(ClusterResources.CHECK_DATA);
    }

    /** A removed member's claim goes with it, whether its pod still runs, is terminating or is gone already. */
    @Test
    void aRemovedMembersClaimIsDeletedEvenWhenItsPodIsGoneAlready() {
        for (String name : List.of("alpha-a", "alpha-b", "alpha-c")) {
            client.persistentVolumeClaims().inNamespace("prod").resource(ClusterResources.memberClaim(PERSISTENT,
                    name)).create();
        }
        List<Long> removed = new java.util.ArrayList<>();
        dev.etcdoperator.etcd.EtcdAdmin etcd = (dev.etcdoperator.etcd.EtcdAdmin) java.lang.reflect.Proxy.newProxyInstance(
                getClass().getClassLoader(), new Class<?>[] {dev.etcdoperator.etcd.EtcdAdmin.class},
                (proxy, method, args) -> switch (method.getName()) {
                    case "removeMember" -> {
                        removed.add((Long) args[0]);
                        yield null;
                    }
                    case "members" -> List.of();
                    default -> throw new UnsupportedOperationException(method.getName());
                });
        ClusterObservation o = new ClusterObservation("alpha", "prod", 2, "3.5.17", false, true, List.of(),
                Optional.empty(), Map.of(), "", "", false, Set.of("alpha-a", "alpha-b", "alpha-c"), null, false,
                Instant.EPOCH, null, null, false, List.of(), false);
        new ClusterActuator(client, new EventRecorder(client, Clock.systemUTC())).act(PERSISTENT, o, Optional.of(etcd),
                Map.of(), new Step.RemoveMember(7L, "alpha-c", Step.RemoveMember.SCALE_DOWN, false), Optional.empty(),
                MemberTlsKeys.COREOS);
        assertThat(removed).containsExactly(7L);
        assertThat(client.persistentVolumeClaims().inNamespace("prod").list().getItems())
                .extracting(c -> c.getMetadata().getName()).containsExactlyInAnyOrder("alpha-a", "alpha-b");
    }

    /**
     * A recovery member's pod that ended before its etcd started is made again on the same claim: an earlier pod of
     * that member may have run etcd on it and taken writes. A pod of no member goes with its claim.
     */
    @Test
    void aFailedRecoveryMembersPodGoesAndItsClaimStays() {
        for (String name : List.of("alpha-r", "alpha-x")) {
            client.persistentVolumeClaims().inNamespace("prod").resource(ClusterResources.memberClaim(PERSISTENT,
                    name)).create();
            client.pods().inNamespace("prod").resource(new io.fabric8.kubernetes.api.model.PodBuilder()
                    .withNewMetadata().withName(name).withNamespace("prod").endMetadata().build()).create();
        }
        ClusterObservation o = new ClusterObservation("alpha", "prod", 3, "3.5.17", false, true, List.of(),
                Optional.empty(), Map.of(), "", "", false, Set.of("alpha-r", "alpha-x"), null, false,
                Instant.EPOCH, null, null, false, List.of(), false);
        ClusterActuator actuator = new ClusterActuator(client, new EventRecorder(client, Clock.systemUTC()));

        actuator.act(PERSISTENT, o, Optional.empty(), Map.of(),
                new Step.DeletePod("alpha-r", Step.DeletePod.RECOVERY_MEMBER_FAILED), Optional.empty(),
                MemberTlsKeys.COREOS);
        actuator.act(PERSISTENT, o, Optional.empty(), Map.of(),
                new Step.DeletePod("alpha-x", Step.DeletePod.NOT_A_MEMBER), Optional.empty(), MemberTlsKeys.COREOS);

        assertThat(podNames()).isEmpty();
        assertThat(client.persistentVolumeClaims().inNamespace("prod").list().getItems())
                .extracting(c -> c.getMetadata().getName()).containsExactly("alpha-r");
    }

    @Test
    void aStrayPodGoesButAClaimOfItsNameThatIsNotTheClustersStays() {
        // a pod that declares itself the cluster's (labels, owner) under the name of another application's claim
        client.persistentVolumeClaims().inNamespace("prod").resource(new io.fabric8.kubernetes.api.model
                .PersistentVolumeClaimBuilder().withNewMetadata().withName("postgres-data").withNamespace("prod")
                .endMetadata().build()).create();
        client.pods().inNamespace("prod").resource(new io.fabric8.kubernetes.api.model.PodBuilder()
                .withNewMetadata().withName("postgres-data").withNamespace("prod").endMetadata().build()).create();
        for (ClusterObservation o : List.of(
                new ClusterObservation("alpha", "prod", 3, "3.5.17", false, true, List.of(), Optional.empty(),
                        Map.of(), "", "", false, Set.of(), null, false, Instant.EPOCH, null, null, false, List.of(),
                        false),
                new ClusterObservation("alpha", "prod", 3, "3.5.17", false, false, List.of(), Optional.empty(),
                        Map.of(), "", "", false, Set.of(), null, false, Instant.EPOCH, null, null, false, List.of(),
                        false))) {
            ClusterActuator actuator = new ClusterActuator(client, new EventRecorder(client, Clock.systemUTC()));
            actuator.act(PERSISTENT, o, Optional.empty(), Map.of(),
                    new Step.DeletePod("postgres-data", Step.DeletePod.NOT_A_MEMBER), Optional.empty(),
                    MemberTlsKeys.COREOS);
            actuator.act(PERSISTENT, o, Optional.empty(), Map.of(),
                    new Step.DeletePod("postgres-data", Step.DeletePod.SPLIT_OFF), Optional.empty(),
                    MemberTlsKeys.COREOS);
        }

        assertThat(podNames()).isEmpty();
        assertThat(client.persistentVolumeClaims().inNamespace("prod").list().getItems())
                .extracting(c -> c.getMetadata().getName()).containsExactly("postgres-data");
    }

    @Test
    void stepsThatBringInNoMemberReportNone() {
        ClusterObservation o = notStarted(List.of(), "alpha-s");
        act(o, new Step.CreateSeed("alpha-s", "http://alpha-s.alpha.prod.svc:2380", "3.5.17"));
        assertThat(act(o, new Step.DeletePod("alpha-s", Step.DeletePod.FIRST_MEMBER_FAILED))).isZero();
        assertThat(act(o, new Step.Wait(Step.Wait.MEMBERS_STARTING, "waiting"))).isZero();
    }
}
