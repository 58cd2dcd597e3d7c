package dev.etcdoperator.cluster;

import java.net.HttpURLConnection;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import dev.etcdoperator.support.ApiRefusal;
import dev.etcdoperator.api.v1beta2.ClusterAnnotations;
import dev.etcdoperator.api.v1beta2.EtcdCluster;
import dev.etcdoperator.core.cluster.ClusterObservation;
import dev.etcdoperator.core.cluster.MemberAlarm;
import dev.etcdoperator.core.cluster.MemberNaming;
import dev.etcdoperator.core.cluster.Step;
import dev.etcdoperator.etcd.Alarm;
import dev.etcdoperator.etcd.EtcdAdmin;
import dev.etcdoperator.etcd.EtcdAdminException;
import dev.etcdoperator.etcd.Member;
import dev.etcdoperator.support.EventRecorder;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import org.jboss.logging.Logger;

/** Carries out the one step the planner chose, and records an Event for every change it makes. */
final class ClusterActuator {
    private static final Logger LOG = Logger.getLogger(ClusterActuator.class);
    private final KubernetesClient client;
    private final EventRecorder events;

    ClusterActuator(KubernetesClient client, EventRecorder events) {
        this.client = client;
        this.events = events;
    }

    /**
     * @param seedSnapshot for a {@link Step.CreateSeed} of a restored cluster, the snapshot Secret the caller
     *                     confirmed the operator made for this very cluster; empty otherwise
     * @param tlsKeys      the layout of the cluster's TLS secrets, for the pods this step creates
     * @param clientUrlByPod how the observation reached each member, by pod name
     * @return how many members the step brought in: first members and seeds whose pods it created (not those whose
     *         pods existed already, as when a lagging view of the pods plans their creation again), a member it added
     */
    int act(EtcdCluster cluster, ClusterObservation o, Optional<EtcdAdmin> admin, Map<String, String> clientUrlByPod,
            Step step, Optional<String> seedSnapshot, MemberTlsKeys tlsKeys) {
        MemberNaming naming = o.naming();
        int added = 0;
        PodMaker pods = new PodMaker(cluster, naming, tlsKeys);
        if (step instanceof Step.RecordSeed record) {
            // the status builder records the seed; the reseed request is removed once the status no longer reports
            // the loss (see consumeAnsweredRequests): removed first, a failed status write would lose it
            if (record.reseed()) {
                events.warning(cluster, "ClusterReseeded", record.describe());
            }
        } else if (step instanceof Step.CreateSeed seed) {
            // the seed recorded in the status: a pod of that name that exists already (a view that lags behind)
            // is that seed, not a reason for another
            if (pods.create(seed.name(), seed.version(), Step.STATE_NEW, seed.name() + "=" + seed.peerUrl(),
                    seedSnapshot)) {
                added = 1;
                events.normal(cluster, "SeedMemberCreated", "Created the first member " + seed.name() + ".");
            }
        } else if (step instanceof Step.CreateInitialMembers initial) {
            // the members the status records; a pod of that name that exists already is that member
            List<String> created = new ArrayList<>();
            for (String member : initial.names()) {
                if (pods.create(member, initial.version(), Step.STATE_NEW, initial.initialCluster(), Optional.empty())) {
                    created.add(member);
                }
            }
            added = created.size();
            if (!created.isEmpty()) {
                events.normal(cluster, "InitialMembersCreated", "Created the first members " + String.join(", ",
                        created) + "; they start etcd together once a majority of them has a DNS name.");
            }
        } else if (step instanceof Step.AddMember add) {
            EtcdAdmin etcd = admin.orElseThrow(() -> new IllegalStateException("no member to add through"));
            Member member = etcd.addMember(add.peerUrl(), true);
            pods.create(add.name(), add.version(), Step.STATE_EXISTING,
                    initialCluster(naming, withMember(etcd.members(), member)), Optional.empty());
            added = 1;
            events.normal(cluster, "MemberAdded", "Added member " + add.name() + " as a learner"
                    + (add.replaces() == null ? "." : ", to replace member " + add.replaces()
                            + ", whose pod does not start etcd again when it ends."));
        } else if (step instanceof Step.CreateMemberPod pod) {
            if (Step.CreateMemberPod.RECREATING_IN_PLACE.equals(pod.reason())) {
                // made again on its data: a claim gone since it was seen is not made again, empty, under a voter
                pods.requireClaim(pod.name());
            }
            // the member list read in this reconcile, or, when no member answered (every pod of a cluster on
            // claims gone), the members the claims name: a member restarting on its data needs no answer
            if (pods.create(pod.name(), pod.version(), pod.state(), o.initialCluster(), Optional.empty(),
                    Step.CreateMemberPod.RECREATING_IN_PLACE.equals(pod.reason()))) {
                events.normal(cluster, pod.reason(), pod.describe());
            }
        } else if (step instanceof Step.MoveLeader move) {
            EtcdAdmin etcd = admin.orElseThrow(() -> new IllegalStateException("no member to move the leadership"));
            String url = clientUrlByPod.get(move.from());
            if (url == null) {
                throw new IllegalStateException("member " + move.from() + " has no address");
            }
            boolean moved = true;
            try {
                etcd.moveLeader(url, move.toId());
            } catch (EtcdAdminException e) {
                if (e.getMessage() == null || !e.getMessage().contains("not leader")) {
                    throw e;
                }
                // the leadership moved meanwhile: the next look plans from who leads now
                LOG.debugf("%s/%s: %s no longer leads: %s", o.namespace(), o.cluster(), move.from(), e.getMessage());
                moved = false;
            }
            if (moved) {
                events.normal(cluster, "LeaderMoved", "Moved the leadership from member " + move.from()
                        + " to member " + move.to() + ", before " + move.from() + " is removed.");
            }
        } else if (step instanceof Step.PromoteLearner promote) {
            admin.orElseThrow().promote(promote.id());
            events.normal(cluster, "MemberPromoted", "Promoted " + promote.name() + " to a voting member.");
        } else if (step instanceof Step.RemoveMember remove) {
            EtcdAdmin etcd = admin.orElseThrow();
            try {
                etcd.removeMember(remove.id());
            } catch (EtcdAdminException e) {
                // the member that served the call may be the one removed, and stop before it answers
                if (etcd.members().stream().anyMatch(m -> m.id() == remove.id())) {
                    throw e;
                }
            }
            events.normal(cluster, remove.replacement() ? "MemberReplaced"
                    : "MemberRemoved", remove.describe());
            if (o.claims().contains(remove.name())) {
                // the removed member's data is of no member now; deleted here, not with its pod, which may be
                // terminating or gone already (then nothing would ever delete the claim), and before its pod, so
                // that an operator stopped in between leaves a pod that is no member (deleted by a later step) rather
                // than a claim nothing deletes. Kubernetes keeps a claim until no pod uses it.
                try {
                    client.persistentVolumeClaims().inNamespace(o.namespace()).withName(remove.name()).delete();
                } catch (KubernetesClientException e) {
                    LOG.warnf("%s/%s: deleting the claim of removed member %s failed: %s", o.namespace(),
                            o.cluster(), remove.name(), e.getMessage());
                }
            }
            if (remove.deleteFailedPod()) {
                try {
                    client.pods().inNamespace(o.namespace()).withName(remove.name()).delete();
                } catch (KubernetesClientException e) {
                    // the member is removed: its pod is no member now, and a later step deletes it (DeletePod)
                    LOG.debugf("%s/%s: deleting the failed pod %s failed, left to a later step: %s", o.namespace(),
                            o.cluster(), remove.name(), e.getMessage());
                }
            }
        } else if (step instanceof Step.RecordQuorumRecovery record) {
            // the status builder records the recovery; the approval is removed once the status records it (see
            // consumeAnsweredRequests): removed first, a failed status write would lose it
            events.warning(cluster, "QuorumRecoveryStarted", record.describe());
        } else if (step instanceof Step.CreateRecoveryMember recovery) {
            if (pods.createRecoveryMember(recovery)) {
                events.normal(cluster, "RecoveryMemberCreated", recovery.describe());
            }
        } else if (step instanceof Step.RetireSurvivor retire) {
            for (String pod : retire.pods()) {
                if (o.persistent()) {
                    // back on its claim it would be a member of the old cluster again; deleted before the pod, which
                    // keeps it until it is gone, so that an operator stopped in between leaves no claim behind
                    client.persistentVolumeClaims().inNamespace(o.namespace()).withName(pod).delete();
                }
                client.pods().inNamespace(o.namespace()).withName(pod).delete();
            }
            events.normal(cluster, "SurvivorRetired", retire.describe());
        } else if (step instanceof Step.StopSurvivor stop) {
            for (String pod : stop.pods()) {
                client.pods().inNamespace(o.namespace()).withName(pod).delete();
            }
            events.normal(cluster, "SurvivorStopped", stop.describe());
        } else if (step instanceof Step.CreateRestore restore) {
            if (new QuorumRestores(client).create(cluster, restore)) {
                events.warning(cluster, "QuorumRestoreCreated", restore.describe());
            }
        } else if (step instanceof Step.DeletePod delete) {
            if ((Step.DeletePod.NOT_A_MEMBER.equals(delete.reason()) || Step.DeletePod.SPLIT_OFF.equals(delete.reason()))
                    && o.claims().contains(delete.name())) {
                // before the pod (which keeps it until it is gone): stopped in between, no claim is left behind (a
                // split-off member's claim holds its own new cluster, on which a pod made again would lead it again).
                // A failed recovery member keeps its claim: an earlier pod of it may have run etcd there and taken
                // writes, and its next pod keeps a data directory it finds (and clears a partial copy). Only a claim
                // of the cluster's goes: a pod that is no member may bear the name of another application's claim
                client.persistentVolumeClaims().inNamespace(o.namespace()).withName(delete.name()).delete();
            }
            client.pods().inNamespace(o.namespace()).withName(delete.name()).delete();
            events.normal(cluster, "PodDeleted", delete.describe());
        } else if (step instanceof Step.CompactKeyspace compact) {
            admin.orElseThrow(() -> new IllegalStateException("no member to compact through")).compact(compact.revision());
            events.normal(cluster, "KeyspaceCompacted", "Compacted the keyspace to revision " + compact.revision()
                    + " to free space under the NOSPACE alarm; the members are defragmented next, one at a time.");
        } else if (step instanceof Step.DefragmentMember defragment) {
            EtcdAdmin etcd = admin.orElseThrow(() -> new IllegalStateException("no member to defragment"));
            String url = clientUrlByPod.get(defragment.name());
            if (url == null) {
                throw new IllegalStateException("member " + defragment.name() + " has no address");
            }
            long before = o.healthOf(defragment.id()).map(h -> h.dbSize()).orElse(0L);
            etcd.defragment(url);
            String after;
            try {
                after = "went from " + before + " to " + etcd.status(url).dbSize() + " bytes";
            } catch (EtcdAdminException e) {
                after = "was " + before + " bytes before";
            }
            events.normal(cluster, "MemberDefragmented", "Defragmented " + (defragment.leader() ? "the leader " : "member ")
                    + defragment.name() + ": its database " + after + " (quota " + o.space().quotaBytes() + ")"
                    + why(defragment));
        } else if (step instanceof Step.DisarmNoSpace disarm) {
            EtcdAdmin etcd = admin.orElseThrow(() -> new IllegalStateException("no member to disarm through"));
            for (MemberAlarm alarm : disarm.alarms()) {
                etcd.disarm(new Alarm(alarm.memberId(), alarm.type()));
            }
            events.normal(cluster, "NoSpaceAlarmDisarmed", disarm.message());
        } else if (step instanceof Step.ResetMemberImage reset) {
            runSpecImage(cluster, o, reset.name());
            events.warning(cluster, "MemberImageReset", reset.describe());
        } else if (step instanceof Step.UpgradeMember upgrade) {
            runSpecImage(cluster, o, upgrade.name());
            events.normal(cluster, "MemberUpgraded", "Upgrading member " + upgrade.name() + " from "
                    + upgrade.fromVersion() + " to " + upgrade.toVersion() + ".");
        } else if (step instanceof Step.RestartMember restart) {
            pods.requireAccepted(restart.name(), o.desiredVersion());
            if (restart.inPlace()) {
                // created again on its claim by the next reconcile, on the Secrets as they are now
                client.pods().inNamespace(o.namespace()).withName(restart.name()).delete();
            } else {
                EtcdAdmin etcd = admin.orElseThrow(() -> new IllegalStateException("no member to remove through"));
                try {
                    etcd.removeMember(restart.id());
                } catch (EtcdAdminException e) {
                    // the member that served the call may be the one removed, and stop before it answers
                    if (etcd.members().stream().anyMatch(m -> m.id() == restart.id())) {
                        throw e;
                    }
                }
            }
            events.normal(cluster, "MemberRestarted", restart.describe());
        } else if (step instanceof Step.EnableDowngrade downgrade) {
            String clusterVersion = admin.orElseThrow(() -> new IllegalStateException("no member to downgrade through"))
                    .enableDowngrade(downgrade.targetVersion());
            events.normal(cluster, "DowngradeEnabled", downgrade.describe() + " etcd reports cluster version "
                    + clusterVersion + ".");
        } else if (step instanceof Step.DowngradeMember downgrade) {
            runSpecImage(cluster, o, downgrade.name());
            events.normal(cluster, "MemberDowngraded", downgrade.describe());
        }
        return added;
    }

