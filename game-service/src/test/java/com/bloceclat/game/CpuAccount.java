package com.bloceclat.game;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * CPU time used on this machine by the benchmark's parts, from Linux's {@code /proc/<pid>/stat}: each process the
 * benchmark started under its own name (each game-service replica, solver-service), PostgreSQL (every {@code postgres}
 * process), this JVM (load generator, Kafka broker, OIDC server) and the rest, so a run shows what a move costs each
 * of them; for each named process also the share its JIT compiler threads used (a JVM warming up, not working), and
 * its CPU by kind of thread (the thread's name without its number: {@code executor-thread}, {@code vert.x-eventloo},
 * {@code kafka-producer-}, {@code GC Thread#}...), so that where a process's CPU goes is seen without a profiler in
 * it (a flight recording started mid-run distorted the replica it measured, docs/benchmarks.md). Threads that ended
 * between two snapshots are not in the breakdown.
 */
final class CpuAccount {

    private static final double TICK_MS = 10; // USER_HZ: 100 on Linux
    /** Between a named process and one of its kinds of thread in a part's name. */
    private static final String THREADS = " threads: ";
    /** A kind of thread is printed when it used at least this many seconds. */
    private static final double SHOWN_SECONDS = 0.2;
    private final Map<Long, String> named;
    private final long selfPid = ProcessHandle.current().pid();

    /** One game-service replica, and nothing else named. */
    CpuAccount(long replicaPid) {
        this(Map.of(replicaPid, "game-service replica"));
    }

    /** The processes by pid with the name each is shown under. */
    CpuAccount(Map<Long, String> named) {
        this.named = Map.copyOf(named);
    }

    /** Clock ticks (user + system) by part, for the processes alive now. */
    Map<String, Long> snapshot() {
        Map<String, Long> ticks = new TreeMap<>();
        try (Stream<Path> procs = Files.list(Path.of("/proc"))) {
            procs.filter(p -> p.getFileName().toString().chars().allMatch(Character::isDigit)).forEach(p -> {
                try {
                    String stat = Files.readString(p.resolve("stat"));
                    String comm = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
                    String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                    long used = Long.parseLong(f[11]) + Long.parseLong(f[12]); // utime, stime
                    long pid = Long.parseLong(p.getFileName().toString());
                    ticks.merge(part(pid, comm), used, Long::sum);
                    if (named.containsKey(pid)) {
                        Map<String, Long> kinds = threads(p);
                        kinds.forEach((kind, t) -> ticks.merge(named.get(pid) + THREADS + kind, t, Long::sum));
                        ticks.merge(named.get(pid) + ", of it the JIT compilers", kinds.entrySet().stream()
                                .filter(e -> e.getKey().matches("C[12] CompilerThre.*"))
                                .mapToLong(Map.Entry::getValue).sum(), Long::sum);
                    }
                } catch (IOException | RuntimeException gone) {
                    // the process ended meanwhile
                }
            });
        } catch (IOException e) {
            return ticks; // not Linux: no breakdown
        }
        return ticks;
    }

    /**
     * Clock ticks of a process's threads by kind: the thread's name (Linux cuts it to 15 characters) without the
     * number that tells threads of a kind apart. HotSpot's JIT compiler threads are "C1 CompilerThre" and
     * "C2 CompilerThre" (how much of a process's CPU is its warming up, not its work).
     */
    private static Map<String, Long> threads(Path proc) {
        Map<String, Long> kinds = new TreeMap<>();
        try (Stream<Path> tasks = Files.list(proc.resolve("task"))) {
            for (Path t : (Iterable<Path>) tasks::iterator) {
                try {
                    String stat = Files.readString(t.resolve("stat"));
                    String comm = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
                    String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                    String kind = comm.replaceAll("[-#]?[0-9]+$", "");
                    kinds.merge(kind.isBlank() ? comm : kind, Long.parseLong(f[11]) + Long.parseLong(f[12]),
                            Long::sum);
                } catch (IOException | RuntimeException gone) {
                    // the thread ended meanwhile
                }
            }
        } catch (IOException e) {
            return kinds;
        }
        return kinds;
    }

    private String part(long pid, String comm) {
        String name = named.get(pid);
        if (name != null) {
            return name;
        }
        if (pid == selfPid) {
            return "bench JVM (generator, Kafka, OIDC)";
        }
        return comm.startsWith("postgres") ? "PostgreSQL" : "other processes";
    }

    /**
     * CPU seconds each part used between the two snapshots (processes that ended between them are not counted); each
     * named process's kinds of thread that used at least {@value #SHOWN_SECONDS} s below it, the busiest first.
     */
    void print(Map<String, Long> before, Map<String, Long> after) {
        System.out.println("CPU time during the run:");
        after.forEach((part, t) -> {
            if (!part.contains(THREADS)) {
                System.out.printf("  %-36s %8.1f s%n", part, seconds(part, before, after));
            }
        });
        for (String process : new java.util.TreeSet<>(named.values())) {
            System.out.printf("  %s, by kind of thread:%n", process);
            after.keySet().stream().filter(part -> part.startsWith(process + THREADS))
                    .filter(part -> seconds(part, before, after) >= SHOWN_SECONDS)
                    .sorted((a, b) -> Double.compare(seconds(b, before, after), seconds(a, before, after)))
                    .forEach(part -> System.out.printf("    %-34s %8.1f s%n", part.substring(process.length() + THREADS.length()),
                            seconds(part, before, after)));
        }
    }

    private static double seconds(String part, Map<String, Long> before, Map<String, Long> after) {
        return (after.get(part) - before.getOrDefault(part, 0L)) * TICK_MS / 1000;
    }
}
