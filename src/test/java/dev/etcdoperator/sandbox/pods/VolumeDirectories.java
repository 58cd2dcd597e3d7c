package dev.etcdoperator.sandbox.pods;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.KeyToPath;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeProjection;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.Base64;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Where a pod's volumes live on the host. emptyDir, secret, configMap and projected volumes are directories of
 * the pod and go away with it; a persistentVolumeClaim is the claim's own directory, which outlives
 * every pod and is removed only when the claim is deleted.
 */
final class VolumeDirectories {
    static final String VOLUME_NOT_EMULATED = "VolumeNotEmulated";
    static final String FAILED_MOUNT = "FailedMount";

    private final Path stateDir;

    VolumeDirectories(Path stateDir) {
        this.stateDir = stateDir;
    }

    Path podDir(Pod pod) {
        return stateDir.resolve("pods").resolve(pod.getMetadata().getNamespace())
                .resolve(pod.getMetadata().getName() + "_" + pod.getMetadata().getUid());
    }

    Path logDir(Pod pod) {
        return stateDir.resolve("logs").resolve(pod.getMetadata().getNamespace())
                .resolve(pod.getMetadata().getName() + "_" + pod.getMetadata().getUid());
    }

    Path claimDir(String namespace, String claim) {
        return stateDir.resolve("pvcs").resolve(namespace).resolve(claim);
    }

    /** Refuses volume kinds the sandbox does not emulate. */
    static void validate(Pod pod) throws NotEmulatedException {
        for (Volume v : volumes(pod)) {
            if (v.getEmptyDir() == null && v.getPersistentVolumeClaim() == null && v.getSecret() == null
                    && v.getConfigMap() == null && v.getProjected() == null) {
                String kind = v.getHostPath() != null ? "hostPath" : "this kind of volume";
                throw new NotEmulatedException(VOLUME_NOT_EMULATED, "volume " + v.getName() + ": " + kind
                        + " is not emulated by the sandbox (emptyDir, persistentVolumeClaim, secret, configMap and"
                        + " projected are)");
            }
            if (v.getProjected() != null) {
                for (VolumeProjection source : v.getProjected().getSources()) {
                    if (source.getClusterTrustBundle() != null || source.getPodCertificate() != null) {
                        throw new NotEmulatedException(VOLUME_NOT_EMULATED, "volume " + v.getName()
                                + ": only serviceAccountToken, configMap, secret and downwardAPI projections are"
                                + " emulated by the sandbox");
                    }
                }
            }
        }
    }

    static List<Volume> volumes(Pod pod) {
        return pod.getSpec().getVolumes() == null ? List.of() : pod.getSpec().getVolumes();
    }

