package dev.etcdoperator.api.v1beta2;

import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.Singular;
import io.fabric8.kubernetes.model.annotation.Version;

@Group(ApiGroup.GROUP)
@Version(ApiGroup.VERSION)
@Kind("EtcdBackup")
@Plural("etcdbackups")
@Singular("etcdbackup")
@AdditionalPrinterColumn(name = "Succeeded", jsonPath = ".status.succeeded", type = AdditionalPrinterColumn.Type.BOOLEAN,
        getDescription = "Whether the last attempt succeeded.")
@AdditionalPrinterColumn(name = "Last Success", jsonPath = ".status.lastSuccessDate",
        type = AdditionalPrinterColumn.Type.DATE, getDescription = "When the last successful backup was taken.")
@AdditionalPrinterColumn(name = "Path", jsonPath = ".status.backupPath", type = AdditionalPrinterColumn.Type.STRING,
        getDescription = "<bucket>/<key> of the last successful backup.")
@AdditionalPrinterColumn(name = "Size", jsonPath = ".status.backupSize", type = AdditionalPrinterColumn.Type.INTEGER,
        getDescription = "Bytes of the last successful backup.")
@AdditionalPrinterColumn(name = "Age", jsonPath = ".metadata.creationTimestamp", type = AdditionalPrinterColumn.Type.DATE)
public class EtcdBackup extends CustomResource<EtcdBackupSpec, EtcdBackupStatus> implements Namespaced {

    @Override
    protected EtcdBackupSpec initSpec() {
        return new EtcdBackupSpec();
    }

    /**
     * No status until the operator writes one: the status is patched with a JSON patch computed against the
     * resource as read, so a status object the API server does not have would make that patch refer to paths
     * that do not exist (the API server refuses it with 422).
     */
    @Override
    protected EtcdBackupStatus initStatus() {
        return null;
    }
}