    /** Gives a member's etcd container the image of {@code spec.version}: the kubelet restarts it on the same data. */
    private void runSpecImage(EtcdCluster cluster, ClusterObservation o, String member) {
        String image = ClusterResources.image(cluster.getSpec());
        client.pods().inNamespace(o.namespace()).withName(member).edit(p -> new PodBuilder(p)
                .editSpec().editMatchingContainer(c -> ClusterResources.ETCD_CONTAINER.equals(c.getName()))
                .withImage(image).endContainer().endSpec().build());
    }

    /**
     * Removes the reseed annotation, on the condition that it still names this cluster's uid (a JSON patch test):
     * the request is acted on once.
     */
    /**
     * Removes a person's request annotations once the status shows they were acted on, so that none stands as an
     * order for a later loss: an approval to recover from a survivor once the status records a recovery (at once,
     * for one made while no loss of quorum is recorded), a reseed request once the status no longer reports every
     * member lost (at once, for one made before any such loss).
     */
    void consumeAnsweredRequests(EtcdCluster cluster) {
        Map<String, String> annotations = cluster.getMetadata().getAnnotations();
        String uid = cluster.getMetadata().getUid();
        if (annotations == null || uid == null) {
            return;
        }
        dev.etcdoperator.api.v1beta2.EtcdClusterStatus status = cluster.getStatus();
        try {
            if (uid.equals(annotations.get(ClusterAnnotations.RECOVER_QUORUM)) && (status == null
                    || status.getQuorumRecovery() != null || status.getQuorumLostSince() == null)) {
                consumeAnnotation(cluster, ClusterAnnotations.RECOVER_QUORUM);
            }
            if (uid.equals(annotations.get(ClusterAnnotations.RESEED)) && !ClusterObserver.reseedRequested(cluster)) {
                consumeAnnotation(cluster, ClusterAnnotations.RESEED);
            }
        } catch (KubernetesClientException e) {
            LOG.debugf("%s/%s: a request annotation was not removed (%s); tried again later",
                    cluster.getMetadata().getNamespace(), cluster.getMetadata().getName(), e.getMessage());
        }
    }

