package com.bloceclat.engine;

import com.bloceclat.engine.cli.Main;
import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

import java.util.Locale;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** {@code golden/pieces.json} is the catalogue and level weights other modules (the web UI's rules) read. */
class PiecesTest {
    private static final JsonNode GOLDEN = Golden.read("pieces.json");

    @Test
    void catalogueAndWeightsEqualTheGoldenFile() {
        assertEquals(Pieces.COUNT, GOLDEN.size());
        for (int i = 0; i < Pieces.COUNT; i++) {
            Piece p = Pieces.get(i);
            JsonNode g = GOLDEN.get(i);
            assertEquals(p.id(), g.get("id").asText(), "piece " + i);
            assertEquals(p.pieceClass().name().toLowerCase(Locale.ROOT), g.get("class").asText(), p.id());
            assertEquals(p.cells(), g.get("cells").asInt(), p.id());
            assertArrayEquals(p.rows(), Golden.rows(g.get("rows")), p.id());
            assertEquals(Level.values().length, g.get("weights").size(), p.id());
            for (Level l : Level.values()) {
                assertEquals(l.weight(p.index()), g.get("weights").get(l.name()).asInt(), p.id() + " " + l);
            }
        }
    }

    @Test
    void theCliPrintsTheGoldenFile() {
        assertEquals(GOLDEN, Main.piecesJson());
    }
}
