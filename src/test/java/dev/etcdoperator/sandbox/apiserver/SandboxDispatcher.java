package dev.etcdoperator.sandbox.apiserver;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.mockwebserver.dsl.HttpMethod;
import io.fabric8.mockwebserver.http.Buffer;
import io.fabric8.mockwebserver.http.Headers;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.fabric8.zjsonpatch.JsonPatch;

/**
 * The fabric8 CRUD dispatcher plus what an API server does that it does not: discovery, server-side tables,
 * admission of custom resources (schema, defaults, CEL) on create, update and patch, the scale subresource,
 * and field selectors on lists.
 */
final class SandboxDispatcher extends KubernetesCrudDispatcher {
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    private final Discovery discovery;
    private final TableView tables;
    private final Supplier<AdmissionControl> admission;
    private final Supplier<String> serverAddress;
    private final Set<String> customResources = ConcurrentHashMap.newKeySet();
    private final Map<String, String> scaleSpecPaths = new ConcurrentHashMap<>();

    SandboxDispatcher(Discovery discovery, TableView tables, Supplier<AdmissionControl> admission,
            Supplier<String> serverAddress) {
        this.discovery = discovery;
        this.tables = tables;
        this.admission = admission;
        this.serverAddress = serverAddress;
    }

    @Override
    public MockResponse dispatch(RecordedRequest request) {
        try {
            MockResponse response = route(request);
            if (response.getWebSocketListener() == null && response.header("Content-Type") == null
                    && response.getBody() != null && response.getBody().size() > 0) {
                // kubectl asks for protobuf first and takes an answer without a content type for protobuf
                response.setHeader("Content-Type", "application/json");
            }
            return response;
        } catch (RuntimeException e) {
            return status(500, "InternalError", "sandbox API server: " + e);
        }
    }

    private MockResponse route(RecordedRequest request) {
        String rawPath = request.getPath();
        String method = request.getMethod().toUpperCase(java.util.Locale.ROOT);
        String pathOnly = rawPath.contains("?") ? rawPath.substring(0, rawPath.indexOf('?')) : rawPath;
        if (method.equals("GET")) {
            String answer = discovery.answer(pathOnly, serverAddress.get());
            if (answer != null) {
                return json(200, answer);
            }
            if (pathOnly.startsWith("/openapi") || pathOnly.startsWith("/swagger")) {
                return status(404, "NotFound", "the sandbox API server serves no such OpenAPI document");
            }
        }
        ApiPath path = ApiPath.parse(rawPath);
        if (path == null || path.resource() == null) {
            return super.dispatch(request);
        }
        String key = path.group() + "/" + path.resource();
        boolean custom = customResources.contains(key);
        if ("scale".equals(path.subresource()) && scaleSpecPaths.containsKey(key)) {
            return scale(request, method, path, key);
        }
        if (method.equals("GET") && !"true".equals(path.queryParam("watch"))) {
            return get(request, rawPath, path);
        }
        if (custom && path.subresource() == null) {
            switch (method) {
                case "POST":
                    if (path.isCollection()) {
                        return admitAndStore(path, rawPath, "CREATE", parse(requestBody(request)), null, true);
                    }
                    break;
                case "PUT":
                    return admitAndStore(path, rawPath, "UPDATE", parse(requestBody(request)), current(path), false);
                case "PATCH":
                    return patch(request, path);
                default:
                    break;
            }
        }
        boolean crdCreation = method.equals("POST") && path.group().equals("apiextensions.k8s.io");
        JsonNode crd = crdCreation ? parse(new String(request.getBody().getBytes(), StandardCharsets.UTF_8)) : null;
        MockResponse response = super.dispatch(request);
        if (crdCreation && response.code() < 300) {
            registerCrd(crd);
        }
        return response;
    }

