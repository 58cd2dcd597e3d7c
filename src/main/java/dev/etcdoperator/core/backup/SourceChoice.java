package dev.etcdoperator.core.backup;

import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/** Which member a snapshot is taken from: the one with the newest revision; a voter before a learner on a tie. */
public final class SourceChoice {

    /** A member that answered, with what it said. */
    public record Candidate(String clientUrl, long memberId, long revision, String version, boolean learner) {
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
