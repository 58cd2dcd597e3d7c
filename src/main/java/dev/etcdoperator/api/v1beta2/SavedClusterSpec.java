package dev.etcdoperator.api.v1beta2;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;

/**
 * An EtcdCluster's spec as an EtcdRestore saves it before deleting the template. The same fields as
 * {@link EtcdClusterSpec}, without its scale-subresource and printer-column annotations: those belong to the
 * EtcdCluster CRD, and on the EtcdRestore CRD they would point outside {@code .spec}, which an API server refuses.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class SavedClusterSpec {

    @JsonPropertyDescription("Desired number of members.")
    private Integer size;

    @JsonPropertyDescription("Image repository of etcd.")
    private String repository;

    @JsonPropertyDescription("etcd version.")
    private String version;

    @JsonPropertyDescription("Whether the cluster was paused.")
    private Boolean paused;

    @JsonPropertyDescription("Whether a downgrade was allowed.")
    private Boolean allowDowngrade;

    @JsonPropertyDescription("Policy for the member pods.")
    private PodPolicy pod;

    @JsonPropertyDescription("Settings of etcd itself and its defragmentation.")
    private EtcdSettings etcd;

    @JsonPropertyDescription("What the operator does when a majority of the members is lost for good.")
    private QuorumLossRecovery quorumLossRecovery;

    @JsonProperty("TLS")
    @JsonPropertyDescription("TLS for peer, client and operator traffic.")
    private TlsPolicy tls;

    public static SavedClusterSpec of(EtcdClusterSpec spec) {
        if (spec == null) {
            return null;
        }
        SavedClusterSpec saved = new SavedClusterSpec();
        saved.size = spec.getSize();
        saved.repository = spec.getRepository();
        saved.version = spec.getVersion();
        saved.paused = spec.getPaused();
        saved.allowDowngrade = spec.getAllowDowngrade();
        saved.pod = spec.getPod();
        saved.etcd = spec.getEtcd();
        saved.quorumLossRecovery = spec.getQuorumLossRecovery();
        saved.tls = spec.getTls();
        return saved;
    }

    public EtcdClusterSpec toClusterSpec() {
        EtcdClusterSpec spec = new EtcdClusterSpec();
        spec.setSize(size);
        spec.setRepository(repository);
        spec.setVersion(version);
        spec.setPaused(paused);
        spec.setAllowDowngrade(allowDowngrade);
        spec.setPod(pod);
        spec.setEtcd(etcd);
        spec.setQuorumLossRecovery(quorumLossRecovery);
        spec.setTls(tls);
        return spec;
    }

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

    public void setPaused(Boolean paused) {
        this.paused = paused;
    }

    public Boolean getAllowDowngrade() {
        return allowDowngrade;
    }

    public void setAllowDowngrade(Boolean allowDowngrade) {
        this.allowDowngrade = allowDowngrade;
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

    public PodPolicy getPod() {
        return pod;
    }

    public void setPod(PodPolicy pod) {
        this.pod = pod;
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
