package dev.etcdoperator.api.v1beta2;

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
