package dev.etcdoperator.api.v1beta2;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;

@JsonInclude(JsonInclude.Include.NON_NULL)
public class MemberSecret {

    @JsonPropertyDescription("Secret with peer.crt, peer.key and peer-ca.crt.")
    private String peerSecret;

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
