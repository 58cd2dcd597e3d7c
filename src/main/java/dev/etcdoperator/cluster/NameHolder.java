package dev.etcdoperator.cluster;

import java.util.List;

import dev.etcdoperator.api.v1beta2.ApiGroup;
import dev.etcdoperator.api.v1beta2.EtcdCluster;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReference;

/**
 * Who holds the name of an object a cluster makes (its client and peer Services, its disruption budget): the cluster
 * itself, an earlier EtcdCluster of the same name (deleted, the object not yet collected), or something else, which
 * the operator neither takes over nor changes.
 *
 * @param owner the holder as a person reads it ("EtcdCluster a", "Deployment web", "no owner"); null for this cluster
 */
record NameHolder(Kind kind, String owner) {
    enum Kind {
        THIS_CLUSTER, EARLIER_CLUSTER, OTHER
    }

    static NameHolder of(HasMetadata existing, EtcdCluster cluster) {
        List<OwnerReference> owners = existing.getMetadata().getOwnerReferences() == null ? List.of()
                : existing.getMetadata().getOwnerReferences();
        String name = cluster.getMetadata().getName();
        if (owners.stream().anyMatch(o -> cluster.getMetadata().getUid().equals(o.getUid()))) {
            return new NameHolder(Kind.THIS_CLUSTER, null);
        }
        if (owners.stream().anyMatch(o -> isEtcdCluster(o) && name.equals(o.getName()))) {
            return new NameHolder(Kind.EARLIER_CLUSTER, "EtcdCluster " + name);
        }
        return new NameHolder(Kind.OTHER, owners.stream().filter(o -> Boolean.TRUE.equals(o.getController()))
                .findFirst().or(() -> owners.stream().findFirst())
                .map(o -> o.getKind() + " " + o.getName()).orElse("no owner"));
    }

    /**
     * Why the cluster cannot have {@code object} ("Service prod/a-client") while another holds its name, what the
     * operator does meanwhile ({@code meanwhile}: "starts or changes no member"), and what a person can do.
     */
    String takenMessage(String object, EtcdCluster cluster, String meanwhile) {
        String name = cluster.getMetadata().getName();
        String clash = owner.startsWith("EtcdCluster ") ? clusterClash(name, owner.substring("EtcdCluster ".length()))
                : "";
        return object + " exists and is not this cluster's (" + ("no owner".equals(owner) ? "it has no owner"
                : "it belongs to " + owner) + "): the operator neither takes it over nor changes it, and " + meanwhile
                + " while it holds the name." + clash + " Delete or rename it, or give this"
                + " cluster another name.";
    }

    private static String clusterClash(String name, String other) {
        String client = ClusterResources.clientServiceName("");
        if (name.equals(other + client)) {
            return " EtcdCluster " + other + "'s client Service is named " + name + ": clusters named " + other
                    + " and " + name + " cannot share a namespace.";
        }
        if (other.equals(name + client)) {
            return " The client Service of this cluster is named " + other + ", the name of EtcdCluster " + other
                    + "'s peer Service: clusters named " + name + " and " + other + " cannot share a namespace.";
        }
        return "";
    }

    private static boolean isEtcdCluster(OwnerReference o) {
        return "EtcdCluster".equals(o.getKind()) && o.getApiVersion() != null
                && o.getApiVersion().startsWith(ApiGroup.GROUP + "/");
    }
}
