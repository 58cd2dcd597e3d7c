package dev.etcdoperator.helm;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * A copy of the chart in which {@code helm template}, which leaves hooks and NOTES.txt out, renders them too: the
 * test hooks lose their hook annotation, and NOTES.txt is rendered into a ConfigMap named {@value #NOTES}.
 */
final class ChartCopy {
    static final String NOTES = "rendered-notes";

    private ChartCopy() {
    }

    static Path of(Path dir) throws IOException {
        Path copy = dir.resolve("etcd-operator");
        try (Stream<Path> files = Files.walk(RenderedChart.CHART)) {
            for (Path source : files.toList()) {
                Path target = copy.resolve(RenderedChart.CHART.relativize(source).toString());
                if (Files.isDirectory(source)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(source, target);
                }
            }
        }
        try (Stream<Path> hooks = Files.list(copy.resolve("templates").resolve("tests"))) {
            for (Path hook : hooks.toList()) {
                List<String> lines = Files.readAllLines(hook).stream()
                        .filter(line -> !line.trim().startsWith("helm.sh/hook")).toList();
                Files.write(hook, lines);
            }
        }
        Files.move(copy.resolve("templates").resolve("NOTES.txt"), copy.resolve("files").resolve("notes.txt"));
        Files.writeString(copy.resolve("templates").resolve("rendered-notes.yaml"), """
                apiVersion: v1
                kind: ConfigMap
                metadata:
                  name: %s
                data:
                  notes: |
                {{ tpl (.Files.Get "files/notes.txt") . | indent 4 }}
                """.formatted(NOTES));
        return copy;
    }
}