    /** Makes a custom resource definition known to discovery, tables, admission and the scale subresource. */
    void registerCrd(JsonNode crd) {
        JsonNode spec = crd.path("spec");
        String group = spec.path("group").asText();
        JsonNode names = spec.path("names");
        String plural = names.path("plural").asText();
        for (JsonNode version : spec.path("versions")) {
            if (!version.path("served").asBoolean(true)) {
                continue;
            }
            java.util.List<String> shortNames = new java.util.ArrayList<>();
            names.path("shortNames").forEach(n -> shortNames.add(n.asText()));
            java.util.List<String> subresources = new java.util.ArrayList<>();
            version.path("subresources").fieldNames().forEachRemaining(subresources::add);
            discovery.register(new ResourceType(group, version.path("name").asText(), names.path("kind").asText(),
                    plural, names.path("singular").asText(plural), "Namespaced".equals(spec.path("scope").asText()),
                    shortNames, subresources));
            JsonNode columns = version.get("additionalPrinterColumns");
            tables.registerPrinterColumns(group, plural, columns);
            JsonNode scale = version.path("subresources").path("scale");
            if (scale.has("specReplicasPath")) {
                scaleSpecPaths.put(group + "/" + plural, scale.path("specReplicasPath").asText() + "|"
                        + scale.path("statusReplicasPath").asText());
            }
        }
        customResources.add(group + "/" + plural);
    }

    private MockResponse get(RecordedRequest request, String rawPath, ApiPath path) {
        String fieldSelector = path.queryParam("fieldSelector");
        MockResponse response;
        if (fieldSelector != null && path.isCollection()) {
            response = super.handleGet(path.withoutQueryParam(rawPath, "fieldSelector"));
            if (response.code() == 200) {
                response = json(200, filter(parse(body(response)), fieldSelector).toString());
            }
        } else {
            response = super.dispatch(request);
        }
        String accept = request.getHeader("Accept");
        if (response.code() == 200 && accept != null && accept.contains("as=Table")
                && tables.serves(path.group(), path.resource())) {
            return json(200, tables.render(path.group(), path.resource(), parse(body(response))));
        }
        return response;
    }

    private MockResponse patch(RecordedRequest request, ApiPath path) {
        JsonNode current = current(path);
        if (current == null) {
            return status(404, "NotFound", path.resource() + " \"" + path.name() + "\" not found");
        }
        String contentType = String.valueOf(request.getHeader("Content-Type"));
        JsonNode patch = parse(requestBody(request));
        JsonNode patched;
        if (contentType.contains("merge-patch")) {
            patched = MergePatch.apply(current, patch);
        } else if (contentType.contains("json-patch")) {
            patched = JsonPatch.apply(patch, current);
        } else {
            return status(415, "UnsupportedMediaType",
                    "the sandbox API server takes JSON patches and JSON merge patches for custom resources, not "
                            + contentType);
        }
        ((ObjectNode) patched.path("metadata")).set("resourceVersion",
                current.path("metadata").path("resourceVersion"));
        return admitAndStore(path, path.itemPath(), "UPDATE", patched, current, false);
    }

    private MockResponse admitAndStore(ApiPath path, String storePath, String operation, JsonNode object,
            JsonNode old, boolean create) {
        if (old != null && object.path("metadata").isObject() && !object.path("metadata").has("resourceVersion")) {
            ((ObjectNode) object.get("metadata")).set("resourceVersion", old.path("metadata").path("resourceVersion"));
        }
        if (old != null && old.has("status") && object.isObject()) {
            // the main resource never writes status: that goes through the status subresource
            ((ObjectNode) object).set("status", old.get("status"));
        }
        AdmissionControl.Decision decision = admission.get().admit(path.group(), path.resource(), operation, object,
                old);
        if (!decision.allowed()) {
            return json(decision.code(), decision.statusJson());
        }
        RecordedRequest store = new RecordedRequest("HTTP/1.1", create ? HttpMethod.POST : HttpMethod.PUT, storePath,
                Headers.builder().add("Content-Type", "application/json").build(),
                new Buffer(decision.object().toString().getBytes(StandardCharsets.UTF_8)));
        return create ? super.handleCreate(store) : super.handleUpdate(store);
    }

