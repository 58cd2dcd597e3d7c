package dev.etcdoperator.restore;

import java.util.List;
import java.util.Optional;

import dev.etcdoperator.support.ApiRefusal;
import dev.etcdoperator.api.v1beta2.EtcdCluster;
import dev.etcdoperator.api.v1beta2.EtcdRestore;
import dev.etcdoperator.api.v1beta2.EtcdRestoreStatus;
import dev.etcdoperator.api.v1beta2.RestoreAnnotations;
import dev.etcdoperator.api.v1beta2.SavedClusterSpec;
import dev.etcdoperator.cluster.ClusterResources;
import dev.etcdoperator.cluster.ClusterValidation;
import dev.etcdoperator.cluster.StagedSeedPods;
import dev.etcdoperator.core.backup.BackupFailure;
import dev.etcdoperator.core.backup.StoredBackup;
import dev.etcdoperator.core.backup.BackupNames;
import dev.etcdoperator.core.backup.S3Location;
import dev.etcdoperator.core.cluster.Version;
import dev.etcdoperator.core.restore.RestorePlanner;
import dev.etcdoperator.core.validation.Validation;
import dev.etcdoperator.storage.BackupStorage;
import dev.etcdoperator.storage.S3Credentials;
import dev.etcdoperator.storage.S3Settings;
import dev.etcdoperator.storage.VerifiedBackup;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;

/**
 * Everything a restore checks before it changes anything: the template cluster exists, is valid and is not being
 * restored by another EtcdRestore; the backup can be read with the given credentials, matches the checksum
 * recorded when it was taken and is a whole etcd snapshot; the template fits the backup. When all passes, the
 * reconciler marks the template as being restored by this EtcdRestore ({@link TemplateLock}), for the spec the
 * preflight checked.
 */
final class RestorePreflight {
    static final String TEMPLATE_NOT_FOUND = "TemplateNotFound";
    static final String TEMPLATE_INVALID = "TemplateInvalid";
    static final String TEMPLATE_PAUSED = "TemplatePaused";
    static final String TEMPLATE_REFUSED = "TemplateRefusedByApiServer";
    static final String TEMPLATE_DELETING = "TemplateBeingDeleted";
    static final String TEMPLATE_TLS_UNUSABLE = "TemplateTLSUnusable";
    static final String TEMPLATE_OLDER_THAN_BACKUP = "TemplateOlderThanBackup";
    static final String TEMPLATE_VOLUME_TOO_SMALL = "TemplateVolumeTooSmall";
    static final String SNAPSHOT_SERVER_UNAVAILABLE = "SnapshotServerUnavailable";

    record Passed(EtcdCluster template, VerifiedBackup backup) {
    }

    private final KubernetesClient client;
    private final RestoreObserver observer;
    private final BackupStorage storage;

    RestorePreflight(KubernetesClient client, RestoreObserver observer, BackupStorage storage) {
        this.client = client;
        this.observer = observer;
        this.storage = storage;
    }

    Passed run(EtcdRestore restore) {
        String namespace = restore.getMetadata().getNamespace();
        String name = restore.getSpec().getEtcdCluster().getName();
        EtcdCluster template = observer.cluster(namespace, name);
        if (template == null) {
            throw new BackupFailure(TEMPLATE_NOT_FOUND, "EtcdCluster " + namespace + "/" + name
                    + " (spec.etcdCluster.name), the template of the restored cluster, does not exist", false);
        }
        if (template.getMetadata().getDeletionTimestamp() != null) {
            throw new BackupFailure(TEMPLATE_DELETING, "EtcdCluster " + namespace + "/" + name + " is being deleted"
                    + " (by someone else): a restore needs the cluster it rebuilds; create the EtcdCluster again"
                    + " once it is gone, then restore into it", false);
        }
        Validation validation = ClusterValidation.validate(template);
        if (!validation.valid()) {
            throw new BackupFailure(TEMPLATE_INVALID, "EtcdCluster " + namespace + "/" + name + " is not valid: "
                    + validation.message(), false);
        }
        Optional<String> tls = StagedSeedPods.tlsProblem(template, client);
        if (tls.isPresent()) {
            // its pods would not be made: a template deleted for a cluster that could not start
            throw new BackupFailure(TEMPLATE_TLS_UNUSABLE, "the restored cluster's members could not use the TLS"
                    + " Secrets of EtcdCluster " + namespace + "/" + name + " (spec.TLS): " + tls.get()
                    + ". Fix them, then restore", false);
        }
        acceptedByTheApiServer(template);
        restoredClusterAccepted(restore, template);
        if (Boolean.TRUE.equals(template.getSpec().getPaused())) {
            // the operator leaves a paused cluster alone, and one rebuilt from its spec would never be seeded
            throw new BackupFailure(TEMPLATE_PAUSED, "EtcdCluster " + namespace + "/" + name
                    + " is paused (spec.paused): set spec.paused to false, then restore", false);
        }
        String restoredBy = annotation(template, RestoreAnnotations.RESTORED_BY);
        if (restoredBy != null && !restoredBy.equals(restore.getMetadata().getName())
                && observer.restoreActive(namespace, restoredBy)) {
            throw new BackupFailure(RestorePlanner.REASON_OTHER_RESTORE, "EtcdRestore " + restoredBy
                    + " is still restoring this cluster", false);
        }
        S3Location location = S3Location.parse(restore.getSpec().getS3().getPath());
        S3Settings settings = S3Credentials.settings(client, namespace, restore.getSpec().getS3());
        VerifiedBackup backup;
        try (BackupStorage.Store store = storage.open(settings)) {
            try {
                backup = store.verify(location);
            } catch (BackupFailure e) {
                throw e.reason().equals(BackupFailure.S3_OBJECT_NOT_FOUND) ? periodicPrefix(store, location, e) : e;
            }
        }
        fitsTheTemplate(template, backup);
        if (backup.encrypted() && !storage.servesDecrypted()) {
            throw new BackupFailure(SNAPSHOT_SERVER_UNAVAILABLE, "the backup is client-side encrypted, and the seed"
                    + " member downloads it decrypted from the operator, which knows no address of its own that pods"
                    + " reach: set etcd-operator.snapshot-server.host (the Helm chart sets it to the pod's IP)", false);
        }
        return new Passed(template, backup);
    }

