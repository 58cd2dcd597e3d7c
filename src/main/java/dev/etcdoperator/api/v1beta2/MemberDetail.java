package dev.etcdoperator.api.v1beta2;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;

/** What the operator last saw of one member, through the etcd API and its pod. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class MemberDetail {
    @JsonPropertyDescription("Member name, the same as its pod's.")
    private String name;

    @JsonPropertyDescription("etcd member ID (hex).")
    private String id;

    @JsonPropertyDescription("URL other members reach it on (port 2380).")
    private String peerURL;

    @JsonPropertyDescription("URL clients reach it on (port 2379).")
    private String clientURL;

    @JsonPropertyDescription("Whether it answered a health check.")
    private Boolean healthy;

    @JsonPropertyDescription("Whether it is the Raft leader.")
    private Boolean leader;

    @JsonPropertyDescription("Whether it is a learner (non-voting, catching up).")
    private Boolean learner;

    @JsonPropertyDescription("etcd version it runs.")
    private String version;

    public String getName() {
        return name;
    }

    public void setName(String name) {
        this.name = name;
    }

    public String getId() {
        return id;
    }

    public void setId(String id) {
        this.id = id;
    }

    public String getPeerURL() {
        return peerURL;
    }

    public void setPeerURL(String peerURL) {
        this.peerURL = peerURL;
    }

    public String getClientURL() {
        return clientURL;
    }

    public void setClientURL(String clientURL) {
        this.clientURL = clientURL;
    }

    public Boolean getHealthy() {
        return healthy;
    }

    public void setHealthy(Boolean healthy) {
        this.healthy = healthy;
    }

    public Boolean getLeader() {
        return leader;
    }

    public void setLeader(Boolean leader) {
        this.leader = leader;
    }

    public Boolean getLearner() {
        return learner;
    }

    public void setLearner(Boolean learner) {
        this.learner = learner;
    }

    public String getVersion() {
        return version;
    }

    public void setVersion(String version) {
        this.version = version;
    }
}
