package com.bloceclat.game;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.bloceclat.engine.Board;
import com.bloceclat.engine.Level;
import com.bloceclat.engine.Piece;
import com.bloceclat.engine.solver.Mode;
import com.bloceclat.engine.solver.Solution;
import com.bloceclat.engine.solver.SolveRequest;
import com.bloceclat.engine.solver.Solver;
import com.bloceclat.testsupport.Tokens;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * AI capacity benchmark (docs/benchmarks.md "AI opponents"): how many versus-AI matches at strength 5, the AI placing
 * one piece a second, packaged game-service replicas hold with AI lateness p99 ≤ 250 ms, with one and with two
 * replicas, and solver searches per AI placement. PostgreSQL, Kafka and the OIDC server run in this JVM, one packaged
 * solver-service replica and the game-service replicas as processes of their own.
 * <p>
 * For each N: a set-up replica whose AI never plays ({@code bloc.ai.pace} 1 h) creates N matches (HARD, strength 5,
 * one logged-in player each) and each person plays {@code ROUNDS} rounds ahead (the engine's strength-5 search in
 * this JVM), so that in the measured windows the AI is never held back by its person and the persons send nothing:
 * the load is the AI's alone. Then one replica (pace 1 s) plays for WARMUP + MEASURE seconds, then two replicas do.
 * Lateness is the replicas' own {@code bloc_ai_lateness_seconds} histogram over the measured window (bucket counts
 * before and after); searches are counted by solver-service.
 *
 * <pre>java ... com.bloceclat.game.AiBench 100,200,300 WARMUP MEASURE ROUNDS</pre>
 */
public final class AiBench {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern BUCKET = Pattern.compile(
            "^bloc_ai_lateness_seconds_bucket\\{le=\"([^\"]+)\"[^}]*\\}\\s+([0-9.eE+-]+)$", Pattern.MULTILINE);

    private AiBench() {
    }

    public static void main(String[] args) throws Exception {
        // the replicas run on the production JVM's options, not the tests' short-lived ones (LocalProcess.java)
        System.setProperty("bloc.test.quick-jvm", System.getProperty("bloc.test.quick-jvm", "false"));
        List<Integer> sizes = new ArrayList<>();
        for (String s : (args.length > 0 ? args[0] : "100,200,300").split(",")) {
            sizes.add(Integer.parseInt(s.trim()));
        }
        int warmup = args.length > 1 ? Integer.parseInt(args[1]) : 20;
        int measure = args.length > 2 ? Integer.parseInt(args[2]) : 40;
        int rounds = args.length > 3 ? Integer.parseInt(args[3])
                : (2 * (warmup + measure) + 60) / 3 + 1;
        Path logs = Path.of("target", "ai-bench");
        try (PackagedGameService stack = new PackagedGameService(logs)) {
            Tokens.serveServiceGrant(stack.oidcUrl(), List.of("player", "service"));
            try (PackagedSolver solver = PackagedSolver.start(stack.oidcUrl() + "/realms/quarkus",
                    logs.resolve("solver-service.log"))) {
                int run = 0;
                for (int n : sizes) {
                    run++;
                    setUp(stack, n, rounds, run);
                    Map<String, String> env = Map.of("SOLVER_URLS", solver.url(), "BLOC_AI_PACE", "1s");
                    for (int replicas = 1; replicas <= 2; replicas++) {
                        List<PackagedGameService.Replica> up = new ArrayList<>();
                        for (int r = 0; r < replicas; r++) {
                            up.add(stack.start(env));
                        }
                        Thread.sleep(warmup * 1000L);
                        measureWindow(stack, solver, up, n, replicas, measure);
                        up.forEach(PackagedGameService.Replica::kill);
                        // the killed replicas' leases run out (bloc.ai.lease, 15 s) while the next ones start
                    }
                }
            }
        }
        System.exit(0);
    }

