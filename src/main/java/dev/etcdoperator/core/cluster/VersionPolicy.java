package dev.etcdoperator.core.cluster;

import java.util.Optional;

/**
 * Which version changes the operator carries out. etcd supports a rolling upgrade to the next minor only, and no
 * online downgrade across minors, so:
 * <ul>
 * <li>the same version, or any patch change within the same minor (up or down: a minor's data format does not
 * change between patches), is allowed;</li>
 * <li>the next minor of the same major ({@code 3.4.x -> 3.5.y}) is allowed, from the lowest patch etcd's upgrade
 * guide names for that step where it names one ({@link #MINIMUM_BEFORE_NEXT_MINOR}: every 3.5 member on 3.5.32 or
 * later before 3.6, every 3.6 member on 3.6.11 or later before 3.7); from an older patch it is refused
 * ({@link #PATCH_TOO_OLD}), and the way on is a patch upgrade first;</li>
 * <li>a lower major or minor is refused ({@link #DOWNGRADE});</li>
 * <li>a minor more than one ahead ({@code 3.4 -> 3.6}) is refused ({@link #SKIPPED_MINOR}): upgrade through
 * each minor in turn;</li>
 * <li>another major is refused ({@link #MAJOR_CHANGE});</li>
 * <li>an unparseable version is refused ({@link #INVALID}).</li>
 * </ul>
 * When a change is refused the cluster keeps running the version it runs.
 */
public final class VersionPolicy {
    public static final String DOWNGRADE = "Downgrade";
    public static final String SKIPPED_MINOR = "SkippedMinorVersion";
    public static final String MAJOR_CHANGE = "MajorVersionChange";
    public static final String INVALID = "InvalidVersion";
    public static final String PATCH_TOO_OLD = "PatchTooOldForMinorUpgrade";
    /** A member's etcd failed on the version asked for during the upgrade: it is not tried again (see ClusterPlanner). */
    public static final String UPGRADE_FAILED = "UpgradeFailed";

    /**
     * The lowest patch of a minor from which etcd's upgrade guide allows the rolling upgrade to the next minor. 3.5
     * patches before 3.5.32 carry membership and v2-store issues that can stop a 3.6 member from starting (etcd's
     * "Upgrade etcd from v3.5 to v3.6" guide); 3.6 patches before 3.6.11 cannot be rolled to 3.7 ("Upgrade etcd from
     * v3.6 to v3.7").
     */
    public static final java.util.Map<String, Version> MINIMUM_BEFORE_NEXT_MINOR = java.util.Map.of(
            "3.5", new Version(3, 5, 32, null),
            "3.6", new Version(3, 6, 11, null));

    /** The verdict on a change; {@code reason} and {@code message} are empty when it is allowed. */
    public record Verdict(boolean allowed, String reason, String message) {
        static Verdict allow() {
            return new Verdict(true, "", "");
        }

        static Verdict refuse(String reason, String message) {
            return new Verdict(false, reason, message);
        }
    }

    /** Whether the cluster may go from {@code running} to {@code wanted} (both with or without a leading v). */
    public Verdict check(String running, String wanted) {
        Optional<Version> from = Version.parse(running);
        Optional<Version> to = Version.parse(wanted);
        if (from.isEmpty()) {
            return Verdict.refuse(INVALID, "The running version '" + running + "' is not a semantic version.");
        }
        if (to.isEmpty()) {
            return Verdict.refuse(INVALID, "The version '" + wanted + "' is not a semantic version.");
        }
        Version f = from.get();
        Version t = to.get();
        if (f.sameMinor(t)) {
            return Verdict.allow();
        }
        if (t.major() != f.major()) {
            return t.major() < f.major()
                    ? Verdict.refuse(DOWNGRADE, downgrade(f, t))
                    : Verdict.refuse(MAJOR_CHANGE, "The cluster runs " + f + "; going to " + t
                            + " changes the major version, which etcd cannot do by a rolling upgrade. Keeping " + f
                            + "; set spec.version back to " + f + ".");
        }
        if (t.minor() < f.minor()) {
            return Verdict.refuse(DOWNGRADE, downgrade(f, t));
        }
        if (t.minor() > f.minor() + 1) {
            String next = f.major() + "." + (f.minor() + 1);
            return Verdict.refuse(SKIPPED_MINOR, "The cluster runs " + f + "; going to " + t + " skips minor version "
                    + next + ", which etcd does not support. Keeping " + f + "; upgrade to the latest " + next
                    + ".x first.");
        }
        Version minimum = MINIMUM_BEFORE_NEXT_MINOR.get(f.major() + "." + f.minor());
        if (minimum != null && f.compareTo(minimum) < 0) {
            return Verdict.refuse(PATCH_TOO_OLD, "The cluster runs " + f + "; etcd supports the upgrade to " + t.major()
                    + "." + t.minor() + " only from " + minimum + " or later. Keeping " + f + "; set spec.version to "
                    + minimum + " or a later " + f.major() + "." + f.minor() + ".x first, then to " + t + ".");
        }
        return Verdict.allow();
    }

    private static String downgrade(Version f, Version t) {
        return "The cluster runs " + f + "; going back to " + t + " is a downgrade, which the operator does not do."
                + " Keeping " + f + "; set spec.version to " + f.major() + "." + f.minor() + ".x or later.";
    }
}
