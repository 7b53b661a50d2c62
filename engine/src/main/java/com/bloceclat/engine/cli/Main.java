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
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.Reader;
import java.nio.ByteBuffer;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.MalformedInputException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutionException;

/** {@code java -jar bloc-engine.jar COMMAND …}: the engine's command line (README "Engine CLI"). */
public final class Main {
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    /**
     * The largest replay file {@code validate} reads: a replay at game-service's cap of 100,000 events is about 6 MB
     * (about 10 MB pretty-printed), so this leaves room for any real one, and it reads well within a default heap.
     * Before, the file was read whole whatever its size: a file of gigabytes, or /dev/zero, ended out of memory.
     */
    static final int MAX_REPLAY_BYTES = 64 << 20;
    private static final String USAGE = """
            usage: java -jar bloc-engine.jar COMMAND [OPTIONS]
              solve                                  solver protocol: JSON lines on stdin, answers on stdout
              pieces [--json]                        the piece catalogue and each level's weights (--json: as JSON)
              deal --seed S --level L [--rounds N]   start board and the first N rounds (default 20), as JSON
              validate REPLAY.json                   re-simulate a replay (at most 64 MiB); exit 0 valid, 1 invalid
              selfplay --level L|--weights FILE [--games N] [--strength K|maxLines] [--max-rounds R] [--threads T] [--first-seed S]
                                                     (--games: 1 to 1,000,000, default 20)
                                                     (--weights: pieces drawn from a weights table, docs/benchmarks.md)
              bench [--positions N] [--mode maxLines|ai] [--strength K]   solver latency over generated positions
            """;

    private Main() {
    }

    public static void main(String[] args) {
        // UTF-8 whatever the platform's charset (LANG=C would print an id "é" as "?"): the protocol is UTF-8 JSON
        PrintStream out = new PrintStream(new FileOutputStream(FileDescriptor.out), false, StandardCharsets.UTF_8);
        PrintStream err = new PrintStream(new FileOutputStream(FileDescriptor.err), true, StandardCharsets.UTF_8);
        int status = run(args, out, err);
        out.flush();
        System.exit(status);
    }

    static int run(String[] args, PrintStream out, PrintStream err) {
        if (args.length == 0) {
            err.print(USAGE);
            return 2;
        }
        try {
            return switch (args[0]) {
                case "solve" -> {
                    options(args); // none: refuses any
                    yield solve(out);
                }
                case "pieces" -> pieces(args, out);
                case "deal" -> deal(options(args, "seed", "level", "rounds"), out);
                case "validate" -> validate(args, out, err);
                case "selfplay" -> selfplay(options(args, "level", "weights", "games", "strength", "max-rounds",
                        "threads", "first-seed"), out);
                case "bench" -> Bench.run(options(args, "positions", "mode", "strength"), out);
                default -> {
                    err.println("error: unknown command \"" + args[0] + "\"");
                    err.print(USAGE);
                    yield 2;
                }
            };
        } catch (UsageException e) {
            err.println("error: " + e.getMessage());
            err.print(usage(args[0]));
            return 2;
        } catch (IllegalArgumentException e) {
            err.println("error: " + e.getMessage());
            return 2;
        } catch (Exception | OutOfMemoryError e) {
            // a bug or a failure of the machine, not bad input: one line naming it, not a stack trace
            // (out of memory, what held the memory is dropped by now, so the line can be written)
            err.println("error: " + (e instanceof ExecutionException && e.getCause() != null ? e.getCause() : e));
            return 2;
        }
    }

    /** Bad input a command's usage line answers: an unknown option, a stray argument. */
    private static final class UsageException extends IllegalArgumentException {
        UsageException(String message) {
            super(message);
        }
    }

    /** The first line of {@link #USAGE} and the command's own lines (its line and the lines that continue it). */
    private static String usage(String command) {
        String[] lines = USAGE.split("\n");
        StringBuilder s = new StringBuilder(lines[0]).append('\n');
        boolean its = false;
        for (String line : lines) {
            if (line.matches(" {2}\\S.*")) {
                its = line.equals("  " + command) || line.startsWith("  " + command + " ");
            }
            if (its) {
                s.append(line).append('\n');
            }
        }
        return s.toString();
    }

    /**
     * {@code args[1..]} as option name → value, every option one of {@code allowed} and given once. Anything else is
     * refused: before, it was ignored ("selfplay --game 5" played the default 20 games, "deal --round 3" dealt 20).
     */
    private static Map<String, String> options(String[] args, String... allowed) {
        Map<String, String> opts = new HashMap<>();
        for (int i = 1; i < args.length; i++) {
            String name = args[i].startsWith("--") ? args[i].substring(2) : null;
            if (name == null) {
                throw new UsageException(args[0] + " takes no argument \"" + args[i] + "\"");
            }
            if (!List.of(allowed).contains(name)) {
                throw new UsageException(args[0] + " has no option " + args[i]);
            }
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException("option " + args[i] + " needs a value");
            }
            if (opts.put(name, args[i + 1]) != null) {
                throw new IllegalArgumentException("option " + args[i] + " is given twice");
            }
            i++;
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
            json = readReplay(Path.of(args[1]));
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

    /**
     * The file as UTF-8 text, refused past {@link #MAX_REPLAY_BYTES}: a regular file by its size before it is read,
     * anything else (a pipe, /dev/zero) by a read that stops one byte past the bound.
     */
    private static String readReplay(Path file) throws IOException {
        long size = Files.isRegularFile(file) ? Files.size(file) : 0;
        if (size > MAX_REPLAY_BYTES) {
            throw new IllegalArgumentException("cannot read " + file + ": larger than " + (MAX_REPLAY_BYTES >> 20)
                    + " MiB (" + size + " bytes)");
        }
        byte[] bytes;
        try (InputStream in = Files.newInputStream(file)) {
            bytes = in.readNBytes(MAX_REPLAY_BYTES + 1);
        }
        if (bytes.length > MAX_REPLAY_BYTES) {
            throw new IllegalArgumentException("cannot read " + file + ": larger than " + (MAX_REPLAY_BYTES >> 20)
                    + " MiB");
        }
        // strict, as Files.readString was: bytes that are not UTF-8 throw MalformedInputException, not become U+FFFD
        return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
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
        // SelfPlay.run queues every game up front (about 100 bytes each) and keeps each result (about 60 bytes and 8 a
        // round): a million is well within a default heap; 2,000,000,000 ran out of memory before the first game
        int games = intOpt(opts, "games", 20, 1, 1_000_000);
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
