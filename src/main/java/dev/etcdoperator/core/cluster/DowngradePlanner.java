package dev.etcdoperator.core.cluster;

import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

import dev.etcdoperator.core.cluster.ClusterPlanner.Seat;
import dev.etcdoperator.core.cluster.Step.DowngradeMember;
import dev.etcdoperator.core.cluster.Step.EnableDowngrade;
import dev.etcdoperator.core.cluster.Step.Refuse;
import dev.etcdoperator.core.cluster.Step.Wait;

/**
 * A version one minor below what members run, from etcd 3.6 on, where etcd reports the format each member's data is
 * written in (its storage version) and has a downgrade API. A member is given the older binary only once its data is
 * in the older format; until then:
 * <ol>
 * <li>a member whose storage version is the wanted minor, while the cluster version is down there too (a downgrade
 * to it is enabled and every newer member has rewritten its data, or another member runs it: an upgrade that never
 * finished, whose data was never rewritten):
 * {@link DowngradeMember}, followers before the leader, never when that would leave fewer healthy voters than a
 * majority;</li>
 * <li>a downgrade to the wanted minor is enabled: {@link Wait} {@code DowngradePending} while members rewrite their
 * data;</li>
 * <li>{@code spec.allowDowngrade}: {@link EnableDowngrade};</li>
 * <li>else {@link Refuse} {@code Downgrade}, and the members keep running.</li>
 * </ol>
 * Any other version change, and a lower minor from etcd before 3.6, is left to {@link VersionPolicy}.
 */
final class DowngradePlanner {
    /** The first minor whose members report their storage version and take a downgrade through etcd's API. */
    static final Version FIRST_WITH_DOWNGRADE_API = new Version(3, 6, 0, null);

    private DowngradePlanner() {
    }

    /** The step for the seats whose pods run a newer minor than {@code spec.version}, when this planner decides. */
    static Optional<Step> plan(ClusterObservation o, List<Seat> seats) {
        Optional<Version> wanted = Version.parse(o.desiredVersion());
        if (wanted.isEmpty()) {
            return Optional.empty();
        }
        List<Seat> ahead = ahead(o, seats, wanted.get());
        if (ahead.isEmpty()) {
            return Optional.empty();
        }
        String target = minor(wanted.get());
        List<String> away = seats.stream().filter(s -> s.pod().isEmpty() || !s.podRunning() || !s.healthy())
                .map(Seat::name).toList();
        boolean enabled = enabledTo(o, target);
        if (!away.isEmpty() && (o.downgradeAllowed() || enabled)) {
            // a member away now would miss the rewrite of its data, and come back later on the older binary
            return Optional.of(new Wait(Wait.MEMBER_NOT_HEALTHY, "Not downgrading while member"
                    + (away.size() > 1 ? "s " : " ") + String.join(", ", away) + " " + (away.size() > 1 ? "are" : "is")
                    + " not running and healthy: every member must rewrite its data in the " + target + " format"
                    + " before any runs " + o.desiredVersion() + "."));
        }
        // a member's storage version alone does not say that the cluster version is down at the target: a member
        // that just joined a 3.6 cluster reports 3.5 until etcd first sets it. Another member already on the target
        // says so; so does every newer member having rewritten its data after the downgrade was enabled. A member
        // given the older binary before the cluster version dropped leaves etcd unable to finish the downgrade.
        boolean anotherOnTarget = seats.stream().anyMatch(s -> !ahead.contains(s)
                && Version.parse(ClusterPlanner.podVersion(o, s)).map(v -> minor(v).equals(target)).orElse(false));
        List<Seat> rewritten = ahead.stream().filter(s -> target.equals(storageMinor(o, s))).toList();
        boolean clusterAtTarget = anotherOnTarget || enabled && rewritten.size() == ahead.size();
        List<Seat> ready = clusterAtTarget ? rewritten : List.of();
        if (!ready.isEmpty()) {
            return Optional.of(downgradeOne(o, seats, ready));
        }
        String running = highest(o, ahead).toString();
        if (enabled) {
            List<String> pending = ahead.stream().map(s -> s.name() + " (" + storageLabel(o, s) + ")").toList();
            return Optional.of(new Wait(Wait.DOWNGRADE_PENDING, "etcd's downgrade to " + target + " is enabled;"
                    + " waiting for member" + (pending.size() > 1 ? "s " : " ") + String.join(", ", pending)
                    + " to rewrite " + (pending.size() > 1 ? "their" : "its") + " data in the " + target
                    + " format before " + (pending.size() > 1 ? "they run" : "it runs") + " " + o.desiredVersion()
                    + "."));
        }
        if (!o.downgradeAllowed()) {
            return Optional.of(new Refuse(VersionPolicy.DOWNGRADE, "The cluster runs " + running + "; going back to "
                    + o.desiredVersion() + " is a downgrade, which the operator carries out only when asked: set"
                    + " spec.allowDowngrade to true to downgrade through etcd's downgrade API (see docs/clusters.md),"
                    + " or set spec.version to " + target(running) + ".x or later. Keeping " + running + "."));
        }
        return Optional.of(new EnableDowngrade(target + ".0", running));
    }

