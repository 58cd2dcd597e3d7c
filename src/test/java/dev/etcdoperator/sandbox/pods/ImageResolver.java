package dev.etcdoperator.sandbox.pods;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Maps a container image and its command line onto programs installed on this machine. Only images
 * the sandbox can stand in for are accepted: etcd images (their etcd, etcdctl, etcdutl and sh) and
 * busybox/alpine (a real busybox, {@link BusyboxImage}, in the sandbox; the host's sh and utilities in tests of the
 * runtime alone). Everything else is refused.
 */
final class ImageResolver {
    static final String IMAGE_NOT_EMULATED = "ImageNotEmulated";
    /** What a kubelet says of an image it cannot pull: an etcd image of a version the sandbox has no release of. */
    static final String ERR_IMAGE_PULL = "ErrImagePull";
    /** What a kubelet says while it waits to try pulling that image again. */
    static final String IMAGE_PULL_BACK_OFF = "ImagePullBackOff";
    static final String COMMAND_NOT_FOUND = "CommandNotFound";

    private static final List<String> SEARCH_PATH = List.of("/usr/local/bin", "/usr/bin", "/bin", "/usr/sbin", "/sbin");
    private static final List<String> ETCD_IMAGE_PROGRAMS = List.of("etcd", "etcdctl", "etcdutl", "sh");

    private final Map<String, Path> overrides;
    private final EtcdReleases releases;
    private final BusyboxImage busybox;

    ImageResolver() {
        this(Map.of(), EtcdReleases.hostOnly());
    }

    /** etcd images of these releases, busybox images with the sandbox's busybox. */
    ImageResolver(EtcdReleases releases) {
        this(Map.of(), releases, BusyboxImage.part());
    }

    ImageResolver(Map<String, Path> overrides, EtcdReleases releases) {
        this(overrides, releases, null);
    }

    /**
     * @param overrides program name to host path, used before the search path (e.g. a specific etcd)
     * @param releases  the etcd releases by version: an etcd image's tag must name one of them, unless there are none
     * @param busybox   what busybox and alpine images run; null: the host's programs
     */
    ImageResolver(Map<String, Path> overrides, EtcdReleases releases, BusyboxImage busybox) {
        this.overrides = Map.copyOf(overrides);
        this.releases = releases;
        this.busybox = busybox;
    }

    /** The host command line for a container whose command and args are already expanded. */
    List<String> commandLine(String image, List<String> command, List<String> args) throws NotEmulatedException {
        String repository = repository(image);
        String lastSegment = repository.substring(repository.lastIndexOf('/') + 1);
        List<String> argv = new ArrayList<>();
        if (repository.contains("etcd")) {
            argv.addAll(command.isEmpty() ? List.of("etcd") : command);
            argv.addAll(args);
            String program = basename(argv.get(0));
            if (!ETCD_IMAGE_PROGRAMS.contains(program)) {
                throw new NotEmulatedException(COMMAND_NOT_FOUND,
                        "the sandbox's etcd image provides only " + ETCD_IMAGE_PROGRAMS + ", not " + argv.get(0));
            }
            argv.set(0, program.equals("sh") ? hostProgram(program, image) : etcdProgram(program, image));
        } else if (lastSegment.equals("busybox") || lastSegment.equals("alpine")) {
            // the images have no entrypoint and CMD ["sh"]: args without a command replace that
            argv.addAll(command.isEmpty() && args.isEmpty() ? List.of("sh") : command);
            argv.addAll(args);
            if (busybox != null) {
                return busybox.commandLine(argv, image);
            }
            argv.set(0, hostProgram(basename(argv.get(0)), image));
        } else {
            throw new NotEmulatedException(IMAGE_NOT_EMULATED, "the sandbox cannot run image " + image
                    + ": only etcd images and busybox/alpine are emulated with local programs");
        }
        return argv;
    }

    private String etcdProgram(String program, String image) throws NotEmulatedException {
        if (releases.any() || overrides.containsKey(program)) {
            return hostProgram(program, image);
        }
        String version = tag(image).replaceFirst("^v", "");
        Path dir = releases.directory(version).orElseThrow(() -> new NotEmulatedException(ERR_IMAGE_PULL,
                "the sandbox has no etcd " + version + " for image " + image + "; it runs etcd "
                        + releases.versions() + " (image tags v<version>)"));
        Path path = dir.resolve(program);
        if (!Files.isExecutable(path)) {
            throw new NotEmulatedException(COMMAND_NOT_FOUND, "etcd " + version + " has no program " + program);
        }
        return path.toString();
    }

    static String tag(String image) {
        String withoutDigest = image.contains("@") ? image.substring(0, image.indexOf('@')) : image;
        int slash = withoutDigest.lastIndexOf('/');
        int colon = withoutDigest.lastIndexOf(':');
        return colon > slash ? withoutDigest.substring(colon + 1) : "latest";
    }

    static String repository(String image) {
        String withoutDigest = image.contains("@") ? image.substring(0, image.indexOf('@')) : image;
        int slash = withoutDigest.lastIndexOf('/');
        int colon = withoutDigest.lastIndexOf(':');
        return colon > slash ? withoutDigest.substring(0, colon) : withoutDigest;
    }

    private String hostProgram(String program, String image) throws NotEmulatedException {
        return find(program).map(Path::toString).orElseThrow(() -> new NotEmulatedException(COMMAND_NOT_FOUND,
                "program " + program + " of image " + image + " is not installed on this machine"));
    }

    private Optional<Path> find(String program) {
        if (overrides.containsKey(program)) {
            return Optional.of(overrides.get(program));
        }
        return SEARCH_PATH.stream().map(dir -> Path.of(dir, program)).filter(Files::isExecutable).findFirst();
    }

    private static String basename(String path) {
        return path.substring(path.lastIndexOf('/') + 1);
    }
}
