package com.bloceclat.game;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import com.bloceclat.engine.Game;
import com.bloceclat.engine.Level;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * Load benchmark (docs/benchmarks.md): {@code games} guest solo games played at once against a running game-service,
 * each player placing a piece every {@code thinkMs}, {@code moves} placements in all (a new game after a game over).
 * Prints the latency distribution of the moves as the client sees them, and how many games were started. Each player
 * plays the first legal placement (games of about 21 placements on MEDIUM: a game's creation and end every 21 moves),
 * or with {@code -Dload.strength=N} the engine AI's placement at strength N (2: games of hundreds of placements, so
 * the run measures moves alone).
 *
 * <pre>java -cp game-service/target/test-classes:$(cat game-service/target/test.classpath) com.bloceclat.game.MoveLoad
 *     http://127.0.0.1:8080 500 1000 40</pre>
 */
public final class MoveLoad {

    private static final ObjectMapper JSON = new ObjectMapper();

    private MoveLoad() {
    }

    public static void main(String[] args) throws Exception {
        String base = args.length > 0 ? args[0] : "http://127.0.0.1:8080";
        int games = args.length > 1 ? Integer.parseInt(args[1]) : 500;
        long thinkMs = args.length > 2 ? Long.parseLong(args[2]) : 1000;
        int moves = args.length > 3 ? Integer.parseInt(args[3]) : 40;
        System.exit(run(base, games, thinkMs, moves) ? 0 : 1);
    }

    /** Plays the games; prints the distribution; answers whether every move was accepted. */
    static boolean run(String base, int games, long thinkMs, int moves) throws Exception {
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        ConcurrentLinkedQueue<Long> latencies = new ConcurrentLinkedQueue<>();
        ConcurrentLinkedQueue<String> errors = new ConcurrentLinkedQueue<>();
        int strength = Integer.getInteger("load.strength", 0);
        AtomicInteger started = new AtomicInteger();
        CountDownLatch ready = new CountDownLatch(games);
        CountDownLatch done = new CountDownLatch(games);
        List<Thread> players = new ArrayList<>();
        for (int i = 0; i < games; i++) {
            int player = i;
            Thread t = new Thread(() -> {
                try {
                    ready.countDown();
                    ready.await();
                    Thread.sleep((long) (Math.random() * thinkMs));
                    // a player whose game ends starts another, as people do, so the games stay concurrent
                    Game shadow = null;
                    String id = null;
                    String token = null;
                    int number = 0;
                    for (int played = 0; played < moves; played++) {
                        if (shadow == null || shadow.gameOver()) {
                            long seed = 1000 + player * 1000L + played;
                            JsonNode game = create(http, base, seed);
                            started.incrementAndGet();
                            id = game.get("id").asText();
                            token = game.get("gameToken").asText();
                            shadow = new Game(seed, Level.MEDIUM);
                            number = 0;
                        }
                        int[] m = strength > 0 ? Play.byAi(shadow, strength) : Play.firstLegal(shadow);
                        shadow.place(m[0], m[1], m[2]);
                        number++;
                        String body = "{\"moveNumber\": " + number + ", \"slot\": " + m[0] + ", \"row\": " + m[1]
                                + ", \"col\": " + m[2] + "}";
                        long t0 = System.nanoTime();
                        HttpResponse<String> r = http.send(HttpRequest.newBuilder(
                                URI.create(base + "/api/games/" + id + "/moves"))
                                .header("Content-Type", "application/json").header("X-Game-Token", token)
                                .POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                                HttpResponse.BodyHandlers.ofString());
                        latencies.add(System.nanoTime() - t0);
                        if (r.statusCode() != 200) {
                            errors.add(r.statusCode() + " " + r.body());
                            // the service does not have the move the shadow has: a new game, or every later move
                            // of this one would be refused (409, out of order) and counted again
                            shadow = null;
                        }
                        Thread.sleep(thinkMs);
                    }
                } catch (Exception e) {
                    errors.add(e.toString());
                    ready.countDown();
                } finally {
                    done.countDown();
                }
            });
            players.add(t);
            t.start();
        }
        long begin = System.nanoTime();
        done.await(30, TimeUnit.MINUTES);
        double seconds = (System.nanoTime() - begin) / 1e9;
        long[] sorted = latencies.stream().mapToLong(Long::longValue).sorted().toArray();
        System.out.printf("games %d, think %d ms, moves %d in %.1f s (%.0f/s), errors %d, games started %d (%s)%n",
                games, thinkMs, sorted.length, seconds, sorted.length / seconds, errors.size(), started.get(),
                strength > 0 ? "AI strength " + strength : "first legal placement");
        print(sorted);
        errors.stream().limit(5).forEach(e -> System.out.println("  error: " + e));
        return errors.isEmpty();
    }

    /**
     * A new game, or an error naming the status and problem the service answered instead. The generated players are
     * one client (one address), and a client's starts are made one at a time: a start that meets another is answered
     * 429 with {@code Retry-After}, and is sent again after it, as a browser's page does.
     */
    private static JsonNode create(HttpClient http, String base, long seed) throws Exception {
        HttpResponse<String> r = null;
        int tries = 0;
        do {
            if (tries > 0) {
                Thread.sleep(1000L * Long.parseLong(r.headers().firstValue("Retry-After").orElse("1"))
                        + (long) (Math.random() * 500));
            }
            r = http.send(HttpRequest.newBuilder(URI.create(base + "/api/games"))
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString("{\"level\": \"MEDIUM\", \"seed\": " + seed + "}"))
                    .build(), HttpResponse.BodyHandlers.ofString());
        } while (r.statusCode() == 429 && ++tries < 20);
        if (r.statusCode() != 201) {
            throw new IllegalStateException("POST /api/games: " + r.statusCode() + " " + r.body());
        }
        return JSON.readTree(r.body());
    }

    static void print(long[] sorted) {
        for (double q : new double[] {0.5, 0.9, 0.95, 0.99, 0.999, 1.0}) {
            System.out.printf("  p%-5s %7.2f ms%n", q * 100, pct(sorted, q) / 1e6);
        }
    }

    private static long pct(long[] sorted, double q) {
        if (sorted.length == 0) {
            return 0;
        }
        return sorted[Math.min(sorted.length - 1, (int) Math.ceil(q * sorted.length) - 1)];
    }

}
