package com.bloceclat.solver.load;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;

import com.bloceclat.engine.Board;
import com.bloceclat.engine.Piece;
import com.bloceclat.engine.solver.BenchPositions;
import com.bloceclat.engine.solver.Mode;
import com.bloceclat.engine.solver.SolveRequest;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Drives {@code POST /api/solver/solve} on running replicas and prints throughput, latency percentiles of the
 * answered requests, 429s, errors and the replicas' heap (docs/benchmarks.md, "solver-service").
 *
 * <pre>
 * --urls http://127.0.0.1:8081[,http://127.0.0.1:8082]   replicas, used in turn
 * --mode ai|hint|maxLines    (ai)      --strength 1..5 (5)
 * --concurrency N            closed loop: N callers, each sends its next request when the last is answered
 * --rate R                   open loop: R requests per second whatever the answers (latency from the planned send)
 * --duration S (20)  --warmup S (5)    --token T: bearer token (else anonymous)
 * </pre>
 *
 * Positions are the engine's benchmark set restricted to mid-game boards (about 20 to 50% full).
 */
public final class LoadGenerator {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int POSITIONS = 600;
    private static final int MAX_IN_FLIGHT = 512;

    private final List<URI> targets;
    private final List<String> bodies;
    private final String token;
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(2)).build();

    private volatile boolean recording;
    private final LongAdder sent = new LongAdder();
    private final Map<Integer, LongAdder> statuses = new ConcurrentHashMap<>();
    private final LongAdder errors = new LongAdder();
    private final LongAdder skipped = new LongAdder();
    private final Latencies latencies = new Latencies();
    private final AtomicInteger next = new AtomicInteger();

    private LoadGenerator(List<URI> targets, List<String> bodies, String token) {
        this.targets = targets;
        this.bodies = bodies;
        this.token = token;
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> opts = options(args);
        List<URI> urls = Arrays.stream(opts.getOrDefault("urls", "http://127.0.0.1:8081").split(","))
                .map(String::trim).map(u -> URI.create(u + "/api/solver/solve")).toList();
        Mode mode = Mode.parse(opts.getOrDefault("mode", "ai"));
        int strength = Integer.parseInt(opts.getOrDefault("strength", "5"));
        Duration duration = Duration.ofSeconds(Long.parseLong(opts.getOrDefault("duration", "20")));
        Duration warmup = Duration.ofSeconds(Long.parseLong(opts.getOrDefault("warmup", "5")));
        LoadGenerator generator = new LoadGenerator(urls, bodies(mode, strength), opts.get("token"));

        Map<URI, String> before = generator.metrics();
        String shape;
        long measuredNanos;
        if (opts.containsKey("rate")) {
            double rate = Double.parseDouble(opts.get("rate"));
            shape = "open loop, " + rate + " req/s";
            measuredNanos = generator.openLoop(rate, warmup, duration);
        } else {
            int concurrency = Integer.parseInt(opts.getOrDefault("concurrency", "8"));
            shape = "closed loop, " + concurrency + " callers";
            measuredNanos = generator.closedLoop(concurrency, warmup, duration);
        }
        generator.report(mode.wire() + " strength " + strength + ", " + urls.size() + " replica(s), " + shape,
                measuredNanos, before, generator.metrics());
    }

    /** Mid-game positions as protocol requests. */
    public static List<String> bodies(Mode mode, int strength) {
        List<SolveRequest> all = BenchPositions.generate(POSITIONS, mode, strength);
        List<String> out = new ArrayList<>();
        for (int i = POSITIONS / 3; i < POSITIONS * 5 / 6; i++) {
            SolveRequest p = all.get(i);
            ObjectNode request = JSON.createObjectNode().put("id", "load-" + i);
            ArrayNode board = request.putArray("board");
            for (String row : Board.rows(p.board())) {
                board.add(row);
            }
            ArrayNode pieces = request.putArray("pieces");
            for (Piece piece : p.pieces()) {
                pieces.add(piece.id());
            }
            request.put("streak", p.streak()).put("miss", p.miss()).put("level", p.level().name())
                    .put("mode", mode.wire()).put("strength", strength).put("seed", p.seed());
            out.add(request.toString());
        }
        return out;
    }

    private HttpRequest request() {
        int n = next.getAndIncrement() & Integer.MAX_VALUE;
        HttpRequest.Builder builder = HttpRequest.newBuilder(targets.get(n % targets.size()))
                .timeout(Duration.ofSeconds(10))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(bodies.get(n % bodies.size())));
        if (token != null) {
            builder.header("Authorization", "Bearer " + token);
        }
        return builder.build();
    }

    private void record(long plannedNanos, int status) {
        if (!recording) {
            return;
        }
        statuses.computeIfAbsent(status, s -> new LongAdder()).increment();
        if (status == 200) {
            latencies.add(System.nanoTime() - plannedNanos);
        }
    }

    private long closedLoop(int concurrency, Duration warmup, Duration duration) throws InterruptedException {
        long start = System.nanoTime();
        long end = start + warmup.toNanos() + duration.toNanos();
        CountDownLatch done = new CountDownLatch(concurrency);
        for (int i = 0; i < concurrency; i++) {
            Thread caller = new Thread(() -> {
                while (System.nanoTime() < end) {
                    long t0 = System.nanoTime();
                    try {
                        HttpResponse<Void> response = http.send(request(), HttpResponse.BodyHandlers.discarding());
                        if (recording) {
                            sent.increment();
                        }
                        record(t0, response.statusCode());
                    } catch (Exception e) {
                        if (recording) {
                            errors.increment();
                        }
                    }
                }
                done.countDown();
            }, "caller-" + i);
            caller.setDaemon(true);
            caller.start();
        }
        Thread.sleep(warmup.toMillis());
        recording = true;
        long measuredFrom = System.nanoTime();
        done.await();
        recording = false;
        return System.nanoTime() - measuredFrom;
    }

    private long openLoop(double rate, Duration warmup, Duration duration) throws InterruptedException {
        long interval = (long) (1e9 / rate);
        long start = System.nanoTime();
        long measureFrom = start + warmup.toNanos();
        long end = measureFrom + duration.toNanos();
        Semaphore inFlight = new Semaphore(MAX_IN_FLIGHT);
        AtomicLong outstanding = new AtomicLong();
        for (long i = 0;; i++) {
            long planned = start + i * interval;
            if (planned >= end) {
                break;
            }
            long wait = planned - System.nanoTime();
            if (wait > 0) {
                LockSupport.parkNanos(wait);
            }
            recording = planned >= measureFrom;
            boolean counted = recording;
            if (counted) {
                sent.increment();
            }
            if (!inFlight.tryAcquire()) {
                if (counted) {
                    skipped.increment();
                }
                continue;
            }
            outstanding.incrementAndGet();
            http.sendAsync(request(), HttpResponse.BodyHandlers.discarding()).whenComplete((response, failure) -> {
                if (counted) {
                    if (failure != null) {
                        errors.increment();
                    } else {
                        statuses.computeIfAbsent(response.statusCode(), s -> new LongAdder()).increment();
                        if (response.statusCode() == 200) {
                            latencies.add(System.nanoTime() - planned);
                        }
                    }
                }
                outstanding.decrementAndGet();
                inFlight.release();
            });
        }
        recording = false;
        long measured = System.nanoTime() - measureFrom;
        long drainUntil = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
        while (outstanding.get() > 0 && System.nanoTime() < drainUntil) {
            Thread.sleep(10);
        }
        return measured;
    }

    /** Each replica's Prometheus text, or "" when it does not answer. */
    private Map<URI, String> metrics() {
        Map<URI, String> out = new HashMap<>();
        for (URI target : targets) {
            try {
                out.put(target, http.send(HttpRequest.newBuilder(target.resolve("/q/metrics")).build(),
                        HttpResponse.BodyHandlers.ofString()).body());
            } catch (Exception e) {
                out.put(target, "");
            }
        }
        return out;
    }

    /** The sum of the samples whose line starts with {@code prefix} (name and the start of the labels). */
    private static double sum(String metrics, String prefix, String alsoContains) {
        return metrics.lines().filter(l -> l.startsWith(prefix) && l.contains(alsoContains))
                .mapToDouble(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1))).sum();
    }

    /** The upper bound (le) of the histogram bucket holding quantile q of what was added between two scrapes. */
    private static double quantile(String name, String before, String after, double q) {
        Map<Double, Double> counts = new java.util.TreeMap<>();
        for (String[] scrape : new String[][] { { before, "-1" }, { after, "1" } }) {
            scrape[0].lines().filter(l -> l.startsWith(name + "_bucket{")).forEach(l -> {
                int at = l.indexOf("le=\"") + 4;
                String le = l.substring(at, l.indexOf('"', at));
                double bound = le.equals("+Inf") ? Double.POSITIVE_INFINITY : Double.parseDouble(le);
                double v = Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1));
                counts.merge(bound, Double.parseDouble(scrape[1]) * v, Double::sum);
            });
        }
        double total = counts.getOrDefault(Double.POSITIVE_INFINITY, 0.0);
        for (Map.Entry<Double, Double> e : counts.entrySet()) {
            if (total > 0 && e.getValue() >= q * total) {
                return e.getKey() * 1000;
            }
        }
        return Double.NaN;
    }

    private void report(String title, long measuredNanos, Map<URI, String> before, Map<URI, String> after) {
        double seconds = measuredNanos / 1e9;
        long ok = statuses.getOrDefault(200, new LongAdder()).sum();
        long tooMany = statuses.getOrDefault(429, new LongAdder()).sum();
        long[] sorted = latencies.sorted();
        System.out.println("== " + title);
        System.out.printf(Locale.ROOT, "measured %.1f s: sent %d, answered 200 %d (%.0f/s), 429 %d, other statuses %s,"
                + " errors %d, not sent (generator at %d in flight) %d%n", seconds, sent.sum(), ok, ok / seconds,
                tooMany, others(), errors.sum(), MAX_IN_FLIGHT, skipped.sum());
        System.out.printf(Locale.ROOT, "latency of 200s (ms): p50 %.2f  p90 %.2f  p99 %.2f  max %.2f%n",
                percentile(sorted, 0.50), percentile(sorted, 0.90), percentile(sorted, 0.99),
                sorted.length == 0 ? Double.NaN : sorted[sorted.length - 1] / 1e6);
        for (URI target : targets) {
            String b = before.get(target);
            String a = after.get(target);
            double searches = sum(a, "solver_search_seconds_count", "") - sum(b, "solver_search_seconds_count", "");
            double searchMs = (sum(a, "solver_search_seconds_sum", "") - sum(b, "solver_search_seconds_sum", ""))
                    / searches * 1000;
            System.out.printf(Locale.ROOT, "%s: %.0f searches, mean %.2f ms on a worker; queue wait p50 <= %.1f ms,"
                    + " p99 <= %.1f ms (histogram buckets); heap used %.0f MB before, %.0f MB after%n",
                    target.getAuthority(), searches, searchMs,
                    quantile("solver_queue_wait_seconds", b, a, 0.50), quantile("solver_queue_wait_seconds", b, a, 0.99),
                    sum(b, "jvm_memory_used_bytes{", "area=\"heap\"") / (1 << 20),
                    sum(a, "jvm_memory_used_bytes{", "area=\"heap\"") / (1 << 20));
        }
    }

    private String others() {
        Map<Integer, Long> others = new HashMap<>();
        statuses.forEach((status, count) -> {
            if (status != 200 && status != 429) {
                others.put(status, count.sum());
            }
        });
        return others.toString();
    }

    private static double percentile(long[] sorted, double p) {
        if (sorted.length == 0) {
            return Double.NaN;
        }
        return sorted[Math.min(sorted.length - 1, (int) Math.ceil(p * sorted.length) - 1)] / 1e6;
    }

    private static Map<String, String> options(String[] args) {
        Map<String, String> out = new HashMap<>();
        for (int i = 0; i + 1 < args.length; i += 2) {
            if (!args[i].startsWith("--")) {
                throw new IllegalArgumentException("expected --name value, got " + args[i]);
            }
            out.put(args[i].substring(2), args[i + 1]);
        }
        return out;
    }

    /** Latencies in nanoseconds, appended from many threads. */
    private static final class Latencies {
        private long[] values = new long[1 << 16];
        private int size;

        synchronized void add(long nanos) {
            if (size == values.length) {
                values = Arrays.copyOf(values, size * 2);
            }
            values[size++] = nanos;
        }

        synchronized long[] sorted() {
            long[] copy = Arrays.copyOf(values, size);
            Arrays.sort(copy);
            return copy;
        }
    }
}
