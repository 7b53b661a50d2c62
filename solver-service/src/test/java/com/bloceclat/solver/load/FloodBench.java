package com.bloceclat.solver.load;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

import com.bloceclat.engine.solver.Mode;
import com.bloceclat.testsupport.LocalProcess;
import com.bloceclat.testsupport.Tokens;

import io.quarkus.test.oidc.server.OidcWiremockTestResource;

/**
 * A public flood against the service callers' latency (docs/benchmarks.md, "solver-service", the flood row). Starts
 * the WireMock OIDC server in this JVM and one packaged replica checking tokens against it (the public rate limit
 * lifted, so the flood reaches the pool), then, for each phase, measures {@code --service N} callers with a service
 * token (role {@code service}, like bloc-services), half asking hints and half the AI's move at strength 5, each
 * sending its next request when the last is answered:
 * <ol>
 * <li>{@code quiet}: the service callers alone;</li>
 * <li>{@code flood}: the same while {@code --flood P} anonymous callers send AI strength 5 requests as fast as they
 * are answered (429s come back at once, so they retry at once);</li>
 * <li>{@code quiet, again}: the first phase again, once the replica is warm.</li>
 * </ol>
 *
 * <pre>
 * --jar solver-service/target/quarkus-app/quarkus-run.jar  --service 4  --flood 64  --duration 20 (per phase)
 * --warmup 5  --cpus "taskset -c 1" (run the replica under it; optional)  --workers N (bloc.solver.workers)
 * --priorities false (start the replica without WorkerPool.PRIORITY_OPTIONS: public workers at nice 0)
 * --shed false (bloc.solver.public.shed-early=false: every refusal by the resource, after auth and JSON)
 * --public-cpus "taskset -c 0" (separate pools, as k8s deploys them: a second replica for the public callers only,
 *     under that prefix; the service callers ask the first replica alone)
 * --flood-cpus "taskset -c 0" (the flood's callers in a JVM of their own under that prefix, beside the public replica:
 *     with separate pools, the service callers then share no core with the flood at all)
 * </pre>
 *
 * <p>The flood's threads run at the lowest Java priority: started with {@code WorkerPool.PRIORITY_OPTIONS} (as the
 * script does), the operating system runs them at nice 19, so the service callers' own threads in this JVM stand for a
 * game-service that does not share its cores with the people flooding.
 *
 * <p>Each phase also prints where the CPU went: the replica's threads by group (service workers, public workers, event
 * loops, JIT, GC, the rest) from {@code /proc/<pid>/task}, this JVM's own (generator and OIDC server), and the
 * replica's mean search time and queue wait per kind of caller from {@code /q/metrics}.
 */