    /**
     * Whether this planner decides the version change: some member runs exactly one minor above {@code spec.version},
     * from etcd 3.6 on.
     */
    static boolean applies(ClusterObservation o, List<Seat> seats) {
        return Version.parse(o.desiredVersion()).map(w -> !ahead(o, seats, w).isEmpty()).orElse(false);
    }

    /**
     * Some member already runs the minor spec.version names, besides those ahead of it: an upgrade that never
     * finished, rolled back without etcd's downgrade API once the members ahead answer (so not refused for good
     * while one of them does not).
     */
    static boolean rollsBackAnUnfinishedUpgrade(ClusterObservation o, List<Seat> seats) {
        Optional<Version> wanted = Version.parse(o.desiredVersion());
        if (wanted.isEmpty()) {
            return false;
        }
        List<Seat> ahead = ahead(o, seats, wanted.get());
        String target = minor(wanted.get());
        return !ahead.isEmpty() && seats.stream().anyMatch(s -> !ahead.contains(s)
                && Version.parse(ClusterPlanner.podVersion(o, s)).map(v -> minor(v).equals(target)).orElse(false));
    }

    private static List<Seat> ahead(ClusterObservation o, List<Seat> seats, Version wanted) {
        return seats.stream().filter(s -> Version.parse(ClusterPlanner.podVersion(o, s))
                .filter(v -> v.major() == wanted.major() && v.minor() == wanted.minor() + 1)
                .filter(v -> v.compareTo(FIRST_WITH_DOWNGRADE_API) >= 0)
                .isPresent()).toList();
    }

    private static Step downgradeOne(ClusterObservation o, List<Seat> seats, List<Seat> ready) {
        Seat next = ready.stream().sorted(Comparator.comparing(Seat::leader).thenComparing(Seat::name)).findFirst()
                .orElseThrow();
        List<Seat> voters = seats.stream().filter(s -> !s.learner()).toList();
        long otherHealthyVoters = voters.stream().filter(s -> s.healthy() && s != next).count();
        // as an upgrade: with every voter healthy, the member restarts in place and comes back (in a cluster of
        // two that is a moment without quorum, which waiting would make for good); with one away, the others must
        // keep a majority without it
        boolean allHealthy = voters.stream().allMatch(Seat::healthy);
        if (!allHealthy && voters.size() > 1 && otherHealthyVoters < ClusterPlanner.majority(voters.size())) {
            return new Wait(Wait.QUORUM_AT_RISK, "Not downgrading member " + next.name() + " yet: restarting it would"
                    + " leave fewer healthy voting members than a majority.");
        }
        return new DowngradeMember(next.name(), ClusterPlanner.podVersion(o, next), o.desiredVersion());
    }

    private static boolean enabledTo(ClusterObservation o, String target) {
        return o.health().values().stream().anyMatch(h -> target.equals(minorOf(h.downgradeTarget())));
    }

    private static Version highest(ClusterObservation o, List<Seat> ahead) {
        return ahead.stream().map(s -> Version.parse(ClusterPlanner.podVersion(o, s))).flatMap(Optional::stream)
                .max(Comparator.naturalOrder()).orElseThrow();
    }

    private static String storageMinor(ClusterObservation o, Seat s) {
        return o.healthOf(s.member().id()).map(h -> minorOf(h.storageVersion())).orElse("");
    }

    private static String storageLabel(ClusterObservation o, Seat s) {
        String storage = o.healthOf(s.member().id()).map(MemberHealth::storageVersion).orElse("");
        return storage.isEmpty() ? "storage version unknown" : "storage version " + storage;
    }

    private static String minorOf(String version) {
        return Version.parse(Objects.requireNonNullElse(version, "")).map(DowngradePlanner::minor).orElse("");
    }

    private static String minor(Version v) {
        return v.major() + "." + v.minor();
    }

    private static String target(String running) {
        return Version.parse(running).map(DowngradePlanner::minor).orElse(running);
    }
}
