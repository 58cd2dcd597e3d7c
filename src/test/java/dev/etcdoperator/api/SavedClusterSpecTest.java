package dev.etcdoperator.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.etcdoperator.api.v1beta2.EtcdClusterSpec;
import dev.etcdoperator.api.v1beta2.SavedClusterSpec;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.Test;

/** A restore rebuilds the template from the spec it saved: every field of the cluster's spec must come back. */
class SavedClusterSpecTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static final String FULL = """
            size: 5
            repository: quay.io/coreos/etcd
            version: 3.6.16
            paused: false
            allowDowngrade: true
            pod:
              labels: {team: db}
              busyboxImage: busybox:1.36
            etcd:
              quotaBackendBytes: 8589934592
              autoCompactionMode: periodic
              autoCompactionRetention: 1h
            quorumLossRecovery:
              policy: FromBackup
            TLS:
              static:
                operatorSecret: op
            """;

    @Test
    void everyFieldOfTheClusterSpecIsSavedAndGivenBack() throws Exception {
        EtcdClusterSpec spec = Serialization.unmarshal(FULL, EtcdClusterSpec.class);
        Map<?, ?> original = JSON.readValue(Serialization.asJson(spec), Map.class);
        // the test itself must set every field the spec has, so that a field added later is caught here
        assertThat(original.keySet()).containsExactlyInAnyOrderElementsOf(
                JSON.readValue(Serialization.asJson(everyFieldSet()), Map.class).keySet());

        EtcdClusterSpec back = SavedClusterSpec.of(spec).toClusterSpec();
        assertThat(JSON.readValue(Serialization.asJson(back), Map.class)).isEqualTo(original);
        // as the EtcdRestore's status stores it, and reads it back
        SavedClusterSpec stored = Serialization.unmarshal(Serialization.asJson(SavedClusterSpec.of(spec)),
                SavedClusterSpec.class);
        assertThat(JSON.readValue(Serialization.asJson(stored.toClusterSpec()), Map.class)).isEqualTo(original);
    }

    /** The spec with each of its properties set to something, found through its setters. */
    private static EtcdClusterSpec everyFieldSet() throws Exception {
        EtcdClusterSpec spec = new EtcdClusterSpec();
        for (var method : EtcdClusterSpec.class.getMethods()) {
            if (method.getName().startsWith("set") && method.getParameterCount() == 1) {
                Class<?> type = method.getParameterTypes()[0];
                Object value = type == String.class ? "x" : type == Integer.class ? 1 : type == Boolean.class
                        ? Boolean.TRUE : type == Long.class ? 1L : type.getDeclaredConstructor().newInstance();
                method.invoke(spec, value);
            }
        }
        return spec;
    }
}
