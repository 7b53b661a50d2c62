package com.bloceclat.engine;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/** Reads the golden files under {@code src/test/resources/golden}. */
public final class Golden {
    public static final ObjectMapper JSON = new ObjectMapper();

    private Golden() {
    }

    public static JsonNode read(String name) {
        try (InputStream in = Golden.class.getResourceAsStream("/golden/" + name)) {
            if (in == null) {
                throw new IllegalArgumentException("no golden file " + name);
            }
            return JSON.readTree(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static String text(String name) {
        try (InputStream in = Golden.class.getResourceAsStream("/golden/" + name)) {
            if (in == null) {
                throw new IllegalArgumentException("no golden file " + name);
            }
            return new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The files of a golden folder, by name. */
    public static List<Path> files(String folder, String suffix) {
        URL url = Golden.class.getResource("/golden/" + folder);
        try (Stream<Path> s = Files.list(Path.of(url.toURI()))) {
            return s.filter(p -> p.getFileName().toString().endsWith(suffix)).sorted().toList();
        } catch (IOException | URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    public static String[] rows(JsonNode array) {
        String[] rows = new String[array.size()];
        for (int i = 0; i < rows.length; i++) {
            rows[i] = array.get(i).asText();
        }
        return rows;
    }
}
