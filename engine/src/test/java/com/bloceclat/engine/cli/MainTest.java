package com.bloceclat.engine.cli;

import com.bloceclat.engine.Game;
import com.bloceclat.engine.Level;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class MainTest {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int run(String... args) throws Exception {
        return Main.run(args, new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    private String out() {
        return out.toString(StandardCharsets.UTF_8);
    }

    /** Runs {@code solve} on {@code input} as standard input; its answer lines. */
    private String[] solveLines(String input) throws Exception {
        InputStream saved = System.in;
        try {
            System.setIn(new ByteArrayInputStream(input.getBytes(StandardCharsets.UTF_8)));
            assertEquals(0, run("solve"));
        } finally {
            System.setIn(saved);
        }
        return out().split("\n");
    }

    @Test
    void solveAnswersEveryLineInOrderAndOnlyAnswersGoToStdout() throws Exception {
        String input = """
                {"id":"a","board":["........","........","........","........","........","........","######..","#####.##"],"pieces":["I2H","O4","DOT"],"mode":"maxLines"}
                not json
                {"id":"b","board":["........"],"pieces":["DOT"]}
                {"id":"c","board":["........","........","........","........","........","........","........","........"],"pieces":["O9"]}
                """;
        String[] lines = solveLines(input);
        assertEquals(4, lines.length);
        assertTrue(lines[0].startsWith("{\"id\":\"a\",\"placements\""), lines[0]);
        assertTrue(lines[1].startsWith("{\"id\":null,\"error\":\"not valid JSON"), lines[1]);
        assertEquals("{\"id\":\"b\",\"error\":\"board must have 8 rows, got 1\"}", lines[2]);
        assertTrue(lines[3].startsWith("{\"id\":\"c\",\"placements\":[{\"piece\":0"), lines[3]);
        assertEquals("", err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void aLineLongerThanARequestMayBeIsAnsweredWithAnErrorLineAndTheNextOnesStillAre() throws Exception {
        // read whole before, a line of gigabytes ended the process (out of memory) without an answer
        // and a request of exactly the longest length, ended CRLF: answered (the CR ends the line, it is not in it)
        String exact = "{\"id\":\"exact\",\"board\":[\"........\"],\"pieces\":[\"DOT\"]}";
        exact = exact.substring(0, exact.length() - 1) + ",\"pad\":\""
                + "x".repeat(16_384 - exact.length() - 9) + "\"}";
        assertEquals(16_384, exact.length());
        String input = "{\"id\":\"long\",\"pad\":\"" + "x".repeat(200_000) + "\"}\n"
                + "{\"id\":\"next\",\"board\":[\"........\"],\"pieces\":[\"DOT\"]}\n"
                + exact + "\r\n";
        String[] lines = solveLines(input);
        assertEquals(3, lines.length);
        assertEquals("{\"id\":null,\"error\":\"a request is at most 16384 characters\"}", lines[0]);
        assertEquals("{\"id\":\"next\",\"error\":\"board must have 8 rows, got 1\"}", lines[1]);
        assertEquals("{\"id\":\"exact\",\"error\":\"board must have 8 rows, got 1\"}", lines[2]);
    }

    @Test
    void aBlankLineIsAnsweredSoAnswersPairWithLinesAndNumericIdsComeBackWithTheirValue() throws Exception {
        // before, a blank line got no answer (the answers after it no longer paired with their lines by number), and
        // a decimal id was read as a double: 1e2 came back 100.0, 0.12345678901234567890123 rounded
        String empty = "\"........\",".repeat(7) + "\"........\"";
        String input = "{\"id\":1e2,\"board\":[" + empty + "],\"pieces\":[\"DOT\"]}\n"
                + "\n"
                + "{\"id\":0.12345678901234567890123,\"board\":[" + empty + "],\"pieces\":[\"DOT\"]}\n";
        String[] lines = solveLines(input);
        assertEquals(3, lines.length);
        ObjectMapper exact = new ObjectMapper().enable(
                com.fasterxml.jackson.databind.DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);
        assertEquals(0, new java.math.BigDecimal("1e2").compareTo(exact.readTree(lines[0]).get("id").decimalValue()),
                lines[0]);
        assertTrue(lines[0].contains("\"placements\""), lines[0]);
        assertEquals("{\"id\":null,\"error\":\"a request is a JSON object\"}", lines[1]);
        assertEquals(0, new java.math.BigDecimal("0.12345678901234567890123")
                .compareTo(exact.readTree(lines[2]).get("id").decimalValue()), lines[2]);
    }

    /**
     * A decimal whose scale is past an int's range cannot be read as the exact decimal ids are read as: before, the
     * exception ended the CLI (exit 2) with no answer to that line or any after it.
     */
    @Test
    void aNumberPastWhatADecimalHoldsIsAnErrorLineAndTheNextLinesAreStillAnswered() throws Exception {
        String empty = "\"........\",".repeat(7) + "\"........\"";
        String input = "{\"id\":1e-2147483649,\"board\":[" + empty + "],\"pieces\":[\"DOT\"]}\n"
                + "{\"id\":\"next\",\"board\":[" + empty + "],\"pieces\":[\"DOT\"],\"seed\":1e99999999999}\n"
                + "{\"id\":\"last\",\"board\":[" + empty + "],\"pieces\":[\"DOT\"]}\n";
        String[] lines = solveLines(input);
        assertEquals(3, lines.length);
        assertEquals("{\"id\":null,\"error\":\"not valid JSON: a number out of range\"}", lines[0]);
        assertEquals("{\"id\":null,\"error\":\"not valid JSON: a number out of range\"}", lines[1]);
        assertTrue(lines[2].startsWith("{\"id\":\"last\",\"placements\""), lines[2]);
    }

    /** The jar's own main in a JVM of its own under LANG=C: its answers are UTF-8 all the same. */
    @Test
    void answersAreUtf8WhateverThePlatformCharset() throws Exception {
        String java = ProcessHandle.current().info().command().orElse("java");
        ProcessBuilder pb = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                Main.class.getName(), "solve");
        pb.environment().put("LANG", "C");
        pb.environment().put("LC_ALL", "C");
        pb.redirectError(ProcessBuilder.Redirect.DISCARD);
        Process p = pb.start();
        try (var stdin = p.getOutputStream()) {
            String empty = "\"........\",".repeat(7) + "\"........\"";
            stdin.write(("{\"id\":\"é\",\"board\":[" + empty + "],\"pieces\":[[\"#########\"]]}\n")
                    .getBytes(StandardCharsets.UTF_8));
        }
        String answer = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        assertEquals(0, p.waitFor());
        assertTrue(answer.startsWith("{\"id\":\"é\",\"error\":"), answer);
        assertTrue(answer.endsWith("8×8 board, got 1×9\"}"), answer);
    }

    @Test
    void piecesPrintsTheCatalogue() throws Exception {
        assertEquals(0, run("pieces"));
        assertEquals(39, out().split("\n").length);
        assertTrue(out().contains("X5    large   5      .#./###/.#."));
    }

    @Test
    void piecesJsonPrintsTheCatalogueAsJson() throws Exception {
        assertEquals(0, run("pieces", "--json"));
        JsonNode all = new ObjectMapper().readTree(out());
        assertEquals(38, all.size());
        JsonNode x5 = all.get(37);
        assertEquals("X5", x5.get("id").asText());
        assertEquals("large", x5.get("class").asText());
        assertEquals(5, x5.get("cells").asInt());
        assertEquals("[\".#.\",\"###\",\".#.\"]", x5.get("rows").toString());
        assertEquals("{\"EASY\":0,\"MEDIUM\":2,\"HARD\":6,\"EXPERT\":10,\"DIABOLICAL\":30}", x5.get("weights").toString());
        assertTrue(out().contains("\"id\" : \"DOT\""), "pretty-printed");
        assertEquals(2, run("pieces", "--json", "extra"));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("pieces takes no option but --json"));
    }

    @Test
    void dealPrintsStartAndRounds() throws Exception {
        assertEquals(0, run("deal", "--seed", "7", "--level", "expert", "--rounds", "3"));
        assertTrue(out().contains("\"level\" : \"EXPERT\""));
        assertEquals(2, run("deal", "--level", "EXPERT"));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("--seed is required"));
    }

    @Test
    void validateReportsTheVerdict(@TempDir Path dir) throws Exception {
        Game game = new Game(3, Level.MEDIUM);
        game.place(0, 0, 0);
        Path ok = dir.resolve("ok.json");
        Files.writeString(ok, game.replay().toJson());
        assertEquals(0, run("validate", ok.toString()));
        assertTrue(out().contains("\"valid\" : true"));
        Path bad = dir.resolve("bad.json");
        Files.writeString(bad, game.replay().toJson().replace("\"claimedScore\":" + game.score(), "\"claimedScore\":99999"));
        assertEquals(1, run("validate", bad.toString()));
        assertTrue(out().contains("claimed score 99999"));
        assertEquals(2, run("validate", dir.resolve("missing.json").toString()));
    }

    @Test
    void selfplayPrintsTheSummary() throws Exception {
        assertEquals(0, run("selfplay", "--level", "DIABOLICAL", "--games", "2", "--strength", "maxLines", "--max-rounds", "5"));
        assertTrue(out().contains("player=maxLines games=2 maxRounds=5"));
        assertTrue(out().contains("ms per round: mean"));
        assertEquals(2, run("selfplay", "--level", "HARD", "--strength", "9"));
    }

    @Test
    void selfplayPlaysAHeldOutWeightsTable(@TempDir Path dir) throws Exception {
        assertEquals(0, run("selfplay", "--weights", "src/test/resources/heldout/diabolical-flat.txt", "--games", "2",
                "--strength", "3", "--max-rounds", "5"));
        assertTrue(out().contains("level=EXPERT weights=diabolical-flat.txt player=strength3 games=2 maxRounds=5"), out());
        Path bad = dir.resolve("bad.txt");
        Files.writeString(bad, "level HARD\nlarge many\n");
        assertEquals(2, run("selfplay", "--weights", bad.toString()));
        assertEquals("error: bad.txt line 2: weight must be a whole number, got \"many\"\n", err.toString(StandardCharsets.UTF_8));
        err.reset();
        assertEquals(2, run("selfplay", "--weights", dir.resolve("none.txt").toString()));
        assertTrue(err.toString(StandardCharsets.UTF_8).startsWith("error: no such weights file: "));
        err.reset();
        assertEquals(2, run("selfplay", "--weights", bad.toString(), "--level", "HARD"));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("give --level or --weights, not both"));
    }

    /** Before, a file that could not be read as text escaped as an exception: a stack trace, and exit 1, "invalid". */
    @Test
    void validateOfAFileThatCannotBeReadIsAnErrorLineNotAVerdict(@TempDir Path dir) throws Exception {
        assertEquals(2, run("validate", dir.toString()));
        assertTrue(err.toString(StandardCharsets.UTF_8).startsWith("error: cannot read " + dir), err.toString(StandardCharsets.UTF_8));
        err.reset();
        Path latin1 = dir.resolve("latin1.json");
        Files.write(latin1, new byte[] {'{', '"', (byte) 0xE9, '"', '}'});
        assertEquals(2, run("validate", latin1.toString()));
        assertTrue(err.toString(StandardCharsets.UTF_8).startsWith("error: cannot read " + latin1 + ": not UTF-8 text"),
                err.toString(StandardCharsets.UTF_8));
        assertEquals("", out());
    }

    /** Before, a number was cast to int before its range was checked: 2^32 + 1 rounds dealt one round. */
    @Test
    void aNumberOutOfItsRangeIsAnErrorLineEvenPastTheRangeOfAnInt() throws Exception {
        String[][] refused = {
                {"deal", "--seed", "7", "--level", "HARD", "--rounds", "4294967297"},
                {"deal", "--seed", "7", "--level", "HARD", "--rounds", "-1"},
                {"selfplay", "--level", "HARD", "--strength", "4294967301"},
                {"selfplay", "--level", "HARD", "--strength", "0"},
                {"selfplay", "--level", "HARD", "--games", "4294967297"},
                {"selfplay", "--level", "HARD", "--max-rounds", "0"},
                {"bench", "--positions", "4294967297"},
                {"bench", "--strength", "6"},
        };
        for (String[] args : refused) {
            err.reset();
            assertEquals(2, run(args), String.join(" ", args));
            assertTrue(err.toString(StandardCharsets.UTF_8).startsWith("error: --"), err.toString(StandardCharsets.UTF_8));
        }
        assertEquals("", out());
    }

    /**
     * Before, an option a command does not have, or an argument that is no option, was ignored: "--game 5" (for
     * "--games") played the default 20 games, "--round 3" dealt 20 rounds.
     */
    @Test
    void anUnknownOptionOrAStrayArgumentIsAnErrorLineWithTheCommandsUsage() throws Exception {
        assertEquals(2, run("selfplay", "--level", "HARD", "--game", "5", "--strength", "maxLines", "--max-rounds", "1"));
        String error = err.toString(StandardCharsets.UTF_8);
        assertTrue(error.startsWith("error: selfplay has no option --game\n"
                + "usage: java -jar bloc-engine.jar COMMAND [OPTIONS]\n  selfplay --level L|--weights FILE"), error);
        assertTrue(error.contains("(--weights: pieces drawn from a weights table"), error);
        assertTrue(!error.contains("  deal ") && !error.contains("  bench "), "only the command's own usage: " + error);
        String[][] refused = {
                {"deal", "--seed", "7", "--level", "HARD", "--round", "3"},
                {"deal", "--seed", "7", "--level", "HARD", "--json"},
                {"deal", "--seed", "7", "--level", "HARD", "3"},
                {"selfplay", "--level", "HARD", "--strength", "maxLines", "--max-rounds", "1", "--games", "1", "extra"},
                {"bench", "--positions", "1", "--strenght", "1"},
                {"solve", "--level", "HARD"},
        };
        InputStream saved = System.in;
        try {
            System.setIn(new ByteArrayInputStream(new byte[0])); // the old code read it for "solve"
            for (String[] args : refused) {
                err.reset();
                assertEquals(2, run(args), String.join(" ", args));
                String last = args[args.length - 1].startsWith("--") ? args[args.length - 1] : args[args.length - 2];
                assertTrue(err.toString(StandardCharsets.UTF_8).matches("(?s)error: " + args[0]
                        + " (has no option " + last + "|takes no argument \"" + args[args.length - 1] + "\")\n"
                        + "usage: .*\n  " + args[0] + " .*"), err.toString(StandardCharsets.UTF_8));
            }
        } finally {
            System.setIn(saved);
        }
        err.reset();
        assertEquals(2, run("deal", "--seed", "7", "--level", "HARD", "--rounds", "3", "--rounds", "4"));
        assertEquals("error: option --rounds is given twice\n", err.toString(StandardCharsets.UTF_8));
        assertEquals("", out());
    }

    /** Before, up to 2,147,483,647 games were taken, and all queued at once: out of memory, with a stack trace. */
    @Test
    void selfplayPlaysAtMostAMillionGames() throws Exception {
        assertEquals(2, run("selfplay", "--level", "HARD", "--games", "2000000000", "--strength", "maxLines",
                "--max-rounds", "1"));
        assertEquals("error: --games must be from 1 to 1000000, got 2000000000\n", err.toString(StandardCharsets.UTF_8));
        assertEquals("", out());
    }

    /** Before, the file was read whole whatever its size: a file past the bound was judged, /dev/zero ran out of memory. */
    @Test
    void validateRefusesAFileLargerThan64MiBBeforeReadingIt(@TempDir Path dir) throws Exception {
        Path big = dir.resolve("big.json");
        try (RandomAccessFile f = new RandomAccessFile(big.toFile(), "rw")) {
            f.setLength(Main.MAX_REPLAY_BYTES + 1L); // sparse: nothing written
        }
        assertEquals(2, run("validate", big.toString()));
        assertEquals("error: cannot read " + big + ": larger than 64 MiB (67108865 bytes)\n",
                err.toString(StandardCharsets.UTF_8));
        Path zero = Path.of("/dev/zero");
        if (Files.exists(zero)) { // not a regular file: read up to the bound, then refused
            err.reset();
            assertEquals(2, run("validate", zero.toString()));
            assertEquals("error: cannot read /dev/zero: larger than 64 MiB\n", err.toString(StandardCharsets.UTF_8));
        }
        assertEquals("", out());
    }

    /** Before, an exception that was not a usage error escaped {@code run}: a stack trace. */
    @Test
    void anUnexpectedFailureIsAnErrorLineNamingIt() throws Exception {
        InputStream saved = System.in;
        try {
            System.setIn(new InputStream() {
                @Override
                public int read() throws IOException {
                    throw new IOException("disk on fire");
                }
            });
            assertEquals(2, run("solve"));
        } finally {
            System.setIn(saved);
        }
        assertEquals("error: java.io.IOException: disk on fire\n", err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void unknownCommandIsAUsageError() throws Exception {
        assertEquals(2, run("fly"));
        assertEquals(2, run());
    }
}
