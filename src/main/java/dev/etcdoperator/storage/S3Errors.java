package dev.etcdoperator.storage;

import java.io.IOException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.UnknownHostException;
import java.time.Instant;

import dev.etcdoperator.core.backup.BackupFailure;
import software.amazon.awssdk.core.exception.ApiCallAttemptTimeoutException;
import software.amazon.awssdk.core.exception.ApiCallTimeoutException;
import software.amazon.awssdk.services.s3.model.NoSuchBucketException;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.S3Exception;

/** Turns what the S3 client throws into a {@link BackupFailure} with a reason a person can act on. */
final class S3Errors {
    /** How much of a store's message is kept (conditions, Events, logs). */
    static final int MAX_MESSAGE = 1000;

    private S3Errors() {
    }

    /**
     * @param what     the operation, e.g. "upload to bucket/key"
     * @param deadline the end of the whole backup: a failure after it is a timeout
     * @param fallback the reason when nothing more precise is known (e.g. {@link BackupFailure#UPLOAD_FAILED})
     */
    static BackupFailure translate(String what, Throwable failure, Instant deadline, String fallback) {
        if (failure instanceof BackupFailure b) {
            return b;
        }
        if (isTimeout(failure) || (deadline != null && Instant.now().isAfter(deadline))) {
            return new BackupFailure(BackupFailure.TIMEOUT, what + " did not finish in time: " + message(failure), true, failure);
        }
        if (failure instanceof NoSuchBucketException) {
            return new BackupFailure(BackupFailure.S3_BUCKET_NOT_FOUND, what + ": the bucket does not exist", true, failure);
        }
        if (failure instanceof NoSuchKeyException) {
            return new BackupFailure(BackupFailure.S3_OBJECT_NOT_FOUND, what + ": the object does not exist", true, failure);
        }
        if (failure instanceof S3Exception s3) {
            String code = s3.awsErrorDetails() == null ? null : s3.awsErrorDetails().errorCode();
            if ("NoSuchBucket".equals(code)) {
                return new BackupFailure(BackupFailure.S3_BUCKET_NOT_FOUND, what + ": the bucket does not exist", true, failure);
            }
            if ("NoSuchKey".equals(code) || (s3.statusCode() == 404 && code == null)) {
                return new BackupFailure(BackupFailure.S3_OBJECT_NOT_FOUND, what + ": the object does not exist", true, failure);
            }
            if ("RequestTimeTooSkewed".equals(code) || "RequestExpired".equals(code)) {
                // a 403 too, but no credential or permission is wrong: the clocks differ
                return new BackupFailure(BackupFailure.S3_ACCESS_DENIED, what + ": the store refused the request's"
                        + " time (" + cut(code) + "): the clock of the operator's node and the store's differ by more"
                        + " than the store allows (15 minutes for S3); set the node's clock (NTP) right", true,
                        failure);
            }
            if (s3.statusCode() == 403 || "InvalidAccessKeyId".equals(code) || "SignatureDoesNotMatch".equals(code)
                    || "AccessDenied".equals(code)) {
                return new BackupFailure(BackupFailure.S3_ACCESS_DENIED, what + ": access denied ("
                        + (code == null ? "HTTP " + s3.statusCode() : cut(code))
                        + "); check the credentials in the AWS Secret and the bucket's permissions", true, failure);
            }
            return new BackupFailure(fallback, what + " failed: " + (code == null ? "HTTP " + s3.statusCode()
                    : cut(code)) + " " + message(failure), true, failure);
        }
        if (causedBy(failure, ConnectException.class) || causedBy(failure, UnknownHostException.class)
                || causedBy(failure, NoRouteToHostException.class)) {
            return new BackupFailure(BackupFailure.S3_UNREACHABLE, what + ": the S3 endpoint cannot be reached: "
                    + message(failure), true, failure);
        }
        return new BackupFailure(fallback, what + " failed: " + message(failure), true, failure);
    }

    private static boolean isTimeout(Throwable t) {
        return causedBy(t, ApiCallTimeoutException.class) || causedBy(t, ApiCallAttemptTimeoutException.class);
    }

    static boolean causedBy(Throwable t, Class<? extends Throwable> type) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (type.isInstance(c)) {
                return true;
            }
            if (c.getCause() == c) {
                break;
            }
        }
        return false;
    }

    static String message(Throwable t) {
        Throwable root = t;
        while (root.getCause() != null && root.getCause() != root && !(root instanceof IOException)) {
            root = root.getCause();
        }
        String m = root.getMessage();
        return m == null ? root.getClass().getSimpleName() : cut(m);
    }

    /** A store's words, as far as a person reads them: a store may answer with a body of any length. */
    static String cut(String message) {
        return message.length() <= MAX_MESSAGE ? message : message.substring(0, MAX_MESSAGE) + "... ("
                + (message.length() - MAX_MESSAGE) + " more characters)";
    }
}
