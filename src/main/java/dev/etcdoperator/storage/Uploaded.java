package dev.etcdoperator.storage;

/** A backup object that is complete and verified: where it is, its size and its SHA-256 (hex). */
public record Uploaded(String bucket, String key, long size, String sha256) {

    public String path() {
        return bucket + "/" + key;
    }
}
