package com.bloceclat.leaderboard;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;

import com.bloceclat.common.events.GameFinished;
import com.bloceclat.engine.Level;
import com.bloceclat.engine.replay.Replay;
import com.bloceclat.leaderboard.service.Verdict;

/**
 * The benchmark of docs/benchmarks.md ("leaderboard-service"), run by hand, never by the build:
 * <ol>
 * <li>validation alone, on one thread: games judged per second (parse, re-simulate with the trace, verdict), as
 * the consumer does for each message;</li>
 * <li>the packaged service (target/quarkus-app) against PostgreSQL and Kafka in this JVM: {@code --rate} finished
 * games per second published for {@code --seconds}, and for each game the time from its publication (the Kafka
 * record's timestamp) to its verdict, and record, visible in the database (seen by a probe counting committed
 * verdicts every 5 ms): p50, p99, max;</li>
 * <li>a backlog of {@code --backlog} games published while the service is down, then drained: games per second
 * through one consumer (one partition), database included;</li>
 * <li>{@code --records} records more in one level, then the public leaderboard calls timed (and their query plans
 * shown).</li>
 * </ol>
 * Before the measured phase, {@code --warmup} seconds at the same rate let the JIT and the caches settle; a cold
 * service is slower for its first thousands of games. Arguments (defaults): {@code --rate 200 --seconds 60
 * --warmup 30 --backlog 5000 --validate-seconds 10 --records 1000000}; {@code --records}: records added for the last
 * part, the leaderboard calls on a level with a million records (0 skips it).
 */
public final class LoadGenerator {

    public static void main(String[] args) throws Exception {
        // the service runs on the production JVM's options, not the tests' short-lived ones (LocalProcess.java)
        System.setProperty("bloc.test.quick-jvm", System.getProperty("bloc.test.quick-jvm", "false"));
        int rate = intArg(args, "--rate", 200);
        int seconds = intArg(args, "--seconds", 60);
        int backlog = intArg(args, "--backlog", 5000);
        int validateSeconds = intArg(args, "--validate-seconds", 10);
        int warmup = intArg(args, "--warmup", 30);
        int records = intArg(args, "--records", 1_000_000);

        long t0 = System.nanoTime();
        List<Replay> pool = new ArrayList<>();
        Level[] levels = Level.values();
        for (int i = 0; i < 60; i++) {
            pool.add(Games.played(5000 + i, levels[i % levels.length], 10 + i % 21).replay());
        }
        double placements = pool.stream().mapToInt(r -> r.events().size()).average().orElse(0);
        double rounds = pool.stream().mapToInt(Replay::claimedRounds).average().orElse(0);
        System.out.printf("pool: %d games played by the engine's AI in %.1f s, %.1f rounds and %.1f placements each"
                + " on average%n", pool.size(), (System.nanoTime() - t0) / 1e9, rounds, placements);

        List<String> json = pool.stream().map(Replay::toJson).toList();
        if (validateSeconds > 0) {
            validate(json, 3, false);
            double games = validate(json, validateSeconds, true);
            System.out.printf("validation, one thread: %.0f games/s (%.0f placements/s)%n", games,
                    games * placements);
        }

        try (PackagedService service = new PackagedService(Path.of("target", "load"));
                KafkaProducer<String, String> producer = service.producer()) {
            service.start();
            long total = 0;
            if (seconds > 0) {
                total += publishAt(producer, pool, rate, warmup, "warm-up");
                awaitAll(service, total);
                Instant measuredFrom = Instant.now().truncatedTo(ChronoUnit.MILLIS);
                VisibilityProbe probe = new VisibilityProbe(service);
                int sent = publishAt(producer, pool, rate, seconds, "measured");
                total += sent;
                awaitAll(service, total);
                latencies(service, probe.stop(), measuredFrom, sent, rate);
            }
            if (backlog > 0) {
                service.stop();
                Instant backlogFrom = Instant.now().truncatedTo(ChronoUnit.MILLIS);
                for (int i = 0; i < backlog; i++) {
                    producer.send(record(pool, i));
                }
                producer.flush();
                total += backlog;
                service.start();
                awaitAll(service, total);
                drain(service, backlogFrom);
            }
            if (records > 0) {
                topN(service, records);
            }
        }
    }