    /** Creates the pod's volume directories and files; returns volume name to host directory. */
    Map<String, Path> prepare(KubernetesClient client, Pod pod) throws NotEmulatedException {
        Map<String, Path> dirs = new LinkedHashMap<>();
        String ns = pod.getMetadata().getNamespace();
        try {
            Files.createDirectories(podDir(pod));
            for (Volume v : volumes(pod)) {
                Path dir;
                if (v.getPersistentVolumeClaim() != null) {
                    dir = claimDir(ns, v.getPersistentVolumeClaim().getClaimName());
                } else {
                    dir = podDir(pod).resolve("volumes").resolve(v.getName());
                }
                Files.createDirectories(dir);
                if (v.getSecret() != null) {
                    Secret secret = client.secrets().inNamespace(ns).withName(v.getSecret().getSecretName()).get();
                    if (secret == null && !Boolean.TRUE.equals(v.getSecret().getOptional())) {
                        throw new NotEmulatedException(FAILED_MOUNT, "MountVolume.SetUp failed for volume \"" + v.getName()
                                + "\": secret \"" + v.getSecret().getSecretName() + "\" not found");
                    }
                    Map<String, byte[]> data = new LinkedHashMap<>();
                    if (secret != null && secret.getData() != null) {
                        secret.getData().forEach((k, val) -> data.put(k, Base64.getDecoder().decode(val)));
                    }
                    if (secret != null && secret.getStringData() != null) {
                        secret.getStringData().forEach((k, val) -> data.put(k, val.getBytes(StandardCharsets.UTF_8)));
                    }
                    writeFiles(dir, data, v.getSecret().getItems(), v.getSecret().getDefaultMode());
                } else if (v.getConfigMap() != null) {
                    ConfigMap map = client.configMaps().inNamespace(ns).withName(v.getConfigMap().getName()).get();
                    if (map == null && !Boolean.TRUE.equals(v.getConfigMap().getOptional())) {
                        throw new NotEmulatedException(FAILED_MOUNT, "MountVolume.SetUp failed for volume \"" + v.getName()
                                + "\": configmap \"" + v.getConfigMap().getName() + "\" not found");
                    }
                    Map<String, byte[]> data = new LinkedHashMap<>();
                    if (map != null && map.getData() != null) {
                        map.getData().forEach((k, val) -> data.put(k, val.getBytes(StandardCharsets.UTF_8)));
                    }
                    if (map != null && map.getBinaryData() != null) {
                        map.getBinaryData().forEach((k, val) -> data.put(k, Base64.getDecoder().decode(val)));
                    }
                    writeFiles(dir, data, v.getConfigMap().getItems(), v.getConfigMap().getDefaultMode());
                } else if (v.getProjected() != null) {
                    ProjectedFiles.write(client, pod, v, dir);
                }
                dirs.put(v.getName(), dir);
            }
        } catch (IOException e) {
            throw new NotEmulatedException(FAILED_MOUNT, "cannot prepare volumes: " + e);
        }
        return dirs;
    }

    static void writeFiles(Path dir, Map<String, byte[]> data, List<KeyToPath> items, Integer defaultMode)
            throws IOException, NotEmulatedException {
        Map<String, String> paths = new LinkedHashMap<>();
        if (items == null || items.isEmpty()) {
            data.keySet().forEach(k -> paths.put(k, k));
        } else {
            for (KeyToPath item : items) {
                if (!data.containsKey(item.getKey())) {
                    throw new NotEmulatedException(FAILED_MOUNT, "key " + item.getKey() + " not found");
                }
                paths.put(item.getKey(), item.getPath());
            }
        }
        for (Map.Entry<String, String> e : paths.entrySet()) {
            Path file = dir.resolve(e.getValue()).normalize();
            if (!file.startsWith(dir)) {
                throw new NotEmulatedException(FAILED_MOUNT, "path " + e.getValue() + " leaves the volume");
            }
            Files.createDirectories(file.getParent());
            Files.write(file, data.get(e.getKey()));
            Files.setPosixFilePermissions(file, permissions(defaultMode == null ? 0644 : defaultMode));
        }
    }

    private static Set<PosixFilePermission> permissions(int mode) {
        Set<PosixFilePermission> set = EnumSet.noneOf(PosixFilePermission.class);
        PosixFilePermission[] order = {
            PosixFilePermission.OTHERS_EXECUTE, PosixFilePermission.OTHERS_WRITE, PosixFilePermission.OTHERS_READ,
            PosixFilePermission.GROUP_EXECUTE, PosixFilePermission.GROUP_WRITE, PosixFilePermission.GROUP_READ,
            PosixFilePermission.OWNER_EXECUTE, PosixFilePermission.OWNER_WRITE, PosixFilePermission.OWNER_READ};
        for (int bit = 0; bit < order.length; bit++) {
            if ((mode & (1 << bit)) != 0) {
                set.add(order[bit]);
            }
        }
        return set;
    }

    void removePodDir(Pod pod) {
        deleteTree(podDir(pod));
    }

    static void deleteTree(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(dir)) {
            walk.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
