package dev.etcdoperator.sandbox.pods;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapKeySelector;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.EnvVarSource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretKeySelector;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Builds a container's environment and expands {@code $(VAR)} in command and args the way Kubernetes
 * does. Because every pod shares the host's network namespace, the wildcard addresses 0.0.0.0 and
 * [::] are replaced by the pod's own address in env values and arguments.
 */
final class ContainerEnvironment {
    static final String CONFIG_ERROR = "CreateContainerConfigError";
    private static final Pattern REFERENCE = Pattern.compile("\\$\\$|\\$\\(([A-Za-z_][A-Za-z0-9_.-]*)\\)");
    private static final Pattern WILDCARD = Pattern.compile("(?<![0-9.])0\\.0\\.0\\.0(?![0-9])|\\[::]");
    static final String PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

    private ContainerEnvironment() {
    }

    static Map<String, String> build(KubernetesClient client, Pod pod, Container container, String podIp)
            throws NotEmulatedException {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("PATH", PATH);
        String hostname = pod.getSpec().getHostname() != null ? pod.getSpec().getHostname() : pod.getMetadata().getName();
        env.put("HOSTNAME", hostname);
        if (container.getEnvFrom() != null && !container.getEnvFrom().isEmpty()) {
            throw new NotEmulatedException(CONFIG_ERROR, "envFrom is not emulated by the sandbox");
        }
        for (EnvVar var : container.getEnv() == null ? List.<EnvVar>of() : container.getEnv()) {
            String value = var.getValueFrom() != null
                    ? valueFrom(client, pod, var.getName(), var.getValueFrom(), podIp)
                    : expand(var.getValue() == null ? "" : var.getValue(), env);
            if (value != null) {
                env.put(var.getName(), rewriteWildcards(value, podIp));
            }
        }
        return env;
    }

    /** Kubernetes' rule: $(VAR) becomes the value of a defined VAR, $$ becomes $, all else stays. */
    static String expand(String text, Map<String, String> env) {
        Matcher m = REFERENCE.matcher(text);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String replacement;
            if (m.group().equals("$$")) {
                replacement = "$";
            } else {
                replacement = env.getOrDefault(m.group(1), m.group());
            }
            m.appendReplacement(out, Matcher.quoteReplacement(replacement));
        }
        m.appendTail(out);
        return out.toString();
    }

    static String rewriteWildcards(String text, String podIp) {
        return WILDCARD.matcher(text).replaceAll(Matcher.quoteReplacement(podIp));
    }

    private static String valueFrom(KubernetesClient client, Pod pod, String name, EnvVarSource source, String podIp)
            throws NotEmulatedException {
        String ns = pod.getMetadata().getNamespace();
        if (source.getFieldRef() != null) {
            String path = source.getFieldRef().getFieldPath();
            switch (path) {
                case "metadata.name": return pod.getMetadata().getName();
                case "metadata.namespace": return ns;
                case "metadata.uid": return pod.getMetadata().getUid();
                case "status.podIP": return podIp;
                case "status.hostIP": return "127.0.0.1";
                case "spec.nodeName": return pod.getSpec().getNodeName() == null ? "sandbox" : pod.getSpec().getNodeName();
                case "spec.serviceAccountName": return pod.getSpec().getServiceAccountName();
                default:
                    Matcher label = Pattern.compile("metadata\\.(labels|annotations)\\['(.+)']").matcher(path);
                    if (label.matches()) {
                        Map<String, String> map = label.group(1).equals("labels")
                                ? pod.getMetadata().getLabels() : pod.getMetadata().getAnnotations();
                        return map == null ? "" : map.getOrDefault(label.group(2), "");
                    }
                    throw new NotEmulatedException(CONFIG_ERROR, "env " + name + ": fieldRef " + path + " is not emulated");
            }
        }
        if (source.getSecretKeyRef() != null) {
            SecretKeySelector ref = source.getSecretKeyRef();
            Secret secret = client.secrets().inNamespace(ns).withName(ref.getName()).get();
            String value = null;
            if (secret != null && secret.getData() != null && secret.getData().containsKey(ref.getKey())) {
                value = new String(Base64.getDecoder().decode(secret.getData().get(ref.getKey())), StandardCharsets.UTF_8);
            } else if (secret != null && secret.getStringData() != null) {
                value = secret.getStringData().get(ref.getKey());
            }
            if (value == null && !Boolean.TRUE.equals(ref.getOptional())) {
                throw new NotEmulatedException(CONFIG_ERROR, "env " + name + ": "
                        + (secret == null ? "secret \"" + ref.getName() + "\" not found"
                        : "couldn't find key " + ref.getKey() + " in Secret " + ns + "/" + ref.getName()));
            }
            return value;
        }
        if (source.getConfigMapKeyRef() != null) {
            ConfigMapKeySelector ref = source.getConfigMapKeyRef();
            ConfigMap map = client.configMaps().inNamespace(ns).withName(ref.getName()).get();
            String value = map == null || map.getData() == null ? null : map.getData().get(ref.getKey());
            if (value == null && !Boolean.TRUE.equals(ref.getOptional())) {
                throw new NotEmulatedException(CONFIG_ERROR, "env " + name + ": "
                        + (map == null ? "configmap \"" + ref.getName() + "\" not found"
                        : "couldn't find key " + ref.getKey() + " in ConfigMap " + ns + "/" + ref.getName()));
            }
            return value;
        }
        throw new NotEmulatedException(CONFIG_ERROR, "env " + name + ": this valueFrom is not emulated");
    }
}
