package com.bloceclat.testsupport;

import static io.restassured.RestAssured.given;

import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The application's {@code /q/metrics} (Prometheus text) read as the services' docs name its series, e.g.
 * {@code game_private_race_total{outcome="joined"}}: {@code value("game_private_race_total", "outcome", "joined")}.
 * Tests share one application: a test reads the series before and after what it does, or a series only it writes (a
 * tag value of its own), never an absolute value of a shared one.
 */
public final class PrometheusText {

    /** One sample line: its name, its labels (if any), its value (and a timestamp, if any). */
    private static final Pattern SAMPLE = Pattern.compile(
            "(?m)^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\\{([^}]*)\\})?[ \\t]+(\\S+)(?:[ \\t]+-?\\d+)?[ \\t]*$");
    private static final Pattern LABEL = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\]|\\\\.)*)\"");

    private PrometheusText() {
    }

    /** The application's metrics now. */
    public static String scrape() {
        return given().accept("text/plain").when().get("/q/metrics").then().statusCode(200).extract().asString();
    }

    /**
     * The sum of the samples of the series {@code name} whose labels include {@code labels} (label, value, label,
     * value...); 0 when there is none (a counter not incremented yet).
     */
    public static double value(String name, String... labels) {
        return valueIn(scrape(), name, labels);
    }

    /** As {@link #value(String, String...)}, in {@code text} already scraped. */
    public static double valueIn(String text, String name, String... labels) {
        if (labels.length % 2 != 0) {
            throw new IllegalArgumentException("labels go in pairs: name, value");
        }
        double sum = 0;
        Matcher sample = SAMPLE.matcher(text);
        while (sample.find()) {
            if (!sample.group(1).equals(name) || !hasLabels(sample.group(2), labels)) {
                continue;
            }
            sum += parse(sample.group(3));
        }
        return sum;
    }

    /** Whether {@code text} has a sample of the series {@code name}, whatever its labels and value. */
    public static boolean has(String text, String name) {
        Matcher sample = SAMPLE.matcher(text);
        while (sample.find()) {
            if (sample.group(1).equals(name)) {
                return true;
            }
        }
        return false;
    }

    private static boolean hasLabels(String labelText, String[] wanted) {
        Map<String, String> labels = new HashMap<>();
        if (labelText != null) {
            Matcher label = LABEL.matcher(labelText);
            while (label.find()) {
                labels.put(label.group(1), label.group(2));
            }
        }
        for (int i = 0; i < wanted.length; i += 2) {
            if (!wanted[i + 1].equals(labels.get(wanted[i]))) {
                return false;
            }
        }
        return true;
    }

    private static double parse(String value) {
        return switch (value) {
            case "+Inf" -> Double.POSITIVE_INFINITY;
            case "-Inf" -> Double.NEGATIVE_INFINITY;
            default -> Double.parseDouble(value);
        };
    }
}
