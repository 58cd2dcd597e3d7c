package dev.etcdoperator.core.backup;

import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/** Which member a snapshot is taken from: the one with the newest revision; a voter before a learner on a tie. */
public final class SourceChoice {

    /**
     * A member that answered, with what it said.
     *
     * @param clusterId etcd's cluster ID from the header of its answer (0 when unknown)
     */
    public record Candidate(String clientUrl, long memberId, long revision, String version, boolean learner,
            long clusterId) {

        public Candidate(String clientUrl, long memberId, long revision, String version, boolean learner) {
            this(clientUrl, memberId, revision, version, learner, 0);
        }

        /** The cluster ID as etcdctl prints it (hex), or null when unknown. */
        public String clusterIdHex() {
            return clusterId == 0 ? null : Long.toHexString(clusterId);
        }
    }

    private static final Comparator<Candidate> BEST_FIRST = Comparator.comparingLong(Candidate::revision).reversed()
            .thenComparing(Candidate::learner)
            .thenComparing(Candidate::clientUrl);

    private SourceChoice() {
    }

    public static Optional<Candidate> best(List<Candidate> answered) {
        return answered.stream().min(BEST_FIRST);
    }
}
