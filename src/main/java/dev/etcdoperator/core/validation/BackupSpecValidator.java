package dev.etcdoperator.core.validation;

import java.util.regex.Pattern;

import dev.etcdoperator.api.v1beta2.BackupPolicy;
import dev.etcdoperator.api.v1beta2.EtcdBackupSpec;
import dev.etcdoperator.api.v1beta2.InputRules;
import dev.etcdoperator.api.v1beta2.RestoreDrillPolicy;
import dev.etcdoperator.core.schedule.CronSchedule;

/** The operator's own check of an EtcdBackup spec. */
public final class BackupSpecValidator {
    /** How the name of each periodic backup ends (see {@code BackupNames.periodicKey}). */
    private static final java.util.regex.Pattern PERIODIC_NAME_END =
            java.util.regex.Pattern.compile("_v\\d{1,19}_\\d{4}-\\d{2}-\\d{2}-\\d{2}:\\d{2}:\\d{2}$");

    private static final Pattern ENDPOINT = Pattern.compile(InputRules.ETCD_ENDPOINT);

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
        if (hasEndpoints && spec.getEtcdEndpoints().size() > InputRules.ETCD_ENDPOINTS_MAX_ITEMS) {
            checks.fail("spec.etcdEndpoints", "must have at most " + InputRules.ETCD_ENDPOINTS_MAX_ITEMS
                    + " items, got " + spec.getEtcdEndpoints().size());
        } else if (hasEndpoints) {
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
            checks.requireRange("spec.backupPolicy.timeoutInSecond", policy.getTimeoutInSecond(),
                    InputRules.MAX_BACKUP_TIMEOUT_SECONDS);
            checks.requireRange("spec.backupPolicy.backupIntervalInSecond", policy.getBackupIntervalInSecond(),
                    InputRules.MAX_BACKUP_INTERVAL_SECONDS);
            checks.requireRange("spec.backupPolicy.maxBackups", policy.getMaxBackups(), InputRules.MAX_BACKUPS);
            long periodicMax = InputRules.S3_PATH_MAX_LENGTH - InputRules.PERIODIC_SUFFIX_MAX_LENGTH;
            if (policy.getBackupIntervalInSecond() != null && policy.getBackupIntervalInSecond() > 0
                    && spec.getS3() != null && spec.getS3().getPath() != null
                    && spec.getS3().getPath().length() > periodicMax
                    && spec.getS3().getPath().length() <= InputRules.S3_PATH_MAX_LENGTH) {
                checks.fail("spec.s3.path", "a periodic backup's path must be at most " + periodicMax + " characters"
                        + " (each backup's name appends up to " + InputRules.PERIODIC_SUFFIX_MAX_LENGTH
                        + ", and an EtcdRestore's s3.path is at most " + InputRules.S3_PATH_MAX_LENGTH + "), got "
                        + spec.getS3().getPath().length());
            }
        }
        boolean oneShot = policy == null || policy.getBackupIntervalInSecond() == null
                || policy.getBackupIntervalInSecond() <= 0;
        if (oneShot && spec.getS3() != null && spec.getS3().getPath() != null
                && PERIODIC_NAME_END.matcher(spec.getS3().getPath()).find()) {
            checks.fail("spec.s3.path", "a one-shot backup's path must not end as the name of a periodic backup"
                    + " (_v<revision>_<yyyy-MM-dd-HH:mm:ss>): a periodic EtcdBackup of the path before it would take"
                    + " it for one of its own backups, and refuse to share its prefix");
        }
        RestoreDrillPolicy drill = spec.getRestoreDrill();
        if (drill != null) {
            if (drill.getEvery() != null && (drill.getEvery() < 1 || drill.getEvery() > InputRules.MAX_DRILL_EVERY)) {
                checks.fail("spec.restoreDrill.every", "must be 1 to " + InputRules.MAX_DRILL_EVERY + ", got "
                        + drill.getEvery());
            }
            checks.requireRange("spec.restoreDrill.timeoutInSecond", drill.getTimeoutInSecond(),
                    InputRules.MAX_DRILL_TIMEOUT_SECONDS);
            schedule(checks, "spec.restoreDrill.schedule", drill.getSchedule());
        }
        if (spec.getClientTLSSecret() != null) {
            checks.requireName("spec.clientTLSSecret", spec.getClientTLSSecret());
        }
        return checks.result();
    }

    private static void schedule(Checks checks, String path, String schedule) {
        if (schedule == null) {
            return;
        }
        if (schedule.length() > InputRules.SCHEDULE_MAX_LENGTH) {
            checks.fail(path, "must be at most " + InputRules.SCHEDULE_MAX_LENGTH + " characters");
            return;
        }
        try {
            CronSchedule.parse(schedule);
        } catch (IllegalArgumentException e) {
            checks.fail(path, e.getMessage());
        }
    }

    private void endpoint(Checks checks, String path, String endpoint) {
        if (checks.blank(endpoint)) {
            checks.fail(path, "must not be blank");
            return;
        }
        if (checks.requireFormat(path, endpoint, ENDPOINT, InputRules.S3_ENDPOINT_MAX_LENGTH,
                "an etcd client URL such as http://host:2379 (scheme, host and port; no user info, path, query or "
                        + "fragment)")) {
            checks.requirePort(path, endpoint);
        }
    }
}