    /** Removes a request annotation on the condition that it still names this cluster's uid (a JSON patch test). */
    private void consumeAnnotation(EtcdCluster cluster, String annotation) {
        String path = "/metadata/annotations/" + annotation.replace("~", "~0").replace("/", "~1");
        String uid = cluster.getMetadata().getUid();
        client.resources(EtcdCluster.class).inNamespace(cluster.getMetadata().getNamespace())
                .withName(cluster.getMetadata().getName())
                .patch(PatchContext.of(PatchType.JSON), "[{\"op\":\"test\",\"path\":\"" + path + "\",\"value\":\""
                        + uid + "\"},{\"op\":\"remove\",\"path\":\"" + path + "\"}]");
    }

    /** Creates member pods (and their claims) of one cluster. */
    private final class PodMaker {
        private final EtcdCluster cluster;
        private final MemberNaming naming;
        private final MemberTlsKeys tlsKeys;

        PodMaker(EtcdCluster cluster, MemberNaming naming, MemberTlsKeys tlsKeys) {
            this.cluster = cluster;
            this.naming = naming;
            this.tlsKeys = tlsKeys;
        }

        /** Creates the member's pod (and its claim when it has none); false when a pod of that name exists already. */
        boolean create(String member, String version, String state, String initialCluster,
                Optional<String> seedSnapshot) {
            return create(member, version, state, initialCluster, seedSnapshot, false);
        }