    /**
     * {@code records} more HARD records (scores 0-5000, 50,000 players, finished over the last 30 days) written
     * straight into the tables, then the public leaderboard calls timed through the service's REST API.
     */
    static void topN(PackagedService service, int records) throws Exception {
        long start = System.nanoTime();
        try (Connection db = service.database(); Statement sql = db.createStatement()) {
            sql.execute("""
                    CREATE TEMP TABLE bulk AS
                    SELECT gen_random_uuid() AS game_id, 'bulk-' || (i %% 50000) AS subject,
                           (random() * 5000)::int AS score,
                           now() - (random() * 30) * interval '1 day' AS finished_at
                    FROM generate_series(1, %d) i
                    """.formatted(records));
            sql.execute("""
                    INSERT INTO game_audit (game_id, outcome, player_subject, player_name, mode, level, score, rounds,
                        valid_events, assisted, game_over, finished_at, processed_at, replay, trace)
                    SELECT game_id, 'RECORD', subject, subject, 'SOLO', 'HARD', score, 10, 30, false, true,
                        finished_at, now(), '{}', '' FROM bulk
                    """);
            sql.execute("""
                    INSERT INTO game_record (game_id, level, player_subject, player_name, score, rounds, finished_at)
                    SELECT game_id, 'HARD', subject, subject, score, 10, finished_at FROM bulk
                    """);
            sql.execute("ANALYZE game_audit");
            sql.execute("ANALYZE game_record");
            try (ResultSet rows = sql.executeQuery("SELECT count(*) FROM game_record WHERE level = 'HARD'")) {
                rows.next();
                System.out.printf("%d HARD records written in %.0f s%n", rows.getLong(1),
                        (System.nanoTime() - start) / 1e9);
            }
            explain(sql, "top 20, all time", """
                    SELECT * FROM game_record WHERE level = 'HARD' AND struck_at IS NULL
                    ORDER BY score DESC, finished_at, game_id LIMIT 21""");
            explain(sql, "top 20, this week", """
                    SELECT * FROM game_record WHERE level = 'HARD' AND struck_at IS NULL
                    AND finished_at >= now() - interval '7 days'
                    ORDER BY score DESC, finished_at, game_id LIMIT 21""");
            explain(sql, "rank of a middling score: records above it", """
                    SELECT count(*) FROM game_record WHERE level = 'HARD' AND struck_at IS NULL
                    AND score > 2500""");
        }
        HttpClient client = HttpClient.newHttpClient();
        String base = service.baseUrl() + "/api/leaderboards/HARD";
        time(client, "GET /api/leaderboards/HARD (top 20, all time)", base);
        time(client, "GET /api/leaderboards/HARD?page=50", base + "?page=50");
        time(client, "GET /api/leaderboards/HARD?period=today", base + "?period=today");
        time(client, "GET /api/leaderboards/HARD?period=week", base + "?period=week");
        time(client, "GET /api/leaderboards/HARD/players/bulk-777 (best, rank)", base + "/players/bulk-777");
    }

    static void explain(Statement sql, String what, String query) throws SQLException {
        StringBuilder plan = new StringBuilder();
        try (ResultSet rows = sql.executeQuery("EXPLAIN (ANALYZE, COSTS OFF) " + query)) {
            while (rows.next()) {
                plan.append("    ").append(rows.getString(1)).append('\n');
            }
        }
        System.out.printf("  plan, %s:%n%s", what, plan);
    }

