package com.bloceclat.solver;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * The engine's golden solver files, read where the engine keeps them (the module's tests run from its own folder),
 * so the CLI and this endpoint are held to one set.
 */
final class Golden {

    static final Path DIR = Path.of("../engine/src/test/resources/golden/solver");
    static final ObjectMapper JSON = new ObjectMapper();

    private Golden() {
    }

    /** Each line of {@code name} as a JSON object. */
    static List<ObjectNode> lines(String name) {
        try {
            return Files.readAllLines(DIR.resolve(name)).stream()
                    .filter(line -> !line.isBlank())
                    .map(Golden::read)
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static ObjectNode read(String json) {
        try {
            JsonNode node = JSON.readTree(json);
            return (ObjectNode) node;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** An answer without the fields that change from run to run. */
    static ObjectNode withoutStats(ObjectNode answer) {
        ObjectNode copy = answer.deepCopy();
        copy.remove("nodes");
        copy.remove("micros");
        return copy;
    }
}
