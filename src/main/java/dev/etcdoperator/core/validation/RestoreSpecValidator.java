package dev.etcdoperator.core.validation;

import dev.etcdoperator.api.v1beta2.EtcdRestoreSpec;

/** The operator's own check of an EtcdRestore spec. */
public final class RestoreSpecValidator {

    public Validation validate(EtcdRestoreSpec spec) {
        Checks checks = new Checks();
        if (spec == null) {
            checks.fail("spec", "Required value");
            return checks.result();
        }
        if (spec.getEtcdCluster() == null) {
            checks.fail("spec.etcdCluster", "Required value");
        } else {
            checks.requireName("spec.etcdCluster.name", spec.getEtcdCluster().getName());
        }
        checks.storage("spec.backupStorageType", spec.getBackupStorageType(), "spec.s3", spec.getS3());
        return checks.result();
    }
}
