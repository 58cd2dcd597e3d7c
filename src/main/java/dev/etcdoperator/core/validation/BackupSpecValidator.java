package dev.etcdoperator.core.validation;

import java.net.URI;

import dev.etcdoperator.api.v1beta2.BackupPolicy;
import dev.etcdoperator.api.v1beta2.EtcdBackupSpec;

/** The operator's own check of an EtcdBackup spec. */
public final class BackupSpecValidator {

    public Validation validate(EtcdBackupSpec spec) {
        Checks checks = new Checks();
        if (spec == null) {
            checks.fail("spec", "Required value");
            return checks.result();
        }
        boolean hasEndpoints = spec.getEtcdEndpoints() != null && !spec.getEtcdEndpoints().isEmpty();
        if (!hasEndpoints && spec.getEtcdCluster() == null) {
            checks.fail("spec", "set etcdEndpoints or etcdCluster");
        }
        if (hasEndpoints) {
            for (int i = 0; i < spec.getEtcdEndpoints().size(); i++) {
                endpoint(checks, "spec.etcdEndpoints[" + i + "]", spec.getEtcdEndpoints().get(i));
            }
        }
        if (spec.getEtcdCluster() != null) {
            checks.requireName("spec.etcdCluster.name", spec.getEtcdCluster().getName());
        }
        checks.storage("spec.storageType", spec.getStorageType(), "spec.s3", spec.getS3());
        BackupPolicy policy = spec.getBackupPolicy();
        if (policy != null) {
            checks.requireNonNegative("spec.backupPolicy.timeoutInSecond", policy.getTimeoutInSecond());
            checks.requireNonNegative("spec.backupPolicy.backupIntervalInSecond", policy.getBackupIntervalInSecond());
            checks.requireNonNegative("spec.backupPolicy.maxBackups", policy.getMaxBackups());
        }
        if (spec.getClientTLSSecret() != null) {
            checks.requireName("spec.clientTLSSecret", spec.getClientTLSSecret());
        }
        return checks.result();
    }

    private void endpoint(Checks checks, String path, String endpoint) {
        if (checks.blank(endpoint)) {
            checks.fail(path, "must not be blank");
            return;
        }
        String withScheme = endpoint.contains("://") ? endpoint : "http://" + endpoint;
        try {
            URI uri = URI.create(withScheme);
            if (uri.getHost() == null || !(uri.getScheme().equals("http") || uri.getScheme().equals("https"))) {
                checks.fail(path, "must be an etcd client URL such as http://host:2379, got '" + endpoint + "'");
            }
        } catch (IllegalArgumentException e) {
            checks.fail(path, "must be an etcd client URL such as http://host:2379, got '" + endpoint + "'");
        }
    }
}
