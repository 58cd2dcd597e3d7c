/**
 * S3 and S3-compatible object storage: settings from an AWS-style Secret, the client, the verified streaming
 * upload of a snapshot, and the reads, lists and deletes that retention and restore need. Every failure comes out
 * as a {@link dev.etcdoperator.core.backup.BackupFailure} with a reason.
 */
package dev.etcdoperator.storage;
