package dev.etcdoperator.sandbox.support;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The samples of a Prometheus text exposition, as {@code /q/metrics} serves it. */
public final class PrometheusText {
    private static final Pattern SAMPLE = Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)(\\{(.*)})?\\s+(\\S+)");
    private static final Pattern LABEL = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\]|\\\\.)*)\"");

    public record Sample(String name, Map<String, String> labels, double value) {
        boolean has(Map<String, String> wanted) {
            return wanted.entrySet().stream().allMatch(e -> e.getValue().equals(labels.get(e.getKey())));
        }
    }

    private final List<Sample> samples;

    private PrometheusText(List<Sample> samples) {
        this.samples = samples;
    }

    public static PrometheusText parse(String text) {
        List<Sample> samples = new ArrayList<>();
        for (String line : text.split("\n")) {
            Matcher m = SAMPLE.matcher(line.strip());
            if (line.startsWith("#") || !m.find()) {
                continue;
            }
            Map<String, String> labels = new LinkedHashMap<>();
            if (m.group(3) != null) {
                Matcher l = LABEL.matcher(m.group(3));
                while (l.find()) {
                    labels.put(l.group(1), l.group(2));
                }
            }
            samples.add(new Sample(m.group(1), labels, Double.parseDouble(m.group(4))));
        }
        return new PrometheusText(samples);
    }

    /** The samples of {@code name} that carry every label given (as name, value pairs). */
    public List<Sample> series(String name, String... labels) {
        Map<String, String> wanted = new LinkedHashMap<>();
        for (int i = 0; i < labels.length; i += 2) {
            wanted.put(labels[i], labels[i + 1]);
        }
        return samples.stream().filter(s -> s.name().equals(name) && s.has(wanted)).toList();
    }

    /** The one sample of {@code name} with these labels; fails when there is none or more than one. */
    public double value(String name, String... labels) {
        List<Sample> found = series(name, labels);
        if (found.size() != 1) {
            throw new AssertionError("expected one sample of " + name + " " + List.of(labels) + ", found " + found);
        }
        return found.get(0).value();
    }

    /** Every sample whose labels include these, whatever its name. */
    public List<Sample> labelled(String... labels) {
        Map<String, String> wanted = new LinkedHashMap<>();
        for (int i = 0; i < labels.length; i += 2) {
            wanted.put(labels[i], labels[i + 1]);
        }
        return samples.stream().filter(s -> s.has(wanted)).toList();
    }
}
