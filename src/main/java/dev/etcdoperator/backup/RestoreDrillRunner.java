package dev.etcdoperator.backup;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

import dev.etcdoperator.api.v1beta2.PodPolicy;
import dev.etcdoperator.api.v1beta2.EtcdBackup;
import dev.etcdoperator.api.v1beta2.EtcdBackupStatus;
import dev.etcdoperator.api.v1beta2.EtcdCluster;
import dev.etcdoperator.api.v1beta2.EtcdClusterSpec;
import dev.etcdoperator.api.v1beta2.InputRules;
import dev.etcdoperator.api.v1beta2.RestoreDrillPolicy;
import dev.etcdoperator.cluster.ClusterResources;
import dev.etcdoperator.cluster.SnapshotFetch;
import dev.etcdoperator.core.backup.BackupFailure;
import dev.etcdoperator.core.backup.BackupStatusBuilder;
import dev.etcdoperator.core.backup.DrillVerdict;
import dev.etcdoperator.core.backup.KeyspaceFingerprint;
import dev.etcdoperator.core.backup.S3Location;
import dev.etcdoperator.etcd.EtcdAdmin;
import dev.etcdoperator.etcd.EtcdAdminException;
import dev.etcdoperator.etcd.EtcdAdminFactory;
import dev.etcdoperator.storage.BackupStorage;
import dev.etcdoperator.storage.S3Credentials;
import dev.etcdoperator.storage.VerifiedBackup;
import io.fabric8.kubernetes.api.model.ContainerStateTerminated;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientTimeoutException;
import io.fabric8.kubernetes.client.dsl.NonDeletingOperation;
import org.jboss.logging.Logger;

/**
 * One restore drill: reads the backup whole and checks it (the SHA-256 the backup recorded, etcd's own hash
 * trailer), then has a {@link DrillPod} fetch it by a presigned URL, restore it and serve it; reads the restored
 * member's revision, {@code HashKV} and key count at the backup's revision, and lets {@link DrillVerdict} judge.
 * The pod and its Secret are deleted on every way out. Every step ends by the drill's deadline.
 */
