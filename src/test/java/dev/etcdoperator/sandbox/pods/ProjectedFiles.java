package dev.etcdoperator.sandbox.pods;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.DownwardAPIVolumeFile;
import io.fabric8.kubernetes.api.model.KeyToPath;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.ServiceAccountTokenProjection;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeProjection;
import io.fabric8.kubernetes.api.model.authentication.TokenRequestBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;

/**
 * The files of a projected volume, written once when the pod starts: a ServiceAccount token from the TokenRequest
 * API bound to the pod (what the API server's ServiceAccount admission mounts into every pod), configMap and secret
 * keys, and downward API fields of the pod's metadata. Tokens are not refreshed while the pod runs.
 */
final class ProjectedFiles {
    private ProjectedFiles() {
    }

    static void write(KubernetesClient client, Pod pod, Volume volume, Path dir) throws IOException, NotEmulatedException {
        String ns = pod.getMetadata().getNamespace();
        Integer mode = volume.getProjected().getDefaultMode();
        for (VolumeProjection source : volume.getProjected().getSources()) {
            if (source.getServiceAccountToken() != null) {
                ServiceAccountTokenProjection projection = source.getServiceAccountToken();
                String account = pod.getSpec().getServiceAccountName() == null ? "default"
                        : pod.getSpec().getServiceAccountName();
                var request = new TokenRequestBuilder().withNewSpec()
                        .withAudiences(projection.getAudience() == null ? List.of() : List.of(projection.getAudience()))
                        .withExpirationSeconds(projection.getExpirationSeconds() == null ? 3607L
                                : projection.getExpirationSeconds())
                        .withNewBoundObjectRef().withApiVersion("v1").withKind("Pod")
                        .withName(pod.getMetadata().getName()).withUid(pod.getMetadata().getUid()).endBoundObjectRef()
                        .endSpec().build();
                String token = client.serviceAccounts().inNamespace(ns).withName(account).tokenRequest(request)
                        .getStatus().getToken();
                VolumeDirectories.writeFiles(dir, Map.of("token", token.getBytes(StandardCharsets.UTF_8)),
                        List.of(new KeyToPath("token", null, projection.getPath())), mode);
            } else if (source.getConfigMap() != null) {
                ConfigMap map = client.configMaps().inNamespace(ns).withName(source.getConfigMap().getName()).get();
                if (map == null) {
                    if (Boolean.TRUE.equals(source.getConfigMap().getOptional())) {
                        continue;
                    }
                    throw new NotEmulatedException(VolumeDirectories.FAILED_MOUNT, "MountVolume.SetUp failed for volume \""
                            + volume.getName() + "\": configmap \"" + source.getConfigMap().getName() + "\" not found");
                }
                Map<String, byte[]> data = new LinkedHashMap<>();
                if (map.getData() != null) {
                    map.getData().forEach((k, v) -> data.put(k, v.getBytes(StandardCharsets.UTF_8)));
                }
                VolumeDirectories.writeFiles(dir, data, source.getConfigMap().getItems(), mode);
            } else if (source.getSecret() != null) {
                Secret secret = client.secrets().inNamespace(ns).withName(source.getSecret().getName()).get();
                if (secret == null) {
                    if (Boolean.TRUE.equals(source.getSecret().getOptional())) {
                        continue;
                    }
                    throw new NotEmulatedException(VolumeDirectories.FAILED_MOUNT, "MountVolume.SetUp failed for volume \""
                            + volume.getName() + "\": secret \"" + source.getSecret().getName() + "\" not found");
                }
                Map<String, byte[]> data = new LinkedHashMap<>();
                if (secret.getData() != null) {
                    secret.getData().forEach((k, v) -> data.put(k, Base64.getDecoder().decode(v)));
                }
                VolumeDirectories.writeFiles(dir, data, source.getSecret().getItems(), mode);
            } else if (source.getDownwardAPI() != null) {
                Map<String, byte[]> data = new LinkedHashMap<>();
                List<KeyToPath> items = new ArrayList<>();
                for (DownwardAPIVolumeFile file : source.getDownwardAPI().getItems()) {
                    if (file.getFieldRef() == null) {
                        throw new NotEmulatedException(VolumeDirectories.VOLUME_NOT_EMULATED, "volume " + volume.getName()
                                + ": downward API resourceFieldRef is not emulated by the sandbox");
                    }
                    data.put(file.getPath(), field(pod, file.getFieldRef().getFieldPath(), volume)
                            .getBytes(StandardCharsets.UTF_8));
                    items.add(new KeyToPath(file.getPath(), null, file.getPath()));
                }
                VolumeDirectories.writeFiles(dir, data, items, mode);
            }
        }
    }

    private static String field(Pod pod, String path, Volume volume) throws NotEmulatedException {
        return switch (path) {
            case "metadata.name" -> pod.getMetadata().getName();
            case "metadata.namespace" -> pod.getMetadata().getNamespace();
            case "metadata.uid" -> pod.getMetadata().getUid();
            case "metadata.labels" -> lines(pod.getMetadata().getLabels());
            case "metadata.annotations" -> lines(pod.getMetadata().getAnnotations());
            default -> throw new NotEmulatedException(VolumeDirectories.VOLUME_NOT_EMULATED, "volume "
                    + volume.getName() + ": downward API field " + path + " is not emulated by the sandbox");
        };
    }

    private static String lines(Map<String, String> map) {
        StringBuilder out = new StringBuilder();
        if (map != null) {
            map.forEach((k, v) -> out.append(k).append("=\"").append(v.replace("\"", "\\\"")).append("\"\n"));
        }
        return out.toString();
    }
}
