package dev.etcdoperator.api.v1beta2;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Size;

@JsonInclude(JsonInclude.Include.NON_NULL)
public class MemberSecret {

    @Pattern(ResourceName.PATTERN)
    @Size(max = InputRules.NAME_MAX_LENGTH)
    @JsonPropertyDescription("Secret with peer.crt, peer.key and peer-ca.crt.")
    private String peerSecret;

    @Pattern(ResourceName.PATTERN)
    @Size(max = InputRules.NAME_MAX_LENGTH)
    @JsonPropertyDescription("Secret with server.crt, server.key and server-ca.crt.")
    private String serverSecret;

    public String getPeerSecret() {
        return peerSecret;
    }

    public void setPeerSecret(String peerSecret) {
        this.peerSecret = peerSecret;
    }

    public String getServerSecret() {
        return serverSecret;
    }

    public void setServerSecret(String serverSecret) {
        this.serverSecret = serverSecret;
    }
}
