package dev.etcdoperator.api.v1beta2;

/** The version format the API accepts: semver 2.0 with an optional leading {@code v}. */
public final class SemVer {
    public static final String PATTERN =
            "^v?(0|[1-9][0-9]*)\\.(0|[1-9][0-9]*)\\.(0|[1-9][0-9]*)(-[0-9A-Za-z.-]+)?(\\+[0-9A-Za-z.-]+)?$";

    private SemVer() {
    }
}