    /** N matches whose persons are ROUNDS rounds ahead, on a replica whose AI does not play. */
    private static void setUp(PackagedGameService stack, int n, int rounds, int run) throws Exception {
        long t0 = System.nanoTime();
        PackagedGameService.Replica setup = stack.start(Map.of("BLOC_AI_PACE", "1h", "SOLVER_URLS",
                "http://127.0.0.1:9"));
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        ExecutorService pool = Executors.newFixedThreadPool(16);
        AtomicInteger moves = new AtomicInteger();
        AtomicInteger ended = new AtomicInteger();
        List<Future<?>> all = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            String name = "ai-bench-" + run + "-" + i;
            all.add(pool.submit(() -> {
                String token = Tokens.player(name);
                JsonNode match = send(http, setup.http() + "/api/matches", token,
                        "{\"mode\": \"VERSUS_AI\", \"level\": \"HARD\", \"strength\": 5}");
                String person = match.path("games").path(0).path("id").asText();
                JsonNode game = match.path("games").path(0);
                for (int m = 1; m <= 3 * rounds; m++) {
                    int[] p = best(game);
                    if (p == null) {
                        ended.incrementAndGet();
                        break;
                    }
                    // a new token for each move: the set-up outlasts one token's life
                    game = send(http, setup.http() + "/api/games/" + person + "/moves", Tokens.player(name),
                            "{\"moveNumber\": " + m + ", \"slot\": " + p[0] + ", \"row\": " + p[1] + ", \"col\": "
                                    + p[2] + "}").path("game");
                    moves.incrementAndGet();
                    if (game.path("gameOver").asBoolean()) {
                        ended.incrementAndGet();
                        break;
                    }
                }
                return null;
            }));
        }
        Thread progress = new Thread(() -> {
            try {
                while (true) {
                    Thread.sleep(15_000);
                    System.out.printf("  set-up: %d person moves so far%n", moves.get());
                }
            } catch (InterruptedException e) {
                // done
            }
        });
        progress.setDaemon(true);
        progress.start();
        for (Future<?> f : all) {
            f.get();
        }
        progress.interrupt();
        pool.shutdown();
        setup.kill();
        System.out.printf("set-up of %d matches: %d person moves (%d rounds ahead), %d persons' games over early, "
                + "%.0f s%n", n, moves.get(), rounds, ended.get(), (System.nanoTime() - t0) / 1e9);
    }

    private static JsonNode send(HttpClient http, String url, String token, String body) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(url)).header("Authorization",
                "Bearer " + token).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() / 100 != 2) {
            throw new IllegalStateException(url + " answered " + r.statusCode() + ": " + r.body());
        }
        return JSON.readTree(r.body());
    }

    /**
     * The person's next placement, {slot, row, col}: the first of the engine's strength-5 sequence, which lives long on
     * HARD (a person whose game ends early soon ends its AI's match, and that AI stops placing).
     */
    private static int[] best(JsonNode game) {
        List<String> rows = new ArrayList<>();
        game.path("board").forEach(r -> rows.add(r.asText()));
        long board = Board.parse(rows.toArray(String[]::new));
        List<Piece> pieces = new ArrayList<>();
        List<Integer> slots = new ArrayList<>();
        for (JsonNode p : game.path("pieces")) {
            if (p.path("placed").asBoolean()) {
                continue;
            }
            List<String> shape = new ArrayList<>();
            p.path("rows").forEach(r -> shape.add(r.asText()));
            pieces.add(Piece.ofRows(shape.toArray(String[]::new)));
            slots.add(p.path("slot").asInt());
        }
        if (pieces.isEmpty()) {
            return null;
        }
        Solution s = Solver.solve(new SolveRequest(board, pieces, game.path("streak").asInt(),
                game.path("miss").asInt(), Level.HARD, Mode.AI, 5, 7, 0));
        if (s.best() == null || s.best().placements().isEmpty()) {
            return null;
        }
        Solution.Placement first = s.best().placements().get(0);
        return new int[] {slots.get(first.piece()), first.row(), first.col()};
    }

    /** What the replicas' metrics said, summed over them; {@code cache} by lookup result (hit, stale, absent). */
    private record Scrape(TreeMap<Double, Double> buckets, long calls, long placements, Map<String, Double> cache,
            double eventLoads, double eventsRead) {
    }

    /** The sum of every sample of {@code name} whose labels contain {@code label} (empty: all). */
    private static double sum(String text, String name, String label) {
        Matcher m = Pattern.compile("^" + Pattern.quote(name) + "(\\{[^}]*\\})?\\s+([0-9.eE+-]+)$", Pattern.MULTILINE)
                .matcher(text);
        double total = 0;
        while (m.find()) {
            if (label.isEmpty() || (m.group(1) != null && m.group(1).contains(label))) {
                total += Double.parseDouble(m.group(2));
            }
        }
        return total;
    }

    private static Scrape scrape(List<PackagedGameService.Replica> replicas) throws Exception {
        TreeMap<Double, Double> buckets = new TreeMap<>();
        long calls = 0;
        long placements = 0;
        Map<String, Double> cache = new TreeMap<>();
        double eventLoads = 0;
        double eventsRead = 0;
        HttpClient http = HttpClient.newHttpClient();
        for (PackagedGameService.Replica r : replicas) {
            String text = http.send(HttpRequest.newBuilder(URI.create(r.http() + "/q/metrics")).build(),
                    HttpResponse.BodyHandlers.ofString()).body();
            Matcher m = BUCKET.matcher(text);
            while (m.find()) {
                double le = "+Inf".equals(m.group(1)) ? Double.POSITIVE_INFINITY : Double.parseDouble(m.group(1));
                buckets.merge(le, Double.parseDouble(m.group(2)), Double::sum);
            }
            calls += AiReplicasIT.metric(r, "bloc_ai_solver_calls_total");
            placements += AiReplicasIT.metric(r, "bloc_ai_placements_total");
            for (String result : List.of("hit", "stale", "absent")) {
                cache.merge(result, sum(text, "bloc_game_cache_lookups_total", "result=\"" + result + "\""),
                        Double::sum);
            }
            eventLoads += sum(text, "bloc_game_events_read_count", "");
            eventsRead += sum(text, "bloc_game_events_read_sum", "");
        }
        return new Scrape(buckets, calls, placements, cache, eventLoads, eventsRead);
    }

    private static void measureWindow(PackagedGameService stack, PackagedSolver solver,
            List<PackagedGameService.Replica> replicas, int n, int count, int seconds) throws Exception {
        String loadBefore = Files.readString(Path.of("/proc/loadavg")).trim();
        Map<Long, String> named = new HashMap<>();
        for (int r = 0; r < replicas.size(); r++) {
            named.put(replicas.get(r).pid(), "game-service replica " + (r + 1));
        }
        named.put(solver.pid(), "solver-service");
        CpuAccount cpu = new CpuAccount(named);
        Map<String, Long> cpuBefore = cpu.snapshot();
        Scrape before = scrape(replicas);
        long searchesBefore = solver.aiSearches();
        OffsetDateTime from = OffsetDateTime.now(ZoneOffset.UTC);
        Thread.sleep(seconds * 1000L);
        Scrape after = scrape(replicas);
        long searches = solver.aiSearches() - searchesBefore;
        OffsetDateTime to = OffsetDateTime.now(ZoneOffset.UTC);
        String loadAfter = Files.readString(Path.of("/proc/loadavg")).trim();
        long active;
        long placed;
        try (Connection c = stack.db(); PreparedStatement q = c.prepareStatement(
                "SELECT count(DISTINCT e.game_id), count(*) FROM game_event e JOIN game g ON g.id = e.game_id "
                        + "WHERE g.mode = 'VERSUS_AI' AND g.seat = 1 AND e.type = 'PLACE' "
                        + "AND e.created_at >= ? AND e.created_at < ?")) {
            q.setObject(1, from);
            q.setObject(2, to);
            try (ResultSet r = q.executeQuery()) {
                r.next();
                active = r.getLong(1);
                placed = r.getLong(2);
            }
        }
        TreeMap<Double, Double> window = new TreeMap<>();
        after.buckets().forEach((le, c) -> window.put(le, c - before.buckets().getOrDefault(le, 0.0)));
        double total = window.isEmpty() ? 0 : window.lastEntry().getValue();
        System.out.printf("%d matches, %d replica(s), %d s: AI games playing %d, placements %d (%.1f/s), "
                + "lateness p50 ≤ %s, p90 ≤ %s, p99 ≤ %s, max ≤ %s, within 250 ms %.2f%%; "
                + "solver searches per placement %.3f, driver calls per placement %.3f; load %s -> %s%n",
                n, count, seconds, active, placed, placed / (double) seconds,
                quantile(window, total, 0.50), quantile(window, total, 0.90), quantile(window, total, 0.99),
                quantile(window, total, 1.0), 100 * window.getOrDefault(0.25, 0.0) / Math.max(1, total),
                searches / (double) Math.max(1, placed),
                (after.calls() - before.calls()) / (double) Math.max(1, after.placements() - before.placements()),
                loadBefore, loadAfter);
        double perPlacement = Math.max(1, after.placements() - before.placements());
        StringBuilder lookups = new StringBuilder();
        after.cache().forEach((result, c) -> lookups.append(String.format(" %s %.2f", result,
                (c - before.cache().getOrDefault(result, 0.0)) / perPlacement)));
        System.out.printf("  game cache lookups per placement:%s; loads of a game's events per placement %.3f, "
                + "events read per placement %.1f%n", lookups,
                (after.eventLoads() - before.eventLoads()) / perPlacement,
                (after.eventsRead() - before.eventsRead()) / perPlacement);
        cpu.print(cpuBefore, cpu.snapshot());
    }

    /** The upper bound of the bucket holding quantile q, in ms. */
    private static String quantile(TreeMap<Double, Double> window, double total, double q) {
        for (Map.Entry<Double, Double> e : window.entrySet()) {
            if (e.getValue() >= q * total - 1e-9) {
                return e.getKey().isInfinite() ? "inf" : String.format("%.0f ms", e.getKey() * 1000);
            }
        }
        return "-";
    }

}
