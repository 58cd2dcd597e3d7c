/**
 * The pure core of the {@code etcdbackup} controller: where a backup goes ({@link dev.etcdoperator.core.backup.S3Location},
 * {@link dev.etcdoperator.core.backup.BackupNames}), when the next one is due ({@link dev.etcdoperator.core.backup.BackupSchedule}),
 * which old ones go ({@link dev.etcdoperator.core.backup.Retention}), which member to read
 * ({@link dev.etcdoperator.core.backup.SourceChoice}), whether a snapshot is whole ({@link dev.etcdoperator.core.backup.SnapshotDigest})
 * and what each failure means ({@link dev.etcdoperator.core.backup.BackupFailure}). No I/O.
 */
package dev.etcdoperator.core.backup;