public final class FloodBench {

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(2)).build();
    private final URI solve;
    /** Where the flood goes: the same replica, or the public pool's. */
    private final URI publicSolve;
    private final List<String> hint = LoadGenerator.bodies(Mode.HINT, 5);
    private final List<String> ai = LoadGenerator.bodies(Mode.AI, 5);
    private final AtomicInteger next = new AtomicInteger();

    private FloodBench(URI base, URI publicBase) {
        this.solve = base.resolve("/api/solver/solve");
        this.publicSolve = publicBase.resolve("/api/solver/solve");
    }

    /** One lane's statuses and latencies of its 200s. */
    private static final class Lane {
        final Map<Integer, LongAdder> statuses = new ConcurrentHashMap<>();
        final LongAdder errors = new LongAdder();
        long[] latencies = new long[1 << 16];
        int size;

        synchronized void add(long nanos) {
            if (size == latencies.length) {
                latencies = Arrays.copyOf(latencies, size * 2);
            }
            latencies[size++] = nanos;
        }

        String line(double seconds) {
            long[] sorted = Arrays.copyOf(latencies, size);
            Arrays.sort(sorted);
            long ok = statuses.getOrDefault(200, new LongAdder()).sum();
            Map<Integer, Long> others = new HashMap<>();
            statuses.forEach((s, n) -> {
                if (s != 200) {
                    others.put(s, n.sum());
                }
            });
            return String.format(Locale.ROOT, "200 %d (%.0f/s), other statuses %s, errors %d; p50 %.2f ms, "
                    + "p99 %.2f ms, max %.2f ms", ok, ok / seconds, others, errors.sum(), pct(sorted, 0.5),
                    pct(sorted, 0.99), sorted.length == 0 ? Double.NaN : sorted[sorted.length - 1] / 1e6);
        }

        private static double pct(long[] sorted, double p) {
            return sorted.length == 0 ? Double.NaN
                    : sorted[Math.min(sorted.length - 1, (int) Math.ceil(p * sorted.length) - 1)] / 1e6;
        }
    }

    private volatile boolean recording;
    /** With {@code --flood-cpus}: how to start the flood's own JVM (this class, {@code --flood-only}), else null. */
    private List<String> floodCommand;

    /** Closed-loop callers until {@code end}; each takes bodies from {@code bodies}. */
    private CountDownLatch callers(int n, String token, List<String> bodies, Lane lane, long end, URI target,
            int priority) {
        CountDownLatch done = new CountDownLatch(n);
        for (int i = 0; i < n; i++) {
            Thread t = new Thread(() -> {
                while (System.nanoTime() < end) {
                    int k = next.getAndIncrement() & Integer.MAX_VALUE;
                    HttpRequest.Builder b = HttpRequest.newBuilder(target).timeout(Duration.ofSeconds(10))
                            .header("Content-Type", "application/json")
                            .POST(HttpRequest.BodyPublishers.ofString(bodies.get(k % bodies.size())));
                    if (token != null) {
                        b.header("Authorization", "Bearer " + token);
                    }
                    long t0 = System.nanoTime();
                    try {
                        int status = http.send(b.build(), HttpResponse.BodyHandlers.discarding()).statusCode();
                        if (recording) {
                            lane.statuses.computeIfAbsent(status, s -> new LongAdder()).increment();
                            if (status == 200) {
                                lane.add(System.nanoTime() - t0);
                            }
                        }
                    } catch (IOException e) {
                        if (recording) {
                            lane.errors.increment();
                        }
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        return;
                    }
                }
                done.countDown();
            });
            t.setDaemon(true);
            t.setPriority(priority);
            t.start();
        }
        return done;
    }

    private void phase(String name, int service, int flood, Duration warmup, Duration duration, long replicaPid)
            throws Exception {
        String token = Tokens.of("sub-service-account", "service-account-bloc-services", List.of("player", "service"));
        long end = System.nanoTime() + warmup.toNanos() + duration.toNanos();
        Lane hints = new Lane();
        Lane moves = new Lane();
        Lane floods = new Lane();
        recording = false;
        List<CountDownLatch> all = new java.util.ArrayList<>();
        all.add(callers(service / 2, token, hint, hints, end, solve, Thread.NORM_PRIORITY));
        all.add(callers(service - service / 2, token, ai, moves, end, solve, Thread.NORM_PRIORITY));
        Process floodJvm = null;
        if (flood > 0 && floodCommand != null) {
            List<String> command = new java.util.ArrayList<>(floodCommand);
            command.addAll(List.of("--flood-only", publicSolve.toString(), "--flood", Integer.toString(flood),
                    "--warmup", Long.toString(warmup.toSeconds()), "--duration", Long.toString(duration.toSeconds())));
            floodJvm = new ProcessBuilder(command).redirectErrorStream(true).start();
        } else if (flood > 0) {
            all.add(callers(flood, null, ai, floods, end, publicSolve, Thread.MIN_PRIORITY));
        }
        Thread.sleep(warmup.toMillis());
        Map<String, Double> threadsBefore = threadCpu(replicaPid);
        Map<String, Double> metricsBefore = searchMetrics();
        long generatorBefore = generatorCpuNanos();
        recording = true;
        long from = System.nanoTime();
        String loadDuring = null;
        for (CountDownLatch latch : all) {
            while (!latch.await(duration.toMillis() / 2 + 1, java.util.concurrent.TimeUnit.MILLISECONDS)) {
                if (loadDuring == null) {
                    loadDuring = load();
                }
            }
        }
        recording = false;
        double seconds = (System.nanoTime() - from) / 1e9;
        Map<String, Double> threadsAfter = threadCpu(replicaPid);
        Map<String, Double> metricsAfter = searchMetrics();
        double generatorCpu = (generatorCpuNanos() - generatorBefore) / 1e9;
        System.out.printf(Locale.ROOT, "== %s: %d service callers (hint, ai strength 5), %d public flood callers; "
                + "measured %.1f s; load average during: %s%n", name, service, flood, seconds,
                loadDuring == null ? load() : loadDuring);
        System.out.println("   service hint:      " + hints.line(seconds));
        System.out.println("   service ai 5:      " + moves.line(seconds));
        if (floodJvm != null) {
            System.out.print(new String(floodJvm.getInputStream().readAllBytes()));
            floodJvm.waitFor();
        } else if (flood > 0) {
            System.out.println("   public flood ai 5: " + floods.line(seconds));
        }
        StringBuilder cpu = new StringBuilder();
        threadsAfter.forEach((group, after) -> cpu.append(String.format(Locale.ROOT, "%s %.1f s, ", group,
                after - threadsBefore.getOrDefault(group, 0.0))));
        System.out.printf(Locale.ROOT, "   CPU in the phase: replica %s; generator+OIDC %.1f s%n", cpu, generatorCpu);
        for (String caller : List.of("service", "public")) {
            double n = delta(metricsBefore, metricsAfter, "search_count " + caller);
            if (n > 0) {
                System.out.printf(Locale.ROOT, "   server, %s: %.0f searches, search mean %.2f ms, queue wait mean "
                        + "%.2f ms%n", caller, n, 1e3 * delta(metricsBefore, metricsAfter, "search_sum " + caller) / n,
                        1e3 * delta(metricsBefore, metricsAfter, "wait_sum " + caller) / n);
            }
        }
    }

    private static double delta(Map<String, Double> before, Map<String, Double> after, String key) {
        return after.getOrDefault(key, 0.0) - before.getOrDefault(key, 0.0);
    }

    /** Sums of solver_search_seconds and solver_queue_wait_seconds per caller, from the replica's metrics. */
    private Map<String, Double> searchMetrics() throws IOException, InterruptedException {
        Map<String, Double> sums = new HashMap<>();
        String text = http.send(HttpRequest.newBuilder(solve.resolve("/q/metrics")).build(),
                HttpResponse.BodyHandlers.ofString()).body();
        java.util.regex.Pattern line = java.util.regex.Pattern.compile(
                "^solver_(search|queue_wait)_seconds_(count|sum)\\{caller=\"(\\w+)\"[^}]*} (\\S+)$");
        text.lines().forEach(l -> {
            java.util.regex.Matcher m = line.matcher(l);
            if (m.matches()) {
                String key = (m.group(1).equals("search") ? "search_" : "wait_") + m.group(2) + " " + m.group(3);
                sums.merge(key, Double.parseDouble(m.group(4)), Double::sum);
            }
        });
        return sums;
    }

    /** CPU seconds of the replica's threads so far, by group (service/public workers, event loops, JIT, GC, rest). */
    private static Map<String, Double> threadCpu(long pid) {
        Map<String, Double> groups = new java.util.TreeMap<>();
        java.io.File[] tasks = new java.io.File("/proc/" + pid + "/task").listFiles();
        if (tasks == null) {
            return groups;
        }
        for (java.io.File task : tasks) {
            try {
                String stat = java.nio.file.Files.readString(task.toPath().resolve("stat"));
                String comm = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
                String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                double cpu = (Long.parseLong(f[11]) + Long.parseLong(f[12])) / 100.0; // USER_HZ
                String group = comm.startsWith("solver-service") ? "service workers"
                        : comm.startsWith("solver-public") ? "public workers"
                        : comm.startsWith("vert.x-eventloo") ? "event loops"
                        : comm.contains("Compiler") ? "JIT"
                        : comm.startsWith("GC") || comm.startsWith("G1") ? "GC" : "other";
                groups.merge(group, cpu, Double::sum);
            } catch (IOException | RuntimeException e) {
                // a thread that ended meanwhile
            }
        }
        return groups;
    }

    private static long generatorCpuNanos() {
        return ProcessHandle.current().info().totalCpuDuration().map(Duration::toNanos).orElse(0L);
    }

    private static String load() {
        try {
            return java.nio.file.Files.readString(Path.of("/proc/loadavg")).trim();
        } catch (IOException e) {
            return "?";
        }
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> opts = new HashMap<>();
        for (int i = 0; i + 1 < args.length; i += 2) {
            opts.put(args[i].replaceFirst("^--", ""), args[i + 1]);
        }
        if (opts.containsKey("flood-only")) {
            floodOnly(URI.create(opts.get("flood-only")), Integer.parseInt(opts.get("flood")),
                    Duration.ofSeconds(Long.parseLong(opts.get("warmup"))),
                    Duration.ofSeconds(Long.parseLong(opts.get("duration"))));
            return;
        }
        Path jar = Path.of(opts.getOrDefault("jar", "solver-service/target/quarkus-app/quarkus-run.jar"));
        int service = Integer.parseInt(opts.getOrDefault("service", "4"));
        int flood = Integer.parseInt(opts.getOrDefault("flood", "64"));
        Duration duration = Duration.ofSeconds(Long.parseLong(opts.getOrDefault("duration", "20")));
        Duration warmup = Duration.ofSeconds(Long.parseLong(opts.getOrDefault("warmup", "5")));

        OidcWiremockTestResource oidc = new OidcWiremockTestResource();
        Map<String, String> oidcConfig = oidc.start();
        oidcConfig.forEach(System::setProperty);
        Path log = Path.of(opts.getOrDefault("log", "solver-service/target/bench/flood-replica.log"));
        java.nio.file.Files.createDirectories(log.getParent());
        List<Process> started = new java.util.ArrayList<>();
        try {
            URI base = start(opts, opts.get("cpus"), jar, oidcConfig, log, started);
            URI publicBase = base;
            if (opts.containsKey("public-cpus")) {
                publicBase = start(opts, opts.get("public-cpus"), jar, oidcConfig,
                        log.resolveSibling("flood-public-replica.log"), started);
                System.out.println("separate pools: the flood goes to the public replica " + publicBase
                        + ", the service callers to " + base);
            }
            Process replica = started.get(0);
            FloodBench bench = new FloodBench(base, publicBase);
            if (opts.containsKey("flood-cpus")) {
                List<String> command = new java.util.ArrayList<>(List.of(opts.get("flood-cpus").split(" ")));
                command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
                command.addAll(java.lang.management.ManagementFactory.getRuntimeMXBean().getInputArguments());
                command.addAll(List.of("-cp", System.getProperty("java.class.path"), FloodBench.class.getName()));
                bench.floodCommand = command;
            }
            System.out.println("load average before: " + load());
            bench.phase("quiet", service, 0, warmup, duration, replica.pid());
            bench.phase("flood", service, flood, warmup, duration, replica.pid());
            // the first quiet phase still has the JIT compiling: the same again, warm, is the fairer baseline
            bench.phase("quiet, again", service, 0, warmup, duration, replica.pid());
            System.out.println(bench.http.send(HttpRequest.newBuilder(base.resolve("/q/metrics")).build(),
                    HttpResponse.BodyHandlers.ofString()).body().lines()
                    .filter(l -> l.startsWith("solver_requests_total{")).reduce("", (a, b) -> a + "   " + b + "\n"));
        } finally {
            for (Process p : started) {
                p.destroy();
                p.waitFor();
            }
            oidc.stop();
        }
    }

    /** The flood alone, in a JVM of its own ({@code --flood-cpus}): its line is printed when it ends. */
    private static void floodOnly(URI target, int flood, Duration warmup, Duration duration) throws Exception {
        FloodBench bench = new FloodBench(target, target);
        Lane floods = new Lane();
        long end = System.nanoTime() + warmup.toNanos() + duration.toNanos();
        CountDownLatch done = bench.callers(flood, null, bench.ai, floods, end, target, Thread.MIN_PRIORITY);
        Thread.sleep(warmup.toMillis());
        bench.recording = true;
        long from = System.nanoTime();
        done.await();
        bench.recording = false;
        System.out.println("   public flood ai 5 (its own JVM): " + floods.line((System.nanoTime() - from) / 1e9));
        System.exit(0);
    }

    /** Starts a packaged replica (under the {@code cpus} prefix, if any) and waits until it is ready. */
    private static URI start(Map<String, String> opts, String cpus, Path jar, Map<String, String> oidcConfig, Path log,
            List<Process> started) throws Exception {
        int port = LocalProcess.freePort();
        List<String> command = new java.util.ArrayList<>();
        if (cpus != null) {
            command.addAll(List.of(cpus.split(" ")));
        }
        command.addAll(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx512m"));
        if (Boolean.parseBoolean(opts.getOrDefault("priorities", "true"))) {
            command.addAll(List.of(com.bloceclat.solver.service.WorkerPool.PRIORITY_OPTIONS.split(" ")));
        }
        command.addAll(List.of("-jar", jar.toString()));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
        builder.environment().putAll(Map.of(
                "QUARKUS_HTTP_HOST", "127.0.0.1",
                "QUARKUS_HTTP_PORT", Integer.toString(port),
                "QUARKUS_OIDC_AUTH_SERVER_URL", oidcConfig.get("keycloak.url") + "/realms/quarkus",
                "BLOC_SOLVER_PUBLIC_REQUESTS_PER_SECOND", "1000000",
                "BLOC_SOLVER_PUBLIC_BURST", "1000000",
                "LOG_JSON", "false"));
        if (opts.containsKey("shed")) {
            builder.environment().put("BLOC_SOLVER_PUBLIC_SHED_EARLY", opts.get("shed"));
        }
        if (opts.containsKey("workers")) {
            builder.environment().put("BLOC_SOLVER_WORKERS", opts.get("workers"));
        }
        Process replica = builder.start();
        started.add(replica);
        URI base = URI.create("http://127.0.0.1:" + port);
        LocalProcess.awaitAnswer(replica, base.resolve("/q/health/ready"), Duration.ofSeconds(90), "solver-service",
                log);
        System.out.println("replica: " + String.join(" ", command));
        return base;
    }
}