    /** Median and max over 50 calls, after 10 unmeasured ones. */
    static void time(HttpClient client, String what, String url) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(URI.create(url)).build();
        List<Double> ms = new ArrayList<>();
        for (int i = 0; i < 60; i++) {
            long start = System.nanoTime();
            HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                throw new IllegalStateException(url + ": " + response.statusCode() + " " + response.body());
            }
            if (i >= 10) {
                ms.add((System.nanoTime() - start) / 1e6);
            }
        }
        ms.sort(null);
        System.out.printf("%s: median %.1f ms, max %.1f ms%n", what, ms.get(ms.size() / 2), ms.get(ms.size() - 1));
    }

    /** Judges the replays round-robin for the given time; games per second. */
    static double validate(List<String> replays, int seconds, boolean trace) {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        long start = System.nanoTime();
        long games = 0;
        int valid = 0;
        while (System.nanoTime() < end) {
            Verdict verdict = Verdict.of(replays.get((int) (games % replays.size())));
            valid += verdict.reason() == null ? 1 : 0;
            games++;
        }
        if (valid != games) {
            throw new IllegalStateException((games - valid) + " honest games were not records");
        }
        return games / ((System.nanoTime() - start) / 1e9);
    }

    /** Publishes at {@code rate} games per second, evenly spaced, for {@code seconds}. */
    static int publishAt(KafkaProducer<String, String> producer, List<Replay> pool, int rate, int seconds,
            String what) {
        int total = rate * seconds;
        long start = System.nanoTime();
        if (total == 0) {
            return 0;
        }
        long gap = TimeUnit.SECONDS.toNanos(1) / rate;
        AtomicReference<Exception> failure = new AtomicReference<>();
        for (int i = 0; i < total; i++) {
            long due = start + i * gap;
            long wait = due - System.nanoTime();
            if (wait > 0) {
                java.util.concurrent.locks.LockSupport.parkNanos(wait);
            }
            producer.send(record(pool, i), (metadata, e) -> {
                if (e != null) {
                    failure.set(e);
                }
            });
        }
        producer.flush();
        if (failure.get() != null) {
            throw new IllegalStateException("a send failed", failure.get());
        }
        System.out.printf("%s: %d games published in %.1f s%n", what, total, (System.nanoTime() - start) / 1e9);
        return total;
    }

    /** Game i: a logged-in player's game from the pool, every 10th a guest's, every 10th doctored. */
    static ProducerRecord<String, String> record(List<Replay> pool, int i) {
        Replay replay = pool.get(i % pool.size());
        if (i % 10 == 3) {
            replay = new Replay(1, replay.seed(), replay.level(), replay.events(), replay.rounds(),
                    replay.claimedScore() + 1, replay.claimedRounds(), false);
        }
        GameFinished.Player player = i % 10 == 1 ? null : Games.player("load-" + i % 500);
        GameFinished game = Games.finished(UUID.randomUUID(), player, replay.toJson(), Instant.now());
        // Signed as game-service signs (the pool's replays come back: beyond the first, a seed's game is a DUPLICATE)
        return Games.message(game);
    }

    /** Waits until the service has a verdict on every game published so far. */
    static void awaitAll(PackagedService service, long total) throws SQLException {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(10);
        while (count(service) < total) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("only " + count(service) + " of " + total + " games judged");
            }
            PackagedService.sleep(20);
        }
    }

    static long count(PackagedService service) throws SQLException {
        try (Connection db = service.database(); PreparedStatement sql = db.prepareStatement(
                "SELECT count(*) FROM game_audit"); ResultSet rows = sql.executeQuery()) {
            rows.next();
            return rows.getLong(1);
        }
    }

    /**
     * Watches, every 5 ms, how many games have a committed verdict. Verdicts commit in the order of their
     * {@code processed_at} (one consumer), so the i-th game in that order became visible at the first look that
     * counted more than i games.
     */
    static final class VisibilityProbe implements Runnable {
        private final PackagedService service;
        private final List<long[]> looks = new ArrayList<>();
        private volatile boolean running = true;
        private final Thread thread = new Thread(this, "visibility-probe");

        VisibilityProbe(PackagedService service) {
            this.service = service;
            thread.start();
        }

        @Override
        public void run() {
            try (Connection db = service.database();
                    PreparedStatement sql = db.prepareStatement("SELECT count(*) FROM game_audit")) {
                while (running) {
                    try (ResultSet rows = sql.executeQuery()) {
                        rows.next();
                        long count = rows.getLong(1);
                        long now = System.currentTimeMillis();
                        synchronized (looks) {
                            if (looks.isEmpty() || looks.get(looks.size() - 1)[1] != count) {
                                looks.add(new long[] {now, count});
                            }
                        }
                    }
                    PackagedService.sleep(5);
                }
            } catch (SQLException e) {
                throw new IllegalStateException(e);
            }
        }

        List<long[]> stop() throws InterruptedException {
            running = false;
            thread.join();
            return looks;
        }
    }

    static void latencies(PackagedService service, List<long[]> looks, Instant from, int sent, int rate)
            throws SQLException {
        List<Double> all = new ArrayList<>();
        Map<Long, List<Double>> windows = new TreeMap<>();
        long records = 0;
        try (Connection db = service.database(); PreparedStatement sql = db.prepareStatement(
                "SELECT published_at, outcome FROM game_audit ORDER BY processed_at, game_id");
                ResultSet rows = sql.executeQuery()) {
            long index = 0;
            int look = 0;
            while (rows.next()) {
                Instant published = rows.getTimestamp(1).toInstant();
                while (look < looks.size() && looks.get(look)[1] <= index) {
                    look++;
                }
                index++;
                if (published.isBefore(from)) {
                    continue;
                }
                if (look == looks.size()) {
                    throw new IllegalStateException("game " + index + " was never seen committed");
                }
                double ms = looks.get(look)[0] - published.toEpochMilli();
                all.add(ms);
                windows.computeIfAbsent((published.toEpochMilli() - from.toEpochMilli()) / 10_000,
                        w -> new ArrayList<>()).add(ms);
                records += rows.getString(2).equals("RECORD") ? 1 : 0;
            }
        }
        System.out.printf("published -> verdict committed and visible at %d games/s: %d of %d games (%d records), "
                + "p50 %.0f ms, p99 %.0f ms, max %.0f ms%n", rate, all.size(), sent, records, pct(all, 0.5),
                pct(all, 0.99), pct(all, 1));
        windows.forEach((w, ms) -> System.out.printf("  published %3d-%3d s: %5d games, p99 %5.0f ms, max %5.0f ms%n",
                w * 10, w * 10 + 10, ms.size(), pct(ms, 0.99), pct(ms, 1)));
    }

    static double pct(List<Double> values, double p) {
        List<Double> sorted = new ArrayList<>(values);
        sorted.sort(null);
        return sorted.get(Math.min(sorted.size() - 1, (int) Math.ceil(p * sorted.size()) - 1));
    }

    static void drain(PackagedService service, Instant from) throws SQLException {
        try (Connection db = service.database(); PreparedStatement sql = db.prepareStatement("""
                SELECT count(*), extract(epoch FROM max(processed_at) - min(processed_at))
                FROM game_audit WHERE published_at >= ?
                """)) {
            sql.setTimestamp(1, Timestamp.from(from));
            try (ResultSet rows = sql.executeQuery()) {
                rows.next();
                System.out.printf("backlog: %d games drained in %.1f s: %.0f games/s through one consumer%n",
                        rows.getLong(1), rows.getDouble(2), rows.getLong(1) / rows.getDouble(2));
            }
        }
    }

    static int intArg(String[] args, String name, int absent) {
        for (int i = 0; i < args.length - 1; i++) {
            if (args[i].equals(name)) {
                return Integer.parseInt(args[i + 1]);
            }
        }
        return absent;
    }
}
