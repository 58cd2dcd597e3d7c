package dev.etcdoperator.support;

/**
 * Whether this process lost its leader lease. It exits then (see {@link LeaderElectionProducer}), but reconciles
 * already running go on until it has stopped, while the next leader may take the lease a few seconds after this one
 * stopped renewing it: the steps that change a cluster, delete backups or act for a restore ask first.
 */
public final class Leadership {
    private static volatile boolean lost;

    private Leadership() {
    }

    static void markLost() {
        lost = true;
    }

    /** For the tests of the lease's loss, which run in a process that goes on. */
    static void reset() {
        lost = false;
    }

    public static boolean lost() {
        return lost;
    }

    /** @throws Lost once the lease is lost: nothing more may be done */
    public static void check(String what) {
        if (lost) {
            throw new Lost("the operator lost its leader lease and is stopping: " + what + " is left to the next leader");
        }
    }

    /** Not handled as a failure of what it stops: it ends the reconcile, whose resource the next leader takes up. */
    public static final class Lost extends RuntimeException {
        Lost(String message) {
            super(message);
        }
    }
}
