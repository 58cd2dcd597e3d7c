package dev.etcdoperator.api.v1beta2;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import io.fabric8.kubernetes.model.annotation.SpecReplicas;

@JsonInclude(JsonInclude.Include.NON_NULL)
public class EtcdClusterSpec {

    public static final String DEFAULT_REPOSITORY = "quay.io/coreos/etcd";
    public static final String DEFAULT_VERSION = "3.5.17";

    @Required
    @Min(1)
    @Max(7)
    @SpecReplicas
    @JsonPropertyDescription("Desired number of members, 1 to 7.")
    private Integer size;

    @Pattern(InputRules.IMAGE_REPOSITORY)
    @Size(max = InputRules.IMAGE_REPOSITORY_MAX_LENGTH)
    @JsonPropertyDescription("Image repository of etcd, without tag or digest; the image is <repository>:v<version>. Default quay.io/coreos/etcd.")
    private String repository;

    @Pattern(SemVer.PATTERN)
    @Size(max = InputRules.VERSION_MAX_LENGTH)
    @JsonPropertyDescription("etcd version (semver; a leading v is allowed), " + InputRules.OLDEST_ETCD_VERSION
            + " or later. Default " + DEFAULT_VERSION + ".")
    private String version;

    @JsonPropertyDescription("Stop managing the cluster: no member is added, removed or upgraded while paused.")
    private Boolean paused;

    @JsonPropertyDescription("Additive: let the operator carry out a downgrade to the minor version below the running one"
            + " (spec.version set to it) through etcd's downgrade API, from etcd 3.6 on; members are replaced one at a"
            + " time once each has rewritten its data in the older format. Without it a lower minor is refused. Default"
            + " false.")
    private Boolean allowDowngrade;

    @JsonPropertyDescription("Policy for the member pods.")
    private PodPolicy pod;

    @JsonPropertyDescription("Additive: settings of etcd itself (database quota, auto-compaction), passed to every member "
            + "as flags, and when the operator defragments members (defragmentation).")
    private EtcdSettings etcd;

    @JsonPropertyDescription("Additive: what the operator does when a majority of the members is lost for good: "
            + "wait for a person (the default), or recover from the surviving member or from the newest backup.")
    private QuorumLossRecovery quorumLossRecovery;

    @JsonProperty("TLS")
    @JsonPropertyDescription("TLS for peer, client and operator traffic, from static secrets.")
    private TlsPolicy tls;

    public Integer getSize() {
        return size;
    }

    public void setSize(Integer size) {
        this.size = size;
    }

    public String getRepository() {
        return repository;
    }

    public void setRepository(String repository) {
        this.repository = repository;
    }

    public String getVersion() {
        return version;
    }

    public void setVersion(String version) {
        this.version = version;
    }

    public Boolean getPaused() {
        return paused;
    }

    public Boolean getAllowDowngrade() {
        return allowDowngrade;
    }

    public void setAllowDowngrade(Boolean allowDowngrade) {
        this.allowDowngrade = allowDowngrade;
    }

    public void setPaused(Boolean paused) {
        this.paused = paused;
    }

    public PodPolicy getPod() {
        return pod;
    }

    public void setPod(PodPolicy pod) {
        this.pod = pod;
    }

    public EtcdSettings getEtcd() {
        return etcd;
    }

    public void setEtcd(EtcdSettings etcd) {
        this.etcd = etcd;
    }

    public QuorumLossRecovery getQuorumLossRecovery() {
        return quorumLossRecovery;
    }

    public void setQuorumLossRecovery(QuorumLossRecovery quorumLossRecovery) {
        this.quorumLossRecovery = quorumLossRecovery;
    }

    @JsonProperty("TLS")
    public TlsPolicy getTls() {
        return tls;
    }

    @JsonProperty("TLS")
    public void setTls(TlsPolicy tls) {
        this.tls = tls;
    }
}
