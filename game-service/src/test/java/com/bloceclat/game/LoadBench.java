package com.bloceclat.game;

import java.nio.file.Path;
import java.util.Map;

/**
 * Runs both load benchmarks (docs/benchmarks.md) against one packaged game-service replica on real PostgreSQL and
 * Kafka started in this JVM: {@code LoadBench GAMES THINK_MS MOVES RACES}.
 */
public final class LoadBench {

    private LoadBench() {
    }

    public static void main(String[] args) throws Exception {
        // the replicas run on the production JVM's options, not the tests' short-lived ones (LocalProcess.java)
        System.setProperty("bloc.test.quick-jvm", System.getProperty("bloc.test.quick-jvm", "false"));
        int games = args.length > 0 ? Integer.parseInt(args[0]) : 500;
        long thinkMs = args.length > 1 ? Long.parseLong(args[1]) : 1000;
        int moves = args.length > 2 ? Integer.parseInt(args[2]) : 30;
        int races = args.length > 3 ? Integer.parseInt(args[3]) : 50;
        try (PackagedGameService stack = new PackagedGameService(Path.of("target", "load-bench"))) {
            // every generated player is a guest from 127.0.0.1: one client to the per-client limits, lifted here as
            // they are for the module's tests (500 players on one address would otherwise get 429 past 10 games open, or
            // 60 started in a minute)
            PackagedGameService.Replica replica = stack.start(Map.of("BLOC_LIMITS_GAMES_PER_CLIENT", "100000",
                    "BLOC_LIMITS_AI_MATCHES_PER_CLIENT", "100000", "BLOC_LIMITS_STARTS_PER_CLIENT", "100000"));
            // warm-up: the connection pool, and the JIT (Hibernate's and Kafka's code is large: C2 is still compiling
            // after a few thousand moves), with the very load measured next
            MoveLoad.run(replica.http(), games, thinkMs, moves);
            CpuAccount cpu = new CpuAccount(replica.pid());
            Map<String, Long> before = cpu.snapshot();
            MoveLoad.run(replica.http(), games, thinkMs, moves);
            cpu.print(before, cpu.snapshot());
            LiveLoad.run(replica.http(), replica.ws(), races, thinkMs, moves);
        }
        System.exit(0);
    }
}
