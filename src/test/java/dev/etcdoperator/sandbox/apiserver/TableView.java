package dev.etcdoperator.sandbox.apiserver;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Server-side printing: turns an object or a list into the {@code meta.k8s.io/v1 Table} kubectl asks for, with
 * a custom resource's additionalPrinterColumns, or a few built-in columns for pods.
 */
final class TableView {
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    record Column(String name, String type, String description, int priority, Function<JsonNode, JsonNode> value) {
    }

    private final Map<String, List<Column>> columnsByResource = new ConcurrentHashMap<>();
    private final Clock clock;

    TableView(Clock clock) {
        this.clock = clock;
        columnsByResource.put(key("", "pods"), podColumns());
        columnsByResource.put(key("", "events"), eventColumns());
    }

    void registerPrinterColumns(String group, String plural, JsonNode additionalPrinterColumns) {
        List<Column> columns = new ArrayList<>();
        if (additionalPrinterColumns != null) {
            for (JsonNode c : additionalPrinterColumns) {
                String path = c.path("jsonPath").asText();
                String type = c.path("type").asText("string");
                columns.add(new Column(c.path("name").asText(), type, c.path("description").asText(""),
                        c.path("priority").asInt(0), object -> {
                            JsonNode v = SimpleJsonPath.read(object, path);
                            return "date".equals(type) && v != null && v.isTextual() ? JSON.textNode(age(v.asText()))
                                    : v;
                        }));
            }
        } else {
            columns.add(new Column("Age", "date", "", 0,
                    o -> JSON.textNode(age(o.path("metadata").path("creationTimestamp").asText()))));
        }
        columnsByResource.put(key(group, plural), columns);
    }

    boolean serves(String group, String plural) {
        return columnsByResource.containsKey(key(group, plural));
    }

    /** {@code body} is an object or a list; the answer is a Table. */
    String render(String group, String plural, JsonNode body) {
        List<Column> columns = columnsByResource.get(key(group, plural));
        ObjectNode table = JSON.objectNode().put("kind", "Table").put("apiVersion", "meta.k8s.io/v1");
        table.putObject("metadata").put("resourceVersion", body.path("metadata").path("resourceVersion").asText(""));
        ArrayNode defs = table.putArray("columnDefinitions");
        defs.addObject().put("name", "Name").put("type", "string").put("format", "name")
                .put("description", "Name of the object").put("priority", 0);
        for (Column c : columns) {
            defs.addObject().put("name", c.name()).put("type", "date".equals(c.type()) ? "string" : c.type())
                    .put("format", "").put("description", c.description()).put("priority", c.priority());
        }
        ArrayNode rows = table.putArray("rows");
        List<JsonNode> items = new ArrayList<>();
        if (body.has("items")) {
            body.get("items").forEach(items::add);
        } else {
            items.add(body);
        }
        for (JsonNode item : items) {
            ObjectNode row = rows.addObject();
            ArrayNode cells = row.putArray("cells");
            cells.add(item.path("metadata").path("name").asText());
            for (Column c : columns) {
                JsonNode v = c.value().apply(item);
                cells.add(v == null || v.isMissingNode() ? JSON.nullNode() : v);
            }
            ObjectNode partial = row.putObject("object").put("kind", "PartialObjectMetadata")
                    .put("apiVersion", "meta.k8s.io/v1");
            partial.set("metadata", item.path("metadata").deepCopy());
        }
        return table.toString();
    }

    private List<Column> podColumns() {
        return List.of(
                new Column("Ready", "string", "", 0, pod -> {
                    JsonNode statuses = pod.path("status").path("containerStatuses");
                    int total = pod.path("spec").path("containers").size();
                    int ready = 0;
                    for (JsonNode s : statuses) {
                        ready += s.path("ready").asBoolean() ? 1 : 0;
                    }
                    return JSON.textNode(ready + "/" + total);
                }),
                new Column("Status", "string", "", 0, pod -> {
                    for (JsonNode s : pod.path("status").path("containerStatuses")) {
                        JsonNode waiting = s.path("state").path("waiting");
                        if (waiting.has("reason")) {
                            return JSON.textNode(waiting.get("reason").asText());
                        }
                    }
                    return JSON.textNode(pod.path("status").path("phase").asText("Pending"));
                }),
                new Column("Restarts", "integer", "", 0, pod -> {
                    int restarts = 0;
                    for (JsonNode s : pod.path("status").path("containerStatuses")) {
                        restarts += s.path("restartCount").asInt();
                    }
                    return JSON.numberNode(restarts);
                }),
                new Column("Age", "date", "", 0,
                        pod -> JSON.textNode(age(pod.path("metadata").path("creationTimestamp").asText()))),
                new Column("IP", "string", "", 1, pod -> pod.path("status").path("podIP")));
    }

    private List<Column> eventColumns() {
        return List.of(
                new Column("Last Seen", "string", "", 0,
                        e -> JSON.textNode(age(e.path("lastTimestamp").asText()))),
                new Column("Type", "string", "", 0, e -> e.path("type")),
                new Column("Reason", "string", "", 0, e -> e.path("reason")),
                new Column("Object", "string", "", 0, e -> JSON.textNode(
                        e.path("involvedObject").path("kind").asText().toLowerCase(java.util.Locale.ROOT) + "/"
                                + e.path("involvedObject").path("name").asText())),
                new Column("Message", "string", "", 0, e -> e.path("message")));
    }

    private String age(String timestamp) {
        try {
            Duration d = Duration.between(Instant.parse(timestamp), Instant.now(clock));
            long s = Math.max(0, d.getSeconds());
            if (s < 120) {
                return s + "s";
            }
            if (s < 7200) {
                return (s / 60) + "m";
            }
            if (s < 172800) {
                return (s / 3600) + "h";
            }
            return (s / 86400) + "d";
        } catch (DateTimeParseException e) {
            return "<unknown>";
        }
    }

    private static String key(String group, String plural) {
        return group + "/" + plural;
    }
}
