package dev.etcdoperator.api.v1beta2;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;

/** A reference to an EtcdCluster in the same namespace. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class EtcdClusterRef {

    @Required
    @Pattern(ResourceName.PATTERN)
    @Size(max = InputRules.NAME_MAX_LENGTH)
    @JsonPropertyDescription("Name of an EtcdCluster in the same namespace.")
    private String name;

    public EtcdClusterRef() {
    }

    public EtcdClusterRef(String name) {
        this.name = name;
    }

    public String getName() {
        return name;
    }

    public void setName(String name) {
        this.name = name;
    }
}
