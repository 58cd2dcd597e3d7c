package dev.etcdoperator.storage;

import java.time.Duration;

import dev.etcdoperator.core.backup.S3Location;

/**
 * Links through which a pod downloads a client-side encrypted backup already decrypted: the pod cannot decrypt
 * (it holds no key and runs busybox), so the operator serves the snapshot itself ({@link SnapshotServer}).
 */
public interface SnapshotLinks {

    /**
     * A URL that serves the snapshot of {@code object} at {@code location}, decrypted with the settings' key, until
     * it expires or has been downloaded whole once.
     *
     * @throws IllegalStateException when the operator has no address pods can reach ({@link #available()})
     */
    String link(S3Settings settings, S3Location location, ObjectVersion object, Duration validFor);

    /** Whether links can be made: the operator knows an address of its own that pods reach. */
    boolean available();
}
