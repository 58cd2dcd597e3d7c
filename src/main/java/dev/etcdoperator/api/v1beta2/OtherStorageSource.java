package dev.etcdoperator.api.v1beta2;

import java.util.Map;

import com.fasterxml.jackson.annotation.JsonAnyGetter;
import com.fasterxml.jackson.annotation.JsonAnySetter;
import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.crd.generator.annotation.PreserveUnknownFields;

/**
 * The original's ABS, GCS and OSS sources, accepted so that old manifests apply; the operator reports these
 * storage types as not supported.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@PreserveUnknownFields
public class OtherStorageSource {
    private final Map<String, Object> fields = new java.util.LinkedHashMap<>();

    @JsonAnyGetter
    public Map<String, Object> getFields() {
        return fields;
    }

    @JsonAnySetter
    public void setField(String name, Object value) {
        fields.put(name, value);
    }
}