    /**
     * No object at the path: when it is the prefix of periodic backups (the path of a periodic EtcdBackup), the
     * failure names the newest of them, the object a restore names.
     */
    private static BackupFailure periodicPrefix(BackupStorage.Store store, S3Location location, BackupFailure notFound) {
        List<StoredBackup> periodic;
        try {
            periodic = store.periodicBackups(location, java.time.Instant.now().plusSeconds(30));
        } catch (RuntimeException e) {
            return notFound;
        }
        return periodic.stream().map(b -> BackupNames.parsePeriodic(location.key(), b.key())).flatMap(Optional::stream)
                .max(java.util.Comparator.comparing(BackupNames.Periodic::time)
                        .thenComparingLong(BackupNames.Periodic::revision))
                .map(newest -> new BackupFailure(BackupFailure.S3_OBJECT_NOT_FOUND, notFound.getMessage() + "; "
                        + location + " is the prefix of " + periodic.size() + " periodic backup(s): name one of them"
                        + " in s3.path, such as the newest, " + location.bucket() + "/" + newest.key(), false))
                .orElse(notFound);
    }

    /**
     * etcd restores a snapshot into its own minor version or a later one, not an earlier one; and the seed member
     * keeps the downloaded snapshot beside the restored data on its volume until the restore is done.
     */
    static void fitsTheTemplate(EtcdCluster template, VerifiedBackup backup) {
        String name = template.getMetadata().getNamespace() + "/" + template.getMetadata().getName();
        String runs = ClusterResources.version(template.getSpec());
        Optional<Version> taken = backup.version() == null ? Optional.empty() : Version.parse(backup.version());
        Optional<Version> restoring = Version.parse(runs);
        if (taken.isPresent() && restoring.isPresent() && (taken.get().major() > restoring.get().major()
                || taken.get().major() == restoring.get().major() && taken.get().minor() > restoring.get().minor())) {
            throw new BackupFailure(TEMPLATE_OLDER_THAN_BACKUP, "the backup was taken of etcd " + backup.version()
                    + ", and EtcdCluster " + name + " runs " + runs + ": etcd does not restore a snapshot into an"
                    + " earlier minor version. Set its spec.version to " + taken.get().major() + "."
                    + taken.get().minor() + " or later, then restore", false);
        }
        var claim = template.getSpec().getPod() == null ? null : template.getSpec().getPod().getPersistentVolumeClaimSpec();
        Quantity storage = claim == null || claim.getResources() == null || claim.getResources().getRequests() == null
                ? null : claim.getResources().getRequests().get("storage");
        if (storage == null) {
            return;
        }
        long bytes;
        try {
            bytes = Quantity.getAmountInBytes(storage).longValueExact();
        } catch (ArithmeticException | IllegalArgumentException e) {
            return;
        }
        long needs = 2 * backup.size();
        if (needs > bytes) {
            throw new BackupFailure(TEMPLATE_VOLUME_TOO_SMALL, "the seed member's volume would be too small: it holds"
                    + " the " + backup.size() + "-byte backup and the data restored from it, about " + needs
                    + " bytes, and EtcdCluster " + name + " asks " + storage + " (spec.pod.persistentVolumeClaimSpec)."
                    + " Ask more storage, then restore", false);
        }
    }

