package dev.etcdoperator.sandbox.apiserver;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Answers the discovery requests kubectl makes ({@code /version}, {@code /api}, {@code /api/v1}, {@code /apis},
 * {@code /apis/<group>/<version>}) for the built-in kinds and every custom resource definition registered.
 */
final class Discovery {
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    private final List<ResourceType> types = new CopyOnWriteArrayList<>(ResourceType.builtIns());

    void register(ResourceType type) {
        types.removeIf(t -> t.group().equals(type.group()) && t.plural().equals(type.plural()));
        types.add(type);
    }

    List<ResourceType> types() {
        return List.copyOf(types);
    }

    ResourceType find(String group, String plural) {
        return types.stream().filter(t -> t.group().equals(group) && t.plural().equals(plural)).findFirst()
                .orElse(null);
    }

    /** The JSON answer for a discovery path, or null when the path is not a discovery path. */
    String answer(String path, String serverAddress) {
        if (path.equals("/version")) {
            ObjectNode v = JSON.objectNode();
            v.put("major", "1").put("minor", "32").put("gitVersion", "v1.32.0-sandbox")
                    .put("platform", "linux/amd64").put("goVersion", "go1.23").put("compiler", "gc");
            return v.toString();
        }
        if (path.equals("/api")) {
            ObjectNode v = JSON.objectNode().put("kind", "APIVersions");
            v.putArray("versions").add("v1");
            v.putArray("serverAddressByClientCIDRs").addObject().put("clientCIDR", "0.0.0.0/0")
                    .put("serverAddress", serverAddress);
            return v.toString();
        }
        if (path.equals("/openapi/v3")) {
            return openApiRoot().toString();
        }
        if (path.startsWith("/openapi/v3/")) {
            ObjectNode doc = openApiGroup(path.substring("/openapi/v3/".length()));
            return doc == null ? null : doc.toString();
        }
        if (path.equals("/apis")) {
            return groupList().toString();
        }
        if (path.equals("/api/v1")) {
            return resourceList("", "v1").toString();
        }
        String[] parts = path.split("/");
        if (parts.length == 4 && parts[1].equals("apis")) {
            ObjectNode list = resourceList(parts[2], parts[3]);
            return list.get("resources").isEmpty() ? null : list.toString();
        }
        if (parts.length == 3 && parts[1].equals("apis")) {
            ObjectNode group = groupList().get("groups").valueStream()
                    .map(ObjectNode.class::cast)
                    .filter(g -> g.get("name").asText().equals(parts[2]))
                    .findFirst().orElse(null);
            if (group != null) {
                group.put("kind", "APIGroup").put("apiVersion", "v1");
                return group.toString();
            }
        }
        return null;
    }

    /**
     * The OpenAPI v3 index. Its group documents hold no schemas, only the operations with the
     * {@code fieldValidation} parameter: that tells kubectl to leave validation to the server, where admission does
     * it.
     */
    private ObjectNode openApiRoot() {
        ObjectNode root = JSON.objectNode();
        ObjectNode paths = root.putObject("paths");
        for (ResourceType t : types) {
            String gv = t.group().isEmpty() ? "api/" + t.version() : "apis/" + t.group() + "/" + t.version();
            paths.putObject(gv).put("serverRelativeURL", "/openapi/v3/" + gv + "?hash=sandbox");
        }
        return root;
    }

    private ObjectNode openApiGroup(String gv) {
        ObjectNode doc = JSON.objectNode().put("openapi", "3.0.0");
        doc.putObject("info").put("title", "Kubernetes sandbox").put("version", "v1.32.0");
        ObjectNode paths = doc.putObject("paths");
        boolean any = false;
        for (ResourceType t : types) {
            String prefix = t.group().isEmpty() ? "api/" + t.version() : "apis/" + t.group() + "/" + t.version();
            if (!prefix.equals(gv)) {
                continue;
            }
            any = true;
            String base = "/" + prefix + (t.namespaced() ? "/namespaces/{namespace}/" : "/") + t.plural();
            operation(paths.putObject(base), "post", t);
            ObjectNode item = paths.putObject(base + "/{name}");
            operation(item, "patch", t);
            operation(item, "put", t);
        }
        doc.putObject("components").putObject("schemas");
        return any ? doc : null;
    }

    private static void operation(ObjectNode path, String verb, ResourceType t) {
        ObjectNode op = path.putObject(verb);
        op.putObject("x-kubernetes-group-version-kind").put("group", t.group()).put("version", t.version())
                .put("kind", t.kind());
        op.put("x-kubernetes-action", verb);
        op.putArray("parameters").addObject().put("name", "fieldValidation").put("in", "query")
                .putObject("schema").put("type", "string");
        op.putObject("responses").putObject("200").put("description", "OK");
    }

    private ObjectNode groupList() {
        Map<String, List<String>> versions = new LinkedHashMap<>();
        for (ResourceType t : types) {
            if (!t.group().isEmpty()) {
                List<String> vs = versions.computeIfAbsent(t.group(), g -> new ArrayList<>());
                if (!vs.contains(t.version())) {
                    vs.add(t.version());
                }
            }
        }
        ObjectNode list = JSON.objectNode().put("kind", "APIGroupList").put("apiVersion", "v1");
        ArrayNode groups = list.putArray("groups");
        versions.forEach((group, vs) -> {
            ObjectNode g = groups.addObject().put("name", group);
            ArrayNode gv = g.putArray("versions");
            vs.forEach(v -> gv.addObject().put("groupVersion", group + "/" + v).put("version", v));
            g.putObject("preferredVersion").put("groupVersion", group + "/" + vs.get(0)).put("version", vs.get(0));
        });
        return list;
    }

    private ObjectNode resourceList(String group, String version) {
        String groupVersion = group.isEmpty() ? version : group + "/" + version;
        ObjectNode list = JSON.objectNode().put("kind", "APIResourceList").put("apiVersion", "v1")
                .put("groupVersion", groupVersion);
        ArrayNode resources = list.putArray("resources");
        for (ResourceType t : types) {
            if (!t.group().equals(group) || !t.version().equals(version)) {
                continue;
            }
            ObjectNode r = resources.addObject().put("name", t.plural()).put("singularName", t.singular())
                    .put("namespaced", t.namespaced()).put("kind", t.kind());
            ArrayNode verbs = r.putArray("verbs");
            ResourceType.VERBS.forEach(verbs::add);
            if (!t.shortNames().isEmpty()) {
                ArrayNode sn = r.putArray("shortNames");
                t.shortNames().forEach(sn::add);
            }
            for (String sub : t.subresources()) {
                ObjectNode s = resources.addObject().put("name", t.plural() + "/" + sub).put("singularName", "")
                        .put("namespaced", t.namespaced()).put("kind", sub.equals("scale") ? "Scale" : t.kind());
                if (sub.equals("scale")) {
                    s.put("group", "autoscaling").put("version", "v1");
                }
                ArrayNode sv = s.putArray("verbs");
                (sub.equals("log") ? List.of("get") : List.of("get", "patch", "update")).forEach(sv::add);
            }
        }
        return list;
    }
}
