package dev.etcdoperator.api.v1beta2;

import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;
import io.fabric8.kubernetes.api.model.Affinity;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimSpec;
import io.fabric8.kubernetes.api.model.PodSecurityContext;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.fabric8.kubernetes.api.model.Toleration;

@JsonInclude(JsonInclude.Include.NON_NULL)
public class PodPolicy {

    @ValidationRule(value = "!('app' in self) && !('etcd.database.coreos.com/restore-drill' in self)"
            + " && self.all(k, !k.startsWith('etcd_'))",
            message = "labels 'app', 'etcd_*' and 'etcd.database.coreos.com/restore-drill' are reserved for the operator")
    @Size(max = InputRules.MAX_ENTRIES)
    @JsonPropertyDescription("Labels added to every member pod; 'app', 'etcd_*' and"
            + " 'etcd.database.coreos.com/restore-drill' are reserved.")
    private Map<String, @Pattern(InputRules.LABEL_VALUE) @Size(max = InputRules.LABEL_VALUE_MAX_LENGTH) String> labels;

    @Size(max = InputRules.MAX_ENTRIES)
    @JsonPropertyDescription("Node labels a member pod's node must have (at most 64).")
    private Map<String, @Pattern(InputRules.LABEL_VALUE) @Size(max = InputRules.LABEL_VALUE_MAX_LENGTH) String> nodeSelector;

    @JsonPropertyDescription("Scheduling affinity of the member pods (Kubernetes Affinity).")
    private Affinity affinity;

    @JsonPropertyDescription("Deprecated: a required pod anti-affinity on kubernetes.io/hostname between members.")
    private Boolean antiAffinity;

    @JsonPropertyDescription("CPU and memory requests and limits of the etcd container.")
    private ResourceRequirements resources;

    @JsonPropertyDescription("Taints the member pods tolerate.")
    private List<Toleration> tolerations;

    @Size(max = InputRules.MAX_ENTRIES)
    @JsonPropertyDescription("Environment variables for the etcd container; names must not set what the operator sets on etcd's command line (ETCD_NAME, ETCD_INITIAL_CLUSTER, ...) nor ETCD_CONFIG_FILE, ETCD_FORCE_NEW_CLUSTER, ETCD_UNSAFE_NO_FSYNC or a discovery service.")
    private List<EnvVar> etcdEnv;

    @JsonPropertyDescription("A PVC per member for its data; without it, an emptyDir.")
    private PersistentVolumeClaimSpec persistentVolumeClaimSpec;

    @Pattern("^(Delete|Retain)$")
    @JsonPropertyDescription("Additive: Delete (default) removes the members' PVCs with the EtcdCluster; Retain keeps them.")
    private String persistentVolumeClaimRetention;

    @Size(max = InputRules.MAX_ENTRIES)
    @JsonPropertyDescription("Annotations added to every member pod (at most 64, 240 KiB in all: the rest of the API server's 256 KiB is kept for the operator's own).")
    private Map<String, String> annotations;

    @Pattern(InputRules.IMAGE)
    @Size(max = InputRules.IMAGE_MAX_LENGTH)
    @JsonPropertyDescription("Image of the init containers (repository, optional tag, optional sha256 digest). Default busybox:1.36.")
    private String busyboxImage;

    @JsonPropertyDescription("Pod-level security context of the member pods.")
    private PodSecurityContext securityContext;

    @Min(0)
    @Max(InputRules.MAX_DNS_TIMEOUT_SECONDS)
    @JsonProperty("DNSTimeoutInSecond")
    @JsonPropertyDescription("How long a new member waits for its DNS name to resolve, at most 86400. Default 0: wait without limit.")
    private Long dnsTimeoutInSecond;

    @Pattern(InputRules.CLUSTER_DOMAIN)
    @Size(max = InputRules.CLUSTER_DOMAIN_MAX_LENGTH)
    @JsonProperty("ClusterDomain")
    @JsonPropertyDescription("Cluster domain appended to member DNS names: DNS labels joined by dots, for example .cluster.local. Default empty.")
    private String clusterDomain;

    public Map<String, String> getLabels() {
        return labels;
    }

    public void setLabels(Map<String, String> labels) {
        this.labels = labels;
    }

    public Map<String, String> getNodeSelector() {
        return nodeSelector;
    }

    public void setNodeSelector(Map<String, String> nodeSelector) {
        this.nodeSelector = nodeSelector;
    }

    public Affinity getAffinity() {
        return affinity;
    }

    public void setAffinity(Affinity affinity) {
        this.affinity = affinity;
    }

    public Boolean getAntiAffinity() {
        return antiAffinity;
    }

    public void setAntiAffinity(Boolean antiAffinity) {
        this.antiAffinity = antiAffinity;
    }

    public ResourceRequirements getResources() {
        return resources;
    }

    public void setResources(ResourceRequirements resources) {
        this.resources = resources;
    }

    public List<Toleration> getTolerations() {
        return tolerations;
    }

    public void setTolerations(List<Toleration> tolerations) {
        this.tolerations = tolerations;
    }

    public List<EnvVar> getEtcdEnv() {
        return etcdEnv;
    }

    public void setEtcdEnv(List<EnvVar> etcdEnv) {
        this.etcdEnv = etcdEnv;
    }

    public PersistentVolumeClaimSpec getPersistentVolumeClaimSpec() {
        return persistentVolumeClaimSpec;
    }

    public void setPersistentVolumeClaimSpec(PersistentVolumeClaimSpec persistentVolumeClaimSpec) {
        this.persistentVolumeClaimSpec = persistentVolumeClaimSpec;
    }

    public String getPersistentVolumeClaimRetention() {
        return persistentVolumeClaimRetention;
    }

    public void setPersistentVolumeClaimRetention(String persistentVolumeClaimRetention) {
        this.persistentVolumeClaimRetention = persistentVolumeClaimRetention;
    }

    /** True when the members' claims must outlive the EtcdCluster. */
    public boolean retainsClaims() {
        return "Retain".equals(persistentVolumeClaimRetention);
    }

    public Map<String, String> getAnnotations() {
        return annotations;
    }

    public void setAnnotations(Map<String, String> annotations) {
        this.annotations = annotations;
    }

    public String getBusyboxImage() {
        return busyboxImage;
    }

    public void setBusyboxImage(String busyboxImage) {
        this.busyboxImage = busyboxImage;
    }

    public PodSecurityContext getSecurityContext() {
        return securityContext;
    }

    public void setSecurityContext(PodSecurityContext securityContext) {
        this.securityContext = securityContext;
    }

    @JsonProperty("DNSTimeoutInSecond")
    public Long getDnsTimeoutInSecond() {
        return dnsTimeoutInSecond;
    }

    @JsonProperty("DNSTimeoutInSecond")
    public void setDnsTimeoutInSecond(Long dnsTimeoutInSecond) {
        this.dnsTimeoutInSecond = dnsTimeoutInSecond;
    }

    @JsonProperty("ClusterDomain")
    public String getClusterDomain() {
        return clusterDomain;
    }

    @JsonProperty("ClusterDomain")
    public void setClusterDomain(String clusterDomain) {
        this.clusterDomain = clusterDomain;
    }
}
