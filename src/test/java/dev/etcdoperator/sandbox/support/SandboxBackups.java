package dev.etcdoperator.sandbox.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;

import dev.etcdoperator.api.v1beta2.EtcdBackup;
import dev.etcdoperator.api.v1beta2.EtcdBackupStatus;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;

/** What sandbox tests do with EtcdBackups, in one namespace. */
public final class SandboxBackups {
    private final KubernetesClient client;
    private final String namespace;
    private final Duration within;

    public SandboxBackups(KubernetesClient client, String namespace, Duration within) {
        this.client = client;
        this.namespace = namespace;
        this.within = within;
    }

    /** Creates an S3 EtcdBackup; {@code spec} is the rest of its spec in YAML, one field per line. */
    public void apply(String name, String spec) {
        client.resource(Serialization.unmarshal("""
                apiVersion: etcd.database.coreos.com/v1beta2
                kind: EtcdBackup
                metadata: {name: %s, namespace: %s}
                spec:
                  storageType: S3
                  %s
                """.formatted(name, namespace, spec.strip().replace("\n", "\n  ")), EtcdBackup.class)).create();
    }

    public EtcdBackupStatus status(String name) {
        EtcdBackup b = client.resources(EtcdBackup.class).inNamespace(namespace).withName(name).get();
        return b == null || b.getStatus() == null ? new EtcdBackupStatus() : b.getStatus();
    }

    public EtcdBackupStatus awaitSucceeded(String name) {
        await().atMost(within).untilAsserted(() -> assertThat(status(name).getSucceeded())
                .as("%s: %s", name, status(name).getReason()).isTrue());
        return status(name);
    }
}
