package dev.etcdoperator.api.v1beta2;

import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Singular;
import io.fabric8.kubernetes.model.annotation.Version;

@Group(ApiGroup.GROUP)
@Version(ApiGroup.VERSION)
@Kind("EtcdCluster")
@Plural("etcdclusters")
@Singular("etcdcluster")
@ShortNames("etcd")
@AdditionalPrinterColumn(name = "Size", jsonPath = ".spec.size", type = AdditionalPrinterColumn.Type.INTEGER,
        getDescription = "Desired number of members.")
@AdditionalPrinterColumn(name = "Version", jsonPath = ".spec.version", type = AdditionalPrinterColumn.Type.STRING,
        getDescription = "etcd version asked for.")
@AdditionalPrinterColumn(name = "Phase", jsonPath = ".status.phase", type = AdditionalPrinterColumn.Type.STRING,
        getDescription = "Creating, Running or Failed.")
@AdditionalPrinterColumn(name = "Ready", jsonPath = ".status.ready", type = AdditionalPrinterColumn.Type.STRING,
        getDescription = "Ready members over spec.size.")
@AdditionalPrinterColumn(name = "Available", jsonPath = ".status.conditions[?(@.type==\"Available\")].status",
        type = AdditionalPrinterColumn.Type.STRING, getDescription = "Whether a quorum of members is healthy.")
@AdditionalPrinterColumn(name = "Age", jsonPath = ".metadata.creationTimestamp", type = AdditionalPrinterColumn.Type.DATE)
public class EtcdCluster extends CustomResource<EtcdClusterSpec, EtcdClusterStatus> implements Namespaced {

    @Override
    protected EtcdClusterSpec initSpec() {
        return new EtcdClusterSpec();
    }

    /**
     * No status until the operator writes one: the status is patched with a JSON patch computed against the
     * resource as read, so a status object the API server does not have would make that patch refer to paths
     * that do not exist (the API server refuses it with 422).
     */
    @Override
    protected EtcdClusterStatus initStatus() {
        return null;
    }
}
