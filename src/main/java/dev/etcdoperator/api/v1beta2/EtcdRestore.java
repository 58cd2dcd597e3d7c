package dev.etcdoperator.api.v1beta2;

import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.generator.annotation.ValidationRule;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.Singular;
import io.fabric8.kubernetes.model.annotation.Version;

@Group(ApiGroup.GROUP)
@Version(ApiGroup.VERSION)
@Kind("EtcdRestore")
@Plural("etcdrestores")
@Singular("etcdrestore")
@AdditionalPrinterColumn(name = "Phase", jsonPath = ".status.phase", type = AdditionalPrinterColumn.Type.STRING,
        getDescription = "Preflight, Deleting, Restoring, Growing, Done or Failed.")
@AdditionalPrinterColumn(name = "Cluster", jsonPath = ".spec.etcdCluster.name", type = AdditionalPrinterColumn.Type.STRING,
        getDescription = "The EtcdCluster restored.")
@AdditionalPrinterColumn(name = "Succeeded", jsonPath = ".status.succeeded", type = AdditionalPrinterColumn.Type.BOOLEAN,
        getDescription = "Whether the restore succeeded.")
@AdditionalPrinterColumn(name = "Age", jsonPath = ".metadata.creationTimestamp", type = AdditionalPrinterColumn.Type.DATE)
@ValidationRule(value = "!has(oldSelf.status) || !has(oldSelf.status.phase) || oldSelf.status.phase == 'Preflight'"
        + " || self.spec == oldSelf.spec",
        message = "the spec of an EtcdRestore cannot change once its preflight passed (status.phase is no longer"
                + " Preflight): create a new EtcdRestore instead")
public class EtcdRestore extends CustomResource<EtcdRestoreSpec, EtcdRestoreStatus> implements Namespaced {

    @Override
    protected EtcdRestoreSpec initSpec() {
        return new EtcdRestoreSpec();
    }

    /**
     * No status until the operator writes one: the status is patched with a JSON patch computed against the
     * resource as read, so a status object the API server does not have would make that patch refer to paths
     * that do not exist (the API server refuses it with 422).
     */
    @Override
    protected EtcdRestoreStatus initStatus() {
        return null;
    }
}
