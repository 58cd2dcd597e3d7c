package dev.etcdoperator.api.v1beta2;

/** A DNS-1123 label, as Kubernetes requires of Service and Secret names. */
public final class ResourceName {
    public static final String PATTERN = "^[a-z0-9]([-a-z0-9]*[a-z0-9])?$";

    private ResourceName() {
    }
}
