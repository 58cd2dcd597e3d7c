package dev.etcdoperator.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * Every relative link in the README and docs/ reaches a file that exists and, with a {@code #fragment}, a heading
 * (or an {@code <a id>}) of that file, as a Markdown host such as GitHub names them: a runbook link from an alert, a
 * "see troubleshooting.md#..." from a status message's documentation, land where they say.
 */
class DocsLinksTest {
    private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)\\)");
    private static final Pattern HEADING = Pattern.compile("^#{1,6}\\s+(.*?)\\s*#*\\s*$");
    private static final Pattern EXPLICIT = Pattern.compile("<a (?:id|name)=\"([^\"]+)\"");
    private static final Pattern SCHEME = Pattern.compile("^[a-zA-Z][a-zA-Z0-9+.-]*:");

    @Test
    void everyRelativeLinkReachesAFileAndASection() throws IOException {
        List<Path> pages = new ArrayList<>(List.of(Path.of("README.md")));
        try (Stream<Path> docs = Files.list(Path.of("docs"))) {
            docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(pages::add);
        }
        List<String> broken = new ArrayList<>();
        Map<Path, Set<String>> anchors = new HashMap<>();
        int links = 0;
        for (Path page : pages) {
            List<String> lines = prose(Files.readAllLines(page));
            for (int i = 0; i < lines.size(); i++) {
                Matcher m = LINK.matcher(lines.get(i));
                while (m.find()) {
                    String target = m.group(1);
                    if (SCHEME.matcher(target).find()) {
                        continue;
                    }
                    links++;
                    int hash = target.indexOf('#');
                    String file = hash < 0 ? target : target.substring(0, hash);
                    Path resolved = file.isEmpty() ? page : page.resolveSibling(file).normalize();
                    String where = page + ":" + (i + 1) + ": " + target;
                    if (!Files.exists(resolved)) {
                        broken.add(where + " (no such file)");
                    } else if (hash >= 0 && resolved.toString().endsWith(".md")
                            && !anchors.computeIfAbsent(resolved, DocsLinksTest::anchorsOf)
                                    .contains(target.substring(hash + 1))) {
                        broken.add(where + " (no such section)");
                    }
                }
            }
        }
        assertThat(links).as("relative links found").isGreaterThan(100);
        assertThat(broken).isEmpty();
    }

    @Test
    void anchorsAreNamedAsAMarkdownHostNamesThem() {
        assertThat(anchorsOf(List.of("# Restore and disaster recovery", "## `spec.etcd` (additive)",
                "### A member is lost", "## Status", "```", "## not a heading", "```", "## Status",
                "<a id=\"whether-the-seed-hashes-its-download\"></a>**Whether...**")))
                .containsExactlyInAnyOrder("restore-and-disaster-recovery", "specetcd-additive", "a-member-is-lost",
                        "status", "status-1", "whether-the-seed-hashes-its-download");
    }

    private static Set<String> anchorsOf(Path page) {
        try {
            return anchorsOf(Files.readAllLines(page));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Set<String> anchorsOf(List<String> lines) {
        Set<String> anchors = new HashSet<>();
        Map<String, Integer> seen = new HashMap<>();
        for (String line : prose(lines)) {
            Matcher explicit = EXPLICIT.matcher(line);
            while (explicit.find()) {
                anchors.add(explicit.group(1));
            }
            Matcher heading = HEADING.matcher(line);
            if (heading.matches()) {
                String slug = slug(heading.group(1));
                int n = seen.merge(slug, 1, Integer::sum) - 1;
                anchors.add(n == 0 ? slug : slug + "-" + n);
            }
        }
        return anchors;
    }

    /** Lower case, markup and punctuation dropped (letters, digits, '-' and '_' kept), spaces to '-'. */
    private static String slug(String heading) {
        String text = heading.replaceAll("\\[([^\\]]*)\\]\\([^)]*\\)", "$1").toLowerCase(Locale.ROOT);
        return text.replaceAll("[^\\p{L}\\p{N}_\\- ]", "").replace(' ', '-');
    }

    /** The lines outside fenced code blocks (blanked inside, so that line numbers stay). */
    private static List<String> prose(List<String> lines) {
        List<String> out = new ArrayList<>(lines.size());
        boolean fenced = false;
        for (String line : lines) {
            if (line.strip().startsWith("```")) {
                fenced = !fenced;
                out.add("");
            } else {
                out.add(fenced ? "" : line);
            }
        }
        return out;
    }
}
