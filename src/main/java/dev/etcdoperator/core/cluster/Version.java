package dev.etcdoperator.core.cluster;

import java.util.Optional;

/**
 * A semantic version ({@code major.minor.patch[-pre][+build]}, optional leading {@code v}), parsed without a library.
 * Ordering follows semver precedence: build metadata is ignored, a pre-release sorts before its release, and
 * pre-release identifiers compare numerically when both are numbers, else as text.
 */
public record Version(int major, int minor, int patch, String preRelease) implements Comparable<Version> {

    public Version {
        preRelease = preRelease == null ? "" : preRelease;
    }

    /** Parses {@code text}; empty when it is not a semantic version. */
    public static Optional<Version> parse(String text) {
        String s = strip(text);
        if (s == null || s.isEmpty()) {
            return Optional.empty();
        }
        int plus = s.indexOf('+');
        if (plus >= 0) {
            if (!identifiers(s.substring(plus + 1), false)) {
                return Optional.empty();
            }
            s = s.substring(0, plus);
        }
        String pre = "";
        int dash = s.indexOf('-');
        if (dash >= 0) {
            pre = s.substring(dash + 1);
            if (!identifiers(pre, true)) {
                return Optional.empty();
            }
            s = s.substring(0, dash);
        }
        String[] parts = s.split("\\.", -1);
        if (parts.length != 3) {
            return Optional.empty();
        }
        int[] numbers = new int[3];
        for (int i = 0; i < 3; i++) {
            if (!numeric(parts[i]) || (parts[i].length() > 1 && parts[i].charAt(0) == '0') || parts[i].length() > 9) {
                return Optional.empty();
            }
            numbers[i] = Integer.parseInt(parts[i]);
        }
        return Optional.of(new Version(numbers[0], numbers[1], numbers[2], pre));
    }

    /** {@code text} without surrounding blanks and one leading {@code v}; null stays null. */
    public static String strip(String text) {
        if (text == null) {
            return null;
        }
        String s = text.strip();
        return s.startsWith("v") || s.startsWith("V") ? s.substring(1) : s;
    }

    /** Same major and minor. */
    public boolean sameMinor(Version other) {
        return major == other.major && minor == other.minor;
    }

    @Override
    public int compareTo(Version o) {
        int c = Integer.compare(major, o.major);
        if (c == 0) {
            c = Integer.compare(minor, o.minor);
        }
        if (c == 0) {
            c = Integer.compare(patch, o.patch);
        }
        return c != 0 ? c : comparePreRelease(preRelease, o.preRelease);
    }

    @Override
    public String toString() {
        return major + "." + minor + "." + patch + (preRelease.isEmpty() ? "" : "-" + preRelease);
    }

    private static int comparePreRelease(String a, String b) {
        if (a.equals(b)) {
            return 0;
        }
        if (a.isEmpty()) {
            return 1;
        }
        if (b.isEmpty()) {
            return -1;
        }
        String[] x = a.split("\\.");
        String[] y = b.split("\\.");
        for (int i = 0; i < Math.min(x.length, y.length); i++) {
            boolean xn = numeric(x[i]);
            boolean yn = numeric(y[i]);
            int c;
            if (xn && yn) {
                c = x[i].length() != y[i].length() ? Integer.compare(x[i].length(), y[i].length()) : x[i].compareTo(y[i]);
            } else if (xn != yn) {
                c = xn ? -1 : 1;
            } else {
                c = x[i].compareTo(y[i]);
            }
            if (c != 0) {
                return c;
            }
        }
        return Integer.compare(x.length, y.length);
    }

    private static boolean identifiers(String text, boolean noLeadingZeros) {
        if (text.isEmpty()) {
            return false;
        }
        for (String id : text.split("\\.", -1)) {
            if (id.isEmpty() || !id.chars().allMatch(ch -> ch == '-' || Character.isLetterOrDigit(ch) && ch < 128)) {
                return false;
            }
            if (noLeadingZeros && numeric(id) && id.length() > 1 && id.charAt(0) == '0') {
                return false;
            }
        }
        return true;
    }

    private static boolean numeric(String s) {
        return !s.isEmpty() && s.chars().allMatch(ch -> ch >= '0' && ch <= '9');
    }
}
