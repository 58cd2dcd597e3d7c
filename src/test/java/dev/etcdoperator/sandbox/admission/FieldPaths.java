package dev.etcdoperator.sandbox.admission;

/** Field paths written as the API server writes them: {@code spec.pod.labels}, {@code spec.etcdEndpoints[0]}. */
final class FieldPaths {
    private FieldPaths() {
    }

    static String child(String path, String name) {
        return path.isEmpty() ? name : path + "." + name;
    }

    static String index(String path, int index) {
        return path + "[" + index + "]";
    }
}
