package dev.etcdoperator.api.v1beta2;

/**
 * The version format the API accepts: semver 2.0 with an optional leading {@code v}, each number of at most 9 digits,
 * and no build metadata: the version is the image's tag, where {@code +} is not allowed.
 */
public final class SemVer {
    public static final String PATTERN =
            "^v?(0|[1-9][0-9]{0,8})\\.(0|[1-9][0-9]{0,8})\\.(0|[1-9][0-9]{0,8})(-[0-9A-Za-z.-]+)?$";

    private SemVer() {
    }
}
