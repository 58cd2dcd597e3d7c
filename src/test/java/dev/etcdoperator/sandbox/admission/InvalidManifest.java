package dev.etcdoperator.sandbox.admission;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * A manifest under {@code src/test/resources/manifests/invalid}. Its first line says what the API server must
 * answer: {@code # expect: <field> <part of the message>}. A line {@code # java: undeserializable} says the operator's
 * model classes cannot even read it (a wrong type), so the operator's validators never see it.
 */
record InvalidManifest(Path file, String yaml, JsonNode object, String expectedField, String expectedMessage,
        boolean undeserializable) {

    static final Path DIRECTORY = Path.of("src/test/resources/manifests/invalid");
    private static final String EXPECT = "# expect: ";

    static List<InvalidManifest> all() throws IOException {
        try (Stream<Path> files = Files.list(DIRECTORY)) {
            List<Path> manifests = files.filter(f -> f.toString().endsWith(".yaml")).sorted().toList();
            List<InvalidManifest> all = new ArrayList<>();
            for (Path manifest : manifests) {
                all.add(read(manifest));
            }
            return all;
        }
    }

    static InvalidManifest read(Path file) throws IOException {
        String yaml = Files.readString(file);
        String firstLine = yaml.lines().findFirst().orElse("");
        if (!firstLine.startsWith(EXPECT) || firstLine.indexOf(' ', EXPECT.length()) < 0) {
            throw new IllegalStateException(file + " must start with '# expect: <field> <message part>'");
        }
        String expectation = firstLine.substring(EXPECT.length());
        int space = expectation.indexOf(' ');
        boolean undeserializable = yaml.lines().anyMatch(line -> line.equals("# java: undeserializable"));
        List<JsonNode> documents = CrdAdmission.readYaml(file);
        if (documents.size() != 1) {
            throw new IllegalStateException(file + " must hold exactly one object");
        }
        return new InvalidManifest(file, yaml, documents.get(0), expectation.substring(0, space),
                expectation.substring(space + 1), undeserializable);
    }

    String kind() {
        return object.path("kind").asText();
    }

    @Override
    public String toString() {
        return file.getFileName().toString();
    }
}
