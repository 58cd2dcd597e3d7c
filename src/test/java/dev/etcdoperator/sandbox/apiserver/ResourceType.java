package dev.etcdoperator.sandbox.apiserver;

import java.util.List;

/** One kind the sandbox API serves, as discovery describes it. */
record ResourceType(String group, String version, String kind, String plural, String singular, boolean namespaced,
        List<String> shortNames, List<String> subresources) {

    static final List<String> VERBS = List.of("create", "delete", "deletecollection", "get", "list", "patch", "update",
            "watch");

    String groupVersion() {
        return group.isEmpty() ? version : group + "/" + version;
    }

    /** The built-in kinds the operator, its users and kubectl use. */
    static List<ResourceType> builtIns() {
        return List.of(
                core("Pod", "pods", true, List.of("po"), List.of("status", "log")),
                core("Service", "services", true, List.of("svc"), List.of("status")),
                core("Endpoints", "endpoints", true, List.of("ep"), List.of()),
                core("PersistentVolumeClaim", "persistentvolumeclaims", true, List.of("pvc"), List.of("status")),
                core("Secret", "secrets", true, List.of(), List.of()),
                core("ConfigMap", "configmaps", true, List.of("cm"), List.of()),
                core("Event", "events", true, List.of("ev"), List.of()),
                core("ServiceAccount", "serviceaccounts", true, List.of("sa"), List.of()),
                core("Namespace", "namespaces", false, List.of("ns"), List.of("status")),
                new ResourceType("policy", "v1", "PodDisruptionBudget", "poddisruptionbudgets", "poddisruptionbudget",
                        true, List.of("pdb"), List.of("status")),
                new ResourceType("coordination.k8s.io", "v1", "Lease", "leases", "lease", true, List.of(), List.of()),
                new ResourceType("apiextensions.k8s.io", "v1", "CustomResourceDefinition",
                        "customresourcedefinitions", "customresourcedefinition", false, List.of("crd", "crds"),
                        List.of("status")));
    }

    private static ResourceType core(String kind, String plural, boolean namespaced, List<String> shortNames,
            List<String> subresources) {
        return new ResourceType("", "v1", kind, plural, kind.toLowerCase(java.util.Locale.ROOT), namespaced,
                shortNames, subresources);
    }
}
