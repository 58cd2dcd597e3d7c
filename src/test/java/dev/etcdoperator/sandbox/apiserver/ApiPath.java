package dev.etcdoperator.sandbox.apiserver;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A request path of the Kubernetes REST API taken apart: group (empty for the core group), version, namespace,
 * resource (plural), name and subresource, any of which may be absent.
 */
record ApiPath(String group, String version, String namespace, String resource, String name, String subresource,
        String query) {

    private static final Pattern PATH = Pattern.compile(
            "^/(?:api/(?<cv>[^/]+)|apis/(?<g>[^/]+)/(?<v>[^/]+))"
                    + "(?:/namespaces/(?<ns>[^/]+))?(?:/(?<res>[^/]+)(?:/(?<name>[^/]+)(?:/(?<sub>[^/]+))?)?)?/?$");

    static ApiPath parse(String rawPath) {
        String path = rawPath;
        String query = "";
        int q = rawPath.indexOf('?');
        if (q >= 0) {
            path = rawPath.substring(0, q);
            query = rawPath.substring(q + 1);
        }
        Matcher m = PATH.matcher(path);
        if (!m.matches()) {
            return null;
        }
        String group = m.group("g") == null ? "" : m.group("g");
        String version = m.group("cv") != null ? m.group("cv") : m.group("v");
        String ns = m.group("ns");
        String res = m.group("res");
        String name = m.group("name");
        String sub = m.group("sub");
        if (ns != null && res == null) {
            // "/api/v1/namespaces/foo" is the namespace object itself
            return new ApiPath(group, version, null, "namespaces", ns, null, query);
        }
        return new ApiPath(group, version, ns, res, name, sub, query);
    }

    boolean isCollection() {
        return resource != null && name == null;
    }

    boolean isItem() {
        return name != null && subresource == null;
    }

    /** The same path without its subresource and query. */
    String itemPath() {
        StringBuilder sb = new StringBuilder(group.isEmpty() ? "/api/" + version : "/apis/" + group + "/" + version);
        if (namespace != null) {
            sb.append("/namespaces/").append(namespace);
        }
        sb.append('/').append(resource);
        if (name != null) {
            sb.append('/').append(name);
        }
        return sb.toString();
    }

    String queryParam(String key) {
        for (String part : query.split("&")) {
            int eq = part.indexOf('=');
            if (eq > 0 && part.substring(0, eq).equals(key)) {
                return java.net.URLDecoder.decode(part.substring(eq + 1), java.nio.charset.StandardCharsets.UTF_8);
            }
        }
        return null;
    }

    /** The path and query, minus one query parameter. */
    String withoutQueryParam(String rawPath, String key) {
        int q = rawPath.indexOf('?');
        if (q < 0) {
            return rawPath;
        }
        StringBuilder kept = new StringBuilder();
        for (String part : rawPath.substring(q + 1).split("&")) {
            if (!part.startsWith(key + "=") && !part.isEmpty()) {
                kept.append(kept.length() == 0 ? "" : "&").append(part);
            }
        }
        return rawPath.substring(0, q) + (kept.length() == 0 ? "" : "?" + kept);
    }
}