final class RestoreDrillRunner implements RestoreDrillTaker {
    static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(300);
    private static final Duration POLL = Duration.ofMillis(500);
    private static final Logger LOG = Logger.getLogger(RestoreDrillRunner.class);
    private static final ExecutorService READS = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "restore-drill-read");
        t.setDaemon(true);
        return t;
    });

    private final KubernetesClient client;
    private final BackupStorage storage;
    private final EtcdAdminFactory admins;
    private final Clock clock;

    RestoreDrillRunner(KubernetesClient client, BackupStorage storage, EtcdAdminFactory admins, Clock clock) {
        this.client = client;
        this.storage = storage;
        this.admins = admins;
        this.clock = clock;
    }

    /** Ends a drill early with its outcome. */
    private static final class Stop extends RuntimeException {
        final DrillVerdict.Outcome outcome;

        Stop(String reason, String message) {
            super(message, null, false, false);
            this.outcome = DrillVerdict.Outcome.failed(reason, message);
        }
    }

    @Override
    public DrillVerdict.Outcome drill(EtcdBackup backup, String path) {
        Duration timeout = timeout(backup.getSpec().getRestoreDrill());
        Instant deadline = clock.instant().plus(timeout);
        removeLeftovers(backup);
        try {
            return drill(backup, path, timeout, deadline);
        } catch (Stop stop) {
            return stop.outcome;
        } catch (BackupFailure f) {
            return DrillVerdict.Outcome.failed(f.reason().equals(BackupFailure.TIMEOUT) ? DrillVerdict.TIMEOUT
                    : DrillVerdict.DRILL_FAILED, "the drill of " + path + " failed: " + f.getMessage());
        } catch (RuntimeException e) {
            LOG.warnf(e, "the restore drill of %s failed", path);
            return DrillVerdict.Outcome.failed(DrillVerdict.DRILL_FAILED, "the drill of " + path + " failed: " + e);
        } finally {
            removeLeftovers(backup);
        }
    }

    private DrillVerdict.Outcome drill(EtcdBackup backup, String path, Duration timeout, Instant deadline) {
        EtcdBackupStatus status = backup.getStatus();
        String namespace = backup.getMetadata().getNamespace();
        long revision = status.getEtcdRevision() == null ? 0 : status.getEtcdRevision();
        KeyspaceFingerprint recorded = BackupStatusBuilder.recordedKeyspace(status);
        if (recorded != null && recorded.revision() != revision) {
            recorded = null;
        }
        S3Location location = S3Location.parse(path);
        VerifiedBackup verified;
        String url;
        try (BackupStorage.Store store = storage.open(S3Credentials.settings(client, namespace,
                backup.getSpec().getS3()))) {
            verified = within(deadline, timeout, "reading " + path, () -> verify(store, location, path));
            if (status.getBackupSha256() != null && !status.getBackupSha256().equalsIgnoreCase(verified.sha256())) {
                throw new Stop(DrillVerdict.DIGEST_MISMATCH, path + " is not the object the backup stored: its SHA-256"
                        + " is " + verified.sha256() + ", the backup recorded " + status.getBackupSha256());
            }
            url = store.presignedGet(location, verified.object(), timeout);
        }
        String version = status.getEtcdVersion() != null ? status.getEtcdVersion() : verified.version();
        if (version != null && !drillable(version)) {
            // read from the backed-up member or the object's metadata: it becomes an image tag
            throw new Stop(DrillVerdict.DRILL_FAILED, "the backup records etcd version "
                    + "\"" + version.replaceAll("\\p{Cntrl}", "?") + "\""
                    + ", which is no version a drill can run (a semantic version, "
                    + dev.etcdoperator.api.v1beta2.InputRules.OLDEST_ETCD_VERSION + " or later)");
        }
        Secret existing = client.secrets().inNamespace(namespace).withName(DrillPod.secretName(backup)).get();
        if (existing != null && !ownedBy(existing.getMetadata(), backup)) {
            throw new Stop(DrillVerdict.DRILL_FAILED, "a Secret " + DrillPod.secretName(backup) + " exists in namespace "
                    + namespace + " that this EtcdBackup does not own; the drill needs that name and leaves the"
                    + " Secret alone");
        }
        String secret = client.secrets().inNamespace(namespace)
                .resource(DrillPod.secret(backup, url, verified.snapshotSha256(), verified.object().etag()))
                .createOr(NonDeletingOperation::update).getMetadata().getName();
        Images images = images(backup, version);
        String pod = client.pods().inNamespace(namespace)
                .resource(DrillPod.pod(backup, secret, images.version(), images.etcd(), images.busybox(), images.pod()))
                .create()
                .getMetadata().getName();
        String ip = awaitServing(namespace, pod, path, deadline, timeout);
        String clientUrl = "http://" + (ip.contains(":") ? "[" + ip + "]" : ip) + ":" + ClusterResources.CLIENT_PORT;
        try (EtcdAdmin admin = admins.open(List.of(clientUrl), null)) {
            long restoredRevision = awaitAnswer(admin, clientUrl, path, deadline, timeout);
            KeyspaceFingerprint restored = restoredRevision < revision ? null
                    : within(deadline, timeout, "reading the restored member",
                            () -> admin.keyspace(clientUrl, revision));
            return DrillVerdict.judge(path, revision, recorded, restoredRevision, restored);
        }
    }

    private static VerifiedBackup verify(BackupStorage.Store store, S3Location location, String path) {
        try {
            return store.verify(location);
        } catch (BackupFailure f) {
            if (f.reason().equals(BackupFailure.VERIFICATION_FAILED)) {
                throw new Stop(DrillVerdict.DIGEST_MISMATCH, f.getMessage());
            }
            if (f.reason().equals(BackupFailure.S3_OBJECT_NOT_FOUND)) {
                throw new Stop(DrillVerdict.RESTORE_FAILED, path + " is gone: " + f.getMessage());
            }
            throw f;
        }
    }

    /** Waits until the pod's etcd runs (its IP) or the pod failed (which step, why). */
    private String awaitServing(String namespace, String name, String path, Instant deadline, Duration timeout) {
        Pod pod;
        try {
            pod = client.pods().inNamespace(namespace).withName(name).waitUntilCondition(
                    p -> p == null || failure(p).isPresent() || serving(p),
                    Math.max(1, Duration.between(clock.instant(), deadline).toMillis()), TimeUnit.MILLISECONDS);
        } catch (KubernetesClientTimeoutException e) {
            throw new Stop(DrillVerdict.TIMEOUT, "the drill of " + path + " did not finish within " + timeout.toSeconds()
                    + " s (restoreDrill.timeoutInSecond): its pod " + name + " was not serving by then");
        }
        if (pod == null) {
            throw new Stop(DrillVerdict.DRILL_FAILED, "the drill pod " + name + " of " + path + " was deleted");
        }
        Optional<String> failure = failure(pod);
        if (failure.isPresent()) {
            if (downloadFailed(pod)) {
                // the backup was read and checked whole just before: a download that failed says nothing about it
                throw new Stop(DrillVerdict.INTERRUPTED, "the drill of " + path + " was interrupted: its pod could not"
                        + " download the snapshot (" + failure.get() + "), as when the operator restarts while it"
                        + " serves it; nothing was found wrong with the backup");
            }
            throw new Stop(DrillVerdict.RESTORE_FAILED, path + " could not be restored: " + failure.get());
        }
        return pod.getStatus().getPodIP();
    }

    /** Whether the pod's fetch ended because the download itself failed (see {@link SnapshotFetch#DOWNLOAD_FAILED}). */
    static boolean downloadFailed(Pod pod) {
        return pod.getStatus() != null && statuses(pod.getStatus().getInitContainerStatuses()).stream()
                .anyMatch(c -> c.getName().equals(DrillPod.FETCH) && c.getState() != null
                        && c.getState().getTerminated() != null
                        && Integer.valueOf(SnapshotFetch.DOWNLOAD_FAILED).equals(c.getState().getTerminated().getExitCode()));
    }

    private static boolean serving(Pod pod) {
        return pod.getStatus() != null && pod.getStatus().getPodIP() != null && statuses(pod.getStatus()
                .getContainerStatuses()).stream().anyMatch(c -> c.getName().equals(DrillPod.ETCD)
                        && c.getState() != null && c.getState().getRunning() != null);
    }

    static Optional<String> failure(Pod pod) {
        if (pod.getStatus() == null) {
            return Optional.empty();
        }
        for (ContainerStatus c : statuses(pod.getStatus().getInitContainerStatuses())) {
            ContainerStateTerminated t = c.getState() == null ? null : c.getState().getTerminated();
            if (t != null && t.getExitCode() != null && t.getExitCode() != 0) {
                String what = c.getName().equals(DrillPod.FETCH)
                        ? "the pod could not download it whole, or its SHA-256 was not the one just read"
                        : "etcd's snapshot restore refused it";
                return Optional.of(what + " (container " + c.getName() + " exited with " + t.getExitCode()
                        + (t.getMessage() == null || t.getMessage().isBlank() ? "" : ": " + t.getMessage().strip())
                        + ")");
            }
        }
        for (ContainerStatus c : statuses(pod.getStatus().getContainerStatuses())) {
            ContainerStateTerminated t = c.getState() == null ? null : c.getState().getTerminated();
            if (t != null) {
                return Optional.of("etcd stopped on the restored data (exit " + t.getExitCode() + ")");
            }
        }
        return "Failed".equals(pod.getStatus().getPhase())
                ? Optional.of("the pod failed: " + pod.getStatus().getReason() + " " + pod.getStatus().getMessage())
                : Optional.empty();
    }

    private static List<ContainerStatus> statuses(List<ContainerStatus> statuses) {
        return statuses == null ? List.of() : statuses;
    }

    /** The restored member's revision, once it answers. */
    private long awaitAnswer(EtcdAdmin admin, String clientUrl, String path, Instant deadline, Duration timeout) {
        EtcdAdminException last = null;
        while (clock.instant().isBefore(deadline)) {
            try {
                return admin.revision(clientUrl);
            } catch (EtcdAdminException e) {
                last = e;
            }
            try {
                Thread.sleep(POLL.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        throw new Stop(DrillVerdict.TIMEOUT, "the member restored from " + path + " did not answer within "
                + timeout.toSeconds() + " s (restoreDrill.timeoutInSecond)"
                + (last == null ? "" : ": " + last.getMessage()));
    }

    private <T> T within(Instant deadline, Duration timeout, String step, Supplier<T> work) {
        Future<T> future = READS.submit(work::get);
        try {
            return future.get(Math.max(1, Duration.between(clock.instant(), deadline).toMillis()), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            future.cancel(true);
            throw new Stop(DrillVerdict.TIMEOUT, "the drill did not finish within " + timeout.toSeconds()
                    + " s (restoreDrill.timeoutInSecond): still " + step);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
        } catch (InterruptedException e) {
            future.cancel(true);
            Thread.currentThread().interrupt();
            throw new Stop(DrillVerdict.INTERRUPTED, "the drill was interrupted while " + step);
        }
    }

    /** @param version the etcd version the image runs, which picks the restore tool */
    private record Images(String etcd, String version, String busybox, PodPolicy pod) {
    }

    /**
     * The named EtcdCluster's repository and busybox image when there is one and its spec is valid, the defaults
     * otherwise; {@code version} when the backup recorded one, else the cluster's (or the default) version.
     */
    private Images images(EtcdBackup backup, String version) {
        EtcdClusterSpec spec = new EtcdClusterSpec();
        if (backup.getSpec().getEtcdCluster() != null) {
            EtcdCluster cluster = client.resources(EtcdCluster.class).inNamespace(backup.getMetadata().getNamespace())
                    .withName(backup.getSpec().getEtcdCluster().getName()).get();
            if (cluster != null && cluster.getSpec() != null
                    && dev.etcdoperator.cluster.ClusterValidation.validate(cluster).valid()) {
                spec = cluster.getSpec();
            }
        }
        String busybox = spec.getPod() == null || spec.getPod().getBusyboxImage() == null
                ? ClusterResources.DEFAULT_BUSYBOX : spec.getPod().getBusyboxImage();
        String used = version != null ? version : ClusterResources.version(spec);
        return new Images(ClusterResources.image(spec, used), used, busybox, spec.getPod());
    }

    /** A version the drill's image tag may be made of. */
    static boolean drillable(String version) {
        if (version == null || version.length() > dev.etcdoperator.api.v1beta2.InputRules.VERSION_MAX_LENGTH
                || !version.matches(dev.etcdoperator.api.v1beta2.SemVer.PATTERN)) {
            return false;
        }
        var oldest = dev.etcdoperator.core.cluster.Version.parse(dev.etcdoperator.api.v1beta2.InputRules
                .OLDEST_ETCD_VERSION).orElseThrow();
        return dev.etcdoperator.core.cluster.Version.parse(version).map(v -> v.compareTo(oldest) >= 0).orElse(false);
    }

    @Override
    public void removeLeftovers(EtcdBackup backup) {
        String namespace = backup.getMetadata().getNamespace();
        String uid = backup.getMetadata().getUid();
        try {
            // the label finds them; only the owner reference says they are this backup's
            for (Pod pod : client.pods().inNamespace(namespace).withLabel(DrillPod.LABEL, uid).list().getItems()) {
                if (ownedBy(pod.getMetadata(), backup)) {
                    client.pods().inNamespace(namespace).withName(pod.getMetadata().getName()).delete();
                }
            }
            Secret secret = client.secrets().inNamespace(namespace).withName(DrillPod.secretName(backup)).get();
            if (secret != null && ownedBy(secret.getMetadata(), backup)) {
                client.secrets().inNamespace(namespace).withName(DrillPod.secretName(backup)).delete();
            }
        } catch (RuntimeException e) {
            LOG.warnf("the restore drill pods of EtcdBackup %s/%s were not deleted (the next drill tries again): %s",
                    namespace, backup.getMetadata().getName(), e.getMessage());
        }
    }

    /** Made by the drill of this very backup: its controller is the backup, by uid. */
    static boolean ownedBy(ObjectMeta meta, EtcdBackup backup) {
        return meta.getOwnerReferences() != null && meta.getOwnerReferences().stream()
                .anyMatch(o -> Boolean.TRUE.equals(o.getController())
                        && backup.getMetadata().getUid().equals(o.getUid()));
    }

    /** The timeout, capped at the API's maximum. */
    static Duration timeout(RestoreDrillPolicy policy) {
        return policy == null || policy.getTimeoutInSecond() == null || policy.getTimeoutInSecond() <= 0
                ? DEFAULT_TIMEOUT
                : Duration.ofSeconds(Math.min(policy.getTimeoutInSecond(), InputRules.MAX_DRILL_TIMEOUT_SECONDS));
    }
}