        /** @param onItsData made again in place on the member's claim: the pod first checks its data is there */
        boolean create(String member, String version, String state, String initialCluster,
                Optional<String> seedSnapshot, boolean onItsData) {
            ensureClaim(member);
            var spec = new ClusterResources.MemberPodSpec(member, naming.peerUrl(member), naming.clientUrl(member),
                    initialCluster, state, naming.dnsName(member));
            io.fabric8.kubernetes.api.model.Pod pod = ClusterResources.memberPod(cluster, spec, version, seedSnapshot,
                    tlsKeys);
            return create(onItsData && cluster.getSpec().getPod() != null
                    && cluster.getSpec().getPod().getPersistentVolumeClaimSpec() != null
                    ? ClusterResources.withDataCheck(pod, cluster) : pod);
        }

        /** The pod of a quorum recovery's member: a one-member cluster of itself, on a copy of the survivor's data. */
        boolean createRecoveryMember(Step.CreateRecoveryMember recovery) {
            String member = recovery.name();
            ensureClaim(member);
            var spec = new ClusterResources.MemberPodSpec(member, naming.peerUrl(member), naming.clientUrl(member),
                    member + "=" + naming.peerUrl(member), Step.STATE_NEW, naming.dnsName(member));
            return create(recovery.fromClaim() ? SurvivorSnapshot.fromClaim(cluster, spec, recovery.version(), tlsKeys,
                    recovery.survivor()) : SurvivorSnapshot.pod(cluster, spec, recovery.version(), tlsKeys,
                    naming.clientUrl(recovery.survivor())));
        }

