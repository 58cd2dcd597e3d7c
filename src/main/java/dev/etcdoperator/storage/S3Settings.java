package dev.etcdoperator.storage;

import java.net.URI;

/**
 * How to reach a store: the credentials and region of profile {@code default}, and the API's endpoint and
 * path-style choice.
 *
 * @param sessionToken null unless the credentials are temporary
 * @param endpoint     null for AWS itself
 */
public record S3Settings(String accessKeyId, String secretAccessKey, String sessionToken, String region, URI endpoint,
        boolean forcePathStyle) {

    @Override
    public String toString() {
        return "S3Settings[accessKeyId=" + accessKeyId + ", region=" + region + ", endpoint=" + endpoint
                + ", forcePathStyle=" + forcePathStyle + "]";
    }
}
