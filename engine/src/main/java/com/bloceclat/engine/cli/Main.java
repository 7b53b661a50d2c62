package com.bloceclat.engine.cli;

import com.bloceclat.engine.Board;
import com.bloceclat.engine.Level;
import com.bloceclat.engine.Piece;
import com.bloceclat.engine.PieceStream;
import com.bloceclat.engine.Pieces;
import com.bloceclat.engine.SelfPlay;
import com.bloceclat.engine.WeightTable;
import com.bloceclat.engine.protocol.SolverProtocol;
import com.bloceclat.engine.replay.ReplayValidator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.BufferedReader;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.Reader;
import java.nio.charset.MalformedInputException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** {@code java -jar bloc-engine.jar COMMAND …}: the engine's command line (README "Engine CLI"). */
public final class Main {
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    private static final String USAGE = """
            usage: java -jar bloc-engine.jar COMMAND [OPTIONS]
              solve                                  solver protocol: JSON lines on stdin, answers on stdout
              pieces [--json]                        the piece catalogue and each level's weights (--json: as JSON)
              deal --seed S --level L [--rounds N]   start board and the first N rounds (default 20), as JSON
              validate REPLAY.json                   re-simulate a replay; exit 0 valid, 1 invalid
              selfplay --level L|--weights FILE [--games N] [--strength K|maxLines] [--max-rounds R] [--threads T] [--first-seed S]
                                                     (--weights: pieces drawn from a weights table, docs/benchmarks.md)
              bench [--positions N] [--mode maxLines|ai] [--strength K]   solver latency over generated positions
            """;

    private Main() {
    }

    public static void main(String[] args) throws Exception {
        // UTF-8 whatever the platform's charset (LANG=C would print an id "é" as "?"): the protocol is UTF-8 JSON
        PrintStream out = new PrintStream(new FileOutputStream(FileDescriptor.out), false, StandardCharsets.UTF_8);
        PrintStream err = new PrintStream(new FileOutputStream(FileDescriptor.err), true, StandardCharsets.UTF_8);
        int status = run(args, out, err);
        out.flush();
        System.exit(status);
    }

    static int run(String[] args, PrintStream out, PrintStream err) throws Exception {
        if (args.length == 0) {
            err.print(USAGE);
            return 2;
        }
        try {
            Map<String, String> opts = options(args);
            return switch (args[0]) {
                case "solve" -> solve(out);
                case "pieces" -> pieces(args, out);
                case "deal" -> deal(opts, out);
                case "validate" -> validate(args, out, err);
                case "selfplay" -> selfplay(opts, out);
                case "bench" -> Bench.run(opts, out);
                default -> {
                    err.println("error: unknown command \"" + args[0] + "\"");
                    err.print(USAGE);
                    yield 2;
                }
            };
        } catch (IllegalArgumentException e) {
            err.println("error: " + e.getMessage());
            return 2;
        }
    }

    private static Map<String, String> options(String[] args) {
        Map<String, String> opts = new HashMap<>();
        for (int i = 1; i < args.length; i++) {
            if (args[i].equals("--json")) {
                opts.put("json", "true");
            } else if (args[i].startsWith("--")) {
                if (i + 1 >= args.length) {
                    throw new IllegalArgumentException("option " + args[i] + " needs a value");
                }
                opts.put(args[i].substring(2), args[++i]);
            }
        }
        return opts;
    }

