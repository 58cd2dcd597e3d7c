package dev.etcdoperator.sandbox.pods;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import dev.etcdoperator.sandbox.controlplane.Parts;

/**
 * What a busybox (or alpine) image runs in the sandbox: Debian's statically linked busybox (see {@link Parts}), the
 * program every {@code /bin} name of those images leads to. A container's command must name one of its applets, as in
 * the image; the shell runs its own applets first (wget, sha256sum, tee, sleep...) and finds any other program on the
 * container's PATH, among the host's programs (only {@code getent}, with which the DNS wait reads the sandbox's hosts
 * file DNS, is used so).
 */
final class BusyboxImage {
    /** A fetch that failed is not tried again sooner: each try may run {@code apt-get update}. */
    static final Duration RETRY_FETCH_AFTER = Duration.ofMinutes(1);

    private final Supplier<Path> program;
    private final Clock clock;
    private volatile Set<String> applets;
    private volatile Path path;
    private volatile RuntimeException failure;
    private volatile Instant failedAt;

    BusyboxImage(Supplier<Path> program) {
        this(program, Clock.systemUTC());
    }

    BusyboxImage(Supplier<Path> program, Clock clock) {
        this.program = program;
        this.clock = clock;
    }

    /** The sandbox's part, fetched on first use. */
    static BusyboxImage part() {
        return new BusyboxImage(() -> Parts.program(Parts.BUSYBOX, "busybox"));
    }

    /** {@code argv} run by busybox: its first element, a path or a name, becomes the applet busybox is asked to run. */
    List<String> commandLine(List<String> argv, String image) throws NotEmulatedException {
        String applet = argv.get(0).substring(argv.get(0).lastIndexOf('/') + 1);
        Set<String> known;
        try {
            known = applets();
        } catch (RuntimeException e) {
            // as a kubelet that cannot pull the image: the container waits, and is tried again
            throw new NotEmulatedException(ImageResolver.ERR_IMAGE_PULL, "the sandbox has no busybox for image " + image
                    + ": " + e.getMessage());
        }
        if (!known.contains(applet)) {
            throw new NotEmulatedException(ImageResolver.COMMAND_NOT_FOUND, "image " + image + " (busybox) has no "
                    + argv.get(0) + ": busybox has no applet " + applet);
        }
        List<String> line = new ArrayList<>(argv.size() + 1);
        line.add(path.toString()); // set by applets()
        line.add(applet);
        line.addAll(argv.subList(1, argv.size()));
        return line;
    }

    private synchronized Set<String> applets() {
        Set<String> known = applets;
        if (known != null) {
            return known;
        }
        Instant now = clock.instant();
        if (failure != null && now.isBefore(failedAt.plus(RETRY_FETCH_AFTER))) {
            throw failure;
        }
        Path fetched;
        try {
            fetched = program.get();
            known = list(fetched);
        } catch (RuntimeException e) {
            failure = e;
            failedAt = now;
            throw e;
        }
        path = fetched;
        applets = known;
        failure = null;
        return known;
    }

    private static Set<String> list(Path busybox) {
        try {
            Process process = new ProcessBuilder(busybox.toString(), "--list").redirectErrorStream(true).start();
            String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!process.waitFor(10, TimeUnit.SECONDS) || process.exitValue() != 0) {
                throw new IllegalStateException(busybox + " --list failed: " + out);
            }
            return Set.copyOf(out.lines().map(String::strip).filter(l -> !l.isEmpty()).toList());
        } catch (IOException e) {
            throw new IllegalStateException("cannot run " + busybox, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
