package dev.etcdoperator.sandbox.apiserver;

import com.fasterxml.jackson.databind.JsonNode;

/** What the API server asks before it stores a custom resource. */
public interface AdmissionControl {

    /** Allows everything unchanged: the sandbox with admission switched off, as when schema validation is bypassed. */
    AdmissionControl NONE = (group, plural, operation, object, oldObject) -> Decision.allow(object);

    Decision admit(String group, String plural, String operation, JsonNode object, JsonNode oldObject);

    /** Either the object to store (possibly defaulted and pruned) or the Status body of a refusal. */
    record Decision(boolean allowed, JsonNode object, int code, String statusJson) {
        public static Decision allow(JsonNode object) {
            return new Decision(true, object, 0, null);
        }

        public static Decision deny(int code, String statusJson) {
            return new Decision(false, null, code, statusJson);
        }
    }
}
