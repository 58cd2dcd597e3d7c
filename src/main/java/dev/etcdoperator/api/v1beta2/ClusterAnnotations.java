package dev.etcdoperator.api.v1beta2;

/** Annotations a person puts on an EtcdCluster to ask the operator for something it never does by itself. */
public final class ClusterAnnotations {
    /**
     * Start a cluster that ran and lost every member again, from a new, empty seed member. The value must be the
     * cluster's {@code metadata.uid}, so that a manifest carrying the annotation cannot reseed another cluster of the
     * same name; it is honoured only while the status reports {@code AllMembersLost}, and removed once acted on.
     */
    public static final String RESEED = ApiGroup.GROUP + "/reseed";

    /**
     * Approve one recovery of a cluster whose quorum is lost for good, from its newest surviving member, under the
     * {@code Manual} policy. The value must be the cluster's {@code metadata.uid}; it is honoured only while the
     * status reports the quorum loss, and removed once acted on.
     */
    public static final String RECOVER_QUORUM = ApiGroup.GROUP + "/recover-quorum";

    private ClusterAnnotations() {
    }
}
