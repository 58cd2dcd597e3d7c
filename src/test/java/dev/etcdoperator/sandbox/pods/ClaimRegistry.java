package dev.etcdoperator.sandbox.pods;

import io.fabric8.kubernetes.api.model.ObjectReferenceBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolumeBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PersistentVolumeStatusBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimStatusBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Stands in for a local volume provisioner and the volume binder: binds every claim at once to a
 * PersistentVolume of its own (a host directory, named {@code pvc-<claim uid>}), removes that
 * directory when the claim is deleted and no pod process uses it any more, and tells pods whether
 * they may use a claim yet.
 */
final class ClaimRegistry implements AutoCloseable {
    private static final Logger LOG = Logger.getLogger(ClaimRegistry.class.getName());

    private final KubernetesClient client;
    private final VolumeDirectories volumes;
    /** claim key to the pods holding it, and whether each of them is stopping */
    private final Map<String, Map<String, Boolean>> users = new HashMap<>();
    private final Set<String> deletedWhileInUse = new HashSet<>();
    private SharedIndexInformer<PersistentVolumeClaim> informer;

    ClaimRegistry(KubernetesClient client, VolumeDirectories volumes) {
        this.client = client;
        this.volumes = volumes;
    }

    void start() {
        informer = client.persistentVolumeClaims().inAnyNamespace().inform(new ResourceEventHandler<>() {
            @Override
            public void onAdd(PersistentVolumeClaim pvc) {
                bind(pvc);
            }

            @Override
            public void onUpdate(PersistentVolumeClaim old, PersistentVolumeClaim pvc) {
                bind(pvc);
            }

            @Override
            public void onDelete(PersistentVolumeClaim pvc, boolean unknownFinalState) {
                deleted(pvc.getMetadata().getNamespace(), pvc.getMetadata().getName());
                try {
                    client.persistentVolumes().withName(volumeName(pvc)).delete();
                } catch (KubernetesClientException e) {
                    LOG.log(Level.WARNING, "cannot delete the volume of claim " + pvc.getMetadata().getName(), e);
                }
            }
        });
    }

    private void bind(PersistentVolumeClaim pvc) {
        String ns = pvc.getMetadata().getNamespace();
        String name = pvc.getMetadata().getName();
        synchronized (this) {
            deletedWhileInUse.remove(key(ns, name));
        }
        if (pvc.getStatus() != null && "Bound".equals(pvc.getStatus().getPhase())) {
            return;
        }
        try {
            Files.createDirectories(volumes.claimDir(ns, name));
            Map<String, Quantity> capacity = pvc.getSpec() != null && pvc.getSpec().getResources() != null
                    && pvc.getSpec().getResources().getRequests() != null
                    ? pvc.getSpec().getResources().getRequests() : Map.of();
            String volume = volumeName(pvc);
            if (client.persistentVolumes().withName(volume).get() == null) {
                client.persistentVolumes().resource(new PersistentVolumeBuilder().withNewMetadata().withName(volume)
                        .addToAnnotations("pv.kubernetes.io/provisioned-by", "sandbox-node-agent").endMetadata()
                        .withNewSpec().withCapacity(capacity).withAccessModes(pvc.getSpec().getAccessModes())
                        .withPersistentVolumeReclaimPolicy("Delete")
                        .withStorageClassName(pvc.getSpec().getStorageClassName())
                        .withNewHostPath().withPath(volumes.claimDir(ns, name).toString()).endHostPath()
                        .withClaimRef(new ObjectReferenceBuilder().withApiVersion("v1").withKind("PersistentVolumeClaim")
                                .withNamespace(ns).withName(name).withUid(pvc.getMetadata().getUid()).build())
                        .endSpec().build()).create();
            }
            for (int attempt = 0; attempt < 10; attempt++) {
                PersistentVolumeClaim latest = client.persistentVolumeClaims().inNamespace(ns).withName(name).get();
                if (latest == null || !latest.getMetadata().getUid().equals(pvc.getMetadata().getUid())) {
                    return;
                }
                try {
                    if (latest.getSpec().getVolumeName() == null) {
                        latest.getSpec().setVolumeName(volume);
                        Map<String, String> annotations = latest.getMetadata().getAnnotations() == null
                                ? new HashMap<>() : new HashMap<>(latest.getMetadata().getAnnotations());
                        annotations.put("pv.kubernetes.io/bind-completed", "yes");
                        annotations.put("pv.kubernetes.io/bound-by-controller", "yes");
                        latest.getMetadata().setAnnotations(annotations);
                        latest = client.resource(latest).update();
                    }
                    latest.setStatus(new PersistentVolumeClaimStatusBuilder().withPhase("Bound")
                            .withAccessModes(latest.getSpec() == null ? null : latest.getSpec().getAccessModes())
                            .withCapacity(capacity).build());
                    client.resource(latest).updateStatus();
                    client.persistentVolumes().withName(volume).editStatus(pv -> {
                        pv.setStatus(new PersistentVolumeStatusBuilder().withPhase("Bound").build());
                        return pv;
                    });
                    return;
                } catch (KubernetesClientException e) {
                    if (e.getCode() != 409) {
                        throw e;
                    }
                }
            }
        } catch (Exception e) {
            LOG.log(Level.WARNING, "cannot bind claim " + ns + "/" + name, e);
        }
    }

    /** The PersistentVolume behind a claim, named after the claim's uid as dynamic provisioners do. */
    private static String volumeName(PersistentVolumeClaim pvc) {
        return "pvc-" + pvc.getMetadata().getUid();
    }

    private synchronized void deleted(String ns, String name) {
        String key = key(ns, name);
        if (users.containsKey(key)) {
            deletedWhileInUse.add(key);
        } else {
            VolumeDirectories.deleteTree(volumes.claimDir(ns, name));
        }
    }

    /** Null when the pod may use the claim now, else why it has to wait. */
    synchronized String acquire(String ns, String claim, String podUid) {
        PersistentVolumeClaim pvc = informer == null ? null : informer.getStore().getByKey(ns + "/" + claim);
        if (pvc == null) {
            return "persistentvolumeclaim \"" + claim + "\" not found";
        }
        if (pvc.getStatus() == null || !"Bound".equals(pvc.getStatus().getPhase())) {
            return "persistentvolumeclaim \"" + claim + "\" is not bound yet";
        }
        Map<String, Boolean> holders = users.computeIfAbsent(key(ns, claim), k -> new HashMap<>());
        if (holders.entrySet().stream().anyMatch(e -> !e.getKey().equals(podUid) && e.getValue())) {
            return "persistentvolumeclaim \"" + claim + "\" is still used by a stopping pod";
        }
        holders.put(podUid, false);
        return null;
    }

    synchronized void stopping(String ns, String claim, String podUid) {
        Map<String, Boolean> holders = users.get(key(ns, claim));
        if (holders != null && holders.containsKey(podUid)) {
            holders.put(podUid, true);
        }
    }

    synchronized void release(String ns, String claim, String podUid) {
        String key = key(ns, claim);
        Map<String, Boolean> holders = users.get(key);
        if (holders == null) {
            return;
        }
        holders.remove(podUid);
        if (holders.isEmpty()) {
            users.remove(key);
            if (deletedWhileInUse.remove(key)) {
                VolumeDirectories.deleteTree(volumes.claimDir(ns, claim));
            }
        }
    }

    private static String key(String ns, String claim) {
        return ns + "/" + claim;
    }

    Path dir(String ns, String claim) {
        return volumes.claimDir(ns, claim);
    }

    @Override
    public void close() {
        if (informer != null) {
            informer.close();
        }
    }
}
