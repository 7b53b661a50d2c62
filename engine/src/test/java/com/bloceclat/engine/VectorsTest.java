package com.bloceclat.engine;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The shared rule vectors (recorded by an independent implementation of RULES.md, copied from
 * ../shared/vectors) replay move by move to their claimed score and rounds.
 */
class VectorsTest {
    /** The vectors stop EASY games at this many rounds (vectors/README.md). */
    private static final int EASY_CAP = 200;

    @TestFactory
    List<DynamicTest> everyVectorReplaysToItsClaim() {
        List<DynamicTest> tests = new ArrayList<>();
        for (Path file : Golden.files("vectors", ".json")) {
            tests.add(DynamicTest.dynamicTest(file.getFileName().toString(), () -> replay(Golden.JSON.readTree(file.toFile()))));
        }
        assertEquals(10, tests.size());
        return tests;
    }

    private static void replay(JsonNode v) {
        Level level = Level.parse(v.get("level").asText());
        List<Piece[]> rounds = new ArrayList<>();
        for (JsonNode r : v.get("rounds")) {
            Piece[] ps = new Piece[r.size()];
            for (int i = 0; i < ps.length; i++) {
                ps[i] = Pieces.require(r.get(i).asText());
            }
            rounds.add(ps);
        }
        long start = Board.parse(Golden.rows(v.get("start")));
        int cap = level == Level.EASY ? EASY_CAP : Game.NO_CAP;
        Game game = new Game(v.get("seed").asLong(), level, Deal.fixed(start, rounds), cap);
        int index = 0;
        for (JsonNode m : v.get("moves")) {
            index++;
            assertEquals(m.get("round").asInt(), game.round(), "round of move " + index);
            game.place(m.get("slot").asInt(), m.get("row").asInt(), m.get("col").asInt());
        }
        assertEquals(v.get("claimedScore").asInt(), game.score(), "score");
        assertEquals(v.get("claimedRounds").asInt(), game.round(), "completed rounds");
        assertTrue(game.gameOver(), "the game has ended (blocked or at the cap)");
    }

    /** The copy in the repository stays identical to ../shared/vectors when that folder is beside it. */
    @Test
    void copyMatchesSharedVectorsWhenPresent() throws IOException {
        Path shared = Path.of("..", "..", "shared", "vectors");
        if (!Files.isDirectory(shared)) {
            return;
        }
        for (Path file : Golden.files("vectors", ".json")) {
            Path twin = shared.resolve(file.getFileName());
            assertTrue(Files.exists(twin), "shared vector " + twin);
            assertEquals(Files.readString(twin), Files.readString(file), file.getFileName().toString());
        }
    }
}
