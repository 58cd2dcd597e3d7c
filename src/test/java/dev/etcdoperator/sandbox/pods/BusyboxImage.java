package dev.etcdoperator.sandbox.pods;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
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
    private final Supplier<Path> program;
    private volatile Set<String> applets;

    BusyboxImage(Supplier<Path> program) {
        this.program = program;
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
        line.add(program.get().toString()); // known: applets() found it
        line.add(applet);
        line.addAll(argv.subList(1, argv.size()));
        return line;
    }

    private Set<String> applets() {
        Set<String> known = applets;
        if (known == null) {
            known = list(program.get());
            applets = known;
        }
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
