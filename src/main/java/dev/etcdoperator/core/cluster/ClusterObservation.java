package dev.etcdoperator.core.cluster;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Everything one reconcile saw of a cluster, gathered before planning. Immutable.
 *
 * @param cluster        the EtcdCluster name
 * @param namespace      its namespace
 * @param desiredSize    {@code spec.size}
 * @param desiredVersion {@code spec.version} without a leading {@code v}
 * @param paused         {@code spec.paused}
 * @param persistent     each member keeps its data on its own PersistentVolumeClaim
 * @param pods           the cluster's member pods (by label), terminating ones included
 * @param members        the etcd member list; empty when no member answered
 * @param health         what each member answered about itself, by member id; a member that did not answer has
 *                       no entry (it counts as unhealthy)
 * @param currentVersion what the status says the cluster runs; null before the cluster first ran
 * @param clusterDomain  {@code spec.pod.ClusterDomain} (for example {@code .cluster.local}); null or empty for none
 * @param tls            peers talk TLS (peer URLs are {@code https})
 * @param claims         names of the member data claims that exist (claim name = member name); only read when
 *                       {@code persistent}
 * @param seedMember     the seed member the status records ({@code status.seedMember}): the only seed the operator
 *                       creates; null before one was chosen
 * @param reseedRequested the person asked, on the resource, to start a cluster that lost every member again,
 *                       empty (the reseed annotation names the cluster's uid, and the status reports the loss)
 * @param now            when the observation was made; null when not known (then no pod counts as stuck)
 * @param space          etcd's alarms, the quota, and how far the operator got in freeing space
 * @param quorumLoss     the quorum-loss policy, since when quorum is lost, a person's approval, a recovery in progress
 * @param downgradeAllowed {@code spec.allowDowngrade}: a lower minor may be reached through etcd's downgrade API
 * @param initialMembers the members the status records as the cluster's first ones ({@code status.initialMembers}),
 *                       started together; empty when the cluster started from one seed
 * @param startsFromSeed a new cluster of this spec starts from one seed even with three members or more: it is
 *                       restored from a snapshot (its seed alone holds the data), or its pods have (anti-)affinity
 *                       rules that may leave some of them unscheduled (members started together are all voters at
 *                       once, so an unscheduled one would be a voter that never runs; a learner waiting costs nothing)
 * @param failedUpgrade  the version an upgrade stopped at ({@code status.failedUpgradeVersion}): a member's etcd failed
 *                       on it, and it is not tried again while spec.version names it; null when none
 * @param listFromLeader the member list is one a member that says it leads answered, and one that can be the
 *                       cluster's: another member's may be out of date (one still applying the leader's log lacks the
 *                       members added since)
 */
public record ClusterObservation(String cluster, String namespace, int desiredSize, String desiredVersion,
        boolean paused, boolean persistent, List<MemberPod> pods, Optional<List<EtcdMember>> members,
        Map<Long, MemberHealth> health, String currentVersion, String clusterDomain, boolean tls,
        Set<String> claims, String seedMember, boolean reseedRequested, Instant now, DatabaseSpace space,
        QuorumLoss quorumLoss, boolean downgradeAllowed, List<String> initialMembers, boolean startsFromSeed,
        String failedUpgrade, boolean listFromLeader) {

    /** A member list, if any, that the leader answered. */
    public ClusterObservation(String cluster, String namespace, int desiredSize, String desiredVersion,
            boolean paused, boolean persistent, List<MemberPod> pods, Optional<List<EtcdMember>> members,
            Map<Long, MemberHealth> health, String currentVersion, String clusterDomain, boolean tls,
            Set<String> claims, String seedMember, boolean reseedRequested, Instant now, DatabaseSpace space,
            QuorumLoss quorumLoss, boolean downgradeAllowed, List<String> initialMembers, boolean startsFromSeed,
            String failedUpgrade) {
        this(cluster, namespace, desiredSize, desiredVersion, paused, persistent, pods, members, health,
                currentVersion, clusterDomain, tls, claims, seedMember, reseedRequested, now, space, quorumLoss,
                downgradeAllowed, initialMembers, startsFromSeed, failedUpgrade, true);
    }

    public ClusterObservation {
        space = space == null ? DatabaseSpace.NONE : space;
        quorumLoss = quorumLoss == null ? QuorumLoss.NONE : quorumLoss;
        Objects.requireNonNull(cluster, "cluster");
        Objects.requireNonNull(namespace, "namespace");
        desiredVersion = Version.strip(desiredVersion);
        currentVersion = Version.strip(currentVersion);
        pods = List.copyOf(pods == null ? List.of() : pods);
        members = members == null ? Optional.empty() : members.map(List::copyOf);
        health = Map.copyOf(health == null ? Map.of() : health);
        claims = Set.copyOf(claims == null ? Set.of() : claims);
        initialMembers = List.copyOf(initialMembers == null ? List.of() : initialMembers);
    }

    /** No upgrade recorded as failed. */
    public ClusterObservation(String cluster, String namespace, int desiredSize, String desiredVersion,
            boolean paused, boolean persistent, List<MemberPod> pods, Optional<List<EtcdMember>> members,
            Map<Long, MemberHealth> health, String currentVersion, String clusterDomain, boolean tls,
            Set<String> claims, String seedMember, boolean reseedRequested, Instant now, DatabaseSpace space,
            QuorumLoss quorumLoss, boolean downgradeAllowed, List<String> initialMembers, boolean startsFromSeed) {
        this(cluster, namespace, desiredSize, desiredVersion, paused, persistent, pods, members, health,
                currentVersion, clusterDomain, tls, claims, seedMember, reseedRequested, now, space, quorumLoss,
                downgradeAllowed, initialMembers, startsFromSeed, null);
    }

    /** Started from one seed or not yet started, as the status records it. */
    public ClusterObservation(String cluster, String namespace, int desiredSize, String desiredVersion,
            boolean paused, boolean persistent, List<MemberPod> pods, Optional<List<EtcdMember>> members,
            Map<Long, MemberHealth> health, String currentVersion, String clusterDomain, boolean tls,
            Set<String> claims, String seedMember, boolean reseedRequested, Instant now, DatabaseSpace space,
            QuorumLoss quorumLoss, boolean downgradeAllowed) {
        this(cluster, namespace, desiredSize, desiredVersion, paused, persistent, pods, members, health,
                currentVersion, clusterDomain, tls, claims, seedMember, reseedRequested, now, space, quorumLoss,
                downgradeAllowed, List.of(), false);
    }

    /** Without a downgrade allowed. */
    public ClusterObservation(String cluster, String namespace, int desiredSize, String desiredVersion,
            boolean paused, boolean persistent, List<MemberPod> pods, Optional<List<EtcdMember>> members,
            Map<Long, MemberHealth> health, String currentVersion, String clusterDomain, boolean tls,
            Set<String> claims, String seedMember, boolean reseedRequested, Instant now, DatabaseSpace space,
            QuorumLoss quorumLoss) {
        this(cluster, namespace, desiredSize, desiredVersion, paused, persistent, pods, members, health,
                currentVersion, clusterDomain, tls, claims, seedMember, reseedRequested, now, space, quorumLoss, false);
    }

    /** With the default quorum-loss policy and nothing recorded about a loss. */
    public ClusterObservation(String cluster, String namespace, int desiredSize, String desiredVersion,
            boolean paused, boolean persistent, List<MemberPod> pods, Optional<List<EtcdMember>> members,
            Map<Long, MemberHealth> health, String currentVersion, String clusterDomain, boolean tls,
            Set<String> claims, String seedMember, boolean reseedRequested, Instant now, DatabaseSpace space,
            boolean downgradeAllowed) {
        this(cluster, namespace, desiredSize, desiredVersion, paused, persistent, pods, members, health,
                currentVersion, clusterDomain, tls, claims, seedMember, reseedRequested, now, space, QuorumLoss.NONE,
                downgradeAllowed);
    }

    /** With the default quorum-loss policy and no downgrade allowed. */
    public ClusterObservation(String cluster, String namespace, int desiredSize, String desiredVersion,
            boolean paused, boolean persistent, List<MemberPod> pods, Optional<List<EtcdMember>> members,
            Map<Long, MemberHealth> health, String currentVersion, String clusterDomain, boolean tls,
            Set<String> claims, String seedMember, boolean reseedRequested, Instant now, DatabaseSpace space) {
        this(cluster, namespace, desiredSize, desiredVersion, paused, persistent, pods, members, health,
                currentVersion, clusterDomain, tls, claims, seedMember, reseedRequested, now, space, QuorumLoss.NONE,
                false);
    }

    /** Without alarms or space recovery. */
    public ClusterObservation(String cluster, String namespace, int desiredSize, String desiredVersion,
            boolean paused, boolean persistent, List<MemberPod> pods, Optional<List<EtcdMember>> members,
            Map<Long, MemberHealth> health, String currentVersion, String clusterDomain, boolean tls,
            Set<String> claims, String seedMember, boolean reseedRequested, Instant now) {
        this(cluster, namespace, desiredSize, desiredVersion, paused, persistent, pods, members, health,
                currentVersion, clusterDomain, tls, claims, seedMember, reseedRequested, now, DatabaseSpace.NONE,
                QuorumLoss.NONE);
    }

    /** Without a recorded seed, a reseed request or a time. */
    public ClusterObservation(String cluster, String namespace, int desiredSize, String desiredVersion,
            boolean paused, boolean persistent, List<MemberPod> pods, Optional<List<EtcdMember>> members,
            Map<Long, MemberHealth> health, String currentVersion, String clusterDomain, boolean tls,
            Set<String> claims) {
        this(cluster, namespace, desiredSize, desiredVersion, paused, persistent, pods, members, health,
                currentVersion, clusterDomain, tls, claims, null, false, null, DatabaseSpace.NONE, QuorumLoss.NONE);
    }

    /** The brief form: no cluster domain, no TLS, no claims known. */
    public ClusterObservation(String cluster, String namespace, int desiredSize, String desiredVersion,
            boolean paused, boolean persistent, List<MemberPod> pods, Optional<List<EtcdMember>> members,
            Map<Long, MemberHealth> health, String currentVersion) {
        this(cluster, namespace, desiredSize, desiredVersion, paused, persistent, pods, members, health,
                currentVersion, "", false, Set.of());
    }

    /**
     * The cluster ran: a member answered the operator once ({@code status.currentVersion} is written the first time
     * one does). Its data may be anywhere its members were; a cluster that ran is never seeded again by itself.
     */
    public boolean ran() {
        return currentVersion != null;
    }

    /** The claims named as this cluster's members, sorted; empty unless {@code persistent}. */
    public List<String> memberClaims() {
        MemberNaming naming = naming();
        return persistent ? claims.stream().filter(naming::isMemberName).sorted().toList() : List.of();
    }

    /**
     * etcd's {@code --initial-cluster} ({@code name=peerURL,...}) for a member whose pod is created again: the
     * member list when a member answered (a member added but not started is named by its peer URL), else the members
     * the claims name. etcd ignores it when the member's data directory holds data, and finds its peers with it when
     * not.
     */
    public String initialCluster() {
        MemberNaming naming = naming();
        List<String> parts = new ArrayList<>();
        if (members.isPresent() && !members.get().isEmpty()) {
            for (EtcdMember m : members.get()) {
                String name = m.started() ? m.name() : naming.memberOfPeerUrl(m.peerUrl()).orElse("");
                parts.add(name + "=" + m.peerUrl());
            }
        } else {
            memberClaims().forEach(c -> parts.add(c + "=" + naming.peerUrl(c)));
        }
        return String.join(",", parts);
    }

    /** Names and URLs of this cluster's members. */
    public MemberNaming naming() {
        return new MemberNaming(cluster, namespace, clusterDomain, tls);
    }

    public Optional<MemberHealth> healthOf(long id) {
        return Optional.ofNullable(health.get(id));
    }

    public boolean healthy(long id) {
        MemberHealth h = health.get(id);
        return h != null && h.healthy();
    }

    /** Pods that are not being deleted. */
    public List<MemberPod> livePods() {
        return pods.stream().filter(p -> !p.terminating()).toList();
    }

    public Optional<MemberPod> livePod(String name) {
        return pods.stream().filter(p -> !p.terminating() && p.name().equals(name)).findFirst();
    }

    /** The pod of that name, live or terminating. */
    public Optional<MemberPod> anyPod(String name) {
        return pods.stream().filter(p -> p.name().equals(name)).findFirst();
    }

    /** The same observation with {@code pods} for its member pods. */
    public ClusterObservation withPods(List<MemberPod> pods) {
        return new ClusterObservation(cluster, namespace, desiredSize, desiredVersion, paused, persistent, pods,
                members, health, currentVersion, clusterDomain, tls, claims, seedMember, reseedRequested, now, space,
                quorumLoss, downgradeAllowed, initialMembers, startsFromSeed, failedUpgrade, listFromLeader);
    }

    /** The same observation with another quorum-loss view. */

    public ClusterObservation withQuorumLoss(QuorumLoss loss) {
        return new ClusterObservation(cluster, namespace, desiredSize, desiredVersion, paused, persistent, pods,
                members, health, currentVersion, clusterDomain, tls, claims, seedMember, reseedRequested, now, space,
                loss, downgradeAllowed, initialMembers, startsFromSeed, failedUpgrade, listFromLeader);
    }

    public boolean terminatingPod(String name) {
        return pods.stream().anyMatch(p -> p.terminating() && p.name().equals(name));
    }
}