    static long longOpt(Map<String, String> opts, String name, Long dflt) {
        String v = opts.get(name);
        if (v == null) {
            if (dflt == null) {
                throw new IllegalArgumentException("--" + name + " is required");
            }
            return dflt;
        }
        try {
            return Long.parseLong(v);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--" + name + " must be a whole number, got \"" + v + "\"");
        }
    }

    /**
     * A whole-number option within {@code min..max}; checked as a long, so that a value past an int's range is refused
     * rather than wrapped into it.
     */
    static int intOpt(Map<String, String> opts, String name, int dflt, int min, int max) {
        long v = longOpt(opts, name, (long) dflt);
        if (v < min || v > max) {
            throw new IllegalArgumentException("--" + name + " must be from " + min + " to " + max + ", got " + v);
        }
        return (int) v;
    }

    static Level level(Map<String, String> opts) {
        String v = opts.get("level");
        if (v == null) {
            throw new IllegalArgumentException("--level is required");
        }
        return Level.parse(v);
    }

    /**
     * One answer line per request line (LF or CRLF), read a character at a time so that a line longer than a request
     * may be ({@link SolverProtocol#MAX_REQUEST_CHARS}) is answered with an error line and its rest dropped as it is
     * read: memory stays bounded whatever comes in.
     */
    private static int solve(PrintStream out) throws IOException {
        Reader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        StringBuilder line = new StringBuilder();
        boolean tooLong = false;
        boolean cr = false; // a '\r' held back: dropped if the line ends next (CRLF), kept otherwise
        for (int c = in.read(); ; c = in.read()) {
            if (c == -1 || c == '\n') {
                if (tooLong) {
                    out.println(SolverProtocol.tooLongLine());
                } else if (c == '\n' || !line.isEmpty()) {
                    // a blank line is answered too (an error line), so that answers pair with requests by line;
                    // only the end of input after a last line break is no line
                    out.println(SolverProtocol.answerLine(line.toString()));
                }
                out.flush();
                if (c == -1) {
                    return 0;
                }
                line.setLength(0);
                tooLong = false;
                cr = false;
                continue;
            }
            if (cr) {
                tooLong |= !keep(line, '\r');
            }
            cr = c == '\r';
            if (!cr) {
                tooLong |= !keep(line, (char) c);
            }
        }
    }

    /** Appends {@code c} unless the line is already as long as a request may be; false when it is. */
    private static boolean keep(StringBuilder line, char c) {
        if (line.length() >= SolverProtocol.MAX_REQUEST_CHARS) {
            return false;
        }
        line.append(c);
        return true;
    }

    private static int pieces(String[] args, PrintStream out) throws IOException {
        if (args.length > 2 || (args.length == 2 && !args[1].equals("--json"))) {
            throw new IllegalArgumentException("pieces takes no option but --json");
        }
        if (args.length == 2) {
            out.println(JSON.writeValueAsString(piecesJson()));
            return 0;
        }
        StringBuilder header = new StringBuilder(String.format("%-5s %-7s %-6s %-14s", "id", "class", "cells", "shape"));
        for (Level l : Level.values()) {
            header.append(String.format(" %10s", l.name()));
        }
        out.println(header);
        for (Piece p : Pieces.all()) {
            StringBuilder row = new StringBuilder(String.format("%-5s %-7s %-6d %-14s", p.id(),
                    p.pieceClass().name().toLowerCase(Locale.ROOT), p.cells(), p.shapeText()));
            for (Level l : Level.values()) {
                row.append(String.format(" %10d", l.weight(p.index())));
            }
            out.println(row);
        }
        return 0;
    }

    /** The golden-file form of the catalogue ({@code golden/pieces.json}): every piece in table order with its weights. */
    public static ArrayNode piecesJson() {
        ArrayNode all = JSON.createArrayNode();
        for (Piece p : Pieces.all()) {
            ObjectNode node = all.addObject();
            node.put("id", p.id());
            node.put("class", p.pieceClass().name().toLowerCase(Locale.ROOT));
            node.put("cells", p.cells());
            ArrayNode rows = node.putArray("rows");
            for (String row : p.rows()) {
                rows.add(row);
            }
            ObjectNode weights = node.putObject("weights");
            for (Level l : Level.values()) {
                weights.put(l.name(), l.weight(p.index()));
            }
        }
        return all;
    }

    private static int deal(Map<String, String> opts, PrintStream out) throws IOException {
        long seed = longOpt(opts, "seed", null);
        Level level = level(opts);
        int rounds = intOpt(opts, "rounds", 20, 0, 100_000);
        out.println(JSON.writeValueAsString(dealJson(seed, level, rounds)));
        return 0;
    }

    /** The golden-file form of a deal. */
    public static ObjectNode dealJson(long seed, Level level, int rounds) {
        ObjectNode node = JSON.createObjectNode();
        node.put("seed", seed);
        node.put("level", level.name());
        ArrayNode start = node.putArray("start");
        for (String row : Board.rows(PieceStream.startBoard(seed, level))) {
            start.add(row);
        }
        ArrayNode rs = node.putArray("rounds");
        for (int k = 0; k < rounds; k++) {
            ArrayNode r = rs.addArray();
            for (Piece p : PieceStream.round(seed, level, k)) {
                r.add(p.id());
            }
        }
        return node;
    }

    private static int validate(String[] args, PrintStream out, PrintStream err) throws IOException {
        if (args.length != 2) {
            throw new IllegalArgumentException("validate takes one file: validate REPLAY.json");
        }
        String json;
        try {
            json = Files.readString(Path.of(args[1]));
        } catch (NoSuchFileException e) {
            throw new IllegalArgumentException("no such file: " + args[1]);
        } catch (MalformedInputException e) {
            throw new IllegalArgumentException("cannot read " + args[1] + ": not UTF-8 text");
        } catch (IOException e) {
            // a directory, a file not readable: an error, not a verdict (exit 1 says "invalid")
            throw new IllegalArgumentException("cannot read " + args[1] + ": " + e.getMessage());
        }
        ReplayValidator.Result result = ReplayValidator.validate(json, true);
        out.println(JSON.writeValueAsString(result));
        return result.valid() ? 0 : 1;
    }

    private static int selfplay(Map<String, String> opts, PrintStream out) throws Exception {
        WeightTable table = null;
        if (opts.containsKey("weights")) {
            if (opts.containsKey("level")) {
                throw new IllegalArgumentException("give --level or --weights, not both (the table names its level)");
            }
            table = WeightTable.read(Path.of(opts.get("weights")));
        }
        Level level = table != null ? table.level() : level(opts);
        int games = intOpt(opts, "games", 20, 1, Integer.MAX_VALUE);
        // 0 is maxLines' own number here, but not a strength one may give: "--strength 0" is refused
        int strength = "maxLines".equals(opts.get("strength")) ? 0 : intOpt(opts, "strength", 5, 1, 5);
        int maxRounds = intOpt(opts, "max-rounds", 2000, 1, Integer.MAX_VALUE);
        int threads = intOpt(opts, "threads", 1, 1, 1024);
        long firstSeed = longOpt(opts, "first-seed", 1L);
        List<SelfPlay.GameResult> results = SelfPlay.run(level, table, strength, games, maxRounds, firstSeed, threads);
        SelfPlay.Summary sum = SelfPlay.Summary.of(results);
        out.printf(Locale.ROOT, "level=%s%s player=%s games=%d maxRounds=%d%n", level,
                table == null ? "" : " weights=" + table.name(),
                strength == 0 ? "maxLines" : "strength" + strength, games, maxRounds);
        out.printf(Locale.ROOT, "rounds: mean %.1f, median %.1f; reached cap %.1f%%; deaths per 1000 rounds %.2f%n",
                sum.meanRounds(), sum.medianRounds(), sum.cappedPercent(), sum.deathsPer1000Rounds());
        out.printf(Locale.ROOT, "score: mean %.0f%n", sum.meanScore());
        out.printf(Locale.ROOT, "ms per round: mean %.3f, p99 %.3f%n", sum.msPerRoundMean(), sum.msPerRoundP99());
        return 0;
    }
}
