package dev.etcdoperator.storage;

import java.util.Objects;

import software.amazon.awssdk.services.s3.model.CopyObjectRequest;
import software.amazon.awssdk.services.s3.model.CreateMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;

/**
 * What the store encrypts every object the operator writes with (S3's server-side encryption): nothing asked
 * ({@link #NONE}, the bucket's default applies), S3-managed keys ({@code AES256}, SSE-S3) or a KMS key
 * ({@code aws:kms}, SSE-KMS, with the bucket's or account's default key when {@code kmsKeyId} is null).
 */
public record ServerSideEncryption(String algorithm, String kmsKeyId) {
    public static final String AES256 = "AES256";
    public static final String KMS = "aws:kms";
    public static final ServerSideEncryption NONE = new ServerSideEncryption(null, null);

    public ServerSideEncryption {
        if (algorithm != null && !AES256.equals(algorithm) && !KMS.equals(algorithm)) {
            throw new IllegalArgumentException("server-side encryption " + algorithm + " is not " + AES256 + " or " + KMS);
        }
        if (kmsKeyId != null && !KMS.equals(algorithm)) {
            throw new IllegalArgumentException("a KMS key is used by " + KMS + " only");
        }
    }

    public boolean asked() {
        return algorithm != null;
    }

    PutObjectRequest.Builder applyTo(PutObjectRequest.Builder b) {
        return asked() ? b.serverSideEncryption(algorithm).ssekmsKeyId(kmsKeyId) : b;
    }

    CreateMultipartUploadRequest.Builder applyTo(CreateMultipartUploadRequest.Builder b) {
        return asked() ? b.serverSideEncryption(algorithm).ssekmsKeyId(kmsKeyId) : b;
    }

    CopyObjectRequest.Builder applyTo(CopyObjectRequest.Builder b) {
        return asked() ? b.serverSideEncryption(algorithm).ssekmsKeyId(kmsKeyId) : b;
    }

    /**
     * Why a stored object is not encrypted as asked, or null when it is: a store that ignores the request (or a
     * different KMS key) must not pass as encrypting.
     */
    String mismatch(HeadObjectResponse stored) {
        if (!asked()) {
            return null;
        }
        String got = stored.serverSideEncryptionAsString();
        if (!algorithm.equals(got)) {
            return "the store reports server-side encryption " + (got == null ? "none" : got) + ", not " + algorithm;
        }
        String key = stored.ssekmsKeyId();
        if (kmsKeyId != null && isAlias(kmsKeyId)) {
            // the store reports the key an alias named (its ARN), never the alias: a KMS key must be reported
            return key == null ? "the store reports no KMS key, not one named by " + kmsKeyId : null;
        }
        if (kmsKeyId != null && (key == null || !(key.equals(kmsKeyId) || key.endsWith("/" + kmsKeyId)
                || key.endsWith(":" + kmsKeyId)))) {
            return "the store reports KMS key " + Objects.requireNonNullElse(key, "none") + ", not " + kmsKeyId;
        }
        return null;
    }

    /** {@code alias/name}, or an alias's ARN ({@code arn:aws:kms:region:account:alias/name}). */
    static boolean isAlias(String kmsKeyId) {
        return kmsKeyId.startsWith("alias/") || kmsKeyId.startsWith("arn:") && kmsKeyId.contains(":alias/");
    }

    @Override
    public String toString() {
        return !asked() ? "none" : algorithm + (kmsKeyId == null ? "" : " (" + kmsKeyId + ")");
    }
}
