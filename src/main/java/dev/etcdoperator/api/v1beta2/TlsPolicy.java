package dev.etcdoperator.api.v1beta2;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import com.fasterxml.jackson.annotation.JsonProperty;

@JsonInclude(JsonInclude.Include.NON_NULL)
public class TlsPolicy {

    @JsonProperty("static")
    @JsonPropertyDescription("TLS from Secrets made beforehand.")
    private StaticTls staticTls;

    @JsonProperty("static")
    public StaticTls getStaticTls() {
        return staticTls;
    }

    @JsonProperty("static")
    public void setStaticTls(StaticTls staticTls) {
        this.staticTls = staticTls;
    }
}
