package com.bloceclat.game;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * CPU time used on this machine by the load benchmark's parts, from Linux's {@code /proc/<pid>/stat}: the game-service
 * replica, PostgreSQL (every {@code postgres} process), this JVM (load generator, Kafka broker, OIDC server) and the
 * rest, so a run shows what a move costs each of them.
 */
final class CpuAccount {

    private static final double TICK_MS = 10; // USER_HZ: 100 on Linux
    private final long replicaPid;
    private final long selfPid = ProcessHandle.current().pid();

    CpuAccount(long replicaPid) {
        this.replicaPid = replicaPid;
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
                } catch (IOException | RuntimeException gone) {
                    // the process ended meanwhile
                }
            });
        } catch (IOException e) {
            return ticks; // not Linux: no breakdown
        }
        return ticks;
    }

    private String part(long pid, String comm) {
        if (pid == replicaPid) {
            return "game-service replica";
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
