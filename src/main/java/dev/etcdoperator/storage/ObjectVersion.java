package dev.etcdoperator.storage;

import java.util.Objects;

/**
 * Which object a key held when it was read: its ETag and, in a bucket with versioning, its version id (null
 * otherwise). Another object written at the key has another ETag (or version id).
 */
public record ObjectVersion(String etag, String versionId) {

    public boolean sameAs(ObjectVersion other) {
        return other != null && Objects.equals(etag, other.etag) && Objects.equals(versionId, other.versionId);
    }

    @Override
    public String toString() {
        return "ETag " + etag + (versionId == null ? "" : ", version " + versionId);
    }
}
