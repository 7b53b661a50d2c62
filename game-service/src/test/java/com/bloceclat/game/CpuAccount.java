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
 * of them; for each named process also the share its JIT compiler threads used (a JVM warming up, not working).
 */
final class CpuAccount {

    private static final double TICK_MS = 10; // USER_HZ: 100 on Linux
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
                        ticks.merge(named.get(pid) + ", of it the JIT compilers", compilers(p), Long::sum);
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
     * Clock ticks of a JVM's JIT compiler threads (HotSpot names them "C1 CompilerThread0", "C2 CompilerThread1"...;
     * Linux cuts a thread's name to 15 characters): how much of a process's CPU is its warming up, not its work.
     */
    private static long compilers(Path proc) {
        long sum = 0;
        try (Stream<Path> tasks = Files.list(proc.resolve("task"))) {
            for (Path t : (Iterable<Path>) tasks::iterator) {
                try {
                    String stat = Files.readString(t.resolve("stat"));
                    String comm = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
                    if (comm.matches("C[12] CompilerThre.*")) {
                        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                        sum += Long.parseLong(f[11]) + Long.parseLong(f[12]);
                    }
                } catch (IOException | RuntimeException gone) {
                    // the thread ended meanwhile
                }
            }
        } catch (IOException e) {
            return 0;
        }
        return sum;
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

    /** CPU seconds each part used between the two snapshots (processes that ended between them are not counted). */
    void print(Map<String, Long> before, Map<String, Long> after) {
        System.out.println("CPU time during the run:");
        after.forEach((part, t) -> System.out.printf("  %-36s %8.1f s%n", part,
                (t - before.getOrDefault(part, 0L)) * TICK_MS / 1000));
    }
}