        /**
         * Asks the API server, in a dry run of the member's pod under its own name, whether it takes the pod the spec
         * makes now: a running member is not stopped for a pod that would be refused (a field of spec.pod changed
         * since its pod was made, an admission policy). Only its name being taken (409) passes, or a full quota when
         * the new pod asks no more than the running one whose place it takes; a refusal throws, and is reported as
         * RejectedByApiServer.
         */
        void requireAccepted(String member, String version) {
            var spec = new ClusterResources.MemberPodSpec(member, naming.peerUrl(member), naming.clientUrl(member),
                    member + "=" + naming.peerUrl(member), Step.STATE_EXISTING, naming.dnsName(member));
            String namespace = cluster.getMetadata().getNamespace();
            io.fabric8.kubernetes.api.model.Pod wanted = ClusterResources.memberPod(cluster, spec, version,
                    Optional.empty(), tlsKeys);
            try {
                client.pods().inNamespace(namespace).resource(wanted).dryRun().create();
            } catch (KubernetesClientException e) {
                if (e.getCode() == HttpURLConnection.HTTP_CONFLICT) {
                    return;
                }
                if (ApiRefusal.exceededQuota(e)) {
                    // the quota counts the running pod: its place is freed for the new one only if that asks no more
                    io.fabric8.kubernetes.api.model.Pod running = client.pods().inNamespace(namespace).withName(member)
                            .get();
                    if (running != null && PodDemand.noMoreThan(wanted, running)) {
                        return;
                    }
                }
                throw e;
            }
        }

        /** Throws when the member's claim is gone or being deleted: its data with it. */
        void requireClaim(String member) {
            var claim = client.persistentVolumeClaims().inNamespace(cluster.getMetadata().getNamespace())
                    .withName(member).get();
            if (claim == null || claim.getMetadata().getDeletionTimestamp() != null) {
                throw new IllegalStateException("the data claim of member " + member + " is " + (claim == null
                        ? "gone" : "being deleted") + "; its pod is not made again on an empty one");
            }
        }

        private void ensureClaim(String member) {
            String namespace = cluster.getMetadata().getNamespace();
            if (cluster.getSpec().getPod() != null && cluster.getSpec().getPod().getPersistentVolumeClaimSpec() != null
                    && client.persistentVolumeClaims().inNamespace(namespace).withName(member).get() == null) {
                client.persistentVolumeClaims().inNamespace(namespace)
                        .resource(ClusterResources.memberClaim(cluster, member)).create();
            }
        }

        private boolean create(io.fabric8.kubernetes.api.model.Pod pod) {
            String namespace = cluster.getMetadata().getNamespace();
            try {
                client.pods().inNamespace(namespace).resource(pod).create();
                return true;
            } catch (KubernetesClientException e) {
                if (e.getCode() == HttpURLConnection.HTTP_CONFLICT) {
                    return false;
                }
                throw e;
            }
        }
    }

    /** The member list is read from one member, which may not know yet of the one just added. */
    private static List<Member> withMember(List<Member> members, Member added) {
        List<Member> all = new ArrayList<>(members);
        if (all.stream().noneMatch(m -> m.id() == added.id())) {
            all.add(added);
        }
        return all;
    }

    /** {@code name=peerURL,...} for every member; a member that has not started is named from its peer URL. */
    private static String initialCluster(MemberNaming naming, List<Member> members) {
        List<String> parts = new ArrayList<>();
        for (Member m : members) {
            String peer = m.peerUrls().isEmpty() ? "" : m.peerUrls().get(0);
            String name = m.started() ? m.name() : naming.memberOfPeerUrl(peer).orElse("");
            parts.add(name + "=" + peer);
        }
        return String.join(",", parts);
    }

    private static String why(Step.DefragmentMember defragment) {
        return switch (defragment.reason()) {
            case Step.DefragmentMember.FRAGMENTED -> "; " + defragment.fragmentedBytes()
                    + " bytes of it were free, past spec.etcd.defragmentation's threshold.";
            case Step.DefragmentMember.SCHEDULED -> ", in the round spec.etcd.defragmentation.schedule made due.";
            default -> ".";
        };
    }
}
