package dev.etcdoperator.api.v1beta2;

/** The API group and version served, as the CoreOS etcd-operator named them. */
public final class ApiGroup {
    public static final String GROUP = "etcd.database.coreos.com";
    public static final String VERSION = "v1beta2";
    public static final String API_VERSION = GROUP + "/" + VERSION;

    private ApiGroup() {
    }
}
