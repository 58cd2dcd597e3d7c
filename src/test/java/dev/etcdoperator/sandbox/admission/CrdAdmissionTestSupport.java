package dev.etcdoperator.sandbox.admission;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Locale;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;

/** What the admission tests share: the project's CRDs and YAML parsing. */
final class CrdAdmissionTestSupport {
    static final String GROUP = "etcd.database.coreos.com";
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    private CrdAdmissionTestSupport() {
    }

    static CrdAdmission projectCrds() {
        try {
            return CrdAdmission.fromDirectory(Path.of("crds"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static JsonNode yaml(String text) {
        try {
            return YAML.readTree(text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The plural of our three kinds: EtcdCluster is served as etcdclusters. */
    static String plural(String kind) {
        return kind.toLowerCase(Locale.ROOT) + "s";
    }

    static AdmissionResult create(CrdAdmission admission, JsonNode object) {
        return admission.admit(GROUP, plural(object.path("kind").asText()), CrdAdmission.CREATE, object, null);
    }
}
