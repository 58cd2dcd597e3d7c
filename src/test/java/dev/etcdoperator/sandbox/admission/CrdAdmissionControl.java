package dev.etcdoperator.sandbox.admission;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;

import com.fasterxml.jackson.databind.JsonNode;
import dev.etcdoperator.sandbox.apiserver.AdmissionControl;

/** Plugs CRD admission into the sandbox's API server. */
public final class CrdAdmissionControl implements AdmissionControl {
    private final CrdAdmission admission;

    private CrdAdmissionControl(CrdAdmission admission) {
        this.admission = admission;
    }

    public static CrdAdmissionControl fromDirectory(Path crds) {
        try {
            return new CrdAdmissionControl(CrdAdmission.fromDirectory(crds));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read CRDs from " + crds, e);
        }
    }

    @Override
    public Decision admit(String group, String plural, String operation, JsonNode object, JsonNode oldObject) {
        AdmissionResult result = admission.admit(group, plural, operation, object, oldObject);
        return result.allowed() ? Decision.allow(result.object()) : Decision.deny(422, result.statusJson());
    }
}
