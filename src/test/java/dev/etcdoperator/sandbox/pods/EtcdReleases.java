package dev.etcdoperator.sandbox.pods;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.etcdoperator.sandbox.controlplane.Parts;

/**
 * The etcd releases the sandbox has, by exact version: the 3.5 and 3.6 releases built from etcd's Go modules (see
 * {@link Parts}) and the machine's own etcd (Debian's 3.4.23). An etcd image runs only when its tag names one of
 * them: {@code quay.io/coreos/etcd:v3.6.16} runs etcd 3.6.16, and a tag the sandbox has no build of is refused.
 */
public final class EtcdReleases {
    private static final Pattern VERSION = Pattern.compile("etcd Version: (\\S+)");

    private final Map<String, Supplier<Path>> releases = new LinkedHashMap<>();

    private EtcdReleases() {
    }

    /** The releases of the parts plus the machine's etcd, if it has one. */
    public static EtcdReleases standard() {
        EtcdReleases all = new EtcdReleases();
        for (String part : List.of(Parts.ETCD_35, Parts.ETCD_36)) {
            all.releases.put(Parts.version(part).replaceFirst("^v", ""), () -> Parts.bin(part));
        }
        hostVersion(Path.of("/usr/bin/etcd")).ifPresent(v -> all.releases.putIfAbsent(v, () -> Path.of("/usr/bin")));
        return all;
    }

    /** Only the machine's programs, whatever the tag (for tests of the runtime that need no particular release). */
    static EtcdReleases hostOnly() {
        return new EtcdReleases();
    }

    /** True when there are no releases: any etcd image then runs the machine's etcd. */
    boolean any() {
        return releases.isEmpty();
    }

    /** The directory with etcd, etcdctl and etcdutl of this version (no leading v), built on first use. */
    Optional<Path> directory(String version) {
        Supplier<Path> dir = releases.get(version);
        return dir == null ? Optional.empty() : Optional.of(dir.get());
    }

    /** The versions there are, for messages. */
    List<String> versions() {
        return List.copyOf(releases.keySet());
    }

    private static Optional<String> hostVersion(Path etcd) {
        if (!Files.isExecutable(etcd)) {
            return Optional.empty();
        }
        try {
            Process process = new ProcessBuilder(etcd.toString(), "--version").redirectErrorStream(true).start();
            String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            process.waitFor(10, TimeUnit.SECONDS);
            Matcher m = VERSION.matcher(out);
            return m.find() ? Optional.of(m.group(1)) : Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }
}