    private MockResponse scale(RecordedRequest request, String method, ApiPath path, String key) {
        String[] paths = scaleSpecPaths.get(key).split("\\|", -1);
        JsonNode current = current(path);
        if (current == null) {
            return status(404, "NotFound", path.resource() + " \"" + path.name() + "\" not found");
        }
        if (!method.equals("GET")) {
            JsonNode body = parse(requestBody(request));
            JsonNode replicas = method.equals("PATCH") && String.valueOf(request.getHeader("Content-Type"))
                    .contains("json-patch")
                            ? SimpleJsonPath.read(JsonPatch.apply(body, scaleOf(current, paths)), ".spec.replicas")
                            : SimpleJsonPath.read(body, ".spec.replicas");
            if (replicas == null || !replicas.canConvertToLong()) {
                return status(422, "Invalid", "spec.replicas: Required value");
            }
            JsonNode updated = current.deepCopy();
            setPath(updated, paths[0], replicas);
            MockResponse stored = admitAndStore(path, path.itemPath(), "UPDATE", updated, current, false);
            if (stored.code() >= 300) {
                return stored;
            }
            current = parse(body(stored));
        }
        return json(200, scaleOf(current, paths).toString());
    }

    private static JsonNode scaleOf(JsonNode object, String[] paths) {
        ObjectNode scale = JSON.objectNode().put("kind", "Scale").put("apiVersion", "autoscaling/v1");
        ObjectNode meta = scale.putObject("metadata");
        JsonNode m = object.path("metadata");
        for (String f : new String[] { "name", "namespace", "uid", "resourceVersion", "creationTimestamp" }) {
            if (m.has(f)) {
                meta.set(f, m.get(f));
            }
        }
        JsonNode spec = SimpleJsonPath.read(object, paths[0]);
        scale.putObject("spec").put("replicas", spec == null ? 0 : spec.asInt());
        JsonNode status = paths[1].isEmpty() ? null : SimpleJsonPath.read(object, paths[1]);
        scale.putObject("status").put("replicas", status == null ? 0 : status.asInt());
        return scale;
    }

    private static void setPath(JsonNode root, String path, JsonNode value) {
        String[] parts = path.replaceFirst("^\\.", "").split("\\.");
        ObjectNode node = (ObjectNode) root;
        for (int i = 0; i < parts.length - 1; i++) {
            JsonNode next = node.get(parts[i]);
            node = next instanceof ObjectNode o ? o : node.putObject(parts[i]);
        }
        node.set(parts[parts.length - 1], value);
    }

    private JsonNode current(ApiPath path) {
        MockResponse existing = super.handleGet(path.itemPath());
        return existing.code() == 200 ? parse(body(existing)) : null;
    }

    /** Keeps the list items matching every {@code a.b=value} or {@code a.b!=value} term. */
    private static JsonNode filter(JsonNode list, String selector) {
        ArrayNode items = (ArrayNode) list.path("items");
        Iterator<JsonNode> it = items.iterator();
        while (it.hasNext()) {
            JsonNode item = it.next();
            for (String term : selector.split(",")) {
                boolean negate = term.contains("!=");
                String[] kv = term.split(negate ? "!=" : "==?", 2);
                if (kv.length < 2) {
                    continue;
                }
                JsonNode v = SimpleJsonPath.read(item, kv[0].trim());
                boolean equal = v != null && !v.isMissingNode() && v.asText().equals(kv[1].trim());
                if (equal == negate) {
                    it.remove();
                    break;
                }
            }
        }
        return list;
    }

    private static String requestBody(RecordedRequest request) {
        return request.getBody() == null ? "" : new String(request.getBody().getBytes(), StandardCharsets.UTF_8);
    }

    private static String body(MockResponse response) {
        return response.getBody() == null ? "" : new String(response.getBody().getBytes(), StandardCharsets.UTF_8);
    }

    private static JsonNode parse(String body) {
        try {
            return body == null || body.isBlank() ? JSON.objectNode() : MAPPER.readTree(body);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static MockResponse json(int code, String body) {
        return new MockResponse().setResponseCode(code).setHeader("Content-Type", "application/json").setBody(body);
    }

    static MockResponse status(int code, String reason, String message) {
        ObjectNode s = JSON.objectNode().put("kind", "Status").put("apiVersion", "v1");
        s.putObject("metadata");
        s.put("status", "Failure").put("message", message).put("reason", reason).put("code", code);
        return json(code, s.toString());
    }
}
