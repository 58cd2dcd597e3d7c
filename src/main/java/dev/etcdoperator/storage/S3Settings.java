package dev.etcdoperator.storage;

import java.net.URI;

/**
 * How to reach a store: static credentials of a Secret's profile {@code default}, or none to use the AWS SDK's
 * default credential chain of the operator's own environment; the region; the API's endpoint and path-style
 * choice.
 *
 * @param accessKeyId  null to use the default credential chain
 * @param sessionToken null unless the credentials are temporary
 * @param endpoint     null for AWS itself
 * @param encryption   the server-side encryption asked for every object written
 * @param clientKey    the key of client-side encryption ({@link BackupCipher}), or null for none
 */
public record S3Settings(String accessKeyId, String secretAccessKey, String sessionToken, String region, URI endpoint,
        boolean forcePathStyle, ServerSideEncryption encryption, BackupKey clientKey) {

    public S3Settings {
        encryption = encryption == null ? ServerSideEncryption.NONE : encryption;
    }

    public S3Settings(String accessKeyId, String secretAccessKey, String sessionToken, String region, URI endpoint,
            boolean forcePathStyle, ServerSideEncryption encryption) {
        this(accessKeyId, secretAccessKey, sessionToken, region, endpoint, forcePathStyle, encryption, null);
    }

    /** Without server-side encryption asked. */
    public S3Settings(String accessKeyId, String secretAccessKey, String sessionToken, String region, URI endpoint,
            boolean forcePathStyle) {
        this(accessKeyId, secretAccessKey, sessionToken, region, endpoint, forcePathStyle, ServerSideEncryption.NONE);
    }

    public S3Settings withEncryption(ServerSideEncryption e) {
        return new S3Settings(accessKeyId, secretAccessKey, sessionToken, region, endpoint, forcePathStyle, e,
                clientKey);
    }

    public S3Settings withClientKey(BackupKey key) {
        return new S3Settings(accessKeyId, secretAccessKey, sessionToken, region, endpoint, forcePathStyle, encryption,
                key);
    }

    /** Settings whose credentials come from the operator's environment (web identity, pod identity, instance profile). */
    public static S3Settings defaultChain(String region, URI endpoint, boolean forcePathStyle) {
        return new S3Settings(null, null, null, region, endpoint, forcePathStyle);
    }

    public boolean usesDefaultChain() {
        return accessKeyId == null;
    }

    @Override
    public String toString() {
        return "S3Settings[accessKeyId=" + (usesDefaultChain() ? "(default chain)" : accessKeyId) + ", region="
                + region + ", endpoint=" + endpoint + ", forcePathStyle=" + forcePathStyle + ", encryption=" + encryption
                + (clientKey == null ? "" : ", clientSideEncryption=" + clientKey) + "]";
    }
}