    /**
     * The API server would take the restored cluster's seed pod (and claim), asked in a dry run: the operator checks
     * its own fields, but passes the embedded Kubernetes types of spec.pod on as given, and a template whose pods are
     * refused would be deleted for a cluster that could never start. A running template may have such a spec: its
     * pods were made before the spec changed.
     */
    void acceptedByTheApiServer(EtcdCluster template) {
        String namespace = template.getMetadata().getNamespace();
        var probes = StagedSeedPods.probes(template, template.getMetadata().getName() + "-preflight", client);
        for (HasMetadata probe : probes.orElse(java.util.List.of())) {
            try {
                client.resource(probe).inNamespace(namespace).dryRun().create();
            } catch (KubernetesClientException e) {
                String said = ApiRefusal.said(e);
                if (ApiRefusal.exceededQuota(e) && deletionFrees(template, probe.getKind())) {
                    // the template's own pods and claims count against the quota now; deleting it frees them (not
                    // a claim it keeps, spec.pod.persistentVolumeClaimRetention: Retain, which has no owner)
                    continue;
                }
                if (e.getCode() == 400 || e.getCode() == 403 || e.getCode() == 422) {
                    throw new BackupFailure(TEMPLATE_REFUSED, "the API server refuses the " + probe.getKind()
                            .toLowerCase(java.util.Locale.ROOT) + " the restored cluster's seed member would get"
                            + " (asked in a dry run): " + said + ". Fix spec.pod of EtcdCluster " + namespace + "/"
                            + template.getMetadata().getName() + ", then restore", false);
                }
                throw e;
            }
        }
    }

    /** Whether the template owns an object of {@code kind} that the garbage collector deletes with it. */
    private boolean deletionFrees(EtcdCluster template, String kind) {
        String namespace = template.getMetadata().getNamespace();
        String label = template.getMetadata().getName();
        var owned = "Pod".equals(kind)
                ? client.pods().inNamespace(namespace).withLabel(ClusterResources.LABEL_CLUSTER, label).list()
                        .getItems().stream().map(HasMetadata::getMetadata)
                : "PersistentVolumeClaim".equals(kind)
                        ? client.persistentVolumeClaims().inNamespace(namespace)
                                .withLabel(ClusterResources.LABEL_CLUSTER, label).list().getItems().stream()
                                .map(HasMetadata::getMetadata)
                        : java.util.stream.Stream.<io.fabric8.kubernetes.api.model.ObjectMeta>empty();
        return owned.anyMatch(m -> m.getOwnerReferences() != null && m.getOwnerReferences().stream()
                .anyMatch(o -> template.getMetadata().getUid().equals(o.getUid())));
    }

    /**
     * The API server would take the restored cluster as the restore creates it from the template (its spec, labels
     * and annotations, with the restore's own annotations added), asked in a dry run: a template whose annotations
     * leave no room for the restore's, say, would be deleted for a cluster that cannot be created. The template has
     * the name now, so a dry run that passes every check is answered 409.
     */
    private void restoredClusterAccepted(EtcdRestore restore, EtcdCluster template) {
        String namespace = template.getMetadata().getNamespace();
        String name = template.getMetadata().getName();
        EtcdRestore asPassed = new EtcdRestore();
        asPassed.setMetadata(new io.fabric8.kubernetes.api.model.ObjectMetaBuilder()
                .withName(restore.getMetadata().getName()).withNamespace(namespace)
                .withUid(restore.getMetadata().getUid()).build());
        asPassed.setStatus(new EtcdRestoreStatus());
        asPassed.getStatus().setClusterSpec(SavedClusterSpec.of(template.getSpec()));
        asPassed.getStatus().setClusterLabels(template.getMetadata().getLabels());
        asPassed.getStatus().setClusterAnnotations(EtcdRestoreReconciler.savedAnnotations(template));
        EtcdCluster restored = RestoreActions.wanted(asPassed, name, SeedStager.memberName(restore, name));
        try {
            client.resource(restored).inNamespace(namespace).dryRun().create();
        } catch (KubernetesClientException e) {
            if (e.getCode() == 409) {
                return;
            }
            refusedOrThrow(e, "EtcdCluster the restore would create in its place");
        }
    }

    private static void refusedOrThrow(KubernetesClientException e, String what) {
        String said = ApiRefusal.said(e);
        if (ApiRefusal.exceededQuota(e)) {
            // the template counts against the quota now; deleting it frees its place
            return;
        }
        if (e.getCode() == 400 || e.getCode() == 403 || e.getCode() == 422) {
            throw new BackupFailure(TEMPLATE_REFUSED, "the API server refuses the " + what + " (asked in a dry run): "
                    + said + ". Fix the template EtcdCluster, then restore", false);
        }
        throw e;
    }

    private static String annotation(EtcdCluster cluster, String key) {
        return cluster.getMetadata().getAnnotations() == null ? null : cluster.getMetadata().getAnnotations().get(key);
    }
}
