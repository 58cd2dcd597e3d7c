package dev.etcdoperator.api.v1beta2;

import java.util.List;

/** Backup storage types the API names (the original's four). Only S3 is implemented. */
public final class StorageType {
    public static final String S3 = "S3";
    public static final String ABS = "ABS";
    public static final String GCS = "GCS";
    public static final String OSS = "OSS";
    public static final List<String> ALL = List.of(S3, ABS, GCS, OSS);
    public static final List<String> SUPPORTED = List.of(S3);

    private StorageType() {
    }
}
